"""Buckup's figures in the simulation statistics (its ``"stats"`` capability): net chips
per game, pots won and burns per hand.

:mod:`tricktaker.arena.game_stats` says what the statistics ask of a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tricktaker.arena.game_stats import Count, StatTotals
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.setup import Setup

__all__ = ["STATS", "BuckupStats"]


class BuckupStats:
    """Net chips per game, pots won, burns."""

    score_unit = "net chips"
    exact_meaning = "hands bid exactly"
    columns = (("Mean net chips", "right"), ("Pots won", "right"), ("Burned", "right"))

    def count_hand(self, hand: HandResult, setup: Setup, count: Count) -> None:
        """The seats that won the pot, and those that burned."""
        for seat in hand.extra.get("winners") or ():
            count("pots_won", 1, seat)
        for seat in hand.extra.get("burned") or ():
            count("burned", 1, seat)

    def cells(self, totals: StatTotals, seat: int) -> list[str]:
        """Mean net chips per game; shares of hands with the pot won, with a burn."""
        games, hands = totals.games, totals.hands
        return [
            f"{totals.score_sum[seat] / games:+.2f}" if games else "-",
            totals.share(totals.per_seat("pots_won")[seat], hands),
            totals.share(totals.per_seat("burned")[seat], hands),
        ]

    def notes(self, totals: StatTotals) -> list[str]:
        return [
            "Mean net chips: chips won minus chips paid, per game. Pots won / Burned: share"
            " of hands. Wins: highest net (ties count each);"
            f" mean hands per game: {totals.hands / totals.games:.2f}."
        ]


STATS = BuckupStats()
"""Buckup's stats capability."""
