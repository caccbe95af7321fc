"""A game's own figures in the simulation statistics: the ``"stats"`` capability
(:mod:`tricktaker.arena.game_stats`).

A game written outside the package declares them and gets its columns and notes in
``tricktaker simulate``'s table and its unit in the arena's; a game with hooks that
declares none gets the mean score and the wins. The game here is Last Trick
(``tests/plugins/last_trick.py``) with figures of its own: how often each seat took the
last trick.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.console import Console

from tests.plugins.last_trick import LastTrickHooks
from tricktaker import load_ruleset, new_game
from tricktaker.arena import ArenaConfig, run_arena
from tricktaker.arena.game_stats import GameStats, game_stats
from tricktaker.bots import make_bot, play_game
from tricktaker.cli.arena import notes as arena_notes
from tricktaker.cli.sim_stats import BidTally, GameTally, Tally, tally_for
from tricktaker.engine.hooks import register_hooks
from tricktaker.rules import Ruleset

if TYPE_CHECKING:
    from tricktaker.arena.game_stats import Count, StatTotals
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.setup import Setup

LAST_TRICK = Path(__file__).parent / "plugins" / "last_trick.toml"


class LastTrickStats:
    """How often each seat took the last trick; scores are points."""

    score_unit = "stake points"
    exact_meaning = "hands whose stake equals the tricks taken"
    columns = (("Last tricks", "right"),)

    def count_hand(self, hand: HandResult, setup: Setup, count: Count) -> None:
        count("last", 1, hand.trick_winners[-1])
        count("hands_counted")

    def cells(self, totals: StatTotals, seat: int) -> list[str]:
        return [totals.share(totals.per_seat("last")[seat], totals.hands)]

    def notes(self, totals: StatTotals) -> list[str]:
        return [f"Last tricks: share of the {totals.table('hands_counted')} hands."]


@register_hooks
class CountedLastTrick(LastTrickHooks):
    """Last Trick with its figures declared."""

    name = "last_trick_counted"
    capabilities: ClassVar[dict[str, object]] = {
        **LastTrickHooks.capabilities,
        "stats": LastTrickStats(),
    }


def _rules(tmp_path: Path, hooks: str) -> Ruleset:
    path = tmp_path / f"{hooks}.toml"
    path.write_text(
        f'extends = "{LAST_TRICK.as_posix()}"\nid = "{hooks}"\nhooks = "{hooks}"\n',
        encoding="utf-8",
    )
    return load_ruleset(path)


def _tally(rules: Ruleset, games: int) -> Tally:
    tally = tally_for(rules, new_game(rules, players=3, seed=0))
    for seed in range(games):
        state = new_game(rules, players=3, seed=seed)
        play_game(state, [make_bot("random", seed=seed + s) for s in range(3)])
        one = tally_for(rules, state)
        one.add(state)
        tally.merge(one)
    return tally


def _text(tally: Tally) -> str:
    console = Console(file=io.StringIO(), width=120)
    console.print(tally.table(["random"] * 3))
    for note in tally.notes():
        console.print(note)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


def test_a_plugin_game_declares_its_figures(tmp_path: Path) -> None:
    """The game's columns and notes come from its stats; the counts add up over games
    played apart (as the workers of ``tricktaker simulate`` do)."""
    rules = _rules(tmp_path, "last_trick_counted")
    stats = game_stats(rules)
    assert isinstance(stats, GameStats)
    tally = _tally(rules, games=4)
    assert isinstance(tally, GameTally)
    assert tally.hands == 12
    assert sum(tally.per_seat("last")) == 12
    assert tally.tables == {"hands_counted": 12}
    text = _text(tally)
    assert "Last tricks" in text
    assert "Wins" in text
    assert "Last tricks: share of the 12 hands." in text


def test_a_game_without_figures_gets_the_family_s_table(tmp_path: Path) -> None:
    """A game with hooks that declares no stats: the mean score, the exact bids (Last
    Trick records each seat's stake as its bid) and the wins."""
    rules = load_ruleset(LAST_TRICK)
    assert game_stats(rules) is None
    tally = _tally(rules, games=2)
    assert isinstance(tally, BidTally)
    text = _text(tally)
    assert "Mean score" in text
    assert "Exact bids" in text


def test_exact_bids_only_when_every_hand_has_them() -> None:
    """A hand without every seat's bid (a game whose hands record none) leaves the
    column of exact bids out."""
    tally = BidTally(3)
    tally.hands, tally.bid_hands, tally.games = 4, 3, 1
    assert "Exact bids" not in _text(tally)
    tally.bid_hands = 4
    assert "Exact bids" in _text(tally)


def test_the_arena_says_the_game_s_unit(tmp_path: Path) -> None:
    """The arena's result carries the unit and the meaning of "Exact" the game gives."""
    rules = _rules(tmp_path, "last_trick_counted")
    result = run_arena(
        ArenaConfig(str(tmp_path / "last_trick_counted.toml"), bots=("random",) * 3, hands=3)
    )
    assert result.game == rules.id
    assert result.score_unit == "stake points"
    assert result.exact_meaning == "hands whose stake equals the tricks taken"
    lines = arena_notes(result)
    assert lines[0].startswith("Mean/hand: stake points per hand")
    assert lines[1].startswith("Exact: hands whose stake equals the tricks taken;")
    plain = run_arena(ArenaConfig(str(LAST_TRICK), bots=("random",) * 3, hands=3))
    assert (plain.score_unit, plain.exact_meaning) == ("points", "hands bid exactly")
