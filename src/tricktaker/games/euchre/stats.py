"""Euchre's figures in the simulation statistics (its ``"stats"`` capability): the
partnership's points, contracts declared and made, hands thrown in.

:mod:`tricktaker.arena.game_stats` says what the statistics ask of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tricktaker.arena.game_stats import Count, StatTotals
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.setup import Setup

__all__ = ["STATS", "EuchreStats"]


def team_of(partnerships: tuple[tuple[int, ...], ...], seat: int) -> int | None:
    """The index of ``seat``'s partnership (None outside them)."""
    return next((i for i, team in enumerate(partnerships) if seat in team), None)


class EuchreStats:
    """Team points, contracts declared and made, thrown-in hands."""

    score_unit = "points"
    exact_meaning = "hands bid exactly"
    columns = (
        ("Team", "left"),
        ("Mean points", "right"),
        ("Declared", "right"),
        ("Made", "right"),
    )

    def count_hand(self, hand: HandResult, setup: Setup, count: Count) -> None:
        """The declarer's contract and whether its partnership made it; a hand without
        a contract was thrown in."""
        contract = hand.extra.get("contract")
        if not isinstance(contract, Mapping):
            count("thrown_in")
            return
        bidder = contract.get("bidder", contract.get("declarer"))
        if not isinstance(bidder, int):
            return
        count("declared", 1, bidder)
        team = team_of(setup.partnerships, bidder)
        tricks = hand.extra.get("partnership_tricks")
        if team is not None and isinstance(tricks, list):
            count("made", int(tricks[team] >= int(contract.get("tricks", 0))), bidder)

    def cells(self, totals: StatTotals, seat: int) -> list[str]:
        """The seat's partnership, its mean points per game, contracts it declared and
        how many its partnership made."""
        team = team_of(totals.partnerships, seat)
        members = totals.partnerships[team] if team is not None else ()
        declared, made = totals.per_seat("declared")[seat], totals.per_seat("made")[seat]
        games = totals.games
        return [
            " & ".join(str(member + 1) for member in members) or "-",
            f"{totals.score_sum[seat] / games:.2f}" if games else "-",
            str(declared),
            f"{made} ({totals.share(made, declared)})",
        ]

    def notes(self, totals: StatTotals) -> list[str]:
        return [
            "Mean points: the seat's team's points per game. Declared / Made: contracts"
            " the seat won in the auction, and how many its team made."
            " A team's win counts for both partners.",
            f"Thrown in (everyone passed): {totals.share(totals.table('thrown_in'), totals.hands)}"
            f" of hands; mean hands per game: {totals.hands / totals.games:.2f}.",
        ]


STATS = EuchreStats()
"""Euchre's stats capability."""
