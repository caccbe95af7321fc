"""The compiled kernel against the Python engine, position by position.

Hypothesis draws a shipped ruleset of the Oh Hell family, a table size, a set of its
options, a seed and whether random players or heuristic bots choose the moves. Each hand
is played through the engine; from a drawn point of the hand on (any position the kernel
accepts), the same moves are replayed in the kernel, which must give at every step the
same seat to act, the same legal moves (docs/games/<game>.md, Play and Bidding) and the
same choice of the search's rollout policy, and at the end the same trick winners and
hand scores (docs/games/<game>.md, Scoring) and search rewards. The hook games whose
card play the kernel plays (Euchre, Pluck, Buckup) are drawn the same way, from their
card play on, the kernel's rollout card checked against the game's own rollout (the
shared card policy, bots/rollout.py); their hand scores and rewards come from tables of
the game's own scoring.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.kernel.play import HOOK_GAMES, KERNEL_GAMES, Segment, play_segments, variant
from tricktaker import new_game
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.search_ohhell import rewards
from tricktaker.kernel import (
    KernelUnsupportedError,
    check_ruleset,
    config_of_state,
    kernel_plays,
    kernel_state,
    kernel_world,
    limits,
    native,
)
from tricktaker.rules.ruleset import Ruleset, load_ruleset


def check_segment(segment: Segment) -> int:
    """Replays one segment in the kernel and compares; returns the positions checked."""
    start, end = segment.start, segment.end
    assert end is not None
    steps, winners, scores, kernel_rewards, phase = native().replay(
        config_of_state(start), kernel_state(start), segment.moves
    )
    hooks = start.rules.spec.hooks
    # The seat to act, its legal moves and the rollout policy's move, ties included.
    assert [tuple(step) for step in steps] == segment.steps
    result = end.history[-1]
    assert phase == 2  # the hand is over in the kernel too
    played_before = len(start.trick_cards)
    assert list(winners) == list(result.trick_winners[played_before:])
    assert scores == result.hand_scores
    game_rewards = rewards(end) if hooks is None else search_for(hooks).rewards(end)
    assert list(kernel_rewards) == game_rewards
    return len(steps)


def drawn_hands(
    games: tuple[str, ...], most_extra_players: int, most_flags: int
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Hypothesis draws a game of ``games``, players above its least, option flags, a seed,
    random players or bots, and how far into each hand the kernel takes over."""
    return given(
        name=st.sampled_from(games),
        extra_players=st.integers(min_value=0, max_value=most_extra_players),
        flags=st.lists(st.booleans(), min_size=0, max_size=most_flags),
        seed=st.integers(min_value=0, max_value=2**31),
        bots=st.booleans(),
        skip=st.floats(min_value=0.0, max_value=0.99),
    )


def check_drawn_hands(
    name: str, players: int, flags: list[bool], seed: int, bots: bool, skip: float
) -> tuple[Ruleset, int] | None:
    """The variant of ``name`` that ``flags`` choose (None when they make none) and the
    positions checked in its first three hands."""
    rules = variant(name, players, flags)
    if rules is None:
        return None
    segments = play_segments(rules, players, seed=seed, bots=bots, hands=3, skip=skip)
    return rules, sum(check_segment(segment) for segment in segments)


def check_whole_game(rules: Ruleset, players: int, seed: int, bots: bool, hands: int) -> None:
    """Every hand of a game of up to ``hands`` hands, each from its first accepted position."""
    segments = play_segments(rules, players, seed=seed, bots=bots, hands=hands, skip=0.0)
    assert segments
    assert sum(check_segment(segment) for segment in segments) > 0


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@drawn_hands(KERNEL_GAMES, most_extra_players=5, most_flags=6)
def test_kernel_plays_every_hand_as_the_engine(
    name: str, extra_players: int, flags: list[bool], seed: int, bots: bool, skip: float
) -> None:
    """docs/games/blackout.md, Play: legal cards, trick winners and scores, in every
    shipped Oh Hell family ruleset with drawn options (each game's page, Play and
    Scoring), match the engine's from bids or any trick on."""
    base = load_ruleset(name)
    players = min(base.spec.players.min + extra_players, base.spec.players.max, 7)
    drawn = check_drawn_hands(name, players, flags, seed, bots, skip)
    if drawn is None:
        return
    rules, checked = drawn
    assert checked > 0 or rules.id == "caller_clag"


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_kernel_plays_whole_games_as_the_engine(name: str) -> None:
    """Every hand of a whole game (4 players, or the game's own count), each from its
    first accepted position: docs/games/<game>.md, Hands and schedule."""
    rules = load_ruleset(name)
    players = 4 if 4 in rules.player_counts else rules.spec.players.min
    check_whole_game(rules, players, seed=11, bots=False, hands=100)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@drawn_hands(HOOK_GAMES, most_extra_players=3, most_flags=4)
