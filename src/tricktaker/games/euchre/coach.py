"""What Euchre tells the coach (its ``"coach"`` capability, :mod:`tricktaker.coach.contract`):
a seat makes its contract when its partnership won the auction and took at least the
tricks it bid; a defender, or anyone in a hand thrown in, has no contract to make."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tricktaker.engine.results import HandResult

__all__ = ["COACH", "EuchreCoach"]


class EuchreCoach:
    """Euchre's contract, made or not, for the seats of the declaring partnership."""

    def made(
        self, result: HandResult, seat: int, partnerships: tuple[tuple[int, ...], ...]
    ) -> bool | None:
        """Whether ``seat``'s partnership made the contract it declared (None when it
        did not declare one)."""
        contract = result.extra.get("contract")
        tricks = result.extra.get("partnership_tricks")
        if not isinstance(contract, Mapping) or tricks is None:
            return None
        declarer = contract.get("bidder")
        for index, team in enumerate(partnerships):
            if seat in team:
                if declarer not in team:
                    return None
                return int(tricks[index]) >= int(contract.get("tricks", 0))
        return None


COACH = EuchreCoach()
"""Euchre's coach capability."""
