"""The Buckup determinizer (docs/games/buckup.md): states consistent with one seat's
observation, for the search bots (:mod:`tricktaker.games.buckup.search`). What the seat
knows of the hand's public history (the order of the decisions, the counts of cards
thrown and drawn, the stocks) is read by :mod:`tricktaker.games.buckup.history`.

**Distribution.** A *world* is the deal (every seat's five cards in order and the
stock's order), each shuffle of the discards into a new stock, and the cards each
player threw. Every world is equally likely under fair shuffles, so the sampler aims at
the uniform distribution over the worlds consistent with what the seat knows (*not*
weighted by how likely each player's decisions were with those cards: a stay does not
make a strong hand likelier, just as the Oh Hell determinizer ignores the bids). It
samples where every card is *now* (each other seat's hand, the stock, the discard
pile), then a history that leads there, and replays it through the engine:

- Cards the seat has never seen are interchangeable except for the voids: for a given
  placement of the cards it knows, every placement of the unseen ones has the same
  number of worlds (the number of worlds of a placement is the number of ways to tell
  which of each other player's cards it kept and which it drew from which stock, and
  which player threw each card of a stock; this depends only on how many cards are
  forced one way). They are placed exactly uniformly by the Oh Hell
  determinizer's counting sampler (:class:`~tricktaker.bots.determinize.CardPlacement`,
  through :class:`_Placement`): the buckets are the other seats' hands, the
  stock and the discard pile.
- Cards it knows that went into a new stock (its own discards, or a thrown scare card,
  once the discards were shuffled into a stock) may now be in the hand of a player who
  drew from that stock, or in the stock. Every placement of them is weighted by its
  exact number of worlds: the labelling count of each player's hand times the number
  of placements of the unseen cards (the counting sampler's count, which takes the
  voids into account, times the ways to split each bucket shared by several places).
  This is exact (and checked against a simulation of fair shuffles: a discard goes
  to each player who drew from the new stock, or stays in it, in proportion to the
  cards drawn or left); beyond 20,000 placements (not met in testing)
  they are placed one by one uniformly among the possible places instead (close to
  uniform, not exact).
- The history is then sampled uniformly given the placement: which of each player's
  cards it kept and which it drew from which stock (the forced ones first), which
  player threw each card of a stock (the seat's own discards and the scare cards are
  forced), the stock's order (drawn cards first, the rest shuffled).

Two moments hide a little more. While another player discards, nobody sees how many
cards it has thrown so far (they go face down, and the fee is paid at the draw): every
count is taken as equally likely (a thrown scare card, seen by all, is always among
them), then which of its cards uniformly. While another player answers the 19 redeal,
its hand qualifies: its unseen cards are drawn uniformly among the completions that
qualify (:func:`_nineteen_completions`), the rest shuffled.

Hence the sample is exactly uniform over the worlds consistent with the observation,
with these reservations: the 19 redeal is otherwise not part of the observation (a
player who keeps a qualifying hand says nothing at the table, so which hands qualified
is not used: a sampled seat holding one simply kept it), the count of another player's
discards in progress above, the order of decisions above, the fall-back above, and the
Oh Hell counting's own fall-back (more than 100,000 counting states: many seats with
different voids).

**Weights** (:meth:`BuckupDeterminizer.weight`). The samples are uniform, but the
bots may weigh each by how likely the other players' decisions were with its cards
(an importance weight, as the Oh Hell bid model does): a stay (or a come-back) is
likelier the more the hand's strength
(:func:`~tricktaker.games.buckup.history.hand_strength`, the rollout policy's measure)
exceeds what the rollout policy needs at that moment, by a logistic of spread
:data:`DECISION_SPREAD`, and a number of discards the likelier the closer it is to the
policy's; each factor has a floor (:data:`DECISION_FLOOR`) for players who follow other
rules.

The state is built from a copy of one state at the start of the hand (the stacks and
pot before the ante, the scores, the dealer and the history as the seat sees them):
the ante is replayed, the sampled cards dealt by a forced deal, every qualifying seat
keeps, and the decisions, the discards and the draws (forced chance outcomes) and the
"""

from __future__ import annotations

import dataclasses
import math
import random
from math import factorial
from typing import Any

