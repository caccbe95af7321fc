"""Search support for the Oh Hell family (rulesets without hooks).

The rollout policy sees every hand: a seat bids the legal bid closest to its own
estimate of its tricks (by the learned bid model where it has a table for the hand,
else each card wins if no unseen card beats it when led), then
plays to make its bid exactly (wins tricks while short, ducks once made, and once over
it wins tricks where one more scores more; loses every trick in a misere hand). Caller
Clag's calls are not searched (the heuristic bot makes them). A hand's reward is the
seat's score divided by ``10 + hand size``; in a cooperative game it is whether everyone
was exact (plus 0.01 per exact seat).
"""

from __future__ import annotations

import functools
import math
import random

from tricktaker.bots.bid_model import learned_values, values_for
from tricktaker.bots.determinize import Determinizer
from tricktaker.bots.gamesearch import GameSearch
from tricktaker.bots.rollout import greedy_card
from tricktaker.engine.actions import BID, PLAY, Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFacts
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.engine.tables import CardTables, build_tables
from tricktaker.memo import Memo

__all__ = ["OH_HELL", "greedy_card", "guess_bid"]

_NO_TRUMP = build_tables(trump=None, jokers_as_trump=False)


def beaters_of(tables: CardTables) -> tuple[int, ...]:
    """Per card, the set (a bit mask) of the cards that beat it when it is led."""
    return tables.beaters()


def _estimate(state: GameState, seat: int) -> float:
    """Expected tricks of ``seat``'s hand from its own point of view: by the learned bid
    model where it has a table for the hand (:mod:`tricktaker.bots.bid_model`, the cards'
    values added in card order, as the kernel adds them), else each card wins if no
    unseen card beats it when it is led."""
    mine = state.hands[seat]
    learned = values_for(state.players, state.hand_size, state.tables, state.setup.deck)
    if learned is not None:
        total = 0.0
        hand = mine
        while hand:
            low = hand & -hand
            total += learned[low.bit_length() - 1]
            hand ^= low
        return total
    tables = state.tables or _NO_TRUMP
    unseen = state.setup.deck_mask & ~mine
    if state.turn_up is not None:
        unseen &= ~(1 << state.turn_up)
    others = (state.players - 1) * state.hand_size
    keep = 1.0 - min(1.0, others / max(1, unseen.bit_count()))
    beaters = beaters_of(tables)
    total = 0.0
    hand = mine
    while hand:
        low = hand & -hand
        total += keep ** (beaters[low.bit_length() - 1] & unseen).bit_count()
        hand ^= low
    return total


def guess_bid(state: GameState, seat: int) -> Action:
    """The legal bid closest to the seat's estimated tricks (rollouts, hidden bids)."""
    target = _estimate(state, seat)
    return min(state.legal_actions(seat), key=lambda a: (abs(int(a.value) - target), a.value))


def wants_trick(state: GameState, seat: int) -> bool:
    """Whether ``seat`` plays to win the trick: while short of its bid; once over it,
    where one trick more scores more (Blackout's trick a point: a bid already lost
    takes what it can); never at a misère hand or in a cooperative game once made.

    The kernel's ``wants_trick`` (policy.cpp) decides alike."""
    if state.spec.misere:
        return False
    bid, won = state.bids[seat] or 0, state.tricks_won[seat]
    if bid > won:
        return True
    if won == bid or won >= state.hand_size or state.setup.cooperative:
        return False
    score = state.scoring.score_of
    more = score(bid, won + 1, state.hand_size, state.players)
    return more > score(bid, won, state.hand_size, state.players)


def rollout_action(state: GameState, seat: int, actions: list[Action]) -> Action:
    """Bid the estimate; play to make the bid exactly (:func:`wants_trick`; or to lose
    every trick)."""
    kind = actions[0].kind
    if kind == PLAY:
        return greedy_card(state, seat, actions, want=wants_trick(state, seat))
    if kind == BID:
        return guess_bid(state, seat)
    return actions[0]


def rewards(state: GameState) -> list[float]:
    """Each seat's score for the hand just scored over ``10 + hand size``; in a
    cooperative game, whether everyone was exact (plus 0.01 per exact seat)."""
    result = state.history[-1]
    if state.setup.cooperative:
        exact = sum(b == t for b, t in zip(result.bids, result.tricks, strict=True))
        return [float(result.all_exact) + 0.01 * exact] * state.players
    scale = 10.0 + result.hand_size
    return [score / scale for score in result.hand_scores]


EXPLORATION = 0.3
"""ISMCTS's UCB1 constant for the Oh Hell family. Against OpenSpiel's ISMCTS (1,000
simulations), 200 hands each on the same deals: 0.7 with no noise -0.28 points per
hand, 0.7 with :data:`OPPONENT_NOISE` +0.13, 0.3 with it +0.28 (see bench/README.md)."""

OPPONENT_NOISE = 0.5
"""ISMCTS's chance, in a rollout, that another seat's move is uniformly random rather
than the full-information policy's: a hedge against that policy's overconfidence (it
sees every hand) and a model of opponents who do not play to their bids. Against
three random players, noise 1.0 (and no bid weighting) raised ISMCTS's exact bids from
59% to 72% over 100 hands; 0.5 keeps half the policy for opponents who do play well."""


