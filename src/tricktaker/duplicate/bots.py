"""Bots whose every choice is a function of their seed and the position (docs/duplicate.md,
Bots in a set).

A bot keeps a random generator seeded once, so its choice at a position depends on every
draw it made before. A server that restarts in the middle of a game makes its bots again
from their seeds, and from then on they would draw differently from the bots of a table
that never restarted: two people's "same opponents" would part ways. A
:class:`PositionSeededBot` makes a fresh bot for each decision, seeded from its own seed
and the position (the hand, the phase, the bids made and the cards played so far), so a
table rebuilt from its record plays on exactly as one that never stopped.

>>> from tricktaker import load_ruleset
>>> from tricktaker.bots.base import decide
>>> from tricktaker.duplicate.sets import make_set
>>> state = make_set(load_ruleset("blackout"), players=3, seed=5).new_game()
>>> state.apply_chance()
>>> seat = state.to_act()[0]
>>> one, two = PositionSeededBot("random", 11), PositionSeededBot("random", 11)
>>> _ = decide(one, state, seat)  # one draw more for the first bot
>>> decide(one, state, seat) == decide(two, state, seat)
True
"""

from __future__ import annotations

import hashlib

from tricktaker.bots import Bot, make_bot
from tricktaker.engine import Action, Observation
from tricktaker.engine.base import mix_seed


def position_key(observation: Observation) -> int:
    """A number that names the position ``observation`` is of, the same at every table
    that reached it: the hand, the phase, how many bids were made and how many cards
    were played in the hand."""
    bids = sum(1 for bid in observation.bids if bid is not None)
    played = sum(len(trick) for trick in observation.tricks) + len(observation.current_trick)
    phase = int.from_bytes(hashlib.sha256(observation.phase.encode()).digest()[:4], "big")
    return mix_seed(observation.hand_number, phase, bids, played, len(observation.history))


class PositionSeededBot:
    """The bot ``spec``, made afresh for each decision with a seed drawn from ``seed``
    and the position (see the module notes)."""

    def __init__(self, spec: str, seed: int) -> None:
        self.spec = spec
        self.seed = seed
        self.name: str = make_bot(spec, seed=seed).name

    def bot_for(self, observation: Observation) -> Bot:
        """The bot that decides at ``observation``'s position."""
        seed = mix_seed(self.seed, position_key(observation)) & 0xFFFFFFFF
        return make_bot(self.spec, seed=seed)

    def act(self, observation: Observation) -> Action:
        """The choice at ``observation``: always the same for the same seed and position."""
        return self.bot_for(observation).act(observation)
