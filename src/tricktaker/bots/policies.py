"""Game-specific decisions of the heuristic bot, declared by the game.

A game whose hooks add action kinds (plucks, auction bids, stay or fold) declares a
:class:`GamePolicies` as the ``"policy"`` capability of its hooks
(:attr:`~tricktaker.engine.hooks.GameHooks.capabilities`, e.g.
``"policy": "mygame.policy:POLICY"``); :class:`~tricktaker.bots.heuristic.HeuristicBot`
asks it (:func:`policy_for`) whenever one of those kinds is among its legal actions.
Nothing is registered by importing a module.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tricktaker.engine.actions import Action
from tricktaker.engine.hooks import GameHooks, capability
from tricktaker.engine.observation import Observation

__all__ = ["POLICY_CAPABILITY", "GamePolicies", "Policy", "policy_for"]

Policy = Callable[[Observation, random.Random], Action]
"""Chooses one of ``observation.legal_actions``; may use the bot's seeded generator."""

POLICY_CAPABILITY = "policy"
"""The capability name under which a game's hooks declare their :class:`GamePolicies`."""


@dataclass(frozen=True, slots=True)
class GamePolicies:
    """A game's heuristic decisions, by the action kind they answer.

    >>> from tricktaker.engine.actions import Action
    >>> policies = GamePolicies({"stake": lambda obs, rng: Action("stake", 0)})
    >>> policies.for_actions((Action("stake", 0), Action("stake", 1))) is not None
    True
    """

    by_kind: Mapping[str, Policy]

    def for_actions(self, actions: tuple[Action, ...]) -> Policy | None:
        """The policy for these legal actions (the first action whose kind has one)."""
        for action in actions:
            found = self.by_kind.get(action.kind)
            if found is not None:
                return found
        return None


def policy_for(hooks: GameHooks | None, actions: tuple[Action, ...]) -> Policy | None:
    """The game's declared policy for these legal actions, if any (None for the Oh
    Hell family and for kinds the game declares none for)."""
    declared = capability(hooks, POLICY_CAPABILITY)
    if not isinstance(declared, GamePolicies):
        return None
    return declared.for_actions(actions)
