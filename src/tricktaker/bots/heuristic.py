"""A simple rule-of-thumb bot: it estimates its tricks card by card, bids what scores best
on that estimate, then plays to make its bid exactly (or to lose every trick in a misere
hand).

The estimate gives each card in the hand a chance of winning a trick from a few
features seen at bidding time: how many unseen cards beat it and how many of them the
opponents are likely to hold, the length of its suit in the hand and in the opponents'
hands, the chance that an opponent is void in its suit and trumps it (or, for a trump,
how short the hand is in side suits), the number of opponents, the share of the unseen
cards that are dealt, and whether the hand has a trump at all. Two small logistic
models (one for trumps, one for side cards) turn the features into a chance; their
weights were fitted by ``bench/fit_heuristic.py`` on tables where every seat tries to
win every trick, in every game with bids and every kind of hand, so that the chances of
all the cards of a hand add up to about the tricks in it (see there), and
:func:`table_shift` then makes them add up exactly for each kind of hand (deck,
trump or no trump, players, size), over a few random deals. Before that, a table of
easy bots bid about twice the tricks on no-trump hands (``bench/easy_bids.py``).
The bid is the legal bid with the best expected score under the game's scoring, over
the distribution of tricks those chances give, partly as if the play could hold the
tricks to any bid between the fewest and the most the cards can take (:data:`CONTROL`).
Where a seat expects few tricks (7 players, a few cards each) that bid lies under its
expected tricks, a zero bid being the likeliest to be exact, so such a table's bids add
up to well under the tricks; bidding nearer the expected tricks was measured to score
no better there (``bench/README.md``, the easy bot's bids).
In play the bot counts the cards still out: it wins with cards nobody left can beat
while it needs tricks, and gets rid of the cards most others can beat once it does not.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Sequence

from tricktaker.bots.policies import policy_for
from tricktaker.cards import cards_of
from tricktaker.engine.actions import BID, PLAY, Action
from tricktaker.engine.hooks import keeps_engine_bids
from tricktaker.engine.observation import Observation
from tricktaker.engine.tables import FREE, CardTables, build_tables

SIDE_FEATURES = (
    "bias", "clear", "beaters", "log_beaters", "length", "their_length", "ruff", "few",
    "clear*ruff", "clear*length", "clear*few", "beaters*few", "above", "ruff_later",
    "dealt", "all_dealt", "no_trump", "no_trump*dealt", "no_trump*all_dealt", "no_trump*clear",
    "no_trump*log_beaters", "no_trump*length", "no_trump*their_length", "short_deck",
    "short_deck*clear", "short_deck*ruff", "short_deck*their_length",
)  # fmt: skip
"""Features of a card that is not a trump (see :func:`card_features`). ``dealt`` is
the share of the unseen cards that the opponents hold (1 when every card is dealt),
``all_dealt`` whether they hold them all, ``no_trump`` whether the hand has no trump
suit (a no-trump hand, a Bluke turned up); the ``no_trump*`` features let a no-trump
hand weigh a card's beaters and suit lengths its own way; ``short_deck`` is the share of
the ranks missing from the deck's suits (0 for a full deck, 7/13 for Romanian Whist's
A-9 at 3 players), since a short suit runs out and is trumped sooner."""
TRUMP_FEATURES = (
    "bias", "clear", "beaters", "log_beaters", "length", "their_length", "short", "few",
    "clear*few", "clear*length", "above", "length-theirs", "dealt", "all_dealt", "no_trump",
    "short_deck", "short_deck*clear", "short_deck*length",
)  # fmt: skip
"""Features of a trump (or a Bluke, which beats everything)."""

SIDE_WEIGHTS: tuple[float, ...] = (
    13.114, -0.263, -0.288, -5.202, 0.317, -0.026, -0.852, 2.828,
    -6.135, -1.043, 1.501, -0.25, -0.449, 0.129, 3.202, -0.214,
    -12.464, -2.915, 1.439, 3.785, 3.418, 0.07, -0.323, -4.284,
    2.915, -7.143, -2.314,
)  # fmt: skip
"""Logistic weights of :data:`SIDE_FEATURES`, fitted by ``bench/fit_heuristic.py``
(``--games 16``: about 237,000 side cards, log loss 0.261)."""
TRUMP_WEIGHTS: tuple[float, ...] = (
    -1.481, 3.504, -0.371, -0.251, 0.49, 0.174, 0.465, -0.334,
    1.06, -0.489, 0.017, 0.316, 0.14, -0.373, 4.056, -3.72,
    1.499, 1.471,
)  # fmt: skip
"""Logistic weights of :data:`TRUMP_FEATURES`, fitted the same way (about 69,000 trumps,
log loss 0.448)."""

CALIBRATION_DEALS = 8
"""Random deals over which :func:`table_shift` makes the chances of a kind of hand add
up to the tricks available (0: no calibration, as the bot was before it)."""

CONTROL = 0.3
"""How far the bot's play decides its tricks: the weight of the model in which it takes
exactly its bid whenever that lies between the fewest and the most tricks its cards can
take, against the natural spread of the tricks it takes when trying to win. Chosen by
``bench/heuristic_table.py`` on eight games: 0.3 did best overall among 0, 0.3, 0.5
and 1 (more helps 7 Truf and Romanian Whist, less helps 2-player Blackout)."""


def _tables(obs: Observation) -> CardTables:
    if obs.tables is not None:
        return obs.tables
    return build_tables(trump=None, jokers_as_trump=False)


def _key(tables: CardTables, card: int, led: int) -> int:
    return tables.key(card, led)


def miss_chance(pool: int, drawn: int, count: int) -> float:
    """The chance that ``drawn`` cards taken at random from ``pool`` include none of
    ``count`` given cards of the pool (hypergeometric).

    >>> miss_chance(4, 2, 1)
    0.5
    >>> miss_chance(10, 10, 1)
    0.0
    """
    chance = 1.0
    for i in range(count):
        if pool - i <= 0 or pool - drawn - i <= 0:
            return 0.0
        chance *= (pool - drawn - i) / (pool - i)
    return chance


def at_most(pool: int, marked: int, drawn: int, most: int) -> float:
    """The chance that ``drawn`` cards taken at random from ``pool`` (``marked`` of them
    marked) include at most ``most`` marked cards (hypergeometric).

    >>> at_most(4, 2, 2, 0), at_most(4, 2, 2, 1), at_most(4, 2, 2, 2)
    (0.16666666666666666, 0.8333333333333334, 1.0)
    """
    if drawn > pool:
        drawn = pool
    total = math.comb(pool, drawn)
    return (
        sum(
            math.comb(marked, k) * math.comb(pool - marked, drawn - k)
            for k in range(min(most, marked, drawn) + 1)
        )
        / total
        if total
        else 1.0
    )


def card_features(
    hand: int, tables: CardTables, unseen: Sequence[int], players: int, hand_size: int
) -> list[tuple[bool, tuple[float, ...]]]:
    """For each card of ``hand`` (in card order): whether it is a trump (or a Bluke) and
    its features (:data:`TRUMP_FEATURES` or :data:`SIDE_FEATURES`).

    ``unseen`` are the cards this seat has not seen; the opponents hold
    ``(players - 1) * hand_size`` of them, the rest are not dealt.
    """
    pool = len(unseen)
    held = min(pool, (players - 1) * hand_size)
    share = held / pool if pool else 0.0
    dealt = share
    all_dealt = 1.0 if held == pool else 0.0
    no_trump = 0.0 if any(tables.trump_key[s * 13 + 12] for s in range(4)) else 1.0
    each = min(pool, hand_size)
    per_opponent = each / pool if pool else 0.0
    mine = cards_of(hand)
    few = 1.0 / max(1, players - 1)
    length = [0] * 5
    for card in mine:
        length[tables.suit_of[card]] += 1
    unseen_length = [0] * 5
    for card in unseen:
        unseen_length[tables.suit_of[card]] += 1
    short_deck = 1.0 - max(length[s] + unseen_length[s] for s in range(4)) / 13
    trumps_unseen = sum(1 for card in unseen if tables.trump_key[card])
    trumps_mine = sum(1 for card in mine if tables.trump_key[card])
    has_trump = 1.0 - miss_chance(pool, each, trumps_unseen) if trumps_unseen else 0.0
    void = [miss_chance(pool, each, unseen_length[s]) for s in range(4)]
    short = 0.0
    for suit in range(4):
        if length[suit] == 0 and tables.trump_key[suit * 13 + 12] == 0:
            short += 1.0 - void[suit]
        elif length[suit] == 1 and tables.trump_key[suit * 13 + 12] == 0:
            short += 0.5 * (1.0 - void[suit])
    features: list[tuple[bool, tuple[float, ...]]] = []
    for card in mine:
        suit = tables.suit_of[card]
        strength = tables.key(card, suit)
        beaters = sum(1 for other in unseen if tables.key(other, suit) > strength)
        above = sum(1 for other in mine if tables.key(other, suit) > strength)
        clear = miss_chance(pool, held, beaters)
        expected = beaters * share
        common = (clear, expected, math.log1p(beaters))
        mine_in_suit = float(length[suit])
        theirs = unseen_length[suit] * per_opponent
        if tables.trump_key[card]:
            trumps_theirs = trumps_unseen * per_opponent
            trump_row = (
                float(trumps_mine), trumps_theirs, short, few,
                clear * few, clear * trumps_mine, float(above), trumps_mine - trumps_theirs,
                dealt, all_dealt, no_trump,
                short_deck, short_deck * clear, short_deck * trumps_mine,
            )  # fmt: skip
            features.append((True, (1.0, *common, *trump_row)))
        else:
            ruff = ruff_later = 0.0
            if suit != FREE and has_trump:
                ruff = (players - 1) * void[suit] * has_trump
                short_by_then = at_most(pool, unseen_length[suit], each, above)
                ruff_later = 1.0 - (1.0 - short_by_then * has_trump) ** (players - 1)
            side_row = (
                mine_in_suit, theirs, ruff, few,
                clear * ruff, clear * mine_in_suit, clear * few, expected * few,
                float(above), ruff_later,
                dealt, all_dealt, no_trump, no_trump * dealt, no_trump * all_dealt,
                no_trump * clear,
                no_trump * common[2], no_trump * mine_in_suit, no_trump * theirs,
                short_deck, short_deck * clear, short_deck * ruff, short_deck * theirs,
            )  # fmt: skip
            features.append((False, (1.0, *common, *side_row)))
    return features


def _logit(trump: bool, row: Sequence[float]) -> float:
    weights = TRUMP_WEIGHTS if trump else SIDE_WEIGHTS
    return sum(w * x for w, x in zip(weights, row, strict=True))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def table_shift(
    deck: Sequence[int], tables: CardTables, players: int, hand_size: int, turn_up: bool
) -> float:
    """The shift of every card's logit that makes the chances of all the cards dealt
    add up to the tricks in the hand, on average over :data:`CALIBRATION_DEALS` random
    deals of this kind of hand (the same deck, trump, players and size; ``turn_up``:
    one more card is turned up and seen by all), each card rated from its holder's
    view. When every seat tries to win, each trick is won by exactly one card, so the
    chances of all the cards dealt should add up to the hand size; the fitted model
    comes close on average over all hands, this makes it so for each kind of hand.
    Computed once per kind (cached).

    Blackout's last hand at 4 players (13 cards, no trump): the model alone gives the
    table's cards too many tricks, so every card's logit is lowered.

    >>> deck = tuple(range(52))
    >>> tables = build_tables(trump=None, jokers_as_trump=False)
    >>> round(table_shift(deck, tables, 4, 13, False), 2)
    -0.78
    """
    if CALIBRATION_DEALS <= 0 or players < 2 or players * hand_size > len(deck):
        return 0.0
    return _shift(
        tuple(deck), tables, players, hand_size, turn_up,
        CALIBRATION_DEALS, SIDE_WEIGHTS, TRUMP_WEIGHTS,
    )  # fmt: skip


@functools.lru_cache(maxsize=4096)
def _shift(
    deck: tuple[int, ...],
    tables: CardTables,
    players: int,
    hand_size: int,
    turn_up: bool,
    deals: int,
    side_weights: tuple[float, ...],
    trump_weights: tuple[float, ...],
) -> float:
    """:func:`table_shift` for given weights (part of the cache key)."""
    rng = random.Random(f"{len(deck)}:{players}:{hand_size}:{turn_up}")
    logits: list[float] = []
    pool = list(deck)
    dealt = players * hand_size
    for _ in range(deals):
        rng.shuffle(pool)
        shown = pool[dealt] if turn_up and dealt < len(pool) else None
        for seat in range(players):
            bits = 0
            for card in pool[seat * hand_size : (seat + 1) * hand_size]:
                bits |= 1 << card
            unseen = [c for c in deck if not (bits >> c) & 1 and c != shown]
            for trump, row in card_features(bits, tables, unseen, players, hand_size):
                weights = trump_weights if trump else side_weights
                logits.append(sum(w * x for w, x in zip(weights, row, strict=True)))
    target = hand_size * deals
    shift = 0.0
    for _ in range(20):  # Newton's method: the expected total grows with the shift
        chances = [_sigmoid(z + shift) for z in logits]
        excess = sum(chances) - target
        slope = sum(p * (1.0 - p) for p in chances)
        if abs(excess) < 1e-4 * deals or slope < 1e-9:
            break
        shift = max(-12.0, min(12.0, shift - excess / slope))
    return shift


def _unseen(obs: Observation, hand: int) -> list[int]:
    unseen = [c for c in obs.rules.deck(obs.players) if not (hand >> c) & 1]
    if obs.turn_up is not None and obs.turn_up in unseen:
        unseen.remove(obs.turn_up)
    return unseen


def bid_chances(obs: Observation) -> tuple[list[float], list[float]]:
    """For each card, as seen when bidding: its chance of winning a trick when the seat
    tries to win (the fitted model), and its chance of winning even when the seat tries
    to lose (the chance that no opponent holds a card that beats it). A blind seat: each
    card wins one trick in ``players`` either way. With the trump still hidden, the
    average over the four suits as trump."""
    if obs.hand is None:
        blind = [1.0 / obs.players] * obs.hand_size
        return blind, blind
    unseen = _unseen(obs, obs.hand)
    if obs.trump_known or obs.tables is not None:
        tables_list = [_tables(obs)]
    else:
        jokers = obs.rules.spec.play.jokers == "trump"
        tables_list = [build_tables(trump=s, jokers_as_trump=jokers) for s in range(4)]
    most = [0.0] * obs.hand_size
    least = [0.0] * obs.hand_size
    share = 1.0 / len(tables_list)
    deck = obs.rules.deck(obs.players)
    turn_up = obs.turn_up is not None
    for tables in tables_list:
        rows = card_features(obs.hand, tables, unseen, obs.players, obs.hand_size)
        logits = [_logit(trump, row) for trump, row in rows]
        shift = table_shift(deck, tables, obs.players, obs.hand_size, turn_up)
        for i, (z, (_, row)) in enumerate(zip(logits, rows, strict=True)):
            chance = _sigmoid(z + shift)
            most[i] += share * chance
            least[i] += share * min(chance, row[1])
    return most, least


def win_chances(obs: Observation) -> list[float]:
    """Each card's chance of winning a trick when the seat tries to win it (see
    :func:`bid_chances`)."""
    return bid_chances(obs)[0]


def estimate_tricks(obs: Observation) -> float:
    """Expected tricks of the seat's hand: the sum of its cards' chances of winning."""
    return sum(win_chances(obs))


def trick_distribution(chances: Sequence[float]) -> list[float]:
    """The chance of taking exactly 0, 1, ... tricks when each card wins independently.

    >>> trick_distribution([0.5, 0.5])
    [0.25, 0.5, 0.25]
    """
    dist = [1.0]
    for p in chances:
        grown = [0.0] * (len(dist) + 1)
        for tricks, q in enumerate(dist):
            grown[tricks] += q * (1.0 - p)
            grown[tricks + 1] += q * p
        dist = grown
    return dist


def _partners(obs: Observation, seat: int) -> bool:
    """Whether ``seat`` is this seat's partner."""
    return any(seat in team and obs.seat in team and seat != obs.seat for team in obs.partnerships)


