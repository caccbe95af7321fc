"""Search support for Euchre, the 23-card auction version (docs/games/euchre.md).

**Determinizer.** :class:`EuchreDeterminizer` samples complete states at every
decision a seat is asked for (auction calls, the declarer's three discards, cards)
and at any other moment of a hand. What a seat knows: its own cards, the whole
auction, the contract (once the auction is over), the cards played, the voids shown
by failing to follow suit, and, only for the declarer, the kitty and its own
discards. Voids are in *effective* suits (the hand's card tables): with a trump the
left bower is a trump, so failing to follow trumps shows that no bower is held, and
a seat that plays the left bower on its printed suit's lead shows nothing (the
engine never allows it). The deck has no joker; a free class of cards would be
handled by the same counting.

**Uniform part.** The hidden cards are placed *exactly uniformly* among the
placements consistent with those facts, by the Oh Hell determinizer's counting
sampler (:class:`~tricktaker.bots.determinize.CardPlacement`, through
:class:`_Placement`; a plain shuffle when no void is known): the buckets are the
other seats' current hands (sized by the cards each has played) and one free bucket,
which holds the kitty during the auction and, for a seat other than the declarer,
the declarer's three discards during the play. For a seat other than the declarer,
the declarer's eight cards (the five it played or holds, and its three discards) are
then split uniformly into its five dealt cards and the kitty, and its discards put in
a random order: every split is equally likely under a uniform deal, and none is
visible. :meth:`EuchreDeterminizer.deal` is therefore exactly uniform over the
consistent deals (and discard orders); with ``infer_calls=False`` so are the samples.
The number of discards the declarer has made is not in another seat's observation;
such a seat is given a state in which the declarer is about to make its first
discard.

**Inference** (the default, ``infer_calls=True``). The other seats' calls and the
declarer's discards carry information that hard facts do not. Each uniform deal is
given a weight (:meth:`EuchreDeterminizer.fit`): a factor :data:`MISFIT` for each
call of another seat whose kind (pass, or the trump it names, no trump counting as
one) differs from the heuristic's call with that seat's dealt cards at that point of
the auction, and, for the declarer's sampled discards, for each trump or ace among
them. Deals are drawn until one is accepted with probability equal to its weight
(rejection sampling: exactly the uniform distribution reweighted by that model); if
:data:`TRIES` deals are all refused, one of them is picked in proportion to its
weight (close to, but not exactly, the reweighted distribution). Either way every
sample is consistent with the hard facts; only the probabilities change. The
samples are already distributed by the model, so the sampler has no ``weight``
method (the search bots count every sample once).

The first state is built from a copy of one state positioned at the start of the
hand (the scores, the dealer and the history as the seat sees them): the sampled
cards are dealt with a forced deal (:class:`~tricktaker.engine.base.ChanceOutcome`),
and the hand's auction, the declarer's discards (known or sampled) and the cards
played are replayed through the engine, which checks every action. No public action
depends on the hidden cards, so later samples copy the first and change its cards,
which gives the state a replay would give (tested).

**Rollout policy** (:func:`rollout_action`; it sees every hand). Auction calls are
the heuristic bot's (:mod:`tricktaker.games.euchre.policy`: the cheapest contract the
seat's own hand and its partner's expected trick support, pass when the partner
holds the high bid), from precomputed per-card weights; the declarer discards its
weakest side cards, keeping trumps and aces and emptying short suits first. The cards
are the shared card policy of every game where each trick counts
(:func:`tricktaker.bots.rollout.rollout_card`, with full information: win a trick as
cheaply as the seat surely can, unless the partner already holds it, else play low;
the compiled kernel plays the same cards). Euchre's own card rules (trumps led first
by the declaring side, a suit the partner wins led) were measured against it and
dropped (bench/README.md, "One rollout card policy").

**Rewards** (:func:`rewards`): a partnership's points for the hand against the other
side's, counted only up to the game's target, over 4 (so 2 points make 0.5), plus
0.5 to the side that reaches the target with this hand and minus 0.5 to the other.
Both partners share the reward; a thrown-in hand is worth 0.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import lru_cache

from tricktaker.bots.determinize import CardPlacement, known_voids
from tricktaker.bots.gamesearch import GameSearch
from tricktaker.bots.rollout import rollout_card
from tricktaker.cards import ACE, cards_of, parse_card
from tricktaker.engine.actions import PLAY, Action, play
from tricktaker.engine.base import ChanceOutcome
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFacts, hand_start, with_hidden
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.engine.tables import build_tables
from tricktaker.games.euchre.hooks import (
    AUCTION,
    BID_ACTIONS,
    BIDS,
    DISCARD,
    PASS,
    PASS_ACTION,
    EuchreData,
    EuchreHooks,
    bid_rank,
    contract_of,
)
from tricktaker.games.euchre.policy import PARTNER_TRICKS

__all__ = [
    "SEARCH",
    "EuchreDeterminizer",
    "contract_estimates",
    "heuristic_call",
    "rewards",
    "rollout_action",
]

KING = ACE - 1
KITTY = 3
"""Cards in the kitty (docs/games/euchre.md, Deal and trump: 5 cards each, 3 in the kitty)."""
HAND = 5
"""Cards dealt to each player."""


# ------------------------------------------------------------------ determinizer


class _Placement(CardPlacement):
    """The counting sampler over Euchre's unseen cards, their effective suits (the left
    bower counts as trump) and the voids shown; its spreads are kept, since every sample
    asks for the same ones."""

    def __init__(
        self, obs: Observation, unknown: list[int], counts: list[int], voids: list[int]
    ) -> None:
        self.split_memo: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}
        suit_of = obs.tables.suit_of if obs.tables is not None else None
        super().__init__(
            obs.players,
            [s for s in range(obs.players) if s != obs.seat],
            unknown,
            [suit_of[c] if suit_of is not None else 0 for c in unknown],
            counts,
            voids,
        )

    def _splits(self, k: int, state: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """The base class's spreads, kept: every sample asks for the same ones."""
        key = (k, state)
        found = self.split_memo.get(key)
        if found is None:
            found = self.split_memo[key] = list(super()._splits(k, state))
        return iter(found)

    def sample_cards(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """The base class's exact sampler; with no void to respect, a plain shuffle
        (every placement equally likely)."""
        if self.groups:
            return super().sample_cards(rng)
        pool = self.unknown[:]
        rng.shuffle(pool)
        held: list[list[int]] = [[] for _ in range(self.players)]
        for seat in self.hidden_seats:
            take = self.counts[seat]
            held[seat] = pool[:take]
            del pool[:take]
        return held, pool


def _cards(texts: object) -> list[int]:
    assert isinstance(texts, list)
    return [parse_card(str(text)) for text in texts]


_Deal = tuple[list[list[int]], list[int], list[int]]
"""The cards dealt to each seat, the kitty, and the declarer's discards (in order)."""


def _by_weight(deals: list[tuple[float, _Deal]], rng: random.Random) -> _Deal:
    """One of ``deals``, with probability proportional to its weight."""
    pick = rng.random() * sum(weight for weight, _ in deals)
    for weight, deal in deals:
        pick -= weight
        if pick < 0:
            return deal
    return deals[-1][1]


class EuchreDeterminizer:
    """Samples Euchre states consistent with one observation (see the module notes).

    ``infer_calls``: weigh the deals by how well the heuristic's auction calls explain
    the other seats' calls (see the module notes); without it the deals are exactly
    uniform.

    >>> from tricktaker import load_ruleset, new_game
    >>> state = new_game(load_ruleset("euchre"), players=4, seed=3)
    >>> state.apply_chance()
    >>> seat = state.to_act()[0]
    >>> sampled = EuchreDeterminizer(state.observe(seat)).sample(random.Random(0))
    >>> sampled.hands[seat] == state.hands[seat], sampled.phase_name
    (True, 'auction')
    """

    def __init__(self, obs: Observation, *, infer_calls: bool = True) -> None:
        if not isinstance(obs.rules.hooks, EuchreHooks):
            raise ValueError(f"{obs.rules.id} is not a game of Euchre")
        if obs.phase not in ("auction", "discard", "playing"):
            raise ValueError(f"there is nothing to determinize in phase {obs.phase}")
        if obs.hand is None:
            raise ValueError("a Euchre player always sees its own cards")
        self.obs = obs
        n, me = obs.players, obs.seat
        extra = obs.extra
        self.auction = [(int(s), str(text)) for s, text in extra["auction"]]
        contract = extra.get("contract")
        self.declarer: int | None = None if contract is None else int(contract["declarer"])
        mine = self.declarer == me
        self.kitty = _cards(extra["kitty"]) if mine else []
        self.discards = _cards(extra["discards"]) if mine else []
        self.plays = [sc for trick in (*obs.tricks, obs.current_trick) for sc in trick]
        self.played: list[list[int]] = [[] for _ in range(n)]
        for s, card in self.plays:
            self.played[s].append(card)
        counts = [0 if s == me else HAND - len(self.played[s]) for s in range(n)]
        if obs.phase == "discard" and not mine:
            assert self.declarer is not None
            counts[self.declarer] = HAND + KITTY  # before its first discard
        known = obs.hand | obs.played
        for card in self.discards:
            known |= 1 << card
        self.setup = setup = Setup.of(obs.rules, n)
        unknown = [c for c in setup.deck if not (known >> c) & 1]
        voids = known_voids(obs) if obs.phase == "playing" else [0] * n
        self.placement = _Placement(obs, unknown, counts, voids)
        self.base = hand_start(obs)
        self.template: GameState | None = None
        self.calls = _informative_calls(self.auction, me, setup) if infer_calls else []
        # The declarer's discards are sampled only by the other seats, during the play.
        self.weigh_discards = infer_calls and obs.phase == "playing" and not mine
        self.infer = bool(self.calls) or self.weigh_discards

    def hidden_facts(self) -> HiddenFacts:
        """What the seat knows of the hidden cards, as its counting sampler places them
        (the other seats' unseen cards and the voids they showed; the kitty and, for a
        seat other than the declarer, the discards are out of play); the inference from
        the calls and the discards is soft evidence on top."""
        soft = ("calls",) * bool(self.calls) + ("discards",) * self.weigh_discards
        return self.placement.hidden_facts(self.obs.seat, soft_evidence=soft)

    def deal(self, rng: random.Random) -> _Deal:
        """Uniformly among the consistent deals: the cards dealt to each seat, the
        kitty, and the declarer's discards so far (in order)."""
        obs, me, declarer = self.obs, self.obs.seat, self.declarer
        held, free = self.placement.sample_cards(rng)
        held[me] = cards_of(obs.hand or 0)
        dealt = [self.played[s] + held[s] for s in range(obs.players)]
        discards = self.discards
        if declarer is None:  # the auction: the free cards are the kitty
            kitty = free
        elif declarer == me:
            kitty = self.kitty
            dealt[me] = [c for c in dealt[me] + discards if c not in kitty]
        else:
            if obs.phase == "playing":
                discards = free
                rng.shuffle(discards)
            eight = dealt[declarer] + discards
            kitty = rng.sample(eight, KITTY)
            dealt[declarer] = [c for c in eight if c not in kitty]
            if obs.phase == "discard":
                discards = []
        return dealt, kitty, discards

    def fit(self, deal: _Deal) -> float:
        """How well a deal explains what the other seats did (1.0: all fits):
        :data:`MISFIT` for each call of another kind than the heuristic's with the
        caller's dealt cards, and for each sampled discard that is a trump or an ace
        (declarers discard their weakest side cards)."""
        weight = 1.0
        dealt, _, discards = deal
        bowers = self.setup.bowers
        for seat, kind, high, partner in self.calls:
            hand = 0
            for card in dealt[seat]:
                hand |= 1 << card
            if _call_kind(heuristic_call(hand, bowers, high, partner)) != kind:
                weight *= MISFIT
        if self.weigh_discards:
            tables = self.obs.tables
            assert tables is not None
            for card in discards:
                if tables.trump_key[card] or card % 13 == ACE:
                    weight *= MISFIT
        return weight

    def deal_weight(self, state: GameState) -> float:
        """How much likelier :meth:`sample` draws the placement of ``state``'s hidden
        cards than a uniform draw would (up to a constant): the inference's
        :meth:`fit`, averaged over what the placement leaves open, as :meth:`deal` draws
        it (for a seat other than the declarer, which of the declarer's eight cards were
        the kitty; during the play, its discards are the unseen cards no hand holds).
        The coach's exact values (:mod:`tricktaker.coach.exact`) weigh every placement
        by it; 1.0 without the inference."""
        if not self.infer:
            return 1.0
        obs, me, declarer = self.obs, self.obs.seat, self.declarer
        held = [cards_of(cards) for cards in state.hands]
        dealt = [self.played[s] + held[s] for s in range(obs.players)]
        if declarer is None:
            kitty = [c for c in self.placement.unknown if not any(h >> c & 1 for h in state.hands)]
            return self.fit((dealt, kitty, []))
        if declarer == me:
            return self.fit((dealt, self.kitty, self.discards))
        discards: list[int] = []
        if obs.phase == "playing":
            discards = [
                c for c in self.placement.unknown if not any(h >> c & 1 for h in state.hands)
            ]
        eight = dealt[declarer] + discards
        total = 0.0
        splits = 0
        for taken in itertools.combinations(eight, KITTY):
            dealt[declarer] = [c for c in eight if c not in taken]
            total += self.fit((dealt, list(taken), discards))
            splits += 1
        return total / splits

    def sample(self, rng: random.Random) -> GameState:
        """A complete state consistent with the observation."""
        candidate = self.deal(rng)
        if self.infer:
            tried: list[tuple[float, _Deal]] = []
            while rng.random() >= (weight := self.fit(candidate)):
                tried.append((weight, candidate))
                if len(tried) == TRIES:  # none accepted: resample the deals tried by weight
                    candidate = _by_weight(tried, rng)
                    break
                candidate = self.deal(rng)
        if self.template is None:
            state = self._build(*candidate)
            self.template = state.clone()
            return state
        return self._refill(*candidate)

    def _build(self, dealt: list[list[int]], kitty: list[int], discards: list[int]) -> GameState:
        """The state with this deal, the hand's actions replayed through the engine.

        Only the first sample is replayed: no action of the hand depends on hidden cards
        but the discards, which are put back with the cards, so a later sample copies
        the first and changes its cards (:meth:`_refill`), giving the state a replay
        would give."""
        state = self.base.clone()
        state.apply_chance(ChanceOutcome("deal", state.deck_order_for(dealt, kitty=kitty)))
        for seat, text in self.auction:
            state.apply(seat, _call_action(text))
        declarer = self.declarer
        for card in discards:
            assert declarer is not None
            state.apply(declarer, Action(DISCARD, card))
        for seat, card in self.plays:
            state.apply(seat, play(card))
        if state.phase_name != self.obs.phase:
            raise ValueError(f"cannot replay the observation (stuck in {state.phase_name})")
        return state

    def _refill(self, dealt: list[list[int]], kitty: list[int], discards: list[int]) -> GameState:
        """A copy of the replayed sample with these cards, as a replay would give it."""
        assert self.template is not None
        declarer = self.declarer
        lists = [list(cards) for cards in dealt]
        if declarer is not None and self.obs.phase != "auction":
            taken = lists[declarer] + kitty  # the declarer took the kitty...
            for card in discards:  # ...and discarded
                taken.remove(card)
            lists[declarer] = taken
        hands = []
        for seat, cards in enumerate(lists):
            held = 0
            for card in cards:
                held |= 1 << card
            for card in self.played[seat]:
                held &= ~(1 << card)
            hands.append(held)
        state = with_hidden(self.template, hands=hands, dealt=lists, kitty=kitty)
        data = state.ext
        assert isinstance(data, EuchreData)
        data.discards = list(discards)
        return state


MISFIT = 0.25
"""The inference's factor for each call of another kind than the heuristic's (pass, or
a bid in another trump or at no trump) and each trump or ace among sampled discards."""
TRIES = 12
"""Deals drawn per sample before resampling them by weight."""


def _call_kind(text: str) -> int:
    """5 for a pass, else the bid's trump suit (4 at no trump)."""
    if text == PASS:
        return 5
    trump = contract_of(text)[1]
    return 4 if trump is None else trump


def _informative_calls(
    auction: list[tuple[int, str]], me: int, setup: Setup
) -> list[tuple[int, int, tuple[int, str] | None, int]]:
    """The calls of the other seats that depend on their cards: ``(seat, kind, high bid
    before the call, partner)``; a pass while the partner holds the high bid shows
    nothing (the heuristic always passes then)."""
    partners = _partner_of(setup.partnerships)
    out = []
    high: tuple[int, str] | None = None
    for seat, text in auction:
        partner = partners[seat]
        if seat != me and not (high is not None and high[0] == partner):
            out.append((seat, _call_kind(text), high, partner))
        if text != PASS:
            high = (seat, text)
    return out


# ---------------------------------------------------------------- rollout policy


@lru_cache(maxsize=8)
def _partner_of(partnerships: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    out = [-1] * (1 + max(s for team in partnerships for s in team))
    for team in partnerships:
        for seat in team:
            out[seat] = next((s for s in team if s != seat), -1)
    return tuple(out)


@lru_cache(maxsize=4)
def _trump_weights(bowers: str | None) -> tuple[tuple[tuple[float, ...], int], ...]:
    """Per trump suit: each card's weight in the heuristic's trump estimate
    (:func:`tricktaker.games.euchre.policy.trump_estimate`) and the trump suit's cards."""
    out = []
    for trump in range(4):
        tables = build_tables(trump=trump, jokers_as_trump=False, bowers=bowers)
        weights = [0.0] * 54
        for card in range(52):
            if tables.suit_of[card] == trump:
                rank = tables.rank_of[card]
                weights[card] = {14: 1.0, 13: 0.85, ACE: 0.7, KING: 0.5}.get(rank, 0.3)
            elif card % 13 == ACE:
                weights[card] = 0.7
        out.append((tuple(weights), tables.suit_masks[trump]))
    return tuple(out)


def contract_estimates(hand: int, bowers: str | None) -> list[float]:
    """The heuristic's trick estimates of ``hand`` (without the partner's share) with
    each trump suit 0-3 and, last, at no trump; equal to
    :func:`~tricktaker.games.euchre.policy.trump_estimate`, computed faster.

    >>> from tricktaker.cards import card_set
    >>> [round(x, 2) for x in contract_estimates(card_set("JD JH AH AC 9C".split()), "left_high")]
    [1.7, 3.25, 3.5, 1.4, 2.0]
    """
    (w0, m0), (w1, m1), (w2, m2), (w3, m3) = _trump_weights(bowers)
    t0 = t1 = t2 = t3 = no_trump = 0.0
    rest = hand
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        rest ^= low
        t0 += w0[card]
        t1 += w1[card]
        t2 += w2[card]
        t3 += w3[card]
        rank = card % 13
        if rank == ACE:
            no_trump += 1.0
        elif rank == KING and ((hand >> (card - rank)) & 0x1FFF).bit_count() >= 2:
            no_trump += 0.6
    return [
        t0 + max(0, (hand & m0).bit_count() - 2) * 0.25,
        t1 + max(0, (hand & m1).bit_count() - 2) * 0.25,
        t2 + max(0, (hand & m2).bit_count() - 2) * 0.25,
        t3 + max(0, (hand & m3).bit_count() - 2) * 0.25,
        no_trump,
    ]


_CONTRACTS = tuple((text, *contract_of(text)) for text in BIDS)
"""Every bid, lowest first, with its tricks and trump (None at no trump)."""


@lru_cache(maxsize=8192)
def heuristic_call(
    hand: int, bowers: str | None, high: tuple[int, str] | None, partner: int
) -> str:
    """The heuristic's call (:func:`tricktaker.games.euchre.policy.auction`) with ``hand``
    after the high bid ``high`` (seat, bid): ``pass`` when ``partner`` holds it, else the
    cheapest bid its estimate (plus the partner's expected share) supports in its best
    trump, else ``pass``. Kept for the latest few thousand arguments: a search plays
    the same deal's auction again for every choice it compares."""
    if high is not None and high[0] == partner:
        return PASS
    estimates = contract_estimates(hand, bowers)
    values = [e + PARTNER_TRICKS for e in estimates[:4]]
    values.append(estimates[4] + PARTNER_TRICKS * 0.5)
    if max(values) < 3:  # no contract is affordable
        return PASS
    best, choice = -1.0, PASS
    for text, tricks, trump in _CONTRACTS[bid_rank(high[1]) + 1 if high is not None else 0 :]:
        value = values[4 if trump is None else trump]
        if value >= tricks and value > best:
            best, choice = value, text
    return choice


def _call(state: GameState, seat: int) -> Action:
    """The heuristic's auction call from the seat's own hand."""
    data = state.ext
    assert isinstance(data, EuchreData)
    partner = _partner_of(state.setup.partnerships)[seat]
    text = heuristic_call(state.hands[seat], state.setup.bowers, data.high, partner)
    return _call_action(text)


_CALL_ACTIONS = {PASS: PASS_ACTION, **{str(action.value): action for action in BID_ACTIONS}}
"""The hooks' own action of each call (the very objects their legal actions list), by
its text."""


def _call_action(text: str) -> Action:
    """The action of the call written ``text`` (``pass`` or a bid)."""
    found = _CALL_ACTIONS.get(text)
    return found if found is not None else Action(AUCTION, text)


def _discard(state: GameState, seat: int, actions: list[Action]) -> Action:
    """The declarer's weakest card: side cards before trumps, aces last, short suits
    first, then the lowest (at no trump: the lowest card, short suits first)."""
    tables = state.tables
    assert tables is not None
    hand = state.hands[seat]
    suit_of, rank_of, masks = tables.suit_of, tables.rank_of, tables.suit_masks
    trump = state.trump

    def weakness(action: Action) -> int:
        # The order of (trump, ace, length, rank, card) at a trump (of (rank, length,
        # card) at no trump), each part below 100, as one number.
        card = int(action.value)
        suit = suit_of[card]
        length = (hand & masks[suit]).bit_count()
        rank = rank_of[card]
        if trump is None:
            return (rank * 100 + length) * 100 + card
        first = 2 * (suit == trump) + (rank == ACE)
        return ((first * 100 + length) * 100 + rank) * 100 + card

    return min(actions, key=weakness)


def rollout_action(state: GameState, seat: int, actions: list[Action]) -> Action:
    """A fast choice for every decision of a Euchre hand (see the module notes)."""
    kind = actions[0].kind
    if kind == PLAY:
        return rollout_card(state, seat, actions)
    if kind == DISCARD:
        return _discard(state, seat, actions)
    return _call(state, seat)


# ----------------------------------------------------------------------- rewards


def rewards(state: GameState) -> list[float]:
    """Each seat's result of the hand just scored (see the module notes)."""
    result = state.history[-1]
    hooks = state.hooks
    assert isinstance(hooks, EuchreHooks)
    target = hooks.target(state)
    teams = state.setup.partnerships
    points = [result.hand_scores[team[0]] for team in teams]
    totals = [result.total_scores[team[0]] for team in teams]
    useful = [min(p, max(0, target - (t - p))) for p, t in zip(points, totals, strict=True)]
    winner = next((i for i, t in enumerate(totals) if t >= target and points[i]), None)
    out = [0.0] * state.players
    for i, team in enumerate(teams):
        others = max(u for j, u in enumerate(useful) if j != i)
        value = (useful[i] - others) / 4
        if winner is not None:
            value += 0.5 if winner == i else -0.5
        for s in team:
            out[s] = value
    return out


SEARCH = GameSearch(
    determinizer=EuchreDeterminizer,
    rollout_action=rollout_action,
    rewards=rewards,
    searched=None,
    model_opponents=True,
    own_phases="flat",
)
"""The search support of Euchre (its hooks' ``"search"`` capability). Its auction and
discard are chosen by flat play-outs (bench/README.md, "The hook games' own phases and
card play (issue 30)")."""
