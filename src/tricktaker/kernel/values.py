"""What each legal choice is worth under the coach's model, computed in the compiled kernel.

:func:`kernel_choice_values` samples deals consistent with what the seat saw, plays
every legal choice out on each of them (the same deals for every choice: common random
numbers) with the search's rollout policy, no noise, by every seat, and returns per
choice the weighted sums from which the coach (:mod:`tricktaker.coach.values`) takes a
mean, its standard error and the chance of making the bid. The points are the seat's
score for the hand in the game's own points (:func:`tricktaker.coach.model.hand_points`):
in the Oh Hell family the kernel's score rule (in a cooperative ruleset, whose hands
score nothing, 1 where every seat took exactly its bid and 0 otherwise: the kernel's
``coach_points``), in the hook games the hand scores of their result tables
(:func:`tricktaker.kernel.results.result_table`).

The deals come from the kernel's determinizer, weighted by the bid model, as the search
bots sample them, except in a hook game whose determinizer weighs soft evidence the
kernel does not (a model of the other seats' calls, stated in its
:class:`~tricktaker.engine.resample.HiddenFacts`): there the game's own determinizer
samples the deals in Python, with its weights, and the kernel plays them, so that the
values follow the coach's stated model (:data:`tricktaker.coach.model.MODEL`). A hook
game's result tables hold points only: given the coach's notion of making the bid, the
same deals are played again in a world that scores the made bids (:func:`made_worlds`).

For the decisions before a hook game's card play, whose rules the kernel does not
state, :func:`play_out_hands` plays the card play of complete engine states (their
earlier decisions played in Python) in one kernel call and returns the tricks' winners;
:func:`finish_played` then scores each hand with the engine's and the game's scoring.

>>> from tricktaker import load_ruleset, new_game
>>> from tricktaker.kernel import available
>>> state = new_game(load_ruleset("blackout"), players=4, seed=3)
>>> state.apply_chance()
>>> if available():
...     obs = state.observe(state.to_act()[0])
...     values = kernel_choice_values(obs, seed=1, deals=20, seconds=None)
...     assert [v.action for v in values] == list(obs.legal_actions)
...     assert all(v.deals == 20 for v in values)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tricktaker.engine.actions import Action, bid
from tricktaker.engine.base import BIDDING, PLAYING
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFactsError
from tricktaker.engine.state import GameState
from tricktaker.kernel.convert import (
    HandInputs,
    ResultTable,
    config_of_state,
    hand_config,
    kernel_plays,
    plays_whole,
)
from tricktaker.kernel.hookgames import hook_hand_inputs
from tricktaker.kernel.native import native
from tricktaker.kernel.search import kernel_world, move_code, world_inputs
from tricktaker.kernel.spec import KernelState, KernelUnsupportedError, limits

__all__ = [
    "LEAST_DEALS",
    "SAMPLING_SHARE",
    "MoveValues",
    "PlayedOut",
    "append_flat_state",
    "finish_played",
    "flat_state",
    "kernel_choice_values",
    "made_worlds",
    "play_out_hands",
    "python_deals",
]

LEAST_DEALS = 20
"""The fewest deals played under a time budget (fewer only where ``deals`` asks fewer)."""

SAMPLING_SHARE = 0.75
"""The share of a time budget that a game's own determinizer may spend sampling deals in
Python (the kernel plays the deals it gets in the rest, several times faster than they
are sampled); without it the sampling took the whole budget and the kernel played only
:data:`LEAST_DEALS` of them. Where the kernel plays the deals more than once (a hook
game's made bids counted, :func:`made_worlds`), the sampling's share is smaller, so that
each pass has the time one pass would."""


ROUND_LEFT = 0.03
"""Under a time budget, a game's own determinizer samples deals in rounds (the kernel's
share of each depends on how fast it plays them): another round starts while more than
this share of the budget is left."""


@dataclass(frozen=True, slots=True)
class MoveValues:
    """The weighted sums of one legal choice over the deals it was played out on."""

    action: Action
    deals: int
    """How many deals it was played out on."""
    weight: float
    """The sum of those deals' weights."""
    sum: float
    """The sum over the deals of weight times the seat's hand score (game points)."""
    sum_sq: float
    """The sum over the deals of weight times the hand score squared."""
    made: float | None
    """The sum over the deals of weight where the seat made its bid (in the Oh Hell
    family, took as many tricks as it bid; in a hook game, as the coach's ``made`` said);
    None where it is not known (a hook game's hand valued without ``made``, or where the
    seat has nothing to make)."""
    weight_sq: float = 0.0
    """The sum of the deals' squared weights (for the effective number of deals)."""
    made_weight: float | None = None
    """The sum of the weights of the deals where the seat had a bid to make, where that
    is not every deal (None: :attr:`weight`, or :attr:`made` is None)."""

    @property
    def mean(self) -> float:
        """The weighted mean hand score (0 over no weight)."""
        return self.sum / self.weight if self.weight > 0 else 0.0

    @property
    def effective_deals(self) -> float:
        """Kish's effective number of deals, ``weight² / weight_sq`` (``deals`` when all
        the weights are equal)."""
        return self.weight**2 / self.weight_sq if self.weight_sq > 0 else 0.0

    @property
    def stderr(self) -> float:
        """The standard error of :attr:`mean`: the weighted spread of the scores over the
        effective number of deals (0 with fewer than two)."""
        effective = self.effective_deals
        if effective <= 1:
            return 0.0
        variance = max(0.0, self.sum_sq / self.weight - self.mean**2)
        return math.sqrt(variance / (effective - 1))


