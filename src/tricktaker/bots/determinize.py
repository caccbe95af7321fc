"""Determinization: complete game states consistent with what one seat knows.

:func:`sample_state` turns an :class:`Observation` into a :class:`GameState` that the
seat cannot tell apart from the real one: its own cards, every card seen (the turn-up,
every card played), the voids other seats showed and the number of cards each holds
are respected; everything else is sampled. Search bots (:mod:`tricktaker.bots.pimc`)
play the sampled states out with full information.

What a play shows (the ``known voids``): failing to follow the led suit shows a void
in it; in must-trump games failing to trump then shows a trump void too; leading a
trump before trumps are broken (Jabberwocky) shows a hand of trumps only. A standard
Bluke may be played at any time, so playing one shows nothing; in New Jersey Bluke the
Blukes are trumps and count as such. Cards played from a face-down pile show nothing.

**Distribution.** The hidden cards are sampled *exactly uniformly* among the deals
consistent with those hard facts (not weighted by how likely the bids and plays were).
Because a void is a fact about a whole effective suit, the cards fall into at most five
classes (four suits and the free Blukes), and the seats with a known void are the only
constrained "buckets" (seats with the same voids share one bucket, split uniformly at
the end); the rest (unconstrained seats, the seat's own hidden hand, the undealt cards)
form one free bucket. A dynamic programme over the classes counts, with
exact integers, the consistent deals for each way of spreading a class over the
buckets; a table of spreads is drawn with probability proportional to its count, then
the cards of each class are shuffled into it and the free bucket is shuffled and split.
Every consistent deal therefore has the same probability. The counts are computed
once per observation (:class:`Determinizer`) and reused for every sample. Should the
count need more than ``_MEMO_LIMIT`` states (many seats with different voids; not met
in testing), the sampler falls back to filling the most constrained seats first from
their allowed cards with restarts, which is close to uniform but not exact.

Hidden simultaneous bids (Kachuful) are drawn uniformly from the legal bids unless a
``guess_bid`` function is given. Piles are sampled in random order after the cards
already played from them. Only the Oh Hell family is supported (with Caller Clag, whose
hooks keep the engine's bids): games with their own hand rules
(Pluck, Euchre, Buckup) raise :class:`NotImplementedError`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from math import factorial

from tricktaker.cards import cards_of
from tricktaker.engine.actions import BID, PILE_ACTION, Action, play
from tricktaker.engine.base import HOOK, ChanceOutcome
from tricktaker.engine.hooks import keeps_engine_bids
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFacts, with_hidden
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState, game_at_hand
from tricktaker.engine.tables import FREE

__all__ = ["BidGuess", "CardPlacement", "Determinizer", "known_voids", "sample_state"]

BidGuess = Callable[[GameState, int], Action]
"""Chooses a hidden bid for ``seat`` in a sampled state (one of its legal bids)."""

_MEMO_LIMIT = 100_000
"""Counting states kept per observation before falling back to sequential sampling."""


class _CountTooLargeError(Exception):
    """The exact count would take too long."""


def _check_supported(obs: Observation) -> None:
    if not keeps_engine_bids(obs.rules.hooks):
        raise NotImplementedError(
            f"determinization supports the Oh Hell family only, not {obs.rules.id}"
        )


def known_voids(obs: Observation) -> list[int]:
    """Per seat, a bit set of the effective suits (0-3, 4 for free Blukes) it cannot hold."""
    voids = [0] * obs.players
    tables = obs.tables
    if tables is None or obs.pile:
        return voids
    setup = Setup.of(obs.rules, obs.players)
    suit_of, trump = tables.suit_of, obs.trump
    broken = False
    for trick in (*obs.tricks, obs.current_trick):
        if not trick:
            continue
        lead_seat, lead = trick[0]
        led = suit_of[lead]
        if setup.trump_lead_after_broken and trump is not None and not broken and led == trump:
            voids[lead_seat] |= 0b11111 & ~(1 << trump)  # it held trumps only
        for seat, card in trick[1:]:
            suit = suit_of[card]
            if led != FREE and setup.follow_suit and suit not in (led, FREE):
                voids[seat] |= 1 << led
                if setup.must_trump and trump is not None and suit != trump:
                    voids[seat] |= 1 << trump
        if trump is not None and any(suit_of[c] == trump for _, c in trick):
            broken = True
    return voids


class CardPlacement:
    """The exact counting sampler (see the module notes): deals the ``unknown`` cards,
    ``counts[seat]`` of them to each of the ``hidden_seats``, none of them in a class
    (an effective suit, 0-4) of ``voids[seat]`` (a bit mask of classes), the rest to the
    free bucket (undealt cards), uniformly among the placements that respect the voids.
    ``classes[i]`` is the class of ``unknown[i]``.

    :class:`Determinizer` places the hidden cards of an Oh Hell hand with it; the hook
    games' determinizers (Euchre, Buckup) give it their own unknown cards, counts and
    voids. With ``count=False`` the counts are not checked here (a subclass whose counts
    change from sample to sample counts them itself).

    >>> placement = CardPlacement(3, [1, 2], [0, 1, 13, 14], [0, 0, 1, 1], [0, 1, 1], [0, 2, 0])
    >>> held, free = placement.sample_cards(random.Random(0))
    >>> all(card < 13 for card in held[1]), len(held[2]), len(free)
    (True, 1, 2)
    """

    def __init__(
        self,
        players: int,
        hidden_seats: list[int],
        unknown: list[int],
        classes: list[int],
        counts: list[int],
        voids: list[int],
        *,
        count: bool = True,
    ) -> None:
        self.players = players
        self.hidden_seats = hidden_seats
        self.unknown = unknown
        self.counts = counts
        if len(unknown) < sum(counts[s] for s in hidden_seats):
            raise ValueError("the observation shows more cards than the deck holds")
        self._set_buckets(classes, voids)
        self.start = tuple(sum(counts[s] for s in seats) for _, seats in self.groups)
        self.exact = True
        if count:
            try:
                ways = self._ways(0, self.start)
            except _CountTooLargeError:
                self.exact, ways = False, 1
            if ways == 0:
                raise ValueError("no deal is consistent with the observation")

    def _set_buckets(self, classes: list[int], voids: list[int]) -> None:
        """Sort ``self.unknown`` into classes and the hidden seats with known voids into
        buckets (seats with the same voids share one, split at the end)."""
        by_class: dict[int, list[int]] = {}
        for card, kind in zip(self.unknown, classes, strict=True):
            by_class.setdefault(kind, []).append(card)
        self.classes = sorted(by_class.items())
        present = sum(1 << c for c, _ in self.classes)
        groups: dict[int, list[int]] = {}
        for s in self.hidden_seats:
            if voids[s] & present and self.counts[s] > 0:
                groups.setdefault(voids[s] & present, []).append(s)
        self.groups = sorted(groups.items())
        self.restricted = {s for _, seats in self.groups for s in seats}
        self.allowed = [
            [i for i, (void, _) in enumerate(self.groups) if not (void >> c) & 1]
            for c, _ in self.classes
        ]
        sizes = [len(cards) for _, cards in self.classes]
        self.left = [sum(sizes[k:]) for k in range(len(sizes) + 1)]
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def hidden_facts(
        self,
        seat: int,
        *,
        fixed: list[int] | None = None,
        soft_evidence: tuple[str, ...] = (),
    ) -> HiddenFacts:
        """The facts this sampler places the cards by, as one description
        (:class:`~tricktaker.engine.resample.HiddenFacts`): its unknown cards, the
        counts of its seats and the voids that constrain them (those of a seat that
        holds unknown cards, in the classes among them); ``fixed``: cards known with
        each seat besides (none by default)."""
        voids = [0] * self.players
        for void, seats in self.groups:
            for s in seats:
                voids[s] = void
        return HiddenFacts(
            seat=seat,
            hidden=tuple(self.hidden_seats),
            counts=tuple(self.counts),
            voids=tuple(voids),
            unknown=sum(1 << card for card in self.unknown),
            fixed=tuple(fixed) if fixed is not None else (0,) * self.players,
            soft_evidence=soft_evidence,
        )

    # ------------------------------------------------------------- counting

    def _splits(self, k: int, state: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """Ways to spread class ``k`` over the buckets: (new state, number of card choices)."""
        n_cards = len(self.classes[k][1])
        free = self.left[k] - sum(state)
        allowed = self.allowed[k]
        top = factorial(n_cards)

        def rec(
            i: int, rest: int, cur: list[int], denom: int
        ) -> Iterator[tuple[tuple[int, ...], int]]:
            if i == len(allowed):
                if rest <= free:
                    yield tuple(cur), top // (denom * factorial(rest))
                return
            b = allowed[i]
            for x in range(min(rest, cur[b]) + 1):
                cur[b] -= x
                yield from rec(i + 1, rest - x, cur, denom * factorial(x))
                cur[b] += x

        yield from rec(0, n_cards, list(state), 1)

    def _ways(self, k: int, state: tuple[int, ...]) -> int:
        """Consistent placements of classes ``k..`` given the buckets' room ``state``."""
        if k == len(self.classes):
            return 1 if not any(state) else 0
        key = (k, state)
        found = self.memo.get(key)
        if found is not None:
            return found
        if len(self.memo) > _MEMO_LIMIT:
            raise _CountTooLargeError
        total = 0
        for nxt, ways in self._splits(k, state):
            total += ways * self._ways(k + 1, nxt)
        self.memo[key] = total
        return total

    def sample_cards(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Each seat's hidden cards now (empty for the seat's own known hand) and the
        undealt unknown cards, uniformly among the consistent deals."""
        held: list[list[int]] = [[] for _ in range(self.players)]
        free: list[int] = []
        if not self.exact:
            return self._sample_sequential(rng)
        grouped: list[list[int]] = [[] for _ in self.groups]
        state = self.start
        for k, (_, cards) in enumerate(self.classes):
            options = [(nxt, w * self._ways(k + 1, nxt)) for nxt, w in self._splits(k, state)]
            nxt = _choose(options, rng)
            pool = cards[:]
            rng.shuffle(pool)
            for i, take in enumerate(a - b for a, b in zip(state, nxt, strict=True)):
                grouped[i].extend(pool[:take])
                del pool[:take]
            free.extend(pool)
            state = nxt
        for (_, seats), pool in zip(self.groups, grouped, strict=True):
            rng.shuffle(pool)
            for s in seats:
                held[s] = pool[: self.counts[s]]
                del pool[: self.counts[s]]
        rng.shuffle(free)
        for s in self.hidden_seats:
            if s not in self.restricted:
                take = self.counts[s]
                held[s].extend(free[:take])
                del free[:take]
        for cards in held:
            rng.shuffle(cards)
        return held, free

    def _sample_sequential(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Fallback when counting is too large: fill the most constrained seats first
        from their allowed cards, retrying on a dead end (close to, not exactly, uniform)."""
        n = self.players
        class_of = {c: k for k, (_, cards) in enumerate(self.classes) for c in cards}
        void_of = {s: void for void, seats in self.groups for s in seats}
        order = sorted(self.restricted, key=lambda s: -void_of[s].bit_count())
        for _ in range(10_000):
            pool = self.unknown[:]
            rng.shuffle(pool)
            held: list[list[int]] = [[] for _ in range(n)]
            for s in order:
                ok = [c for c in pool if not (void_of[s] >> self.classes[class_of[c]][0]) & 1]
                if len(ok) < self.counts[s]:
                    break
                held[s] = ok[: self.counts[s]]
                taken = set(held[s])
                pool = [c for c in pool if c not in taken]
            else:
                for s in self.hidden_seats:
                    if s not in self.restricted:
                        held[s], pool = pool[: self.counts[s]], pool[self.counts[s] :]
                return held, pool
        raise ValueError("no consistent deal found for the observation")


