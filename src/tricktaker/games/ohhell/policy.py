"""Heuristic decisions for Caller Clag's calls (its hooks' ``"policy"`` capability): any
hand size, a normal hand, no modifiers. The bids and the cards are the heuristic bot's
own, as for the rest of the Oh Hell family."""

from __future__ import annotations

import random

from tricktaker.bots.policies import GamePolicies
from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.games.ohhell.calls import CALL_DONE, CALL_KIND, CALL_SIZE

__all__ = ["POLICY", "call_kind", "call_size", "done"]


def call_size(observation: Observation, rng: random.Random) -> Action:
    """Any of the hand sizes the caller may call."""
    return rng.choice(observation.legal_actions)


def call_kind(observation: Observation, rng: random.Random) -> Action:
    """A normal hand: the one where bidding and play count for the most."""
    actions = observation.legal_actions
    normal = [a for a in actions if a.value == "normal"]
    return normal[0] if normal else rng.choice(actions)


def done(observation: Observation, rng: random.Random) -> Action:
    """No modifiers: the call is done."""
    return next(a for a in observation.legal_actions if a.kind == CALL_DONE)


POLICY = GamePolicies({CALL_SIZE: call_size, CALL_KIND: call_kind, CALL_DONE: done})
"""The heuristic bot's Caller Clag decisions."""
