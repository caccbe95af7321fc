"""Heuristic decisions for Buckup: the ante, the 19 redeal, stay or fold, the discards.

The tricks themselves are played by the generic heuristic (every trick helps). The
policy is registered for Buckup's own action kinds; in the discard step ``draw`` comes
first among the legal actions, so the policy is found there without claiming the
``discard`` kind that other games (Euchre) also use.
"""

from __future__ import annotations

import random

from tricktaker.bots.policies import GamePolicies
from tricktaker.cards import cards_of
from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.games.buckup.hooks import (
    ANTE_ACTION,
    BARE_ACTIONS,
    COME_BACK,
    CONCEDE,
    DISCARD,
    DRAW,
    FOLD,
    OUT_FOR_NOW,
    REDEAL,
    STAY,
)

_TRUMP_VALUE = (0.3, 0.3, 0.3, 0.35, 0.35, 0.4, 0.4, 0.45, 0.5, 0.6, 0.75, 0.9, 1.0)
"""What a trump of each rank (2 .. A) is worth in tricks, roughly."""
_ACE_VALUE = 0.7
_KING = 11
_DRAW_GAIN = 0.15
"""Tricks gained on average per card drawn (a fresh card is a trump about 1 time in 4)."""


def estimate_tricks(hand: int, trump: int | None) -> float:
    """Expected tricks from trumps (by rank) and side aces.

    >>> from tricktaker.cards import card_set
    >>> round(estimate_tricks(card_set(["AH", "KH", "AS", "2C", "3D"]), trump=2), 2)
    2.6
    """
    total = 0.0
    for card in cards_of(hand):
        if trump is not None and card // 13 == trump:
            total += _TRUMP_VALUE[card % 13]
        elif card % 13 == 12:
            total += _ACE_VALUE
    return total


def discard_candidates(hand: int, trump: int | None) -> list[int]:
    """The cards worth throwing: non-trumps below a king, lowest first."""
    cards = [c for c in cards_of(hand) if c // 13 != trump and c % 13 < _KING]
    return sorted(cards, key=lambda c: c % 13)


def expected_after_draw(hand: int, trump: int | None) -> float:
    """The estimate once the weak cards are replaced from the stock."""
    drawn = len(discard_candidates(hand, trump)) + max(0, 5 - hand.bit_count())
    return estimate_tricks(hand, trump) + _DRAW_GAIN * drawn


def _pot_is_small(obs: Observation) -> bool:
    """Whether a burn would cost little compared with folding."""
    ante = obs.extra.get("ante") or {}
    unit = max(int(ante.get("ante", 5)), int(ante.get("fold_fee", 0)), 1)
    return int(obs.extra.get("pot", 0)) <= 3 * unit


def _choose(obs: Observation, kinds: dict[str, Action]) -> Action:
    hand = obs.hand or 0
    trump = obs.trump
    if ANTE_ACTION in kinds:
        return next(a for a in obs.legal_actions if a.value == "kept")
    if REDEAL in kinds:
        return kinds[REDEAL]
    if DRAW in kinds:
        held = {a.value for a in obs.legal_actions if a.kind == DISCARD}
        throw = [c for c in discard_candidates(hand, trump) if c in held]
        return Action(DISCARD, throw[0]) if throw else kinds[DRAW]
    strength = expected_after_draw(hand, trump)
    if CONCEDE in kinds:  # the dealer, after nobody came back, against one player
        return kinds[COME_BACK] if strength >= 1.3 else kinds[CONCEDE]
    if COME_BACK in kinds:  # out for now, with one player in
        return kinds[COME_BACK] if strength >= 1.5 else kinds[FOLD]
    if STAY in kinds:
        if strength >= 1.8 or (strength >= 1.0 and _pot_is_small(obs)):
            return kinds[STAY]
        return kinds.get(OUT_FOR_NOW) or kinds.get(FOLD) or kinds[STAY]
    return obs.legal_actions[0]


def buckup_decision(observation: Observation, rng: random.Random) -> Action:
    """Default ante; always demand a redeal; stay with about two tricks in sight (or a small
    pot); throw non-trumps below a king, then draw."""
    kinds: dict[str, Action] = {}
    for action in observation.legal_actions:
        kinds.setdefault(action.kind, action)
    return _choose(observation, kinds)


POLICY = GamePolicies(
    dict.fromkeys(
        (ANTE_ACTION, *BARE_ACTIONS),
        buckup_decision,
    )
)
"""The heuristic bot's Buckup decisions (its hooks' ``"policy"`` capability)."""
