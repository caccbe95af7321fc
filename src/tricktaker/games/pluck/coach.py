"""What Pluck tells the coach (its ``"coach"`` capability, :mod:`tricktaker.coach.contract`):
a seat makes its quota when it takes at least that many tricks (the hand's score,
tricks minus quota, is then not negative)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tricktaker.engine.results import HandResult

__all__ = ["COACH", "PluckCoach"]


class PluckCoach:
    """Pluck's quota, met or not."""

    def made(
        self, result: HandResult, seat: int, partnerships: tuple[tuple[int, ...], ...]
    ) -> bool | None:
        """Whether ``seat`` took at least its quota (the hand's bids are the quotas)."""
        if len(result.bids) != len(result.tricks):
            return None
        return result.tricks[seat] >= result.bids[seat]


COACH = PluckCoach()
"""Pluck's coach capability."""
