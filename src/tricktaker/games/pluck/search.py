"""Search support for Pluck (docs/games/pluck.md): the determinizer, the rollout policy and
the rewards of the search bots.

**What a seat knows.** All 51 cards are dealt, so every card the seat has not seen is
in the current hand of one of the two other seats, and sampling a deal is choosing
which of those cards the first other seat holds. The seat knows its own cards (and
from them and its plucks, its own dealt hand), every card played, and the plucks: for
each done pluck who plucked whom, and for a pluck it took part in the card given and
the card returned ("the cards passed in a pluck are seen only by the two players
involved"). What follows from these:

- *Voids.* Failing to follow the led (effective) suit shows a void in it, jokers
  belonging to the trump suit; leading a trump before trumps are broken shows a hand
  of trumps only. The 2C opening lead is forced and shows nothing, even when clubs
  are trump (so :func:`tricktaker.bots.determinize.known_voids`, which would read it
  as a trump lead before trumps were broken, is not used).
- *Cards whose place is known.* The cards the seat gave in its plucks and the pluckee
  kept, and the cards it gave back, are with the other player of the pluck. The 2C
  is with the seat to lead the first trick.
- *A pluckee's return.* When the seat plucks ``O`` with a card of suit ``s`` and gets
  ``r`` back, ``O`` then held no card of ``s`` above ``r``; so at the end of the
  seat's plucks ``O``'s other cards of ``s`` are all below the lowest card returned
  in ``s`` (*exclusions*).
- *Hidden plucks* (``P`` plucking ``Q``, the two other seats). With three players
  they form one block, before or after the seat's own. Neither card is seen, but
  every pluck leaves ``P`` holding a card (the one returned) above all of ``Q``'s
  cards of its suit, and the position at the end of ``k >= 1`` plucks is reachable
  from a deal exactly when that holds (the pluckee may return the card just received,
  leaving the hands as they were). When the hidden block follows the seat's own
  plucks its cards may move the cards the seat knew about: ``Q``'s highest card of a
  suit never rises, so the exclusions still hold; a card known to be with ``P``
  (case *a*: the seat gave it back to ``P``) ends with ``Q`` only if ``P`` gave it in
  a swap for a higher card of ``Q``; a card the seat gave ``Q`` (case *b*) ends with
  ``P`` only if ``Q`` returned it as its highest. Counting the cards that crossed
  shows the end position is reachable exactly when, in every suit ``s``, the ``c_s``
  such cards that crossed can be undone: in case *a* ``P`` holds at least ``c_s``
  other cards above ``Q``'s highest in ``s``; in case *b* each crossed card is above
  ``Q``'s highest in ``s`` and ``Q`` holds ``c_s`` other cards of ``s``; and the
  swaps number ``sum(c_s) <= k``.

**Distribution.** The hidden cards are sampled *exactly uniformly among the positions
consistent with these facts*: the current hands of the two other seats (the hands
after the plucks, less the cards played). A void or an exclusion fixes a card's
holder; the free cards are split uniformly. When hidden plucks were made, the facts
above couple the cards of a suit; the sampler then enumerates, suit by suit, every
split of the suit's free cards and files it by (cards to the first seat, whether
``P`` holds the suit's top card, cards crossed), counts the consistent positions
exactly by a small dynamic programme over the suits (and the jokers), draws the
filed splits with probability proportional to their counts, and takes a split
uniformly among those filed together. Every consistent position is thus equally
likely. This is uniform over positions, not over (deal, pluck choices) pairs and not
weighted by how likely the players' choices were: a position reached by more deals
and plucks is not preferred (the plucker's policy is unknown, so its choices carry
no hard evidence). The deal and the hidden plucked cards are then rebuilt as one
history that leads to the sampled position (the pluckee returning the card just
received wherever possible), and the hand is replayed through the engine; a pluck
between the other two seats that is under way (its card not yet returned) gets a card
drawn uniformly from the plucker's cards. (In the play, later samples copy the first
replayed state and change only its hidden parts: the same states, faster.) The tests
check the sampler's support against a brute-force search with the engine over every
split of the unseen cards and every way back through the hidden plucks, and the
frequencies against uniform.

**The trump call.** The dealer's choice of trump is no hard fact about its cards, but
it is evidence: :meth:`PluckDeterminizer.weight` gives each sample the likelihood of
the call under a simple model of the dealer, which the search bots use as an
importance weight (the samples stay uniform).

**Rollouts** see every hand: the plucker gives its lowest card of the suit where the
swap gains most (the pluckee's highest card of the suit against the card given); the
dealer names its longest, strongest suit; in the play a seat leads a card no opponent
can beat when it has one (side suits first), else its lowest card; second to play it
wins the trick if a card of its beats both the card led and anything the third seat
could play, else it plays low; last to play it wins as cheaply as it can or plays low
(the card play of every game where each trick counts:
:func:`tricktaker.bots.rollout.rollout_card`).

**Rewards.** Each seat's tricks above (or below) its quota for the hand, over 8. The
plucks of the next hand are not counted separately: every trick above quota is one
pluck to take and every trick short one pluck to suffer, so any value put on a pluck
only multiplies the same difference and changes no decision.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from tricktaker.bots.gamesearch import GameSearch
from tricktaker.bots.rollout import rollout_card
from tricktaker.cards import JOKER_MASK, SUIT_MASKS, cards_of, parse_card
from tricktaker.engine.actions import PLAY, Action, play
from tricktaker.engine.base import ChanceOutcome
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import (
    HiddenFacts,
    HiddenFactsError,
    SplitChoices,
    hand_start,
    with_hidden,
)
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.games.pluck.hooks import (
    CALL_TRUMP,
    GIVE_BACK,
    PLUCK,
    PLUCK_ACTIONS,
    TRUMP_ACTIONS,
    PluckData,
    PluckRecord,
)
from tricktaker.games.pluck.policy import suit_strength

__all__ = [
    "SEARCH",
    "PluckDeterminizer",
    "pluck_card",
    "pluck_voids",
    "rewards",
    "rollout_action",
]

HAND = 17
"""Cards dealt to each of the three seats."""

CALL_SHARPNESS = 0.7
"""How surely a dealer names its strongest suit, in the trump-call model (see
:meth:`PluckDeterminizer.weight`)."""

CALL_FLOOR = 0.1
"""The trump-call model's floor: any call keeps at least this likelihood."""