def bid_values(
    obs: Observation, most: Sequence[float], least: Sequence[float]
) -> dict[int, tuple[float, float]]:
    """For each bid from 0 to the hand size: its expected score and its chance of being
    exact under the game's scoring. Two models, mixed with weight :data:`CONTROL`: the
    tricks are those of the cards' chances when trying to win (``most``, per card); or
    the play holds the tricks to the bid between the fewest the cards must take
    (``least``, per card) and the most they can take, so the bid is missed only when
    even ducking takes more or even trying takes fewer."""
    fewest = trick_distribution(least)
    greatest = trick_distribution(most)
    scoring = obs.rules.scoring
    size, players = obs.hand_size, obs.players
    values: dict[int, tuple[float, float]] = {}
    for bid in range(size + 1):
        over = [(t, q) for t, q in enumerate(fewest) if t > bid]
        under = [(t, q) for t, q in enumerate(greatest) if t < bid]
        exact = max(0.0, 1.0 - sum(q for _, q in over) - sum(q for _, q in under))
        score = exact * scoring.score_of(bid, bid, size, players)
        score += sum(q * scoring.score_of(bid, t, size, players) for t, q in over + under)
        natural = sum(q * scoring.score_of(bid, t, size, players) for t, q in enumerate(greatest))
        natural_exact = greatest[bid] if bid < len(greatest) else 0.0
        values[bid] = (
            CONTROL * score + (1 - CONTROL) * natural,
            CONTROL * exact + (1 - CONTROL) * natural_exact,
        )
    return values