def _soft_evidence(sampler: Any) -> bool:
    """Whether the game's determinizer weighs evidence the kernel's sampler does not."""
    describe = getattr(sampler, "hidden_facts", None)
    if describe is None:
        return False
    try:
        return bool(describe().soft_evidence)
    except HiddenFactsError as exc:
        raise KernelUnsupportedError(f"the kernel cannot place the hidden cards: {exc}") from None


def python_deals(
    sampler: Any,
    *,
    seed: int,
    deals: int,
    deadline: float | None,
    least: int,
    rng: random.Random | None = None,
) -> list[tuple[float, ...]]:
    """``deals`` deals drawn by a game's own determinizer (``sampler``), each as the
    kernel takes it: every seat's hand, then the deal's weight; fewer once past the
    ``deadline`` (``time.perf_counter()``), but at least ``least``. ``rng``: draw from it
    (to go on drawing where an earlier call stopped) instead of a new one of ``seed``."""
    from tricktaker.bots.gamesearch import sample_weight

    if rng is None:
        rng = random.Random(seed)
    out: list[tuple[float, ...]] = []
    for index in range(deals):
        if deadline is not None and index >= least and time.perf_counter() > deadline:
            break
        state = sampler.sample(rng)
        out.append((*state.hands, sample_weight(sampler, state)))
    return out