@dataclass(frozen=True, slots=True)
class _Pluck:
    """One pluck as the observing seat sees it (cards None when it did not take part)."""

    plucker: int
    pluckee: int
    given: int | None
    returned: int | None


def _card(text: object) -> int | None:
    return parse_card(str(text)) if text is not None else None


def _bits(mask: int) -> int:
    return mask.bit_count()


def pluck_voids(obs: Observation) -> list[int]:
    """Per seat, a bit set of the effective suits (0-3) it has shown it cannot hold now.

    Failing to follow the led suit shows a void in it (the jokers belong to the trump
    suit); leading a trump before trumps are broken shows a hand of trumps only. The
    2C opening lead of the first trick is forced and shows nothing.
    """
    voids = [0, 0, 0]
    tables = obs.tables
    if tables is None:
        return voids
    suit_of, trump = tables.suit_of, obs.trump
    broken = False
    tricks = (*obs.tricks, obs.current_trick)
    for number, trick in enumerate(tricks):
        if not trick:
            continue
        lead_seat, lead = trick[0]
        led = suit_of[lead]
        if number > 0 and trump is not None and not broken and led == trump:
            voids[lead_seat] |= 0b1111 & ~(1 << trump)
        for seat, card in trick[1:]:
            if suit_of[card] != led:
                voids[seat] |= 1 << led
        if trump is not None and any(suit_of[c] == trump for _, c in trick):
            broken = True
    return voids


def _topping(hp: int, hq: int) -> int | None:
    """A card of ``hp`` (not a joker) above every card of ``hq`` in its suit, if any."""
    for mask in SUIT_MASKS:
        ps = hp & mask
        if ps and ps.bit_length() > (hq & mask).bit_length():
            return ps.bit_length() - 1
    return None


def _masks(forced: int, free: list[int]) -> list[int]:
    """Every set of ``forced`` plus a subset of the ``free`` card bits."""
    out = [forced]
    for bit in free:
        out += [m | bit for m in out]
    return out


