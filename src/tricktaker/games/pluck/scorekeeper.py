"""Pluck on a score sheet (docs/games/pluck.md, docs/scorekeeper.md): no bids, the
dealer names the trump after the plucks, and each player plays to a quota; the sheet
says the quotas and the plucks owed before each hand.

>>> from tricktaker.scorekeeper import ScoreSheet
>>> sheet = ScoreSheet("pluck", ["Ann", "Bob", "Cy"])
>>> sheet.next_hand().facts["quotas"]
(7, 6, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from tricktaker.games.pluck.hooks import PluckData
from tricktaker.scorekeeper.steps import SheetSteps

if TYPE_CHECKING:
    from tricktaker.engine import GameState

__all__ = ["SCOREKEEPER", "PluckSheetSteps", "quotas_and_plucks"]


def quotas_and_plucks(
    state: GameState,
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The quotas and the plucks owed (``(plucker, pluckee)``) of the coming hand, as the
    game's own rules set them once the cards are dealt (read from a copy dealt from the
    hidden deck)."""
    copy = state.clone()
    while copy.is_chance():
        copy.apply_chance()
    data = copy.ext
    assert isinstance(data, PluckData)
    return tuple(data.quotas), tuple(data.pending)


class PluckSheetSteps(SheetSteps):
    """Pluck's sheet: the trump and the tricks, no bids; the quotas and plucks as notes."""

    has_bids: ClassVar[bool] = False

    def trump_by_rule(self, state: GameState) -> bool:
        return False

    def trump_rule(self, state: GameState, *, pending: bool) -> str:
        return "named by the dealer after the plucks"

    def opening(self, eldest: str, *, simultaneous: bool) -> str:
        return "no bids: each player plays to a quota"

    def notes(self, state: GameState, players: Sequence[str]) -> list[str]:
        quotas, plucks = quotas_and_plucks(state)
        said = ", ".join(f"{players[s]} {q}" for s, q in enumerate(quotas))
        notes = [f"quotas: {said} tricks"]
        for plucker, pluckee in dict.fromkeys(plucks):
            times = plucks.count((plucker, pluckee))
            notes.append(
                f"{players[plucker]} plucks {players[pluckee]}"
                + (" once" if times == 1 else f" {times} times")
            )
        return notes

    def facts(self, state: GameState) -> dict[str, Any]:
        quotas, plucks = quotas_and_plucks(state)
        return {"quotas": quotas, "plucks": plucks}


SCOREKEEPER = PluckSheetSteps()
"""Pluck's ``scorekeeper`` capability."""