class Determinizer(CardPlacement):
    """Samples states consistent with one observation (see the module notes)."""

    def __init__(self, obs: Observation) -> None:
        _check_supported(obs)
        if obs.phase == "game_over":
            raise ValueError("the game is over: there is nothing to determinize")
        self.obs = obs
        self.setup = setup = Setup.of(obs.rules, obs.players)
        n, seat = obs.players, obs.seat
        self.played: list[list[int]] = [[] for _ in range(n)]
        for trick in (*obs.tricks, obs.current_trick):
            for s, card in trick:
                self.played[s].append(card)
        dealt = obs.cards_in_hand > 0 or any(self.played)  # not before the deal
        size = obs.hand_size
        self.counts = [size - len(p) if dealt else 0 for p in self.played]
        seen = obs.played
        if obs.hand is not None:
            seen |= obs.hand
        self.main_turn_up = (
            obs.turn_up is not None
            and setup.trump_method == "turn_up"
            and len(setup.deck) > n * size
        )
        if self.main_turn_up:
            assert obs.turn_up is not None
            seen |= 1 << obs.turn_up
        unknown = [c for c in setup.deck if not (seen >> c) & 1]
        suit_of = obs.tables.suit_of if obs.tables is not None else None
        super().__init__(
            n,
            [s for s in range(n) if s != seat or obs.hand is None],
            unknown,
            [suit_of[card] if suit_of is not None else 0 for card in unknown],
            self.counts,
            known_voids(obs),
        )
        self.reuse = self._public_replay()
        self.template: GameState | None = None

    # ------------------------------------------------------------- building

    def _public_replay(self) -> bool:
        """Whether replaying the hand depends on nothing hidden but the cards: every bid
        made is known, the trump is known, no piles and no call. Then every sample is the
        same replayed state with other cards in the hidden hands (see :meth:`sample`)."""
        obs = self.obs
        return (
            obs.phase in ("bidding", "playing")
            and not obs.pile
            and obs.call is None
            and obs.trump_known
            and obs.hand is not None
            and all(b is not None for b, made in zip(obs.bids, obs.bid_made, strict=True) if made)
            and (self.main_turn_up or self.setup.trump_method != "turn_up")
        )

    def sample(self, rng: random.Random, *, guess_bid: BidGuess | None = None) -> GameState:
        """A complete state consistent with the observation.

        The first sample is built by replaying the hand's actions after dealing the
        sampled cards. When the replay depends on nothing hidden but the cards
        (:meth:`_public_replay`), later samples copy that state and put other sampled
        cards in the hidden hands, which gives the state a replay would give, faster.
        """
        obs, setup = self.obs, self.setup
        held, rest = self.sample_cards(rng)
        if obs.hand is not None:
            own = cards_of(obs.hand)
            rng.shuffle(own)
            held[obs.seat] = own
        dealt = [self.played[s] + held[s] for s in range(obs.players)]
        template = self.template
        if template is not None:
            return with_hidden(
                template,
                hands={s: sum(1 << c for c in held[s]) for s in self.hidden_seats},
                dealt={s: dealt[s] for s in self.hidden_seats},
            )
        if self.main_turn_up:
            turn_up = obs.turn_up
        else:
            turn_up = rest[0] if rest and setup.trump_method == "turn_up" else None
        state = _start(obs, setup)
        _replay(state, obs, dealt, turn_up, rng, guess_bid)
        if self.reuse:
            self.template = state.clone()
        return state