RIVALRY = 1.0
"""ISMCTS's weight of the other seats' mean result against its own in the Oh Hell family:
each seat plays for its margin over the others, as a player does who wants to win the
game, not only to score (setting another seat's bid counts). Against OpenSpiel's ISMCTS
at equal time per move, 400 hands on the same deals: +1.40 [+0.92, +1.87] a hand with
it, +0.91 [+0.47, +1.36] without (see bench/README.md); against random players it
changed nothing."""


BID_SPREAD = 1.25
"""How far (in tricks) a seat's bid is assumed to stray from its hand's estimated
tricks: the standard deviation of the bid model used to weigh sampled deals."""


BID_FLOOR = 0.25
"""The bid model's floor: a bid far from the estimate is still this likely relative to
one that matches it (players bid by other rules than the model: random players, cautious
players), so that no consistent deal is all but ruled out by a bid."""


class _Sampler:
    """A :class:`Determinizer` whose hidden simultaneous bids are guessed by estimate,
    and which weighs each sampled deal by how likely the other seats' bids were.

    **The bid model.** A seat's bid is taken to be its hand's estimated tricks plus a
    normal error of :data:`BID_SPREAD`, mixed with a floor (:data:`BID_FLOOR`). The
    estimate adds a value per card: the learned bid model's where it has a table for the
    hand (:mod:`tricktaker.bots.bid_model`), else the heuristic's chance that no
    opponent holds a card that beats it, scaled so that an average hand is worth
    ``hand size / players`` tricks. The weight of a
    deal is the product over the other seats that bid of the bid's likelihood given
    the cards that deal gives them. The search bots weigh their statistics with it
    (importance weighting), so deals that fit the bids count more; the samples
    themselves stay uniform.
    """

    def __init__(self, obs: Observation, *, spread: float = BID_SPREAD) -> None:
        self.obs = obs
        self.seats = [s for s in range(obs.players) if s != obs.seat and obs.bids[s] is not None]
        self.value = card_values(obs) if self.seats and spread > 0 else None
        self.scale = -0.5 / (spread * spread) if spread > 0 else 0.0

    @functools.cached_property
    def determinizer(self) -> Determinizer:
        """The deals' determinizer, made when first asked for: the compiled kernel
        samples its own, so a kernel search never pays for this one."""
        return Determinizer(self.obs)

    def sample(self, rng: random.Random) -> GameState:
        return self.determinizer.sample(rng, guess_bid=guess_bid)

    def hidden_facts(self) -> HiddenFacts:
        """The hard facts the deals are placed by (the determinizer's); the other
        seats' bids are soft evidence, weighed by :meth:`weight`."""
        soft = ("bids",) if self.value is not None else ()
        return self.determinizer.hidden_facts(self.determinizer.obs.seat, soft_evidence=soft)

    def weight(self, state: GameState) -> float:
        """The likelihood of the other seats' bids given this deal (up to a constant)."""
        value = self.value
        if value is None:
            return 1.0
        weight = 1.0
        for seat in self.seats:
            estimate = sum(value[c] for c in state.dealt[seat])
            error = (state.bids[seat] or 0) - estimate
            weight *= BID_FLOOR + (1.0 - BID_FLOOR) * math.exp(self.scale * error * error)
        return weight


_FORMULA: Memo[tuple[int, int, int | None, CardTables | None], tuple[float, ...] | None] = Memo(256)
"""The formula's card values per hand of each ruleset (they depend on the deck, the hand
size, the turn-up and the card tables only), kept across decisions."""


def card_values(obs: Observation) -> tuple[float, ...] | None:
    """Each card's worth in tricks as a bidder counts it in ``obs``'s hand: the learned
    bid model's table where it has one for the hand (:mod:`tricktaker.bots.bid_model`,
    kept there per hand), else :func:`_formula_values`, worked out once per ruleset,
    hand size, turn-up and card tables."""
    learned = learned_values(obs)
    if learned is not None:
        return learned
    key = (obs.players, obs.hand_size, obs.turn_up, obs.tables)

    def make() -> tuple[float, ...] | None:
        value = _formula_values(obs)
        return None if value is None else tuple(value)

    return _FORMULA.get(key, make, owner=obs.rules)


def _formula_values(obs: Observation) -> list[float] | None:
    """Each card's chance to win a trick when it is led, as a bidder estimates it."""
    tables = obs.tables
    if tables is None:
        return None
    deck = [c for c in Setup.of(obs.rules, obs.players).deck if c != obs.turn_up]
    others = (obs.players - 1) * obs.hand_size
    dealt_fraction = min(1.0, others / max(1, len(deck) - obs.hand_size))
    keep = 1.0 - dealt_fraction
    value = [0.0] * 54
    key = tables.key
    for card in deck:
        led = tables.suit_of[card]
        strength = key(card, led)
        beaters = sum(1 for other in deck if key(other, led) > strength)
        value[card] = keep**beaters
    # The formula ranks cards well but undercounts long hands' tricks (low trumps and
    # kings win too); scale it so that an average hand is worth its share of tricks.
    mean = sum(value) / len(deck)
    if mean > 0:
        value = [v / (obs.players * mean) for v in value]
    return value


OH_HELL = GameSearch(
    determinizer=_Sampler,
    rollout_action=rollout_action,
    rewards=rewards,
    searched=frozenset({BID, PLAY}),
    exploration=EXPLORATION,
    opponent_noise=OPPONENT_NOISE,
    rivalry=RIVALRY,
    opponents="learned",
)
"""The search support of the rulesets without hooks (the Oh Hell family)."""
