"""A bot that picks uniformly among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable

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
        """A legal action, uniformly at random."""
        return self.choose(observation.seat, observation.legal_actions, lambda: observation)

    def choose(
        self, seat: int, legal_actions: tuple[Action, ...], observe: Callable[[], Observation]
    ) -> Action:
        """The same choice as :meth:`act`, from the legal actions alone (it never observes)."""
        if not legal_actions:
            raise ValueError(f"seat {seat} has no legal action now")
        return legal_actions[self.rng.randrange(len(legal_actions))]