Signature = tuple[int, bool, int]
"""A split of one suit's free cards: (cards to the first other seat, whether the hidden
plucker holds the suit's top card, cards that crossed in hidden swaps)."""


class PluckDeterminizer:
    """Samples Pluck states consistent with one observation (see the module notes).

    ``reuse``: in the play, make later samples by copying the first one and changing
    its hidden parts, rather than replaying the hand each time (the same states, faster).
    """

    def __init__(self, obs: Observation, *, reuse: bool = True) -> None:
        if obs.rules.spec.hooks != "pluck":
            raise ValueError(f"{obs.rules.id} is not a game of Pluck")
        if obs.phase == "game_over":
            raise ValueError("the game is over: there is nothing to determinize")
        self.obs = obs
        self.template = _template(obs)
        self.reuse = reuse
        self.replayed: GameState | None = None  # the first sample, in the play
        self.dealt = obs.phase != "deal"
        if not self.dealt:
            return
        if obs.hand is None:
            raise ValueError("the seat cannot see its cards")
        me = obs.seat
        self.me = me
        self.others = o1, o2 = tuple(s for s in range(3) if s != me)
        played = [0, 0, 0]
        for trick in (*obs.tricks, obs.current_trick):
            for s, c in trick:
                played[s] |= 1 << c
        self.played = played
        plucks = [
            _Pluck(int(p["plucker"]), int(p["pluckee"]), _card(p["given"]), _card(p["returned"]))
            for p in obs.extra.get("plucks", [])
        ]
        self.plucks = plucks
        progress = obs.extra.get("pluck_in_progress")
        self.progress = (
            None
            if progress is None
            else _Pluck(
                int(progress["plucker"]), int(progress["pluckee"]), _card(progress["given"]), None
            )
        )
        mine = [p for p in plucks if me in (p.plucker, p.pluckee)]
        hidden = [i for i, p in enumerate(plucks) if me not in (p.plucker, p.pluckee)]
        self.k = k = len(hidden)
        self.p = self.q = -1  # the hidden plucker and pluckee, when there are hidden plucks
        if k:
            first = plucks[hidden[0]]
            self.p, self.q = first.plucker, first.pluckee
        first_mine = next((i for i, p in enumerate(plucks) if me in (p.plucker, p.pluckee)), None)
        self.after_mine = after = k > 0 and first_mine is not None and hidden[0] > first_mine

        # The seat's hand after the done plucks (before a pluck under way) and when dealt.
        hand = obs.hand | played[me]
        known = [0, 0, 0]  # cards known to be with another seat now (not the seat's own)
        prog = self.progress
        if prog is not None and me in (prog.plucker, prog.pluckee):
            assert prog.given is not None
            bit = 1 << prog.given
            if me == prog.plucker:
                hand |= bit
            else:
                hand &= ~bit
                known[prog.plucker] |= bit
        self.hand_now = hand
        dealt = hand
        for p in reversed(mine):
            assert p.given is not None
            assert p.returned is not None
            g, r = 1 << p.given, 1 << p.returned
            dealt = (dealt & ~r) | g if me == p.plucker else (dealt | r) & ~g
        self.dealt_hand = dealt
        # Where the cards of the seat's plucks went: ``at[o]`` those with ``o`` at the end
        # of its plucks, ``pre[o]`` those ``o`` held before them.
        at, pre = [0, 0, 0], [0, 0, 0]
        lowest_back: dict[tuple[int, int], int] = {}
        for p in mine:
            assert p.given is not None
            assert p.returned is not None
            g, r = 1 << p.given, 1 << p.returned
            if me == p.plucker:
                o = p.pluckee
                at[o] |= g
                if at[o] & r:
                    at[o] &= ~r
                else:
                    pre[o] |= r
                suit = p.given // 13
                old = lowest_back.get((o, suit))
                lowest_back[(o, suit)] = p.returned if old is None else min(old, p.returned)
            else:
                o = p.plucker
                if at[o] & g:
                    at[o] &= ~g
                else:
                    pre[o] |= g
                at[o] |= r
        self.at, self.pre = at, pre
        self.involved = sum(
            (1 << p.given) | (1 << p.returned)
            for p in mine
            if p.given is not None and p.returned is not None
        )
        self.case_a = False
        if after:
            # The hidden block followed the seat's plucks: its counterpart is the hidden
            # plucker (case a, the seat was plucked) or the hidden pluckee (case b).
            counterpart = mine[0].plucker if me == mine[0].pluckee else mine[0].pluckee
            self.case_a = counterpart == self.p
            if not self.case_a and counterpart != self.q:
                raise ValueError("the observation's plucks are not in Pluck's order")
        else:
            for o in self.others:
                known[o] |= at[o]
        for o in self.others:
            known[o] &= ~played[o]
        self.known = known

        # Cards that cannot be with a seat now: shown voids and exclusions.
        tables = obs.tables
        forbid = [0, 0, 0]
        for o, void in enumerate(pluck_voids(obs)):
            if tables is not None:
                for suit in range(4):
                    if (void >> suit) & 1:
                        forbid[o] |= tables.suit_masks[suit]
        for (o, suit), low in lowest_back.items():
            forbid[o] |= SUIT_MASKS[suit] & ~((2 << low) - 1)
        opening = Setup.of(obs.rules, 3).opening_lead
        if obs.phase == "playing" and not obs.tricks and not obs.current_trick:
            # The holder of the 2C leads it: before it is played everyone knows who that is.
            assert opening is not None
            for o in self.others:
                if o != obs.leader:
                    forbid[o] |= 1 << opening
        deck = sum(1 << c for c in Setup.of(obs.rules, 3).deck)
        unknown = deck & ~hand & ~played[o1] & ~played[o2] & ~known[o1] & ~known[o2]
        self.unknown = unknown
        need = [HAND - _bits(played[o]) - _bits(known[o]) for o in range(3)]
        self.need = need[o1]
        if need[o1] < 0 or need[o2] < 0 or _bits(unknown) != need[o1] + need[o2]:
            raise ValueError("the observation's card counts do not add up")
        if unknown & forbid[o1] & forbid[o2]:
            raise ValueError("a card unseen by the seat can be with neither other seat")
        self.forbid = forbid
        self.forced = unknown & forbid[o2] & ~forbid[o1]  # with o1
        free = unknown & ~forbid[o1] & ~forbid[o2]
        self.free = cards_of(free)
        self.conditional = k > 0
        if not self.conditional:
            if not 0 <= need[o1] - _bits(self.forced) <= len(self.free):
                raise ValueError("no deal is consistent with the observation")
            return
        # Hidden plucks couple the cards of a suit: count the positions class by class.
        self.classes: list[list[tuple[Signature, list[int]]]] = []
        for mask in (*SUIT_MASKS, JOKER_MASK):
            bits = [1 << c for c in cards_of(free & mask)]
            table: dict[Signature, list[int]] = {}
            for a1 in _masks(self.forced & mask, bits):
                sig = self._signature(mask, a1, unknown & mask)
                if sig is not None:
                    table.setdefault(sig, []).append(a1)
            self.classes.append(sorted(table.items()))
        self.memo: dict[tuple[int, int, int, bool], int] = {}
        if self._ways(0, 0, 0, False) == 0:
            raise ValueError("no deal is consistent with the observation")

    # ------------------------------------------------------------- counting

    def _signature(self, mask: int, a1: int, unknown: int) -> Signature | None:
        """The signature of giving ``a1`` (of the class's ``unknown`` cards) to the first
        other seat, or None when that split is inconsistent with the hidden plucks."""
        count = _bits(a1)
        if mask == JOKER_MASK:
            return (count, False, 0)
        o1 = self.others[0]
        p, q = self.p, self.q
        a_p = a1 if p == o1 else unknown & ~a1
        a_q = unknown & ~a_p
        if self.after_mine:
            hp = ((self.played[p] | self.known[p]) & mask) | a_p
            hq = ((self.played[q] | self.known[q]) & mask) | a_q
        else:
            # Hands at the end of the hidden block: before the seat's own plucks.
            hp = (self._before_mine(p) & mask) | a_p
            hq = (self._before_mine(q) & mask) | a_q
        top = hp != 0 and hp.bit_length() > hq.bit_length()
        crossed = 0
        if self.after_mine:
            high = hq.bit_length() - 1  # Q's highest card of the suit (-1: none)
            if self.case_a:
                kept = self.at[p] & mask
                crossed = _bits(kept & hq)
                if crossed and _bits((hp & ~kept) >> (high + 1)) < crossed:
                    return None
            else:
                kept = self.at[q] & mask
                moved = kept & hp
                crossed = _bits(moved)
                if crossed and (moved & ((1 << (high + 1)) - 1) or _bits(hq & ~kept) < crossed):
                    return None
        return (count, top, crossed)

    def _before_mine(self, o: int) -> int:
        """The known cards of ``o`` before the seat's plucks (hidden block first)."""
        now = self.played[o] | self.known[o]
        return (now & ~self.involved) | self.pre[o]

    def _ways(self, index: int, taken: int, crossed: int, top: bool) -> int:
        """Consistent completions of classes ``index..`` (exact integer count)."""
        if index == len(self.classes):
            return int(taken == self.need and crossed <= self.k and top)
        key = (index, taken, crossed, top)
        found = self.memo.get(key)
        if found is not None:
            return found
        total = 0
        for (count, t, c), masks in self.classes[index]:
            if taken + count <= self.need and crossed + c <= self.k:
                total += len(masks) * self._ways(index + 1, taken + count, crossed + c, top or t)
        self.memo[key] = total
        return total

    def hidden_facts(self) -> HiddenFacts:
        """What the seat knows of the hidden cards: every unseen card is with one of the
        two other seats. A card one of them cannot hold (a void, a pluck's return, the
        opening card) is fixed with the other; the rest are placed by count, or, after
        plucks the seat did not see (which couple the cards of each suit), by the
        weighted choices of :meth:`split_choices`. The trump-call model is soft
        evidence on top. Raises :class:`HiddenFactsError` before the deal."""
        if not self.dealt:
            raise HiddenFactsError("nothing is dealt yet")
        first, second = self.others
        known, unknown, forbid = self.known, self.unknown, self.forbid
        fixed = [0, 0, 0]
        counts = [0, 0, 0]
        soft = ("trump call",) if self.obs.trump is not None else ()
        if self.conditional:
            fixed[first], fixed[second] = known[first], known[second]
            return HiddenFacts(
                seat=self.me,
                hidden=(),
                counts=tuple(counts),
                voids=(0, 0, 0),
                unknown=unknown,
                fixed=tuple(fixed),
                split=self.split_choices(),
                soft_evidence=soft,
            )
        only_first = unknown & forbid[second] & ~forbid[first]
        only_second = unknown & forbid[first] & ~forbid[second]
        free = unknown & ~forbid[first] & ~forbid[second]
        fixed[first] = known[first] | only_first
        fixed[second] = known[second] | only_second
        counts[first] = self.need - only_first.bit_count()
        counts[second] = free.bit_count() - counts[first]
        return HiddenFacts(
            seat=self.me,
            hidden=(first, second),
            counts=tuple(counts),
            voids=(0, 0, 0),
            unknown=free,
            fixed=tuple(fixed),
            soft_evidence=soft,
        )

    def split_choices(self) -> SplitChoices:
        """The choices this sampler makes when it draws the first other seat's unseen
        cards after hidden plucks (:meth:`_sample_first`), as a weighted graph: per
        state of its count (the class, the cards taken, the cards crossed in hidden
        swaps, whether the hidden plucker holds a suit's top card), the options with
        their weights (card sets times consistent completions)."""
        index_of: dict[tuple[int, int, int, bool], int] = {}
        nodes: list[tuple[tuple[float, int, int], ...]] = []
        lists: list[tuple[int, ...]] = []
        list_of: dict[tuple[int, int], int] = {}
        last = len(self.classes)

        def visit(state: tuple[int, int, int, bool]) -> int:
            if state[0] == last:
                return -1
            found = index_of.get(state)
            if found is not None:
                return found
            index, taken, crossed, top = state
            at = index_of[state] = len(nodes)
            nodes.append(())
            options = []
            for number, ((count, t, c), masks) in enumerate(self.classes[index]):
                if taken + count > self.need or crossed + c > self.k:
                    continue
                after = (index + 1, taken + count, crossed + c, top or t)
                weight = len(masks) * self._ways(*after)
                if not weight:
                    continue
                if (index, number) not in list_of:
                    list_of[(index, number)] = len(lists)
                    lists.append(tuple(masks))
                options.append((float(weight), visit(after), list_of[(index, number)]))
            nodes[at] = tuple(options)
            return at

        visit((0, 0, 0, False))
        first, second = self.others
        return SplitChoices(first=first, second=second, nodes=tuple(nodes), lists=tuple(lists))

    def allows(self, hands: list[int]) -> bool:
        """Whether the sampler can produce these hands after the done plucks (before a
        pluck under way; less the cards played). For tests: the true position must
        always be one of the consistent ones."""
        if not self.dealt:
            return True
        o1, o2 = self.others
        first = hands[o1] & self.unknown
        second = hands[o2] & self.unknown
        if (
            hands[self.me] | self.played[self.me] != self.hand_now
            or first | second != self.unknown
            or first & second
            or (hands[o1] & ~self.unknown) != (self.known[o1] & ~self.played[o1])
            or (hands[o2] & ~self.unknown) != (self.known[o2] & ~self.played[o2])
            or first & self.forbid[o1]
            or second & self.forbid[o2]
            or _bits(first) != self.need
        ):
            return False
        if not self.conditional:
            return True
        crossed, top = 0, False
        for mask, table in zip((*SUIT_MASKS, JOKER_MASK), self.classes, strict=True):
            sig = next((s for s, masks in table if first & mask in masks), None)
            if sig is None:
                return False
            crossed, top = crossed + sig[2], top or sig[1]
        return crossed <= self.k and top

    def _sample_first(self, rng: random.Random) -> int:
        """The unseen cards with the first other seat, uniformly among consistent ones."""
        if not self.conditional:
            take = self.need - _bits(self.forced)
            return self.forced | sum(1 << c for c in rng.sample(self.free, take))
        out = 0
        taken, crossed, top = 0, 0, False
        for index, table in enumerate(self.classes):
            options = []
            for (count, t, c), masks in table:
                if taken + count <= self.need and crossed + c <= self.k:
                    weight = len(masks) * self._ways(
                        index + 1, taken + count, crossed + c, top or t
                    )
                    if weight:
                        options.append((weight, count, t, c, masks))
            pick = rng.randrange(sum(o[0] for o in options))
            for weight, count, t, c, masks in options:
                if pick < weight:
                    out |= masks[rng.randrange(len(masks))]
                    taken, crossed, top = taken + count, crossed + c, top or t
                    break
                pick -= weight
        return out

    # ------------------------------------------------------------- building

    def position(self, rng: random.Random) -> list[int]:
        """Each seat's hand after the done plucks (cards played included), sampled."""
        o1, o2 = self.others
        first = self._sample_first(rng)
        hands = [0, 0, 0]
        hands[self.me] = self.hand_now
        hands[o1] = first | self.known[o1] | self.played[o1]
        hands[o2] = (self.unknown & ~first) | self.known[o2] | self.played[o2]
        return hands

    def weight(self, state: GameState) -> float:
        """The likelihood that the dealer named the trump it did with the cards this
        sample gives it (up to a constant; 1 when the seat is the dealer or no trump is
        named yet). The model: the dealer names suit ``X`` with probability
        proportional to ``exp(CALL_SHARPNESS * strength(X))`` (length and high cards,
        as :func:`~tricktaker.games.pluck.policy.suit_strength` counts them), mixed with
        a floor of :data:`CALL_FLOOR`. The search bots use it as an importance weight;
        the samples themselves stay uniform."""
        trump = self.obs.trump
        if trump is None or not self.dealt or self.obs.dealer == self.obs.seat:
            return 1.0
        dealer = self.obs.dealer
        hand = state.hands[dealer] | self.played[dealer]
        odds = [math.exp(CALL_SHARPNESS * suit_strength(hand, suit)) for suit in range(4)]
        return CALL_FLOOR + (1.0 - CALL_FLOOR) * odds[trump] / sum(odds)

    def sample(self, rng: random.Random) -> GameState:
        """A complete state consistent with the observation.

        The first sample is built by dealing and replaying the hand through the engine.
        In the play, where nothing in the replay but the cards is hidden, later samples
        copy that state and put in it what a replay would: the hands, the deal, the
        hidden plucks' cards (in the record of the plucks and the list of actions)."""
        if not self.dealt:
            return self.template.clone()
        now, deal, exchanges = self._plan(rng)
        if self.replayed is not None:
            return self._patch(self.replayed, now, deal, exchanges)
        state = self.template.clone()
        obs = self.obs
        state.apply_chance(ChanceOutcome("deal", state.deck_order_for(_lists(deal))))
        for pl, (given, returned) in zip(self.plucks, exchanges, strict=True):
            state.apply(pl.plucker, Action(PLUCK, given))
            back = state.legal_actions(pl.pluckee)[0]
            if back.value != returned:
                raise RuntimeError("a rebuilt pluck returned another card than planned")
            state.apply(pl.pluckee, back)
        prog = self.progress
        if prog is not None:
            pick = prog.given
            if pick is None:
                pick = rng.choice(cards_of(state.hands[prog.plucker] & ~JOKER_MASK))
            state.apply(prog.plucker, Action(PLUCK, pick))
        elif list(state.hands) != now:
            raise RuntimeError("the rebuilt plucks do not lead to the sampled position")
        if obs.trump is not None:
            state.apply(state.dealer, TRUMP_ACTIONS[obs.trump])
        for trick in (*obs.tricks, obs.current_trick):
            for seat, card in trick:
                state.apply(seat, play(card))
        if state.hands[self.me] != obs.hand or state.phase_name != obs.phase:
            raise RuntimeError("the rebuilt state does not match the observation")
        if self.reuse and obs.phase == "playing":
            self.replayed = state.clone()
        return state

    def _plan(self, rng: random.Random) -> tuple[list[int], list[int], list[tuple[int, int]]]:
        """A sampled position after the done plucks (cards played included), a deal
        that leads to it, and every done pluck's (given, returned) cards in order."""
        now = self.position(rng)
        start = now[:]  # the hands at the start of the hidden block
        hidden: list[tuple[int, int]] = []
        if self.k and self.after_mine:
            steps = self._undo_swaps(start)
            top = _topping(now[self.p], now[self.q])
            assert top is not None
            hidden = steps[::-1] + [(top, top)] * (self.k - len(steps))
        deal = self._undo_mine(start)
        if self.k and not self.after_mine:
            top = _topping(deal[self.p], deal[self.q])
            assert top is not None
            hidden = [(top, top)] * self.k
        rest = iter(hidden)
        exchanges = [
            (pl.given, pl.returned)
            if pl.given is not None and pl.returned is not None
            else next(rest)
            for pl in self.plucks
        ]
        return now, deal, exchanges

    def _patch(
        self,
        replayed: GameState,
        now: list[int],
        deal: list[int],
        exchanges: list[tuple[int, int]],
    ) -> GameState:
        """A copy of the first replayed state made to hold another sample: the hands, the
        deal and the hidden plucks' cards (in the record of the plucks and the events)."""
        dealt = _lists(deal)
        events: dict[int, tuple[object, ...]] = {
            0: ("chance", ChanceOutcome("deal", replayed.deck_order_for(dealt)))
        }
        for i, (pl, (given, returned)) in enumerate(zip(self.plucks, exchanges, strict=True)):
            dealt[pl.plucker].remove(given)
            dealt[pl.pluckee].append(given)
            dealt[pl.pluckee].remove(returned)
            dealt[pl.plucker].append(returned)
            events[1 + 2 * i] = (pl.plucker, Action(PLUCK, given))
            events[2 + 2 * i] = (pl.pluckee, Action(GIVE_BACK, returned))
        state = with_hidden(
            replayed,
            hands=[now[s] & ~self.played[s] for s in range(3)],
            dealt=dealt,
            events=events,
        )
        data = state.ext
        assert isinstance(data, PluckData)
        for record, (given, returned) in zip(data.done, exchanges, strict=False):
            record.given, record.returned = given, returned
        return state

    def _undo_mine(self, hands: list[int]) -> list[int]:
        """The hands before the seat's own plucks, from the hands after them."""
        out = hands[:]
        out[self.me] = self.dealt_hand
        for o in self.others:
            out[o] = (hands[o] & ~self.at[o]) | self.pre[o]
        return out

    def _undo_swaps(self, hands: list[int]) -> list[tuple[int, int]]:
        """Undo, in ``hands``, the hidden swaps that moved the seat's known cards; the
        steps ``(given, returned)`` in the order undone (the last pluck first)."""
        p, q = self.p, self.q
        steps: list[tuple[int, int]] = []
        for mask in SUIT_MASKS:
            hp, hq = hands[p] & mask, hands[q] & mask
            if self.case_a:
                kept = self.at[p] & mask
                crossed = cards_of(kept & hq)
                above = cards_of((hp & ~kept) >> hq.bit_length() << hq.bit_length())
                pairs = list(zip(crossed, above[: len(crossed)], strict=True))
            else:
                kept = self.at[q] & mask
                moved = cards_of(kept & hp)
                pairs = list(zip(cards_of(hq & ~kept)[: len(moved)], moved, strict=True))
            for g, r in pairs:
                hands[p] = (hands[p] & ~(1 << r)) | (1 << g)
                hands[q] = (hands[q] & ~(1 << g)) | (1 << r)
                steps.append((g, r))
        return steps