def kernel_choice_values(
    obs: Observation,
    *,
    seed: int,
    deals: int,
    seconds: float | None,
    world: Any = None,
    made: Callable[[GameState], bool | None] | None = None,
) -> list[MoveValues]:
    """Every legal choice of ``obs`` played out in the kernel on the same ``deals``
    deals (fewer once ``seconds`` have passed, but at least :data:`LEAST_DEALS`), in the
    order of ``obs.legal_actions`` (``world``: :func:`~tricktaker.kernel.kernel_world` of
    ``obs``, when already made). Raises :class:`KernelUnsupportedError` for a decision
    the kernel does not play, and
    :class:`~tricktaker.kernel.native.KernelUnavailableError` where it is not built.

    ``made``: whether the seat made its bid in the hand a state has just finished (the
    coach's :func:`~tricktaker.coach.contract.made_bid` of the seat and its last
    result). A hook game's hand is scored by its result tables, which hold points only;
    given ``made``, the chance of making the bid there is counted by playing the same
    deals again in a world whose table scores 1 where the seat made it
    (:func:`made_worlds`); without it, or where the
    seat has nothing to make, :attr:`MoveValues.made` is None."""
    start = time.perf_counter()
    if deals < 0:
        raise ValueError("deals must be 0 or more")
    actions = list(obs.legal_actions)
    if not actions:
        raise KernelUnsupportedError("no legal choice to value")
    moves = [move_code(action) for action in actions]
    core = native()
    least = min(deals, LEAST_DEALS)
    given = None
    sampler = None
    counting: tuple[Any, Any | None] | None = None
    if not plays_whole(obs.rules):  # a hook game: the kernel plays its cards only
        from tricktaker.bots.gamesearch import search_for

        if obs.phase != "playing":
            raise KernelUnsupportedError(f"the kernel values cards here, not the {obs.phase}")
        sampler = search_for(obs.rules.hooks).determinizer(obs)
        if made is not None:
            config, public, facts = world_inputs(obs, sampler=sampler)
            if world is None:
                world = _make_world(config, public, facts)
            counting = made_worlds(obs, sampler, made, public, facts)
    if world is None:
        world = kernel_world(obs, sampler=sampler)
    passes = 1 if counting is None else 1 + sum(one is not None for one in counting)

    def play(given: list[tuple[float, ...]] | None, count: int, least: int) -> list[_Sums]:
        """Every move's sums over ``count`` deals (those ``given``, or the kernel's own),
        every pass sharing what is left of the budget."""
        left = -1.0 if seconds is None else max(0.0, start + seconds - time.perf_counter())
        try:
            made_known, rows = core.values(
                world, moves, count, least, left / passes if left > 0 else left, seed, given
            )
            out = [
                _Sums(
                    deals=count,
                    weight=weight,
                    sum=total,
                    sum_sq=total_sq,
                    made=made if made_known else None,
                    weight_sq=weight_sq,
                    made_weight=None,
                )
                for count, weight, total, total_sq, made, weight_sq in rows
            ]
            if counting is not None:
                played = rows[0][0] if rows else 0
                made_world, known_world = counting
                _, again = core.values(made_world, moves, played, 0, -1.0, seed, given)
                for sums, row in zip(out, again, strict=True):
                    sums.made = row[2]
                if known_world is not None:
                    _, known = core.values(known_world, moves, played, 0, -1.0, seed, given)
                    for sums, row in zip(out, known, strict=True):
                        sums.made_weight = row[2]
        except core.Unsupported as exc:
            raise KernelUnsupportedError(str(exc)) from None
        return out

    if sampler is None or not _soft_evidence(sampler):
        totals = play(None, deals, least)
    else:
        # Each pass plays every deal: the sampling leaves each as much time as with one.
        share = SAMPLING_SHARE / (SAMPLING_SHARE + (1.0 - SAMPLING_SHARE) * passes)
        rng = random.Random(seed)
        totals = []
        done, first = 0, True
        while True:  # under a budget, rounds until it is spent: the kernel's part varies
            now = time.perf_counter()
            deadline = None if seconds is None else now + (start + seconds - now) * share
            given = python_deals(
                sampler,
                seed=seed,
                deals=deals - done,
                deadline=deadline,
                least=least if first else 0,
                rng=rng,
            )
            if not given and not first:
                break
            found = play(given, len(given), least if first else 0)
            totals = (
                found if first else [one.plus(two) for one, two in zip(totals, found, strict=True)]
            )
            played = found[0].deals if found else 0
            done += played
            first = False
            if seconds is None or done >= deals or played < len(given):
                break
            if start + seconds - time.perf_counter() < ROUND_LEFT * seconds:
                break
    return [
        MoveValues(
            action=action,
            deals=sums.deals,
            weight=sums.weight,
            sum=sums.sum,
            sum_sq=sums.sum_sq,
            made=sums.made,
            weight_sq=sums.weight_sq,
            made_weight=sums.made_weight,
        )
        for action, sums in zip(actions, totals, strict=True)
    ]


@dataclass(slots=True)
class _Sums:
    """One move's sums from the kernel, as :class:`MoveValues` holds them."""

    deals: int
    weight: float
    sum: float
    sum_sq: float
    made: float | None
    weight_sq: float
    made_weight: float | None

    def plus(self, other: _Sums) -> _Sums:
        """The sums over both sets of deals."""

        def add(one: float | None, two: float | None) -> float | None:
            return None if one is None or two is None else one + two

        return _Sums(
            self.deals + other.deals,
            self.weight + other.weight,
            self.sum + other.sum,
            self.sum_sq + other.sum_sq,
            add(self.made, other.made),
            self.weight_sq + other.weight_sq,
            add(self.made_weight, other.made_weight),
        )


def _make_world(config: Any, public: Any, facts: Any) -> Any:
    """The kernel's world of a config, a public state and a determinizer's facts."""
    core = native()
    try:
        return core.make_world(config, public, facts)
    except core.Unsupported as exc:
        raise KernelUnsupportedError(str(exc)) from None