def legal_choices(observation: Observation) -> tuple[Action, ...]:
    """The seat's legal actions now (``ValueError`` when it has none: it is not its turn)."""
    actions = observation.legal_actions
    if not actions:
        raise ValueError(f"seat {observation.seat} has no legal action now")
    return actions


class HeuristicBot:
    """Bids what its estimate says scores best and plays to make the bid exactly.

    >>> HeuristicBot(seed=0).name
    'heuristic'
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        actions = legal_choices(observation)
        if len(actions) == 1:
            return actions[0]
        policy = policy_for(observation.rules.hooks, actions)
        if policy is not None:
            return policy(observation, self.rng)
        kind = actions[0].kind
        if kind == BID:
            return self._bid(observation)
        if any(a.kind == PLAY for a in actions):
            return self._play(observation)
        return self.rng.choice(actions)

    def _bid(self, obs: Observation) -> Action:
        most, least = bid_chances(obs)
        values = bid_values(obs, most, least)
        mean = sum(most)

        def value(action: Action) -> tuple[float, float]:
            bid = int(action.value)
            score, exact = values.get(bid, (-math.inf, 0.0))
            # The exact chance breaks ties (a cooperative game scores nothing).
            return score + 0.01 * exact, -abs(bid - mean)

        return max(obs.legal_actions, key=value)

    def tricks_wanted(self, obs: Observation) -> int:
        """Tricks still wanted this hand: the bid not yet made (every trick where there
        is no bid to make exactly: Pluck, Euchre, Buckup)."""
        if not keeps_engine_bids(obs.rules.hooks):
            return obs.hand_size
        return (obs.bids[obs.seat] or 0) - obs.tricks_won[obs.seat]

    def _play(self, obs: Observation) -> Action:
        tables = _tables(obs)
        legal = [int(a.value) for a in obs.legal_actions]
        need = self.tricks_wanted(obs)
        trick = obs.current_trick
        out = _outstanding(obs)

        def threats(card: int, led: int) -> int:
            """Cards still out (in no known place) that would beat ``card``."""
            strength = tables.key(card, led)
            return sum(1 for other in out if tables.key(other, led) > strength)

        if not trick:
            return Action(PLAY, self._lead(obs, tables, legal, need, threats))
        led = tables.suit_of[trick[0][1]]
        best = max(_key(tables, c, led) for _, c in trick)
        playing = obs.players if obs.active is None else sum(obs.active)
        last = len(trick) == playing - 1

        def strength(card: int) -> tuple[int, int]:
            return _key(tables, card, led), tables.rank_of[card]

        winners = sorted((c for c in legal if _key(tables, c, led) > best), key=strength)
        losers = sorted((c for c in legal if _key(tables, c, led) <= best), key=strength)
        leading_seat = max(trick, key=lambda sc: _key(tables, sc[1], led))[0]
        if need > 0 and losers and _partners(obs, leading_seat) and last:
            return Action(PLAY, losers[0])
        if need > 0 and not obs.misere:
            if winners and last:
                return Action(PLAY, winners[0])
            if winners:
                # The cheapest card nobody left can beat, else the strongest.
                sure = [c for c in winners if threats(c, led) == 0]
                return Action(PLAY, sure[0] if sure else winners[-1])
            return Action(PLAY, losers[0])
        if losers:
            return Action(PLAY, losers[-1])
        return Action(PLAY, winners[-1] if last else winners[0])

    def _lead(
        self,
        obs: Observation,
        tables: CardTables,
        legal: list[int],
        need: int,
        threats: Callable[[int, int], int],
    ) -> int:
        """The card to lead: wanting tricks, a card nobody can beat (the cheapest) or
        else the strongest; not wanting any, the card most others can beat."""
        suit_of = tables.suit_of
        if need > 0 and not obs.misere:
            sure = [c for c in legal if threats(c, suit_of[c]) == 0]
            if sure:
                return min(sure, key=lambda c: (tables.key(c, suit_of[c]), c))
            return max(legal, key=lambda c: (tables.key(c, suit_of[c]), c))
        return max(legal, key=lambda c: (threats(c, suit_of[c]), -tables.rank_of[c], -c))


def _outstanding(obs: Observation) -> list[int]:
    """Cards not in this seat's hand, not played and not the turn-up: those the others
    may hold."""
    gone = (obs.hand or 0) | obs.played
    cards = [c for c in obs.rules.deck(obs.players) if not (gone >> c) & 1]
    if obs.turn_up is not None and obs.turn_up in cards:
        cards.remove(obs.turn_up)
    return cards
