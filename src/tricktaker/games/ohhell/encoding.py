"""Caller Clag's fields in the research encoding (its ``"encoding"`` capability): the
caller's hand size, kind of hand and modifiers, and the call actions. The bids, tricks
and scores are the engine's, encoded as for the rest of the Oh Hell family.

The layout is documented in docs/envs.md; :mod:`tricktaker.envs.fields` says what the
encoding asks of a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricktaker.cards import NUM_CARD_IDS
from tricktaker.games.ohhell.calls import (
    CALL_DONE,
    CALL_KIND,
    CALL_MODIFIER,
    CALL_SIZE,
    KINDS,
    MODIFIERS,
)

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.setup import Setup
    from tricktaker.envs.fields import ActionSpace, FieldLayout, FieldWriter

__all__ = ["ENCODING", "CallerClagEncoding"]

CARDS = NUM_CARD_IDS
_KIND_INDEX = {kind: index for index, kind in enumerate(KINDS)}
_MODIFIER_INDEX = {modifier: index for index, modifier in enumerate(MODIFIERS)}


class CallerClagEncoding:
    """The caller's calls in the encoding: phases, fields and actions."""

    phases: tuple[str, ...] = ("call_size", "call_kind", "call_modifiers")

    def add_fields(self, layout: FieldLayout, setup: Setup) -> None:
        """The hand size called, the kind called (one-hot), the modifiers called."""
        layout.add(
            "call_size", 1, "the caller's hand size this hand (0 before the call)", high=CARDS
        )
        layout.add("call_kind", len(KINDS), "one-hot: the kind called (" + ", ".join(KINDS) + ")")
        layout.add("call_modifiers", len(MODIFIERS), "1 for each modifier called (see the list)")

    def add_actions(self, actions: ActionSpace, setup: Setup) -> None:
        """The caller's actions: the hand size, the kind, each modifier, done."""
        low, high = setup.called_min, setup.called_max
        actions.add(
            CALL_SIZE, tuple(range(low, high + 1)), f"call_size N: index = offset + N - {low}"
        )
        actions.add(CALL_KIND, KINDS, "call_kind KIND, in the order listed")
        actions.add(CALL_MODIFIER, MODIFIERS, "call_modifier MOD, in the order listed")
        actions.add(CALL_DONE, (), "call_done")

    def encode(self, observation: Observation, out: FieldWriter) -> None:
        """Write the call of the hand in progress (``observation.call``)."""
        call = observation.call
        if call is None:
            return
        size = call.get("caller_size")
        out.set("call_size", 0, float(size) if isinstance(size, int) else 0.0)
        kind = call.get("kind")
        if kind is not None:
            out.set("call_kind", _KIND_INDEX[str(kind)])
        modifiers = call.get("modifiers") or []
        assert isinstance(modifiers, list)
        for modifier in modifiers:
            out.set("call_modifiers", _MODIFIER_INDEX[str(modifier)])


ENCODING = CallerClagEncoding()
"""Caller Clag's encoding capability."""