def made_worlds(
    obs: Observation,
    sampler: Any,
    made: Callable[[GameState], bool | None],
    public: Any,
    facts: Any,
) -> tuple[Any, Any | None] | None:
    """For a hook game's card decision: a world like the seat's whose hand score for the
    seat is 1 where it made its bid and 0 elsewhere (``made`` of a state that finished
    the hand with those tricks, by the game's own scoring, as
    :func:`~tricktaker.kernel.results.result_table` tables the points), and, where the
    seat has a bid to make with some tricks but not with others, one that scores 1 where
    it has one (else None: always). None where it never has one. Played on the same
    deals as the points' world (the same seed or deals given: the rollouts draw
    nothing), their sums are the made bids' weight and the weight of the deals with a
    bid to make."""
    from tricktaker.kernel.results import result_table

    template = sampler.sample(random.Random(0))
    result = result_table(template)
    players, size, me = obs.players, obs.hand_size, obs.seat

    def made_with(tricks: list[int]) -> bool | None:
        trial = template.clone()
        trial.finish_hand(tricks)
        return made(trial)

    if result.outcomes:
        bits, most = limits().outcome_bits, limits().max_outcome_tricks
        found = [
            made_with([(code >> (bits * seat)) & most for seat in range(players)])
            for code in result.outcomes
        ]
    else:
        team = result.teams[me]
        playing = obs.active or (True,) * players
        other = next(s for s in range(players) if playing[s] and not (team >> s) & 1)
        found = []
        for taken in range(size + 1):
            tricks = [0] * players
            tricks[me], tricks[other] = taken, size - taken
            found.append(made_with(tricks))
    if all(value is None for value in found):
        return None

    def world_scoring(values: list[int]) -> Any:
        if result.outcomes:
            per_outcome = [0] * (len(values) * players)
            for at, value in enumerate(values):
                per_outcome[at * players + me] = value
            table = replace(result, outcome_score=tuple(per_outcome))
        else:
            per_seat = [0] * (players * (size + 1))
            per_seat[me * (size + 1) : (me + 1) * (size + 1)] = values
            table = replace(result, score=tuple(per_seat))
        inputs = hook_hand_inputs(obs, table)
        return _make_world(hand_config(obs.rules, players, inputs), public, facts)

    made_world = world_scoring([1 if value else 0 for value in found])
    if all(value is not None for value in found):
        return made_world, None
    return made_world, world_scoring([0 if value is None else 1 for value in found])


def _card_play_config(state: GameState) -> Any:
    """The kernel's config of the card play in progress in ``state``, as much as its
    rollout policy reads to play the cards (the hand is scored in Python,
    :func:`finish_played`): no turn-up and no zero-bid streaks, which count only in
    guessing bids, so that hands dealt differently share a config; a hook game's result
    table all zeros (the policy reads only the teams from it), so that none is computed
    per state."""
    players, size = state.players, state.hand_size
    result = None
    if not plays_whole(state.rules):
        from tricktaker.kernel.results import team_masks

        result = ResultTable(
            score=(0,) * (players * (size + 1)),
            reward=(0.0,) * (players * (size + 1)),
            teams=team_masks(state.setup, players),
        )
    inputs = HandInputs(
        hand_size=size,
        scoring=state.scoring if result is None else None,
        misere=state.spec.misere,
        hook=state.hook,
        tables=state.tables,
        trump=state.trump,
        turn_up=None,
        zero_streak=[0] * players,
        result=result,
        active=None if state.active is None else tuple(state.active),
    )
    return hand_config(state.rules, players, inputs)


@dataclass(frozen=True, slots=True)
class PlayedOut:
    """How the kernel played a hand out from a state (:func:`play_out_hands`)."""

    winners: tuple[int, ...]
    """The winners of the tricks played from the state, in order."""
    bids: tuple[int, ...]
    """Each seat's bid at the hand's end (-1: none); read where the state was bidding."""


def flat_state(config_index: int, state: KernelState) -> list[int]:
    """A :class:`~tricktaker.kernel.spec.KernelState` as the kernel's ``play_out`` reads
    it in its flat list of ints: the index of its config, then per seat its hand, bid,
    tricks and trick points, the trick's length and its (seat, card) pairs, and the
    leader, the seat to play, the tricks done, the bids made, their sum, the eldest, the
    phase, whether trumps are broken and the first bidder (:func:`play_out_hands` writes
    the same straight from an engine state)."""
    out = [config_index, *state.hands, *state.bids, *state.tricks, *state.points]
    out.append(len(state.trick))
    for seat, card in state.trick:
        out += (seat, card)
    out += (
        state.leader,
        state.to_play,
        state.tricks_done,
        state.bid_count,
        state.bid_sum,
        state.eldest,
        state.phase,
        int(state.broken),
        state.first_bidder,
    )
    return out


