"""How each other seat bids, learned at the table: the ``ismcts`` bot's
``kind_carry=bidder`` (issue 30; bench/README.md, "Opponent kinds learned at the
table").

A random player's bid is uniform over the legal bids, whatever its cards and whatever
tricks it then takes; a player who bids by its cards and plays to its bid ends near its
bid, give or take a habit of its own (a search whose rollouts flatter its hand bids
high, a careful one low) and a spread. At the end of each hand the bot sets each seat's
bid beside the tricks it took (public: the tricks won by the bot's last decision of the
hand, and an even share of any still to play). Over the hands, each seat is weighed
between the two: the random player's likelihood (1 over the number of bids each hand)
against a bidder whose error (bid less tricks) is normal with the seat's own mean and
spread, fitted to its hands with a weak prior (mean 0, spread :data:`PRIOR_SPREAD`),
the mean kept within :data:`MOST_BIAS` and the spread within :data:`SPREAD_BOUNDS`, so
that a random player cannot pass for a bidder with a habit of bidding high. The
posterior is the seat's prior of being a random player in the next hand.

The evidence is what a seat at the table sees: bids made and cards played, both public.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tricktaker.engine.observation import Observation

PRIOR_SPREAD = 1.0
"""The spread (tricks) of a bidder's error before any hand of it is seen."""

PRIOR_HANDS = 2.0
"""How many hands the prior on the mean (0) and the spread counts as."""

SPREAD_BOUNDS = (0.5, 1.5)
"""The least and the most spread a bidder's error is given (tricks)."""

MOST_BIAS = 1.0
"""The most a bidder's mean error is given, either way (tricks): a player whose bids
stray further from its tricks, hand after hand, reads as a random player."""


@dataclass(slots=True)
class BidRecord:
    """One hand's bid of a seat beside the tricks it took (``taken``: those taken by
    the bot's last decision of the hand, and an even share of the ``left`` still to
    play; ``legal``: the number of bids it could make)."""

    bid: int
    taken: float
    legal: int
    left: int


@dataclass(slots=True)
class Bidders:
    """Each other seat's bids beside its hands' worth, hand by hand."""

    records: dict[int, list[BidRecord]] = field(default_factory=dict)
    pending: dict[int, BidRecord] = field(default_factory=dict)
    """This hand's records so far (the latest decision's), kept at the hand's end."""

    def see(self, obs: Observation) -> None:
        """What ``obs`` shows of this hand's bids and the tricks taken against them."""
        left = obs.hand_size - len(obs.tricks)
        share = left / obs.players
        for seat, bid in enumerate(obs.bids):
            if seat == obs.seat or bid is None:
                continue
            taken = obs.tricks_won[seat] + share
            self.pending[seat] = BidRecord(bid, taken, obs.hand_size + 1, left)

    def close_hand(self) -> None:
        """Keep the hand's records (at the start of the next hand)."""
        for seat, record in self.pending.items():
            self.records.setdefault(seat, []).append(record)
        self.pending = {}

    def random_chance(self, seat: int, prior: float) -> float:
        """The chance that ``seat`` is a random player, from ``prior`` and its bids."""
        records = self.records.get(seat, [])
        if not records:
            return prior
        errors = [r.bid - r.taken for r in records]
        n = len(errors)
        mean = max(-MOST_BIAS, min(MOST_BIAS, sum(errors) / (n + PRIOR_HANDS)))
        square = sum((e - mean) ** 2 for e in errors) + PRIOR_HANDS * PRIOR_SPREAD**2
        low, high = SPREAD_BOUNDS
        spread = min(high, max(low, math.sqrt(square / (n + PRIOR_HANDS))))
        log_ratio = 0.0  # log of the random player's likelihood over the bidder's
        for record in records:
            log_ratio += math.log(1.0 / record.legal) - math.log(_bid_chance(record, mean, spread))
        log_ratio = max(-50.0, min(50.0, log_ratio))
        odds = prior / (1.0 - prior) * math.exp(log_ratio)
        return odds / (1.0 + odds)


def _bid_chance(record: BidRecord, mean: float, spread: float) -> float:
    """The chance a bidder with error ``mean`` and ``spread`` bids ``record.bid`` with
    that hand: a normal density over the legal bids, normalized, never below 1e-6."""
    centre = record.taken + mean
    weights = [math.exp(-0.5 * ((b - centre) / spread) ** 2) for b in range(record.legal)]
    total = sum(weights)
    chance = weights[record.bid] / total if 0 <= record.bid < record.legal and total > 0 else 0.0
    return max(chance, 1e-6)
