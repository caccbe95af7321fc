"""Caller Clag on a score sheet (docs/games/caller_clag.md, docs/scorekeeper.md): the
Oh Hell family's sheet (bids, tricks, the trump when the rules do not fix it) with the
dealer's call of each hand (a hand entry's ``call``: size, kind and modifiers), taken as
the caller's own steps.

>>> from tricktaker.scorekeeper import CallEntry, ScoreSheet
>>> sheet = ScoreSheet("caller_clag", ["Ann", "Bob", "Cy"])
>>> sheet.next_hand().called, sheet.next_hand(CallEntry(5, "no_trump")).hand_size
(True, 5)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from tricktaker.engine.actions import Action
from tricktaker.games.ohhell.calls import CALL_KIND, CALL_MODIFIER, CALL_SIZE, DONE_ACTION, KINDS
from tricktaker.games.ohhell.hooks import CallData
from tricktaker.scorekeeper.steps import HandTurn, SheetSteps

if TYPE_CHECKING:
    from tricktaker.engine import GameState

__all__ = ["SCOREKEEPER", "CallerSheetSteps"]


class CallerSheetSteps(SheetSteps):
    """The family's sheet with the caller's calls: the size before the deal, then the
    kind and the modifiers, all from the hand entry's ``call``."""

    takes_call: ClassVar[bool] = True
    call_kinds: ClassVar[tuple[str, ...]] = KINDS

    def call_pending(self, state: GameState) -> bool:
        data = state.ext
        assert isinstance(data, CallData)
        return data.call is None or not data.call.done

    def take_step(self, state: GameState, turn: HandTurn) -> None:
        call = turn.entry.call
        assert call is not None  # the sheet asks for the call before the hand's first step
        dealer, stage = state.dealer, state.phase_name
        if stage == "call_size":
            turn.act(state, dealer, Action(CALL_SIZE, call.size))
        elif stage == "call_kind":
            turn.act(state, dealer, Action(CALL_KIND, call.kind))
        else:
            for modifier in call.modifiers:
                turn.act(state, dealer, Action(CALL_MODIFIER, modifier))
            turn.act(state, dealer, DONE_ACTION)

    def refusal(self, state: GameState, seat: int, action: Action, reason: str) -> str:
        if action.kind == CALL_SIZE:
            sizes = [a.value for a in state.legal_actions(state.dealer)]
            return f"the caller calls a hand of {sizes[0]} to {sizes[-1]} cards, not {action.value}"
        if action.kind == CALL_KIND:
            return f"{action.value!r} is not a kind of hand; the kinds: {', '.join(KINDS)}"
        return reason


SCOREKEEPER = CallerSheetSteps()
"""Caller Clag's ``scorekeeper`` capability."""
