"""Game-specific decisions of the heuristic bot, registered by action kind.

A game whose hooks add action kinds (plucks, auction bids, stay or fold) registers a
policy for them here; :class:`~tricktaker.bots.heuristic.HeuristicBot` asks the
policy whenever one of those kinds is among its legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation

Policy = Callable[[Observation, random.Random], Action]
"""Chooses one of ``observation.legal_actions``; may use the bot's seeded generator."""

POLICIES: dict[str, Policy] = {}


def register_policy(*kinds: str) -> Callable[[Policy], Policy]:
    """Decorator: use this policy when any of ``kinds`` is among the legal actions."""

    def decorate(policy: Policy) -> Policy:
        for kind in kinds:
            POLICIES[kind] = policy
        return policy

    return decorate


def policy_for(actions: tuple[Action, ...]) -> Policy | None:
    """The registered policy for these legal actions, if any."""
    for action in actions:
        found = POLICIES.get(action.kind)
        if found is not None:
            return found
    return None
