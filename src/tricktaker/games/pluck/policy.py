"""Heuristic decisions for Pluck: which card to pluck, which suit to name as trump."""

from __future__ import annotations

import random

from tricktaker.bots.policies import GamePolicies
from tricktaker.cards import JOKER_MASK, SUIT_MASKS
from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.games.pluck.hooks import CALL_TRUMP, PLUCK

_HIGH_CARDS = tuple(
    sum(0.5 * (rank + 1) for rank in range(4) if held >> rank & 1) for held in range(16)
)
"""What a suit's jack, queen, king and ace add to its strength (half a point for the
jack up to two for the ace), by which of them are held (bit 0: the jack)."""


def suit_strength(hand: int, suit: int) -> float:
    """How good ``suit`` would be as trump: length, plus its high cards.

    >>> from tricktaker.cards import card_set
    >>> suit_strength(card_set("AS KS 2S 3H".split()), 3)
    6.5
    """
    cards = hand & SUIT_MASKS[suit]
    return cards.bit_count() + _HIGH_CARDS[(cards >> (13 * suit + 9)) & 0xF]


def call_trump(observation: Observation, rng: random.Random) -> Action:
    """Name the suit with the most length and strength."""
    hand = observation.hand or 0
    return max(
        observation.legal_actions,
        key=lambda a: suit_strength(hand, "CDHS".index(str(a.value))),
    )


def pluck(observation: Observation, rng: random.Random) -> Action:
    """Give a low card of a short suit: the pluckee must return their highest of it."""
    hand = (observation.hand or 0) & ~JOKER_MASK

    def cost(action: Action) -> tuple[int, int]:
        card = int(action.value)
        length = (hand & SUIT_MASKS[card // 13]).bit_count()
        return card % 13, length

    return min(observation.legal_actions, key=cost)


POLICY = GamePolicies({CALL_TRUMP: call_trump, PLUCK: pluck})
"""The heuristic bot's Pluck decisions (its hooks' ``"policy"`` capability)."""