def append_flat_state(out: list[int], config_index: int, state: GameState) -> None:
    """Append the hand in progress in ``state`` to ``out`` as :func:`flat_state` writes
    its :func:`~tricktaker.kernel.convert.kernel_state`, without making that object (the
    coach's batches, :func:`play_out_hands`)."""
    players = state.players
    known = limits()
    phase = known.phase_bidding if state.phase == BIDDING else known.phase_playing
    bids = [-1 if b is None else b for b in state.bids]
    out.append(config_index)
    out += state.hands
    out += bids
    out += state.tricks_won
    winners = state.trick_winners
    formula = state.scoring.trick_points
    if formula is None or not winners:
        out += [0] * players
    else:
        points = [0] * players
        size = state.hand_size
        for k, winner in enumerate(winners, start=1):
            points[winner] += formula(k=k, hand_size=size, players=players)
        out += points
    trick = state.trick
    out.append(len(trick))
    for seat, card in trick:
        out += (seat, card)
    out += (
        state.leader,
        state.to_play,
        len(winners),
        state.bid_count,
        sum(b for b in bids if b > 0),
        (state.dealer + 1) % players,
        phase,
        1 if state.trump_broken else 0,
        -1,
    )


def play_out_hands(states: Sequence[GameState]) -> list[PlayedOut | None]:
    """Each state's hand played to its end in the kernel, by the rollout policy without
    noise (as :func:`tricktaker.bots.pimc.rollout_hand` plays it in Python): its card
    play, and its bids first in a ruleset the kernel plays whole. Per state how it was
    played, or None where the kernel does not play that state (neither its card play nor
    bids it plays, a game whose card play the kernel does not declare, a face-down pile):
    play those in Python. One kernel call for all the states, read by the kernel from one
    flat list of ints (:func:`flat_state`); the states are not changed
    (:func:`finish_played` scores one)."""
    core = native()
    configs: list[Any] = []
    flat: list[int] = []
    where: list[int] = []
    indices: dict[tuple[Any, ...], int | None] = {}
    """The configs made in this call by what they are made of, as indices into
    ``configs`` (None: refused; the objects are alive while the states are, so their ids
    name them)."""
    rulesets: dict[int, tuple[bool, bool]] = {}
    """Per ruleset (by id) whether the kernel plays it, and whether whole."""
    for index, state in enumerate(states):
        rules = state.rules
        found = rulesets.get(id(rules))
        if found is None:
            found = rulesets[id(rules)] = (kernel_plays(rules), plays_whole(rules))
        plays, whole = found
        if not plays:
            continue
        bidding = state.phase == BIDDING and whole
        if state.phase != PLAYING and not bidding:
            continue
        if state.piles is not None or state.spec.pile or state.spec.blind_hand:
            continue  # the kernel does not play face-down piles (kernel_state refuses them)
        key = (
            id(rules),
            state.players,
            state.hand_size,
            id(state.tables),
            state.trump,
            id(state.scoring),
            state.spec.misere,
            state.hook,
            None if state.active is None else tuple(state.active),
            (state.turn_up, tuple(state.zero_streak)) if bidding else None,
        )
        if key in indices:
            config_index = indices[key]
        else:
            try:
                config = config_of_state(state) if bidding else _card_play_config(state)
            except (KernelUnsupportedError, core.Unsupported):
                config_index = None
            else:
                config_index = len(configs)
                configs.append(config)
            indices[key] = config_index
        if config_index is None:
            continue
        append_flat_state(flat, config_index, state)
        where.append(index)
    out: list[PlayedOut | None] = [None] * len(states)
    if not where:
        return out
    try:
        played = core.play_out(configs, flat)
    except core.Unsupported:  # a hand the kernel does not play: all of them in Python
        return out
    for index, (winners, bids) in zip(where, played, strict=True):
        out[index] = PlayedOut(winners=winners, bids=bids)
    return out


def finish_played(state: GameState, played: PlayedOut) -> None:
    """Finish ``state``'s hand as the kernel played it (:func:`play_out_hands`): its
    bids made through the engine where it was bidding, then the hand scored with the
    engine's and the game's own scoring as the tricks still to play fell to
    ``played.winners``, as if the cards had been played: ``state.history[-1]`` is the
    hand's result."""
    while state.phase == BIDDING:
        for seat in state.to_act():
            state.apply(seat, bid(played.bids[seat]))
    winners = played.winners
    tricks = list(state.tricks_won)
    for seat in winners:
        tricks[seat] += 1
    state.finish_hand(tricks, trick_winners=(*state.trick_winners, *winners))
