"""Caller Clag (docs/games/caller_clag.md) as a game's hooks: each dealer, the caller,
calls the hand size before the deal, and after seeing their cards the kind of hand and
its modifiers; then the hand is bid, played and scored as in the rest of the family.

A call is a series of the dealer's actions: ``call_size N``, the deal, ``call_kind
KIND``, any number of ``call_modifier MOD`` and ``call_done``. The rules of a call
(which calls are legal, what hand they make) are those of
:mod:`tricktaker.games.ohhell.calls`; these hooks take the calls in the hook phase, keep the
call in ``state.ext``, and give the engine the hand it makes
(:meth:`GameState.use_hand_spec <tricktaker.engine.state.GameState.use_hand_spec>`).
The ruleset keeps the called schedule (``schedule.called``, ``called_hands``,
``called_min``, ``called_max``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from tricktaker.engine.actions import Action
from tricktaker.engine.base import DEAL, HOOK
from tricktaker.engine.hooks import GameHooks, register_hooks
from tricktaker.games.declared import own_data, package_capabilities
from tricktaker.games.ohhell.calls import (
    CALL_KIND,
    CALL_MODIFIER,
    CALL_SIZE,
    CALL_STAGES,
    Call,
    call_actions,
    call_problem,
    called_hand,
    shuffled_seats,
)
from tricktaker.rules.errors import RulesetError
from tricktaker.rules.ruleset import HandSpec

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.state import GameState

__all__ = ["CallData", "CallerClagHooks"]


@dataclass(slots=True)
class CallData:
    """The call of the hand in progress (None before the caller names the size), kept
    in ``state.ext``."""

    call: Call | None = None

    def copy(self) -> CallData:
        return CallData(self.call.copy() if self.call is not None else None)


@register_hooks
class CallerClagHooks(GameHooks):
    """The caller's calls before and after the deal; the bids, tricks and scores are the
    engine's, by the ruleset and the hand the call makes."""

    name = "caller_clag"
    engine_bids = True
    hand_data_only = True
    capabilities: ClassVar[dict[str, str]] = {
        **package_capabilities(
            "tricktaker.games.ohhell", ("encoding", "kernel", "scorekeeper", "policy", "present")
        ),
        "search": "tricktaker.bots.search_ohhell:OH_HELL",
    }

    def init_game(self, state: GameState) -> CallData:
        if not state.setup.called:
            raise RulesetError(
                f"{state.rules.where('schedule.called')}: schedule.called: the caller calls"
                " each hand's size, so the schedule must be called (schedule.called = true)"
            )
        return CallData()

    def _data(self, state: GameState) -> CallData:
        return own_data(state, CallData)

    def _stage(self, state: GameState) -> str:
        call = self._data(state).call
        if call is None:
            return "call_size"
        return "call_kind" if call.kind is None else "call_modifiers"

    def hands_in_game(self, state: GameState) -> int | None:
        return None  # counted from the ruleset's called_hands, but not a schedule

    def begin_hand(self, state: GameState) -> None:
        self._data(state).call = None
        state.phase = HOOK

    def after_deal(self, state: GameState) -> None:
        state.cards_seen[state.dealer] = True  # the caller looks before calling the kind
        state.phase = HOOK

    def phase_name(self, state: GameState) -> str:
        return self._stage(state)

    def to_act(self, state: GameState) -> tuple[int, ...]:
        return (state.dealer,)

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        if seat != state.dealer:
            return []
        return call_actions(self._stage(state), self._data(state).call, state.setup)

    def why_illegal(self, state: GameState, seat: int, action: Action) -> tuple[str, str]:
        return call_problem(self._stage(state), self._data(state).call, action)

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        data = self._data(state)
        kind = action.kind
        if kind == CALL_SIZE:
            assert isinstance(action.value, int)
            data.call = Call(action.value)
            state.use_hand_spec(HandSpec(number=state.hands_played + 1, hand_size=action.value))
            state.phase = DEAL
            return
        call = data.call
        assert call is not None
        if kind == CALL_KIND:
            call.kind = str(action.value)
        elif kind == CALL_MODIFIER:
            call.modifiers.append(str(action.value))
        else:
            call.done = True
            number = state.hands_played + 1
            spec, hook = called_hand(call, number=number, base=state.rules.scoring)
            state.use_hand_spec(spec, hook=state.setup.hook or hook)
            state.shuffle_seats = shuffled_seats(spec, state.dealer, state.players)
            state.prepare_hand()
            state.cards_seen[state.dealer] = True

    def describe_call(self, state: GameState) -> dict[str, object] | None:
        call = self._data(state).call
        return call.describe() if call is not None else None

    def public_actions(self, obs: Observation) -> list[tuple[int, Action]]:
        """The caller's calls this hand, read back from the observation's ``call`` (public:
        every seat sees them); done once the hand has left the call's phases."""
        if obs.call is None:
            return []
        call = Call.read(obs.call, done=obs.phase not in (*CALL_STAGES, "deal"))
        return [(obs.dealer, action) for action in call.actions()]

    def game_over(self, state: GameState) -> bool:
        return state.hands_played >= state.setup.called_hands