from tricktaker.bots.determinize import (
    CardPlacement,
    _CountTooLargeError,
    known_voids,
)
from tricktaker.cards import cards_of, parse_card
from tricktaker.engine.actions import Action, play
from tricktaker.engine.base import ChanceOutcome
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFacts, HiddenFactsError
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.games.buckup.history import (
    DECISIONS,
    PILE,
    Draw,
    Flow,
    ante_action,
    dealt_size,
    hand_start,
    hand_strength,
    public_script,
    throwaways,
)
from tricktaker.games.buckup.hooks import (
    A_DRAW,
    A_KEEP,
    COME_BACK,
    DISCARD,
    FULL_HAND,
    STAY,
    BuckupHooks,
    is_nineteen_hand,
)

__all__ = ["DECISION_FLOOR", "DECISION_SPREAD", "BuckupDeterminizer"]

STOCK = -1
"""The placement's bucket for the stock (besides the seats and the discard pile)."""
_MAX_PLACEMENTS = 20_000
"""Placements of the known cards in new stocks weighed exactly before the fall-back."""
DECISION_SPREAD = 0.3
"""How sharply the decision model of :meth:`BuckupDeterminizer.weight` turns from fold
to stay around the strength needed (a logistic of the difference over this)."""
DECISION_FLOOR = 0.25
"""The decision model's floor: a decision against the model is still this likely
relative to one that follows it (players use other rules: random, cautious or bold
players), so that no consistent deal is all but ruled out."""


def _cards(texts: Any) -> list[int]:
    return [parse_card(str(text)) for text in texts or ()]


# ------------------------------------------------------------------ placement


