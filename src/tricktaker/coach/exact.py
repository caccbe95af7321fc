"""The coach's exact values for small positions: every consistent deal enumerated.

:func:`exact_hint` gives the values of :mod:`tricktaker.coach.model`'s model without
sampling, so that the sampled ones (:func:`tricktaker.coach.values.hint`) can be checked
against them (``bench/coach_agreement.py``). It is meant for small positions (one- and
two-card hands, the last tricks of larger ones): a position with more consistent deals
than ``limit`` is refused (:class:`TooManyDealsError`, naming the count).

**The deals.** The game's search determinizer (:func:`~tricktaker.bots.gamesearch.search_for`)
states what the seat knows of the cards it cannot see as
:class:`~tricktaker.engine.resample.HiddenFacts`: the cards to place, how many each other
seat holds now, the suits each showed void in, the cards known with a seat, or the
weighted choices of a split where the facts couple the suits. Every placement that
respects them is equally likely under the determinizer (the facts say so), so
:func:`placements` lists each of them once, with its probability; :func:`placement_count`
counts them without listing them. A determinizer that cannot state its facts so
(:class:`~tricktaker.engine.resample.HiddenFactsError`) is refused.

**The states.** A complete state for each placement is built from one state the
determinizer samples (the template, which it built by replaying the hand through the
engine): the unseen cards are relabelled, each of the template's cards in a place going
to one of the placement's cards in the same place (the other seats' hands and the cards
out of play), everywhere the engine keeps them (the hands, the cards dealt, the kitty,
the recorded events: the deal and any card action), through
:func:`~tricktaker.engine.resample.with_hidden`. Every state is checked: its observation
for the seat must equal the given one. Relabelling is the state a replay with those cards
gives when no public action depends on the hidden cards; a hidden bid does (Kachuful's
simultaneous bids, guessed from the cards), so such positions are refused.

**The weights.** Each state counts with its placement's probability times the
determinizer's weight of the state (:func:`~tricktaker.bots.gamesearch.sample_weight`:
e.g. how likely the other seats' bids were with those cards), as the sampled values
count it. A determinizer that folds its soft evidence into how it samples instead of
weighing it (as Euchre's inference from the calls, by rejection) says how much likelier
it draws a state's placement than a uniform draw by a ``deal_weight(state)`` method,
which multiplies the weight; one that has neither names soft evidence the values do not
count (:attr:`ExactDeals.unweighed`). A weight that depends on a hidden past the
placement does not fix cannot be read off one template: where two templates relabelled
to the same placement weigh differently (:func:`_weighs_hidden_past`: Buckup's, which
reads the cards each player threw, when nobody folded), the values leave the weight out
and name it unweighed. The shipped games' other weights read only the cards held and
played (the Oh Hell family's bids, Pluck's trump call) or average over that past
themselves (Euchre's ``deal_weight``, over which of the declarer's cards were the kitty).

**Seats out of the tricks.** Where seats hold unseen cards but take no part in the
hand's tricks (``Observation.active``: e.g. a folded Buckup hand, which stays with its
player), listing their hands would multiply the deals (242 million and more late in a
Buckup hand) without changing a play-out, which never reads them. Such a seat with no
void shown (:func:`out_of_tricks`) is enumerated with the cards out of play instead:
only the active seats' hands are listed. This is exact for the determinizer's facts:
each placement of the active seats' unseen cards ``A`` is completed by the same number
of full placements, the multinomial ``r! / (c_1! ... c_k! (r - c_1 - ... - c_k)!)`` of
the ``r = |unknown| - |A|`` cards left over the inactive seats' counts ``c_i`` (no void
restricts them, and ``|A|`` is the active seats' counts' sum, the same for every ``A``),
so the active placements are equally likely (tests/coach/test_exact_out_of_tricks.py
checks it by counting the completions of each, and that the play-outs do not read the
inactive hands). Each state is the template with the active seats' cards moved in and
the cards they displace moved to where those came from (an inactive hand, or out of
play). What it cannot follow is soft evidence read from the inactive hands or from the
hidden past: a weight (``weight`` or ``deal_weight``) of such a position would have to
be summed over every completion (Buckup's stay-or-fold and discard model reads every
hand as dealt, folded ones included: a sum over about 10^10 completions of a product of
each seat's factor), not read off the template's one, so these exact values do not
weigh it and name it in :attr:`ExactDeals.unweighed`.

**The play.** From each state, every legal choice is played out by the game's rollout
policy (:func:`~tricktaker.bots.pimc.rollout_hand`, no noise), which chooses without
randomness given the state (it sees every hand and reads no random numbers); a play-out
that meets a chance step (a draw, a deal) would be random, and is refused. The seat's
score for the hand (:func:`~tricktaker.coach.model.hand_points`) and whether it made its
bid are averaged over the states with their weights.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from math import comb

from tricktaker.bots.gamesearch import GameSearch, Sampler, sample_weight, search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.coach.contract import made_bid
from tricktaker.coach.model import ChoiceValue, Hint, hand_points
from tricktaker.engine.actions import Action
from tricktaker.engine.base import ChanceOutcome
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFacts, HiddenFactsError, with_hidden
from tricktaker.engine.state import GameState

__all__ = [
    "DEFAULT_LIMIT",
    "ExactDeals",
    "ExactUnsupportedError",
    "Placement",
    "TooManyDealsError",
    "consistent_deals",
    "deal_count",
    "exact_hint",
    "out_of_tricks",
    "placement_count",
    "placements",
    "unweighed_evidence",
]

DEFAULT_LIMIT = 20_000
"""The most consistent deals :func:`exact_hint` enumerates unless told otherwise."""

_SEED = 0
"""The seed of the template the states are relabelled from (any seed gives the same
values: only the hidden past weighed, where the placement does not fix it, may differ)."""


class ExactUnsupportedError(ValueError):
    """A position whose deals the exact values cannot enumerate."""


class TooManyDealsError(ExactUnsupportedError):
    """A position with more consistent deals than the limit."""

    def __init__(self, count: int, limit: int) -> None:
        super().__init__(
            f"{count:,} deals are consistent with the observation, more than the"
            f" {limit:,} the exact values enumerate: pick a smaller position (fewer"
            " cards unseen)"
        )
        self.count = count
        self.limit = limit


@dataclass(frozen=True, slots=True)
class Placement:
    """One placement of the unseen cards: ``hands[s]``, the card set of them seat ``s``
    holds now (0 for the seats that hold none), the rest out of play; ``probability``:
    how likely the determinizer's facts make it."""

    hands: tuple[int, ...]
    probability: float


