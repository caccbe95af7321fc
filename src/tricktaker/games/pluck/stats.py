"""Pluck's figures in the simulation statistics (its ``"stats"`` capability): tricks over
the quota per hand and the share of hands meeting it (the quotas are the hands' bids).

:mod:`tricktaker.arena.game_stats` says what the statistics ask of a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tricktaker.arena.game_stats import Count, StatTotals
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.setup import Setup

__all__ = ["STATS", "PluckStats"]


class PluckStats:
    """Tricks against quota per hand."""

    score_unit = "points"
    exact_meaning = "hands with the quota met exactly"
    columns = (("Tricks over quota", "right"), ("Met quota", "right"))

    def count_hand(self, hand: HandResult, setup: Setup, count: Count) -> None:
        """Per seat: tricks over its quota, and whether it met it."""
        for seat, (tricks, quota) in enumerate(zip(hand.tricks, hand.bids, strict=True)):
            count("over", tricks - quota, seat)
            count("met", int(tricks >= quota), seat)

    def cells(self, totals: StatTotals, seat: int) -> list[str]:
        """Mean tricks over quota per hand, share of hands with the quota met."""
        hands = totals.hands
        over, met = totals.per_seat("over")[seat], totals.per_seat("met")[seat]
        return [f"{over / hands:+.2f}" if hands else "-", totals.share(met, hands)]

    def notes(self, totals: StatTotals) -> list[str]:
        return [
            "Tricks over quota: mean per hand (negative: short). Met quota: share of hands"
            " with at least the quota. Wins: highest total over quota (ties count each)."
        ]


STATS = PluckStats()
"""Pluck's stats capability."""