def _choose(options: list[tuple[tuple[int, ...], int]], rng: random.Random) -> tuple[int, ...]:
    """One option, with probability proportional to its (exact integer) weight."""
    pick = rng.randrange(sum(w for _, w in options))
    for option, weight in options:
        if pick < weight:
            return option
        pick -= weight
    raise AssertionError("unreachable")


def _start(obs: Observation, setup: Setup) -> GameState:
    position = 0
    streak = [0] * obs.players
    for result in obs.history:
        if not setup.advance_when_all_exact or result.all_exact:
            position += 1
        for s, b in enumerate(result.bids):
            streak[s] = streak[s] + 1 if b == 0 else 0
    return game_at_hand(
        obs.rules,
        players=obs.players,
        hands_played=obs.hands_played,
        dealer=obs.dealer,
        scores=obs.scores,
        schedule_position=None if setup.called else position,
        zero_streak=streak,
    )


def _bid_seats(obs: Observation, setup: Setup) -> list[int]:
    n = obs.players
    if setup.simultaneous:
        return [s for s in range(n) if obs.bid_made[s]]
    eldest = (obs.dealer + 1) % n
    return [(eldest + i) % n for i in range(sum(obs.bid_made))]


def _replay(
    state: GameState,
    obs: Observation,
    dealt: list[list[int]],
    turn_up: int | None,
    rng: random.Random,
    guess_bid: BidGuess | None,
) -> None:
    """Deal ``dealt`` and replay the hand's public actions up to the observed moment."""
    hooks = obs.rules.hooks
    calls = hooks.public_actions(obs) if hooks is not None else []  # a caller's calls
    bidders = _bid_seats(obs, state.setup)
    plays = [sc for trick in (*obs.tricks, obs.current_trick) for sc in trick]
    ci = bi = pi = 0
    while True:
        done = ci == len(calls) and bi == len(bidders) and pi == len(plays)
        phase = state.phase_name
        if done and phase == obs.phase:
            return
        if phase == "deal":
            order = state.deck_order_for(dealt, turn_up=turn_up)
            state.apply_chance(ChanceOutcome("deal", order))
        elif phase == "trump_draw":
            card = obs.turn_up if obs.turn_up is not None else rng.randrange(52)
            state.apply_chance(ChanceOutcome("second_deck", (card,)))
        elif phase == "pile_shuffle":
            piles = [c for s in range(obs.players) for c in dealt[s]]
            state.apply_chance(ChanceOutcome("piles", tuple(piles)))
        elif state.phase == HOOK and ci < len(calls):
            state.apply(*calls[ci])
            ci += 1
        elif phase == "bidding" and bi < len(bidders):
            seat = bidders[bi]
            value = obs.bids[seat]
            if value is not None:
                action = Action(BID, value)
            elif guess_bid is not None:
                action = guess_bid(state, seat)
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            bi += 1
        elif phase == "playing" and pi < len(plays):
            seat, card = plays[pi]
            state.apply(seat, PILE_ACTION if state.piles is not None else play(card))
            pi += 1
        else:
            raise ValueError(f"cannot replay the observation (stuck in phase {phase})")


def sample_state(
    observation: Observation, rng: random.Random, *, guess_bid: BidGuess | None = None
) -> GameState:
    """One complete state consistent with ``observation``, sampled uniformly among the
    consistent deals (see the module notes). For many samples of one observation, make
    a :class:`Determinizer` once and call its :meth:`~Determinizer.sample`."""
    return Determinizer(observation).sample(rng, guess_bid=guess_bid)
