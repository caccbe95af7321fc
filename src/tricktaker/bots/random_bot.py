"""A bot that picks uniformly among the legal actions."""

from __future__ import annotations

import random

from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation


class RandomBot:
    """Uniformly random legal actions, from its own seeded generator.

    >>> RandomBot(seed=1).name
    'random'
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise ValueError(f"seat {observation.seat} has no legal action now")
        return actions[self.rng.randrange(len(actions))]