def _lists(hands: list[int]) -> list[list[int]]:
    return [cards_of(h) for h in hands]


def _template(obs: Observation) -> GameState:
    """A state at the start of the observed hand, before its deal (the public facts)."""
    state = hand_start(obs)
    if obs.phase == "deal":
        # Before a deal the game's data still shows the last hand's quotas and plucks.
        data = state.ext
        assert isinstance(data, PluckData)
        data.quotas = [int(q) for q in obs.extra.get("quotas", [])]
        data.done = [
            PluckRecord(
                p["plucker"], p["pluckee"], _card(p["given"]) or 0, _card(p["returned"]) or 0
            )
            for p in obs.extra.get("plucks", [])
        ]
    return state


# ------------------------------------------------------------------ rollouts

_VALUE = tuple(rank + 2 * max(0, rank - 8) for rank in range(13))
"""What a card of each rank (2 .. A) is worth to its holder, for choosing plucks."""


def pluck_card(state: GameState, seat: int) -> Action:
    """The plucker's lowest card of the suit where the swap gains most: the pluckee
    gives back its highest card of the suit (or the card just given)."""
    data = state.ext
    assert isinstance(data, PluckData)
    pluckee = data.pending[0][1]
    mine, theirs = state.hands[seat], state.hands[pluckee]
    best, best_gain = -1, -1000
    for mask in SUIT_MASKS:
        ps = mine & mask
        if not ps:
            continue
        given = (ps & -ps).bit_length() - 1
        back = max(given, (theirs & mask).bit_length() - 1)
        gain = _VALUE[back % 13] - _VALUE[given % 13]
        if gain > best_gain:
            best, best_gain = given, gain
    return PLUCK_ACTIONS[best]


def rollout_action(state: GameState, seat: int, actions: list[Action]) -> Action:
    """The rollout policy for every Pluck decision (see the module notes)."""
    kind = actions[0].kind
    if kind == PLAY:
        return rollout_card(state, seat, actions)
    if kind == PLUCK:
        return pluck_card(state, seat)
    if kind == CALL_TRUMP:
        hand = state.hands[seat]
        return max(actions, key=lambda a: suit_strength(hand, "CDHS".index(str(a.value))))
    return actions[0]


def rewards(state: GameState) -> list[float]:
    """Each seat's tricks above (or below) its quota in the hand just scored, over 8."""
    return [score / 8.0 for score in state.history[-1].hand_scores]


SEARCH = GameSearch(determinizer=PluckDeterminizer, rollout_action=rollout_action, rewards=rewards)
"""The search support of Pluck (its hooks' ``"search"`` capability)."""
