"""Caller Clag in the compiled kernel (its hooks' ``"kernel"`` capability): the kernel
plays it whole, bids and cards, as the rest of the Oh Hell family, each hand being the
one the caller's call made (:func:`called_hand_of`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricktaker.games.ohhell.calls import Call, called_hand
from tricktaker.kernel.spec import KernelSupport

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.setup import Setup
    from tricktaker.rules.ruleset import HandSpec

__all__ = ["KERNEL", "called_hand_of"]


def called_hand_of(obs: Observation, setup: Setup) -> tuple[HandSpec, bool]:
    """The observed hand as the call made it (the call the observation shows), and
    whether the hook rule holds in it."""
    call = obs.call
    if call is None:
        raise ValueError("the hand is not called yet")
    made = Call.read(call)
    made.size, made.kind = obs.hand_size, made.kind or "normal"
    spec, hook = called_hand(made, number=obs.hands_played + 1, base=obs.rules.scoring)
    return spec, setup.hook or hook


KERNEL = KernelSupport(whole=True, hand=called_hand_of)
"""Caller Clag's ``"kernel"`` capability."""
