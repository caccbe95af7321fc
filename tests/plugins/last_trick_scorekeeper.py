"""Last Trick on a score sheet, as a plugin author declares it: the game's
``scorekeeper`` capability (:mod:`tricktaker.scorekeeper.steps`).

The table enters each player's stake (a step of the game's own), then who won each
trick (the stakes ride on the last one); the sheet takes the stakes as the game's
``stake`` actions and scores the hand with the game's own rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from tricktaker.engine.actions import Action
from tricktaker.scorekeeper import EntryError, SheetError
from tricktaker.scorekeeper.steps import HandTurn, SheetSteps, Step

if TYPE_CHECKING:
    from tricktaker.engine.state import GameState

STAKES = "stakes"
"""The entry's field: each seat's stake."""


@dataclass(frozen=True, slots=True)
class LastTrickEntry:
    """Each seat's stake on the last trick, by seat."""

    stakes: tuple[int, ...] = ()

    def to_json(self, players: Sequence[str] | None = None) -> dict[str, Any]:
        """``stakes`` as a list by seat, or in a sheet file by name."""
        if players is None:
            return {STAKES: list(self.stakes)}
        return {STAKES: dict(zip(players, self.stakes, strict=True))}


class LastTrickSheetSteps(SheetSteps):
    """Last Trick's sheet: the stakes, then who won each trick; no bids, no trump."""

    has_bids: ClassVar[bool] = False
    needs_trick_winners: ClassVar[bool] = True

    def game_steps(self, state: GameState) -> tuple[Step, ...]:
        high = int(state.rules.hook_settings.max_stake)
        return (
            Step(
                name=STAKES,
                kind="seat_number",
                label="stake",
                question="Each player's stake on the last trick",
                low=0,
                high=high,
            ),
        )

    def entry(self, fields: Mapping[str, Any], players: Sequence[str]) -> LastTrickEntry:
        stakes = fields.get(STAKES) or ()
        if not isinstance(stakes, list | tuple) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in stakes
        ):
            raise EntryError("the stakes are a whole number for each player", rule="entry")
        if stakes and len(stakes) != len(players):
            raise EntryError(f"give the stake of each of the {len(players)} players", rule="entry")
        return LastTrickEntry(tuple(stakes))

    def entry_from_file(self, hand: Mapping[str, Any], players: Sequence[str]) -> LastTrickEntry:
        stakes = hand.get(STAKES)
        if not isinstance(stakes, dict) or set(stakes) != set(players):
            raise SheetError("'stakes' must give each player's stake, by name")
        return LastTrickEntry(tuple(stakes[name] for name in players))

    def trump_rule(self, state: GameState, *, pending: bool) -> str:
        return "no trump"

    def opening(self, eldest: str, *, simultaneous: bool) -> str:
        return f"{eldest} stakes first"

    def take_step(self, state: GameState, turn: HandTurn) -> None:
        seat = state.to_act()[0]
        entry = turn.entry.game
        assert entry is None or isinstance(entry, LastTrickEntry)
        if entry is None or seat >= len(entry.stakes):
            raise EntryError(f"{turn.players[seat]}'s stake is missing", rule="Last Trick: stakes")
        turn.act(state, seat, Action("stake", entry.stakes[seat]))


SCOREKEEPER = LastTrickSheetSteps()
"""Last Trick's ``scorekeeper`` capability."""