class _Placement(CardPlacement):
    """The counting sampler over Buckup's unseen cards: ``counts[seat]`` unseen cards go
    to each seat other than the observer, none of them in a suit of ``voids[seat]``; the
    rest of ``unknown`` forms the free bucket (the stock and the discard pile). The
    counts may change from one sample to the next (:meth:`ways`, :meth:`place`); the
    seats with voids are fixed, so the counts are checked by :meth:`ways`."""

    def __init__(
        self, obs: Observation, unknown: list[int], counts: list[int], voids: list[int]
    ) -> None:
        super().__init__(
            obs.players,
            [s for s in range(obs.players) if s != obs.seat],
            unknown,
            [card // 13 for card in unknown],
            counts,
            voids,
            count=False,
        )

    def _room(self, counts: list[int]) -> tuple[int, ...]:
        return tuple(sum(counts[s] for s in seats) for _, seats in self.groups)

    def ways(self, counts: list[int], free: list[int]) -> int:
        """Placements of the unseen cards with ``counts`` cards in each seat and the free
        bucket split into parts of the sizes ``free`` (1 once counting is too large).

        The counting sampler counts which cards go to each bucket; a bucket shared by
        several seats (the free one, or seats with the same voids) is then split in
        ``multinomial`` ways, which depends on the counts."""
        if not self.exact:
            return 1
        try:
            out = self._ways(0, self._room(counts))
        except _CountTooLargeError:
            self.exact = False
            return 1
        for _, seats in self.groups:
            out *= _multinomial([counts[s] for s in seats])
        parts = [counts[s] for s in self.hidden_seats if s not in self.restricted]
        return out * _multinomial(parts + free)

    def place(self, rng: random.Random, counts: list[int]) -> tuple[list[list[int]], list[int]]:
        """Each seat's unseen cards and the free ones (in random order), uniformly."""
        if not self.groups:  # no voids: a shuffle is uniform
            pool = self.unknown[:]
            rng.shuffle(pool)
            held: list[list[int]] = [[] for _ in range(self.players)]
            at = 0
            for s in self.hidden_seats:
                held[s] = pool[at : at + counts[s]]
                at += counts[s]
            return held, pool[at:]
        self.counts = counts
        self.start = self._room(counts)
        return self.sample_cards(rng)


def _multinomial(parts: list[int]) -> int:
    """Ways to split ``sum(parts)`` distinct cards into parts of these sizes."""
    out = factorial(sum(parts))
    for part in parts:
        out //= factorial(part)
    return out


def _labelling(size: int, kept: int, slots: list[int], forced_kept: int, forced: list[int]) -> int:
    """Ways to tell which of a player's ``size`` cards it kept (``kept``) and which it
    drew from each stock (``slots``), ``forced_kept`` and ``forced[i]`` of them being
    known to be kept or drawn from stock ``i``."""
    free = size - forced_kept - sum(forced)
    rest = [kept - forced_kept, *(c - f for c, f in zip(slots, forced, strict=True))]
    if free < 0 or min(rest) < 0:
        return 0
    out = factorial(free)
    for count in rest:
        out //= factorial(count)
    return out


def _nineteen_completions(
    unknown: list[int], count: int, fixed: list[int]
) -> list[tuple[int, ...]]:
    """Every set of ``count`` cards of ``unknown`` that, with the ``fixed`` cards, makes
    a hand that allows the 19 redeal (the rule is the hooks'
    :func:`~tricktaker.games.buckup.hooks.is_nineteen_hand`, stated there only).

    The cards are tried from the lowest rank up, and a branch ends as soon as the
    lowest cards left cannot complete a qualifying hand: a hand that qualifies still
    does with a card replaced by a lower one, so no later (higher) cards can either."""
    pool = sorted(unknown, key=lambda c: c % 13)
    out: list[tuple[int, ...]] = []

    def walk(start: int, chosen: list[int]) -> None:
        left = count - len(chosen)
        if left == 0:
            if is_nineteen_hand(fixed + chosen):
                out.append(tuple(chosen))
            return
        for i in range(start, len(pool) - left + 1):
            if not is_nineteen_hand(fixed + chosen + pool[i : i + left]):
                break  # the lowest completion from here fails: every later one does
            chosen.append(pool[i])
            walk(i + 1, chosen)
            chosen.pop()

    walk(0, [])
    return out


def _choose(weights: list[int], rng: random.Random) -> int:
    """An index with probability proportional to its (exact integer) weight."""
    pick = rng.randrange(sum(weights))
    for index, weight in enumerate(weights):
        if pick < weight:
            return index
        pick -= weight
    raise AssertionError("unreachable")


# --------------------------------------------------------------- determinizer


class BuckupDeterminizer:
    """Samples Buckup states consistent with one observation (see the module notes).

    >>> from tricktaker import load_ruleset, new_game
    >>> from tricktaker.games.buckup.hooks import ANTE_ACTION
    >>> state = new_game(load_ruleset("buckup"), players=4, seed=3)
    >>> state.apply(state.dealer, Action(ANTE_ACTION, "kept"))
    >>> state.apply_chance()
    >>> seat = state.to_act()[0]
    >>> sampled = BuckupDeterminizer(state.observe(seat)).sample(random.Random(0))
    >>> sampled.hands[seat] == state.hands[seat], sampled.phase_name == state.phase_name
    (True, True)
    """

    def __init__(self, obs: Observation) -> None:
        if not isinstance(obs.rules.hooks, BuckupHooks):
            raise ValueError(f"{obs.rules.id} is not a game of Buckup")
        if obs.phase not in ("ante", "redeal", "discard", "playing", *DECISIONS):
            raise ValueError(f"there is nothing to determinize in phase {obs.phase}")
        self.obs = obs
        n, me = obs.players, obs.seat
        setup = Setup.of(obs.rules, n)
        self.base = hand_start(obs, setup)
        if obs.phase == "ante":
            return
        if obs.hand is None or obs.turn_up is None:
            raise ValueError("a Buckup player sees its cards and the turn-up once dealt")
        extra = obs.extra
        size = dealt_size(obs)
        self.size = size
        self.ante = ante_action(obs)
        self.script = public_script(obs, self.base)
        flow = self.flow = Flow(self.script, len(setup.deck) - n * size - 1, FULL_HAND - size)
        if flow.left != int(extra["stock"]):
            raise ValueError("the draws do not account for the stock")
        self.plays = [sc for trick in (*obs.tricks, obs.current_trick) for sc in trick]
        played: list[list[int]] = [[] for _ in range(n)]
        for s, card in self.plays:
            played[s].append(card)
        self.played = played
        self.draw_of = {d.seat: d for d in flow.draws}
        self.pending: int | None = None
        """Another seat discarding now: how many cards it has thrown is sampled."""
        if obs.phase == "discard" and obs.to_act != (me,):
            self.pending = obs.to_act[0]
        # The observer's own cards.
        self.my_discards = _cards(extra.get("discarded"))
        my_drew = _cards(extra.get("drew"))
        mine = [*cards_of(obs.hand), *played[me]]
        self.my_kept = [c for c in mine if c not in my_drew]
        self.my_parts: list[list[int]] = []
        if me in self.draw_of:
            at = 0
            for _, count in self.draw_of[me].parts:
                self.my_parts.append(my_drew[at : at + count])
                at += count
        # Scare cards: public, and whether each was thrown.
        scare_text = extra.get("scare_cards") or [None] * n
        self.scare = [parse_card(c) if c is not None else None for c in scare_text]
        thrown = list(extra.get("scare_discarded") or [False] * n)
        known = set(mine) | set(self.my_discards) | {c for c, _ in self._played_cards()}
        known.add(obs.turn_up)
        known |= {c for c in self.scare if c is not None}
        self.unknown = [c for c in setup.deck if c not in known]
        on_table = {c for c, _ in self._played_cards()} | set(mine)
        # Where the known cards are: in a hand, in the discard pile, or in a new stock.
        self.fixed: dict[int, list[int]] = {s: [] for s in range(n) if s != me}
        self.in_pile: list[int] = []
        self.from_stock: dict[int, int] = {}
        """Known cards that went into new stock k (the observer's discards, thrown scare
        cards), wherever they are now."""
        throws: list[tuple[int, int]] = [(me, c) for c in self.my_discards]
        self.kept_scare: dict[int, int] = {}
        for s, scare in enumerate(self.scare):
            if scare is None or s == me:
                continue
            if thrown[s]:
                throws.append((s, scare))
                if s == self.pending:  # thrown just now: still among its dealt cards
                    self.fixed[s].append(scare)
            else:
                self.kept_scare[s] = scare
                if scare not in on_table:
                    self.fixed[s].append(scare)
        self.thrown_by: dict[int, list[int]] = {}
        semi: list[int] = []
        for s, card in throws:
            self.thrown_by.setdefault(s, []).append(card)
            where = flow.pile_of.get(s)
            if where is None:  # the observer's discards, set aside while it draws
                continue
            if where == PILE:
                self.in_pile.append(card)
                continue
            self.from_stock[card] = where
            if card not in on_table:
                semi.append(card)
        self.semi = semi
        # How many cards each other seat holds now, and the unseen part of it.
        voids = known_voids(obs) if obs.phase == "playing" else [0] * n
        self.voids = voids
        counts = [0] * n
        for s in range(n):
            if s == me:
                continue
            holds = FULL_HAND - len(played[s]) if s in self.draw_of else size
            counts[s] = holds - len(self.fixed[s])
        self.pile_unknown = sum(count for _, count in flow.pile) - len(self.in_pile)
        slots = sum(counts) + self.pile_unknown + flow.left
        if slots != len(self.unknown) + len(semi) or min(counts) < 0 or self.pile_unknown < 0:
            raise ValueError("the observation does not add up to a deck")
        self.counts = counts
        self.placement = _Placement(obs, self.unknown, counts, voids)
        self.nineteen: int | None = None
        """Another seat to answer the 19 redeal: its hand qualifies."""
        self._completions: list[tuple[int, ...]] | None = None
        if obs.phase == "redeal" and obs.to_act != (me,):
            self.nineteen = obs.to_act[0]
        self._weigh_placements()

    def hidden_facts(self) -> HiddenFacts:
        """What the seat knows of the hidden cards, as its counting sampler places them:
        the other seats' unseen cards and shown voids, the kept scare cards with their
        holders; the stock and the discard pile are out of play. The stay-or-fold model
        is soft evidence on top. Raises :class:`HiddenFactsError` once cards the seat
        saw went into a new stock (their places are weighed by counting worlds) or
        before the deal."""
        if self.obs.phase == "ante":
            raise HiddenFactsError("nothing is dealt yet")
        if self.semi:
            raise HiddenFactsError(
                "cards the seat saw went into a new stock and may be in another hand"
            )
        fixed = [0] * self.obs.players
        for seat, cards in self.fixed.items():  # kept scare cards
            fixed[seat] = sum(1 << card for card in cards)
        facts = self.placement.hidden_facts(
            self.obs.seat, fixed=fixed, soft_evidence=("stay or fold", "discards")
        )
        return dataclasses.replace(facts, counts=tuple(self.counts))

    def _played_cards(self) -> list[tuple[int, int]]:
        return [(card, s) for s, card in self.plays]

    # ------------------------------------------------- known cards in new stocks

    def _targets(self, card: int) -> list[int]:
        """Where a known card shuffled into a new stock may be now: the hand of another
        player who drew from that stock (not void in its suit), or the stock."""
        k = self.from_stock[card]
        out = [
            d.seat
            for d in self.flow.draws
            if d.seat != self.obs.seat
            and any(stock == k for stock, _ in d.parts)
            and not (self.voids[d.seat] >> (card // 13)) & 1
        ]
        if k == self.flow.stock:
            out.append(STOCK)
        return out

    def _forced(self, seat: int, holding: list[int]) -> tuple[int, list[int]]:
        """How many of ``seat``'s cards after its draw are known to be kept (its scare
        card) and known to be drawn from each stock of its draw."""
        draw = self.draw_of[seat]
        forced = [0] * len(draw.parts)
        index = {stock: i for i, (stock, _) in enumerate(draw.parts)}
        for card in (*self.played[seat], *holding):
            k = self.from_stock.get(card)
            if k is not None and k in index:
                forced[index[k]] += 1
        return (1 if seat in self.kept_scare else 0), forced

    def _weight(self, where: tuple[int, ...]) -> int:
        """Worlds with the known cards in new stocks at ``where`` (one bucket each)."""
        counts = list(self.counts)
        holding: dict[int, list[int]] = {}
        stock = 0
        for card, bucket in zip(self.semi, where, strict=True):
            if bucket == STOCK:
                stock += 1
            else:
                counts[bucket] -= 1
                holding.setdefault(bucket, []).append(card)
        if min(counts) < 0 or stock > self.flow.left:
            return 0
        weight = 1
        for draw in self.flow.draws:
            if draw.seat == self.obs.seat:
                continue
            kept, forced = self._forced(draw.seat, holding.get(draw.seat, []))
            weight *= _labelling(
                FULL_HAND,
                self.size - draw.discards,
                [count for _, count in draw.parts],
                kept,
                forced,
            )
            if not weight:
                return 0
        return weight * self.placement.ways(counts, [self.pile_unknown, self.flow.left - stock])

    def _weigh_placements(self) -> None:
        """Every placement of the known cards in new stocks, with its number of worlds
        (or, beyond :data:`_MAX_PLACEMENTS`, none: they are placed one by one)."""
        self.exact = True
        options = [self._targets(card) for card in self.semi]
        total = 1
        for targets in options:
            total *= len(targets)
        self.options = options
        self.placements: list[tuple[int, ...]] = []
        self.weights: list[int] = []
        if total > _MAX_PLACEMENTS:
            self.exact = False
            return

        def walk(i: int, where: list[int]) -> None:
            if i == len(options):
                weight = self._weight(tuple(where))
                if weight:
                    self.placements.append(tuple(where))
                    self.weights.append(weight)
                return
            for bucket in options[i]:
                where.append(bucket)
                walk(i + 1, where)
                where.pop()

        walk(0, [])
        if not self.weights:
            raise ValueError("no deal is consistent with the observation")
        self.exact = self.placement.exact

    def _sample_where(self, rng: random.Random) -> tuple[int, ...]:
        if self.weights:
            return self.placements[_choose(self.weights, rng)]
        for _ in range(10_000):  # the fall-back: one by one, uniformly
            where = tuple(rng.choice(targets) for targets in self.options)
            if self._weight(where):
                return where
        raise ValueError("no consistent place found for the known cards")

    # ------------------------------------------------------------------- weights

    def weight(self, state: GameState) -> float:
        """How likely the other seats' decisions were with their cards in ``state``, up to
        a constant: each stay, fold, out-for-now, come-back or concession that had a
        choice, and each number of discards, under the rollout policy's rules with noise
        (:data:`DECISION_SPREAD`, :data:`DECISION_FLOOR`). The bots use it as an
        importance weight; the samples themselves are uniform."""
        if self.obs.phase in ("ante", "redeal"):
            return 1.0
        hands = self._dealt_hands(state)
        trump = state.trump
        me = self.obs.seat
        weight = 1.0
        for step in self.script:
            if step.seat == me:
                continue
            hand = hands[step.seat]
            if step.need is not None:
                margin = (hand_strength(hand, trump) - step.need) / DECISION_SPREAD
                yes = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, margin))))
                likely = yes if step.action.kind in (STAY, COME_BACK) else 1.0 - yes
                weight *= DECISION_FLOOR + (1.0 - DECISION_FLOOR) * likely
            if step.discards is not None:
                error = step.discards - len(throwaways(hand, trump))
                weight *= DECISION_FLOOR + (1.0 - DECISION_FLOOR) * math.exp(-0.5 * error * error)
        return weight

    def _dealt_hands(self, state: GameState) -> list[int]:
        """Every seat's dealt cards in ``state`` (from its deal)."""
        order: tuple[int, ...] = ()
        for event in reversed(state.events):
            outcome = event[1]
            if isinstance(outcome, ChanceOutcome) and outcome.kind == "deal":
                order = outcome.cards
                break
        n, size = state.players, self.size
        hands = [0] * n
        for i, seat in enumerate(state.deal_order()):
            for card in order[i : size * n : n]:
                hands[seat] |= 1 << card
        return hands

    # ------------------------------------------------------------------ sampling

    def sample(self, rng: random.Random) -> GameState:
        """A complete state consistent with the observation."""
        obs = self.obs
        state = self.base.clone()
        if obs.phase == "ante":
            return state
        n, me = obs.players, obs.seat
        flow = self.flow
        where = self._sample_where(rng)
        counts = list(self.counts)
        hands: dict[int, list[int]] = {s: list(cards) for s, cards in self.fixed.items()}
        stock: list[int] = []
        for card, bucket in zip(self.semi, where, strict=True):
            if bucket == STOCK:
                stock.append(card)
            else:
                counts[bucket] -= 1
                hands[bucket].append(card)
        if self.nineteen is not None:
            held, free = self._place_nineteen(rng, counts)
        else:
            held, free = self.placement.place(rng, counts)
        for s in hands:
            hands[s].extend(held[s])
        pile = self.in_pile + free[: self.pile_unknown]
        stock.extend(free[self.pile_unknown :])
        rng.shuffle(stock)
        # Each player's cards after the draw: which it kept, which it drew from where.
        kept: dict[int, list[int]] = {}
        drawn: dict[int, list[list[int]]] = {}
        contents: list[list[int]] = [[] for _ in range(flow.stock + 1)]
        for draw in flow.draws:
            s = draw.seat
            if s == me:
                kept[s] = list(self.my_kept)
                drawn[s] = [list(p) for p in self.my_parts]
            else:
                kept[s], drawn[s] = self._label(draw, [*self.played[s], *hands[s]], rng)
            for (k, _), cards in zip(draw.parts, drawn[s], strict=True):
                contents[k].extend(cards)
        orders = [list(cards) for cards in contents]
        orders[flow.stock].extend(stock)
        # Who threw each card of each new stock, and of the discard pile.
        thrown: dict[int, list[int]] = {me: list(self.my_discards)}
        for k in range(1, flow.stock + 1):
            self._split(orders[k], flow.throwers[k], thrown, rng)
        self._split(pile, flow.pile, thrown, rng)
        if self.pending is not None:
            thrown[self.pending] = self._pending_discards(hands[self.pending], rng)
        # The deal: every seat's five cards (its scare card first).
        dealt: list[list[int]] = []
        for s in range(n):
            if s == me:
                cards = self.my_kept + self.my_discards
            elif s in kept:
                cards = kept[s] + thrown[s]
            else:
                cards = hands[s]
            rng.shuffle(cards)
            scare = self.scare[s]
            if scare is not None:
                cards.remove(scare)
                cards.insert(0, scare)
            dealt.append(cards)
        self._replay(state, dealt, orders, thrown, drawn)
        return state

    def _pending_discards(self, cards: list[int], rng: random.Random) -> list[int]:
        """The cards thrown so far by the other seat discarding now, out of its dealt
        ``cards``: how many is not shown, so every possible count is equally likely (a
        thrown scare card, which everyone saw go, is always among them), then which cards
        uniformly."""
        assert self.pending is not None
        known = list(self.thrown_by.get(self.pending, ()))
        loose = [c for c in cards if c not in known and c != self.scare[self.pending]]
        rng.shuffle(loose)
        out = known + loose[: rng.randint(0, len(loose))]
        rng.shuffle(out)
        return out

    def _place_nineteen(
        self, rng: random.Random, counts: list[int]
    ) -> tuple[list[list[int]], list[int]]:
        """The unseen cards when another seat is to answer the 19 redeal: its hand
        qualifies (docs/games/buckup.md, 19 redeal), so its unseen cards are one of the
        qualifying completions, uniformly; the rest are shuffled among the other seats and
        the stock."""
        seat = self.nineteen
        assert seat is not None
        if self._completions is None:
            self._completions = _nineteen_completions(self.unknown, counts[seat], self.fixed[seat])
        if not self._completions:
            raise ValueError(f"seat {seat} cannot hold a hand that allows the 19 redeal")
        mine = self._completions[rng.randrange(len(self._completions))]
        pool = [c for c in self.unknown if c not in mine]
        rng.shuffle(pool)
        held: list[list[int]] = [[] for _ in range(self.obs.players)]
        held[seat] = list(mine)
        at = 0
        for s in self.placement.hidden_seats:
            if s != seat:
                held[s] = pool[at : at + counts[s]]
                at += counts[s]
        return held, pool[at:]

    def _label(
        self, draw: Draw, cards: list[int], rng: random.Random
    ) -> tuple[list[int], list[list[int]]]:
        """Which of a player's cards after its draw it kept and which it drew from each
        stock of its draw, uniformly given the cards known to be one or the other."""
        index = {stock: i for i, (stock, _) in enumerate(draw.parts)}
        kept: list[int] = []
        drawn: list[list[int]] = [[] for _ in draw.parts]
        loose: list[int] = []
        scare = self.kept_scare.get(draw.seat)
        for card in cards:
            k = self.from_stock.get(card)
            if card == scare:
                kept.append(card)
            elif k is not None and k in index:
                drawn[index[k]].append(card)
            else:
                loose.append(card)
        rng.shuffle(loose)
        take = self.size - draw.discards - len(kept)
        kept.extend(loose[:take])
        del loose[:take]
        for i, (_, count) in enumerate(draw.parts):
            take = count - len(drawn[i])
            drawn[i].extend(loose[:take])
            del loose[:take]
        assert not loose, "the labels do not cover the cards"
        return kept, drawn

    def _split(
        self,
        cards: list[int],
        throwers: list[tuple[int, int]],
        thrown: dict[int, list[int]],
        rng: random.Random,
    ) -> None:
        """Share a stock's (or the pile's) cards among the players who threw them, the
        known throws (the observer's, the scare cards) to their throwers."""
        loose = [c for c in cards if not any(c in self.thrown_by.get(s, ()) for s, _ in throwers)]
        rng.shuffle(loose)
        for s, count in throwers:
            if s == self.obs.seat:
                continue
            known = [c for c in self.thrown_by.get(s, ()) if c in cards]
            take = count - len(known)
            thrown[s] = known + loose[:take]
            del loose[:take]
        assert not loose, "the discards do not add up"

    def _replay(
        self,
        state: GameState,
        dealt: list[list[int]],
        orders: list[list[int]],
        thrown: dict[int, list[int]],
        drawn: dict[int, list[list[int]]],
    ) -> None:
        """Deal ``dealt`` and replay the hand's public steps up to the observed moment."""
        obs = self.obs
        state.apply(state.dealer, self.ante)
        order = list(state.deck_order_for(dealt, turn_up=obs.turn_up))
        head = len(order) - len(orders[0])
        state.apply_chance(ChanceOutcome("deal", tuple(order[:head] + orders[0])))
        while state.phase_name == "redeal":
            seat = state.to_act()[0]
            if obs.phase == "redeal" and obs.to_act == (seat,):
                break
            state.apply(seat, A_KEEP)
        restocks = 0
        for step in self.script:
            seat = step.seat
            state.apply(seat, step.action)
            if step.discards is None and (step.drawing or seat != self.pending):
                continue
            for card in thrown[seat]:
                state.apply(seat, Action(DISCARD, card))
            if not step.drawing:
                continue
            state.apply(seat, A_DRAW)
            parts = iter(drawn[seat])
            while state.is_chance():
                if state.phase_name == "restock":
                    restocks += 1
                    state.apply_chance(ChanceOutcome("restock", tuple(orders[restocks])))
                else:
                    state.apply_chance(ChanceOutcome("draw", tuple(next(parts))))
        for seat, card in self.plays:
            state.apply(seat, play(card))
        if state.phase_name != obs.phase or state.to_act() != obs.to_act:
            raise ValueError(f"cannot replay the observation (stuck in {state.phase_name})")
