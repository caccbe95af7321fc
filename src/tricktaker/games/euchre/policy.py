"""Heuristic decisions for Euchre: what to bid in the auction, which cards to discard.

The trick play is the generic heuristic's (play to win; do not overtake a partner
as the last player).
"""

from __future__ import annotations

import random

from tricktaker.bots.policies import GamePolicies
from tricktaker.cards import ACE, cards_of
from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.tables import build_tables
from tricktaker.games.euchre.hooks import AUCTION, DISCARD, PASS, contract_of

PARTNER_TRICKS = 1.0
"""What the partner is expected to add to a contract."""
KING = ACE - 1
RIGHT_OR_LEFT_BOWER = 13
"""Bowers rank 13 and 14 in the trump suit (above the ace, 12)."""


def trump_estimate(hand: int, trump: int | None, *, bowers: str | None) -> float:
    """Tricks this hand may take with ``trump`` (None: no trump): high trumps, trump
    length and side aces (and kings, at no trump).

    >>> from tricktaker.cards import card_set
    >>> round(trump_estimate(card_set(["JD", "JH", "AH", "AC", "9C"]), 2, bowers="left_high"), 2)
    3.5
    """
    tables = build_tables(trump=trump, jokers_as_trump=False, bowers=bowers)
    cards = cards_of(hand)
    if trump is None:
        total = 0.0
        for card in cards:
            rank = card % 13
            length = sum(1 for c in cards if c // 13 == card // 13)
            if rank == ACE:
                total += 1.0
            elif rank == KING and length >= 2:
                total += 0.6
        return total
    trumps = [c for c in cards if tables.suit_of[c] == trump]
    total = 0.0
    for card in trumps:
        rank = tables.rank_of[card]
        if rank >= RIGHT_OR_LEFT_BOWER:
            total += 1.0 if rank == 14 else 0.85
        elif rank == ACE:
            total += 0.7
        elif rank == KING:
            total += 0.5
        else:
            total += 0.3
    total += max(0, len(trumps) - 2) * 0.25
    for card in cards:
        if tables.suit_of[card] != trump and card % 13 == ACE:
            total += 0.7
    return total


def _partner(observation: Observation) -> int | None:
    for team in observation.partnerships:
        if observation.seat in team:
            return next((s for s in team if s != observation.seat), None)
    return None


def auction(observation: Observation, rng: random.Random) -> Action:
    """Bid the cheapest legal contract the partnership's estimate supports (at least
    3 tricks), in the trump that suits the hand best; otherwise pass. A player whose
    partner holds the high bid passes."""
    legal = observation.legal_actions
    passing = next(a for a in legal if a.kind == PASS)
    high = observation.extra.get("high_bid")
    if high is not None and high["seat"] == _partner(observation):
        return passing
    hand = observation.hand or 0
    bowers = observation.rules.spec.play.bowers
    estimates: dict[int | None, float] = {
        suit: trump_estimate(hand, suit, bowers=bowers) + PARTNER_TRICKS for suit in range(4)
    }
    estimates[None] = trump_estimate(hand, None, bowers=None) + PARTNER_TRICKS * 0.5
    bids = [a for a in legal if a.kind == AUCTION]

    def affordable(action: Action) -> bool:
        tricks, trump = contract_of(str(action.value))
        return estimates[trump] >= tricks

    choices = [a for a in bids if affordable(a)]
    if not choices:
        return passing
    best = max(estimates[contract_of(str(a.value))[1]] for a in choices)
    for action in choices:  # lowest first
        if estimates[contract_of(str(action.value))[1]] == best:
            return action
    return passing  # pragma: no cover - choices always hold the best


def discard(observation: Observation, rng: random.Random) -> Action:
    """Discard the weakest card that is not a trump (short suits first), keeping aces;
    trumps only when nothing else is left."""
    hand = observation.hand or 0
    tables = observation.tables
    trump = observation.trump
    if tables is None:  # pragma: no cover - the contract is public before the discard
        tables = build_tables(trump=None, jokers_as_trump=False)

    def weakness(action: Action) -> tuple[bool, int, int, int]:
        card = int(action.value)
        suit = tables.suit_of[card]
        length = sum(1 for c in cards_of(hand) if tables.suit_of[c] == suit)
        return trump is not None and suit == trump, tables.rank_of[card], length, card

    return min(observation.legal_actions, key=weakness)


POLICY = GamePolicies({AUCTION: auction, PASS: auction, DISCARD: discard})
"""The heuristic bot's Euchre decisions (its hooks' ``"policy"`` capability)."""