@dataclass(frozen=True, slots=True)
class ExactDeals:
    """Every deal consistent with one observation, as complete states with weights."""

    states: tuple[GameState, ...]
    weights: tuple[float, ...]
    """Each state's placement probability times the determinizer's weight of it."""
    unweighed: tuple[str, ...]
    """Soft evidence the determinizer samples by but does not weigh, or that these deals
    cannot weigh because seats out of the tricks are not listed (see the module notes):
    what these deals do not account for; empty when they account for all."""


# ------------------------------------------------------------------ placements


def _cards_to_place(facts: HiddenFacts) -> int:
    """The card set to place: the unseen cards less those known with a seat."""
    known = 0
    for cards in facts.fixed:
        known |= cards
    return facts.unknown & ~known


def _bits(cards: int) -> list[int]:
    out = []
    while cards:
        low = cards & -cards
        out.append(low.bit_length() - 1)
        cards ^= low
    return out


def _class_masks(cards: int, suit_of: tuple[int, ...] | None) -> list[tuple[int, int]]:
    """``cards`` grouped by effective suit (the class the facts' voids name): (class,
    card set) pairs. Without the hand's tables a card's printed suit is its class (and a
    joker's, 4)."""
    by_class: dict[int, int] = {}
    for card in _bits(cards):
        kind = suit_of[card] if suit_of is not None else min(card // 13, 4)
        by_class[kind] = by_class.get(kind, 0) | (1 << card)
    return sorted(by_class.items())


def _seat_subsets(pool: int, voids: int, count: int, suit_of: tuple[int, ...] | None) -> list[int]:
    """Every set of ``count`` cards of ``pool`` outside the classes of ``voids``."""
    allowed = 0
    for kind, cards in _class_masks(pool, suit_of):
        if not (voids >> kind) & 1:
            allowed |= cards
    free = _bits(allowed)
    out: list[int] = []

    def walk(start: int, left: int, chosen: int) -> None:
        if left == 0:
            out.append(chosen)
            return
        for i in range(start, len(free) - left + 1):
            walk(i + 1, left - 1, chosen | (1 << free[i]))

    walk(0, count, 0)
    return out


def placement_count(facts: HiddenFacts, suit_of: tuple[int, ...] | None = None) -> int:
    """How many placements :func:`placements` lists, counted without listing them: per
    hidden seat in turn, the ways to take its count of cards from the classes it may
    hold (a product of binomials over the classes, summed over how many of each class).

    ``suit_of``: each card's effective suit (the hand's card tables), for the voids."""
    place = _cards_to_place(facts)
    if facts.split is not None:
        return sum(1 for _ in _split_placements(facts, place))
    classes = _class_masks(place, suit_of)
    kinds = [kind for kind, _ in classes]
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def ways(index: int, left: tuple[int, ...]) -> int:
        if index == len(facts.hidden):
            return 1
        key = (index, left)
        if key in memo:
            return memo[key]
        seat = facts.hidden[index]
        open_ = [i for i, kind in enumerate(kinds) if not (facts.voids[seat] >> kind) & 1]
        total = 0

        def spread(j: int, need: int, rest: list[int], factor: int) -> None:
            nonlocal total
            if j == len(open_):
                if need == 0:
                    total += factor * ways(index + 1, tuple(rest))
                return
            i = open_[j]
            have = rest[i]
            for take in range(min(have, need) + 1):
                rest[i] = have - take
                spread(j + 1, need - take, rest, factor * comb(have, take))
            rest[i] = have

        spread(0, facts.counts[seat], list(left), 1)
        memo[key] = total
        return total

    return ways(0, tuple(cards.bit_count() for _, cards in classes))


def _split_placements(facts: HiddenFacts, place: int) -> Iterator[Placement]:
    """The placements of a split (:class:`~tricktaker.engine.resample.SplitChoices`):
    every path through its choice graph, each option's card sets in turn, with the
    path's probability (each option by its weight, each card set of it uniformly)."""
    split = facts.split
    assert split is not None
    n = facts.players

    def walk(node: int, first: int, probability: float) -> Iterator[tuple[int, float]]:
        if node < 0:
            yield first, probability
            return
        options = split.nodes[node]
        total = sum(weight for weight, _, _ in options)
        for weight, after, index in options:
            if weight <= 0:
                continue
            sets = split.lists[index]
            share = probability * weight / total / len(sets)
            for cards in sets:
                yield from walk(after, first | cards, share)

    found: dict[int, float] = {}
    for first, probability in walk(0, 0, 1.0):
        first &= place
        found[first] = found.get(first, 0.0) + probability
    for first, probability in found.items():
        hands = [0] * n
        hands[split.first] = first
        hands[split.second] = place & ~first
        yield Placement(tuple(hands), probability)


def placements(facts: HiddenFacts, suit_of: tuple[int, ...] | None = None) -> Iterator[Placement]:
    """Every placement of the unseen cards the facts allow, once each, with its
    probability (equal for all of them, as the facts say, except through a split's
    weights); ``suit_of`` as for :func:`placement_count`."""
    place = _cards_to_place(facts)
    if facts.split is not None:
        yield from _split_placements(facts, place)
        return
    total = placement_count(facts, suit_of)
    if total == 0:
        return
    n = facts.players
    hands = [0] * n

    def walk(index: int, pool: int) -> Iterator[Placement]:
        if index == len(facts.hidden):
            yield Placement(tuple(hands), 1.0 / total)
            return
        seat = facts.hidden[index]
        for cards in _seat_subsets(pool, facts.voids[seat], facts.counts[seat], suit_of):
            hands[seat] = cards
            yield from walk(index + 1, pool & ~cards)
        hands[seat] = 0

    yield from walk(0, place)


# ---------------------------------------------------------------------- states


def _facts(sampler: Sampler, obs: Observation) -> HiddenFacts:
    describe = getattr(sampler, "hidden_facts", None)
    if describe is None:
        raise ExactUnsupportedError(
            f"the determinizer of {obs.rules.name} does not state its hidden facts"
        )
    try:
        facts = describe()
    except HiddenFactsError as exc:
        raise ExactUnsupportedError(
            f"the hidden cards of this position cannot be enumerated: {exc}"
        ) from None
    assert isinstance(facts, HiddenFacts)
    return facts


def _relabel_events(
    events: list[tuple[object, ...]], mapping: dict[int, int]
) -> dict[int, tuple[object, ...]]:
    """The recorded events that hold a relabelled card (a chance outcome's cards, a card
    action's card), relabelled, by index."""
    out: dict[int, tuple[object, ...]] = {}
    for index, event in enumerate(events):
        first, second = event[0], event[1]
        if isinstance(second, ChanceOutcome):
            cards = tuple(mapping.get(card, card) for card in second.cards)
            if cards != second.cards:
                out[index] = (first, ChanceOutcome(second.kind, cards))
        elif isinstance(second, Action) and isinstance(second.value, int):
            card = second.value
            # an action names a card when the engine writes its value as one
            if card in mapping and second.text() != f"{second.kind} {card}":
                out[index] = (first, Action(second.kind, mapping[card]))
    return out


def _relabelled(template: GameState, place: int, hands: tuple[int, ...]) -> GameState:
    """The template with its unseen cards moved to the placement ``hands`` (see the
    module notes): in each place (a seat's hand, the cards out of play), the template's
    cards that the placement puts elsewhere become, in order, the placement's cards that
    the template had elsewhere; a card in the same place in both stays."""
    old_places = [cards & place for cards in template.hands]
    new_places = list(hands)
    old_free = new_free = place
    for seat, (old, new) in enumerate(zip(old_places, new_places, strict=True)):
        if old.bit_count() != new.bit_count():
            raise ExactUnsupportedError(
                f"seat {seat} holds {old.bit_count()} unseen cards in the sampled state,"
                f" not the {new.bit_count()} the determinizer's facts say"
            )
        old_free &= ~old
        new_free &= ~new
    moved: dict[int, int] = {}
    for old, new in zip([*old_places, old_free], [*new_places, new_free], strict=True):
        moved.update(zip(_bits(old & ~new), _bits(new & ~old), strict=True))
    if not moved:
        return template.clone()
    return with_hidden(
        template,
        hands=[(cards & ~place) | hands[seat] for seat, cards in enumerate(template.hands)],
        dealt=[[moved.get(card, card) for card in cards] for cards in template.dealt],
        kitty=[moved.get(card, card) for card in template.kitty],
        events=_relabel_events(template.events, moved),
    )


def out_of_tricks(observation: Observation, facts: HiddenFacts) -> tuple[int, ...]:
    """The hidden seats of ``facts`` that take no part in the hand's tricks
    (``observation.active``) and showed no void: their hands are not listed but counted
    with the cards out of play (see the module notes). None where the facts place the
    cards by a split."""
    active = observation.active
    if active is None or facts.split is not None:
        return ()
    return tuple(seat for seat in facts.hidden if not active[seat] and not facts.voids[seat])


def _active_facts(facts: HiddenFacts, inactive: tuple[int, ...]) -> HiddenFacts:
    """``facts`` with the ``inactive`` seats' unseen cards out of play."""
    if not inactive:
        return facts
    return dataclasses.replace(
        facts,
        hidden=tuple(seat for seat in facts.hidden if seat not in inactive),
        counts=tuple(0 if seat in inactive else count for seat, count in enumerate(facts.counts)),
    )


def _completed(
    template: GameState, place: int, hands: tuple[int, ...], inactive: tuple[int, ...]
) -> tuple[int, ...]:
    """Every seat's unseen cards for the active seats' placement ``hands``: the cards
    moved into the active hands leave the template's inactive hands (or the cards out of
    play), and the cards the active hands give up take their places there, in order."""
    if not inactive:
        return hands
    old = [cards & place for cards in template.hands]
    new_active = old_active = 0
    for seat, cards in enumerate(hands):
        if seat not in inactive:
            new_active |= cards
            old_active |= old[seat]
    swap = dict(zip(_bits(new_active & ~old_active), _bits(old_active & ~new_active), strict=True))
    full = list(hands)
    for seat in inactive:
        full[seat] = sum(1 << swap.get(card, card) for card in _bits(old[seat]))
    return tuple(full)


def _same_observation(seen: Observation, given: Observation) -> bool:
    """Whether a state's observation for the seat is the given one, the finished hands
    aside (a determinizer may rebuild the game at the hand from the scores alone, as the
    Oh Hell family's does: the past hands do not change this one)."""
    return dataclasses.replace(seen, history=given.history) == given


def _sampler_and_facts(obs: Observation) -> tuple[Sampler, HiddenFacts]:
    """The game's determinizer of ``obs`` and its hidden facts, or a refusal."""
    if obs.pile:
        raise ExactUnsupportedError("cards played from face-down piles are not enumerated")
    if any(made and bid is None for bid, made in zip(obs.bids, obs.bid_made, strict=True)):
        raise ExactUnsupportedError(
            "a bid the seat cannot see yet depends on the hidden cards: not enumerated"
        )
    try:
        sampler = search_for(obs.rules.hooks).determinizer(obs)
    except (ValueError, NotImplementedError) as exc:
        raise ExactUnsupportedError(f"no deals to enumerate here ({obs.phase}): {exc}") from exc
    return sampler, _facts(sampler, obs)


def deal_count(observation: Observation) -> int:
    """How many deals :func:`consistent_deals` would enumerate for ``observation``
    (counted, not listed: cheap; the seats out of the tricks not listed, see the module
    notes); raises :class:`ExactUnsupportedError` where they cannot be enumerated."""
    _, facts = _sampler_and_facts(observation)
    facts = _active_facts(facts, out_of_tricks(observation, facts))
    tables = observation.tables
    return placement_count(facts, tables.suit_of if tables is not None else None)


def unweighed_evidence(observation: Observation) -> tuple[str, ...]:
    """The soft evidence the determinizer of ``observation`` samples by but does not
    weigh (:attr:`ExactDeals.unweighed`), without enumerating the deals."""
    sampler, facts = _sampler_and_facts(observation)
    inactive = out_of_tricks(observation, facts)
    if inactive:
        return _unweighed(sampler, facts, True)
    tables = observation.tables
    suit_of = tables.suit_of if tables is not None else None
    template = sampler.sample(random.Random(_SEED))
    return _unweighed(sampler, facts, _weighs_hidden_past(sampler, facts, suit_of, template))


def _weighs(sampler: Sampler) -> bool:
    return any(getattr(sampler, name, None) is not None for name in ("weight", "deal_weight"))


def _unweighed(sampler: Sampler, facts: HiddenFacts, left_out: bool) -> tuple[str, ...]:
    """The soft evidence the exact values do not count: all of it where the determinizer
    neither weighs it nor says how likelier it draws a deal, or where its weight is left
    out (``left_out``: seats out of the tricks not listed, or a weight of the hidden
    past; the completions' weights are not summed)."""
    return () if _weighs(sampler) and not left_out else tuple(facts.soft_evidence)


def _deal_weight(sampler: Sampler, state: GameState) -> float:
    """How much a state counts: the determinizer's ``deal_weight(state)`` where it has
    one (how much likelier it samples the state's placement than a uniform draw does:
    evidence it samples by rather than weighs), times its weight
    (:func:`~tricktaker.bots.gamesearch.sample_weight`)."""
    likelier = getattr(sampler, "deal_weight", None)
    factor = 1.0 if likelier is None else float(likelier(state))
    return factor * sample_weight(sampler, state)


_PAST_CHECKS = 5
"""How many placements :func:`_weighs_hidden_past` weighs with two templates."""


def _weighs_hidden_past(
    sampler: Sampler, facts: HiddenFacts, suit_of: tuple[int, ...] | None, template: GameState
) -> bool:
    """Whether the determinizer's weight reads a hidden past the placement does not fix:
    a second template relabelled to the same placement weighs differently (checked on
    the first :data:`_PAST_CHECKS` placements)."""
    if not _weighs(sampler):
        return False
    other = sampler.sample(random.Random(_SEED + 1))
    place = _cards_to_place(facts)
    for index, placement in enumerate(placements(facts, suit_of)):
        if index == _PAST_CHECKS:
            break
        first = _deal_weight(sampler, _relabelled(template, place, placement.hands))
        second = _deal_weight(sampler, _relabelled(other, place, placement.hands))
        if abs(first - second) > 1e-9 * max(abs(first), abs(second)):
            return True
    return False


def consistent_deals(observation: Observation, *, limit: int = DEFAULT_LIMIT) -> ExactDeals:
    """Every deal consistent with ``observation`` as a complete state, with its weight
    (see the module notes). Raises :class:`TooManyDealsError` beyond ``limit`` deals and
    :class:`ExactUnsupportedError` for a position the deals cannot be enumerated of."""
    obs = observation
    sampler, facts = _sampler_and_facts(obs)
    inactive = out_of_tricks(obs, facts)
    facts = _active_facts(facts, inactive)
    suit_of = obs.tables.suit_of if obs.tables is not None else None
    count = placement_count(facts, suit_of)
    if count > limit:
        raise TooManyDealsError(count, limit)
    if count == 0:
        raise ExactUnsupportedError("no deal is consistent with the observation")
    template = sampler.sample(random.Random(_SEED))
    place = _cards_to_place(facts)
    unweighed = bool(inactive) or _weighs_hidden_past(sampler, facts, suit_of, template)
    states: list[GameState] = []
    weights: list[float] = []
    for placement in placements(facts, suit_of):
        hands = _completed(template, place, placement.hands, inactive)
        state = _relabelled(template, place, hands)
        if not _same_observation(state.observe(obs.seat), obs):
            raise ExactUnsupportedError(
                "a relabelled deal does not give the seat's observation: the determinizer's"
                " facts and its states disagree"
            )
        states.append(state)
        # Seats out of the tricks, or a weight of the hidden past: the template's
        # completion is one of many, its weight not theirs (see the module notes), so the
        # deals count by placement alone.
        factor = 1.0 if unweighed else _deal_weight(sampler, state)
        weights.append(placement.probability * factor)
    return ExactDeals(tuple(states), tuple(weights), _unweighed(sampler, facts, unweighed))


# ------------------------------------------------------------------------ values


def _play_out(state: GameState, seat: int, action: Action, game: GameSearch) -> GameState:
    """``state`` after ``action`` and the rollout policy to the end of the hand."""
    trial = state.clone()
    before = trial.hands_played
    trial.apply(seat, action)
    events = len(trial.events)
    rollout_hand(trial, game)
    if any(isinstance(event[1], ChanceOutcome) for event in trial.events[events:]):
        raise ExactUnsupportedError(
            "the play-out meets a chance step (a draw or a deal): its result is random"
        )
    if trial.hands_played != before + 1 or not trial.history:
        raise ExactUnsupportedError("playing out this decision does not end its hand")
    return trial


def exact_hint(observation: Observation, *, limit: int = DEFAULT_LIMIT) -> Hint:
    """The coach's values of every legal choice of ``observation``'s seat, exactly:
    every consistent deal enumerated (see the module notes), best first, ``stderr`` 0.

    Raises ``ValueError`` when the seat has no decision now, :class:`TooManyDealsError`
    beyond ``limit`` deals, :class:`ExactUnsupportedError` for a position whose deals or
    play-outs cannot be enumerated."""
    started = time.perf_counter()
    obs = observation
    actions = obs.legal_actions
    if not actions or obs.seat not in obs.to_act:
        raise ValueError(f"seat {obs.seat} has no decision to make now")
    deals = consistent_deals(obs, limit=limit)
    game = search_for(obs.rules.hooks)
    seat = obs.seat
    total_weight = sum(deals.weights)
    if total_weight <= 0:
        raise ExactUnsupportedError("every consistent deal has weight 0")
    values = []
    for action in actions:
        points = 0.0
        made = 0.0
        made_weight = 0.0
        for state, weight in zip(deals.states, deals.weights, strict=True):
            trial = _play_out(state, seat, action, game)
            points += weight * hand_points(trial, seat)
            result = trial.history[-1]
            making = made_bid(trial.rules, result, seat, trial.setup.partnerships)
            if making is not None:
                made_weight += weight
                made += weight if making else 0.0
        values.append(
            ChoiceValue(
                action,
                points / total_weight,
                0.0,
                made / made_weight if made_weight > 0 else None,
                len(deals.states),
            )
        )
    order = {action: index for index, action in enumerate(actions)}
    values.sort(key=lambda value: (-value.mean, order[value.action]))
    return Hint(
        seat=seat,
        choices=tuple(values),
        best=values[0].action,
        exact=True,
        seconds=time.perf_counter() - started,
    )