def test_kernel_plays_the_hook_games_cards_as_the_engine(
    name: str, extra_players: int, flags: list[bool], seed: int, bots: bool, skip: float
) -> None:
    """docs/games/euchre.md, Play and Scoring: the card play of the hook games the kernel
    plays (the seat to act, the legal cards with the left bower in the trump suit, the
    rollout policy's card, the trick winners) and the hand's scores per seat and the
    search's rewards, from the game's own scoring tabled by the tricks each team takes,
    match the engine's."""
    base = load_ruleset(name)
    players = min(base.spec.players.min + extra_players, base.spec.players.max)
    drawn = check_drawn_hands(name, players, flags, seed, bots, skip)
    if drawn is None:
        return
    rules, checked = drawn
    # In Buckup a hand is played only when two players stay in (random ones may not).
    assert checked > 0 or rules.spec.hooks == "buckup"


@pytest.mark.parametrize("name", HOOK_GAMES)
def test_kernel_plays_whole_hook_games_as_the_engine(name: str) -> None:
    """The card play of every hand of a whole game, from its first card on:
    docs/games/euchre.md, Play and Scoring."""
    rules = load_ruleset(name)
    check_whole_game(rules, rules.spec.players.min, seed=7, bots=True, hands=40)


def test_kernel_refuses_the_games_and_decisions_it_does_not_play() -> None:
    """A hook game that does not declare the kernel capability (the Last Trick test
    plugin) is refused by name, and in Euchre the kernel refuses every decision but the
    cards (docs/games/euchre.md, Auction)."""
    import tests.plugins.last_trick  # noqa: F401  (registers the game's Python rules)

    plugin = load_ruleset(Path(__file__).resolve().parents[1] / "plugins" / "last_trick.toml")
    assert not kernel_plays(plugin)
    with pytest.raises(KernelUnsupportedError, match=re.escape(plugin.name)):
        check_ruleset(plugin, plugin.spec.players.min)
    assert all(kernel_plays(load_ruleset(name)) for name in HOOK_GAMES)
    state = new_game(load_ruleset("euchre"), players=4, seed=2)
    state.apply_chance()
    assert state.phase_name == "auction"
    with pytest.raises(KernelUnsupportedError, match="the kernel plays the cards only"):
        config_of_state(state)
    with pytest.raises(KernelUnsupportedError, match="card play only, not the auction"):
        kernel_world(state.observe(state.to_act()[0]))


def test_kernel_rejects_an_illegal_move() -> None:
    """docs/games/blackout.md, Play: a card that does not follow suit is refused."""
    rules = load_ruleset("blackout")
    segment = play_segments(rules, 4, seed=5, bots=False, hands=8, skip=0.0)[-1]
    config, start = config_of_state(segment.start), kernel_state(segment.start)
    bid_base = limits().bid_base
    hands = list(segment.start.hands)
    for i, ((seat, legal, _), move) in enumerate(zip(segment.steps, segment.moves, strict=True)):
        if move < bid_base and hands[seat] & ~legal:
            illegal = (hands[seat] & ~legal).bit_length() - 1
            with pytest.raises(ValueError, match="illegal move"):
                native().replay(config, start, [*segment.moves[:i], illegal])
            return
        if move < bid_base:
            hands[seat] &= ~(1 << move)
    raise AssertionError("no position with an illegal card")
