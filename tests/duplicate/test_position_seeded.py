"""Bots whose choices are a function of their seed and the position (docs/duplicate.md,
Bots in a set): a game stopped half way and played on by bots made again from their
seeds goes on exactly as the game that never stopped."""

from __future__ import annotations

from tricktaker import load_ruleset
from tricktaker.bots import play_game
from tricktaker.bots.base import decide
from tricktaker.duplicate.bots import PositionSeededBot
from tricktaker.duplicate.sets import make_set
from tricktaker.engine import Action, ChanceOutcome

SPECS = ("easy", "random", "random", "easy")


def _bots(seed: int) -> list[PositionSeededBot]:
    return [PositionSeededBot(spec, seed * 10 + seat) for seat, spec in enumerate(SPECS)]


def test_a_rebuilt_game_plays_on_as_the_unstopped_one() -> None:
    """Half a game played, its record replayed, bots made again: the same game."""
    the_set = make_set(load_ruleset("blackout"), players=4, seed=3)
    whole = the_set.new_game()
    play_game(whole, _bots(3))
    rebuilt = the_set.new_game()
    for who, what in whole.events[: len(whole.events) // 2]:
        if isinstance(what, ChanceOutcome):
            rebuilt.apply_chance(what)
        else:
            assert isinstance(who, int)
            assert isinstance(what, Action)
            rebuilt.apply(who, what)
    play_game(rebuilt, _bots(3))
    assert rebuilt.events == whole.events


def test_a_choice_does_not_depend_on_the_choices_before() -> None:
    """A bot that already chose elsewhere chooses as a fresh one at a position."""
    state = make_set(load_ruleset("jabberwocky"), players=3, seed=8).new_game()
    state.apply_chance()
    seat = state.to_act()[0]
    used, fresh = PositionSeededBot("random", 5), PositionSeededBot("random", 5)
    for _ in range(3):
        decide(used, state, seat)
    assert decide(used, state, seat) == decide(fresh, state, seat)
