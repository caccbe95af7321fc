"""The coach's sampled values: what every legal choice of one seat's decision is worth,
under the model of :mod:`tricktaker.coach.model`, estimated over sampled deals.

:func:`hint` samples deals the seat cannot tell from the real one (the game's search
determinizer, each deal weighted by :func:`~tricktaker.bots.gamesearch.sample_weight`),
and on every deal tries every legal choice (common random numbers: the choices are
compared on the same deals, with the same later draws), playing the hand out with the
game's rollout policy and reading the seat's score for the hand
(:func:`~tricktaker.coach.model.hand_points`: in a cooperative ruleset 1 where the whole
table was exact, else 0) and whether it made its bid
(:func:`~tricktaker.coach.contract.made_bid`).

Where the compiled kernel plays the decision (the Oh Hell family's bids and cards, the
hook games' card play) and offers the coach's sums
(``tricktaker.kernel.values.kernel_choice_values``), the deals are played there; in a
hook game the kernel tables the hands' points only, so it is given
:func:`~tricktaker.coach.contract.made_bid` to count the made bids by. A decision before
a hook game's card play (auctions, plucks, trump calls, discards, antes, stay or fold,
draws, calls) is valued by :func:`staged_totals`: on each deal and choice the decisions
up to the card play are played in Python by the rollout policy, and the card plays go to
the kernel in batches (``tricktaker.kernel.values.play_out_hands``), each hand then
scored by the engine from the tricks' winners; the same deals give the same sums as
playing everything in Python (:func:`python_totals`, which values whatever the kernel
cannot play). tests/coach/test_values.py checks that the kernel's values and Python's
agree within their standard errors, and that the staged sums are Python's.

While :func:`staged_totals` and :func:`python_totals` sample, Python's cyclic
collector runs fewer young collections (:func:`~tricktaker.coach.collection.fewer_collections`:
the process's threshold restored afterwards).

Every decision of the shipped games is valued so, those before the deal included (a
dealer's ante, Caller Clag's calls: the playing out deals the hand). A choice whose
playing out does not end in its own hand's result raises
:class:`UnreachableDecisionError`.

**The estimate.** With deal ``i`` of weight ``w_i`` scoring ``x_i`` after a choice, the
value is the weighted mean ``m = sum(w x) / sum(w)``. Its standard error is that of a
weighted mean with the effective sample size ``n_eff = sum(w)^2 / sum(w^2)`` (Kish):
``stderr = sqrt(s^2 / n_eff)``, where ``s^2 = sum(w (x - m)^2) / sum(w) * n_eff /
(n_eff - 1)`` is the weighted variance with the small-sample correction. With equal
weights this is the usual ``s / sqrt(n)``. It treats the weights as fixed (it does not
count their own sampling noise), which is close while ``n_eff`` is not far below the
number of deals.
"""

from __future__ import annotations

import importlib
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tricktaker.bots.gamesearch import GameSearch, Sampler, sample_weight, search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.coach.collection import fewer_collections
from tricktaker.coach.contract import made_bid
from tricktaker.coach.model import ChoiceValue, Hint, hand_points
from tricktaker.engine.actions import Action
from tricktaker.engine.base import BIDDING, PLAYING
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState
from tricktaker.kernel import KernelUnavailableError, KernelUnsupportedError

__all__ = [
    "MIN_DEALS",
    "ChoiceTotals",
    "UnreachableDecisionError",
    "choice_value",
    "hint",
    "python_totals",
    "staged_totals",
    "weighted_mean",
]

MIN_DEALS = 20
"""The fewest deals a hint with a time budget samples, however long they take."""

KERNEL_DEAL_CAP = 1_000_000
"""The most deals the kernel plays for a hint with a time budget (the time ends first)."""


class UnreachableDecisionError(ValueError):
    """A decision whose values the coach cannot compute: its hand does not end in a
    result for the seat to score by playing out (for example, a choice between hands)."""


@dataclass(slots=True)
class ChoiceTotals:
    """One choice's running sums over the deals played so far."""

    action: Action
    deals: int = 0
    weight: float = 0.0
    """The sum of the deals' weights."""
    weight_sq: float = 0.0
    """The sum of the squared weights (for the effective sample size)."""
    total: float = 0.0
    """The weighted sum of the seat's points."""
    total_sq: float = 0.0
    """The weighted sum of the squared points."""
    made: float = 0.0
    """The weighted sum of the deals where the seat made its bid."""
    made_weight: float = 0.0
    """The sum of the weights of the deals where the seat had a bid to make."""

    def add(self, weight: float, points: float, made: bool | None) -> None:
        """Count one deal."""
        self.deals += 1
        self.weight += weight
        self.weight_sq += weight * weight
        self.total += weight * points
        self.total_sq += weight * points * points
        if made is not None:
            self.made_weight += weight
            self.made += weight if made else 0.0


def weighted_mean(
    weight: float, weight_sq: float, total: float, total_sq: float
) -> tuple[float, float]:
    """The weighted mean and its standard error (see the module notes) from the sums of
    the weights, the squared weights, the weighted values and the weighted squares.

    >>> mean, stderr = weighted_mean(4.0, 4.0, 8.0, 20.0)  # the values 1, 3, 1, 3
    >>> mean, round(stderr, 6)  # s = 2 / sqrt(3), over sqrt(4)
    (2.0, 0.57735)
    >>> weighted_mean(1.0, 1.0, 5.0, 25.0)  # one deal: no spread to measure
    (5.0, 0.0)
    """
    if weight <= 0.0:
        return 0.0, math.inf
    mean = total / weight
    effective = weight * weight / weight_sq if weight_sq > 0.0 else 0.0
    if effective <= 1.0:
        return mean, 0.0
    spread = max(total_sq / weight - mean * mean, 0.0)
    variance = spread * effective / (effective - 1.0)
    return mean, math.sqrt(variance / effective)


def choice_value(totals: ChoiceTotals) -> ChoiceValue:
    """The value of a choice from its sums."""
    mean, stderr = weighted_mean(totals.weight, totals.weight_sq, totals.total, totals.total_sq)
    make = totals.made / totals.made_weight if totals.made_weight > 0.0 else None
    return ChoiceValue(totals.action, mean, stderr, make, totals.deals)


def ranked(totals: Sequence[ChoiceTotals], actions: Sequence[Action]) -> list[ChoiceValue]:
    """The choices' values, best first: the highest mean, ties to the choice first in
    ``actions`` (the legal order). The coach's hint and the hard bot's flat choice both
    rank by this."""
    order = {action: index for index, action in enumerate(actions)}
    return sorted(
        (choice_value(choice) for choice in totals),
        key=lambda value: (-value.mean, order[value.action]),
    )


def _sampler(obs: Observation, game: GameSearch) -> Sampler:
    """The game's determinizer for ``obs`` (:class:`UnreachableDecisionError` where it
    cannot sample this decision's deals)."""
    try:
        return game.determinizer(obs)
    except (ValueError, NotImplementedError) as exc:
        raise UnreachableDecisionError(
            f"the coach cannot sample deals at this decision ({obs.phase}): {exc}"
        ) from exc


def _stop_rule(started: float, seconds: float, deals: int | None) -> Callable[[int], bool]:
    """When to stop sampling: after ``deals`` deals when given, else once ``seconds``
    have passed since ``started`` (``time.perf_counter()``) and at least
    :data:`MIN_DEALS` deals are in."""
    if deals is not None:
        return lambda done: done >= deals
    deadline = started + seconds
    return lambda done: done >= MIN_DEALS and time.perf_counter() >= deadline


def _score(
    state: GameState, seat: int, hands_before: int, game: GameSearch
) -> tuple[int, bool | None]:
    """Play ``state`` out to the end of its hand and read the seat's points and whether
    it made its bid."""
    rollout_hand(state, game)
    return _scored(state, seat, hands_before)


def _scored(state: GameState, seat: int, hands_before: int) -> tuple[int, bool | None]:
    """The seat's points and whether it made its bid in the hand ``state`` just
    finished (:class:`UnreachableDecisionError` if it did not finish that hand)."""
    if state.hands_played != hands_before + 1 or len(state.history) < 1:
        raise UnreachableDecisionError(
            f"playing out after this decision ({state.phase_name} phase) does not end the"
            " hand it belongs to, so the coach has no hand score to value it by"
        )
    return hand_points(state, seat), made_bid(
        state.rules, state.history[-1], seat, state.setup.partnerships
    )


@fewer_collections()
def python_totals(
    obs: Observation,
    actions: Sequence[Action],
    *,
    seed: int,
    stop: Callable[[int], bool],
) -> list[ChoiceTotals]:
    """Every choice's sums over deals sampled and played out in Python (see the module
    notes), sampling until ``stop(deals done)``."""
    game = search_for(obs.rules.hooks)
    sampler = _sampler(obs, game)
    rng = random.Random(seed)
    seat = obs.seat
    totals = [ChoiceTotals(action) for action in actions]
    done = 0
    while not stop(done):
        state = sampler.sample(rng)
        state.reseed(rng.getrandbits(62))
        weight = sample_weight(sampler, state)
        hands_before = state.hands_played
        for choice in totals:
            trial = state.clone()
            trial.apply(seat, choice.action)
            points, made = _score(trial, seat, hands_before, game)
            choice.add(weight, points, made)
        done += 1
    return totals


BATCH_STATES = 128
"""How many hands' card play :func:`staged_totals` gathers before it hands them to the
kernel in one call."""


def _play_to_cards(
    state: GameState, game: GameSearch, hands_before: int, kernel_phases: tuple[int, ...]
) -> None:
    """Play ``state`` with the game's rollout policy (as
    :func:`~tricktaker.bots.pimc.rollout_hand` does) until it reaches one of the
    ``kernel_phases`` (the card play, or the bids where the kernel plays the game whole)
    or its hand ends."""
    policy = game.rollout_action
    while (
        state.phase not in kernel_phases
        and state.hands_played == hands_before
        and not state.is_terminal()
    ):
        acting = state.to_act()
        if not acting:  # a chance step (nobody acts while one is pending)
            state.apply_chance()
            continue
        for seat in acting:
            actions = state.legal_actions(seat)
            state.apply(seat, actions[0] if len(actions) == 1 else policy(state, seat, actions))


def _card_player() -> (
    tuple[
        Callable[[Sequence[GameState]], list[Any]],
        Callable[[GameState, Any], None],
    ]
    | None
):
    """The kernel's ``play_out_hands`` and ``finish_played``
    (:mod:`tricktaker.kernel.values`), where this build has them and its kernel is built."""
    try:
        module = importlib.import_module("tricktaker.kernel.values")
        from tricktaker.kernel.native import available
    except ImportError:
        return None
    play = getattr(module, "play_out_hands", None)
    finish = getattr(module, "finish_played", None)
    if not available() or not callable(play) or not callable(finish):
        return None
    return play, finish


@fewer_collections()
def staged_totals(
    obs: Observation,
    actions: Sequence[Action],
    *,
    seed: int,
    stop: Callable[[int], bool],
) -> list[ChoiceTotals] | None:
    """Every choice's sums for a decision before the card play, the same model's as
    :func:`python_totals` on the same deals (the same ``seed`` gives the same sums), faster:
    on each deal and choice the decisions up to the card play are played in Python by the
    game's rollout policy, and the card plays of a batch of deals go to the kernel in one
    call (:func:`tricktaker.kernel.values.play_out_hands`), each hand then scored by the
    engine from the tricks' winners; a hand that ends before its card play (everyone
    folds) is scored in Python, and so is one the kernel does not play. A card decision
    is valued so too where the kernel cannot sample its deals (its world refused: the
    game's determinizer samples them here). None where the kernel does not play this
    game's cards (or is not built): :func:`python_totals`."""
    player = _card_player()
    if player is None:
        return None
    from tricktaker.kernel.convert import kernel_plays, plays_whole

    if not kernel_plays(obs.rules):
        return None
    kernel_phases = (PLAYING, BIDDING) if plays_whole(obs.rules) else (PLAYING,)
    play_out, finish = player
    game = search_for(obs.rules.hooks)
    sampler = _sampler(obs, game)
    rng = random.Random(seed)
    seat = obs.seat
    totals = [ChoiceTotals(action) for action in actions]
    weights: list[float] = []
    results: list[tuple[int, bool | None] | None] = []
    """Per deal and choice (deal-major), the seat's points and made bid once known."""
    waiting: list[tuple[int, GameState, int]] = []
    """The hands for the kernel to play out: (slot in ``results``, state, hands before)."""

    def flush() -> None:
        played = play_out([state for _, state, _ in waiting])
        for (slot, state, hands_before), how in zip(waiting, played, strict=True):
            if how is None:
                results[slot] = _score(state, seat, hands_before, game)
            else:
                finish(state, how)
                results[slot] = _scored(state, seat, hands_before)
        waiting.clear()

    last = len(totals) - 1
    done = 0
    while not stop(done):
        state = sampler.sample(rng)
        state.reseed(rng.getrandbits(62))
        weights.append(sample_weight(sampler, state))
        hands_before = state.hands_played
        # The state's own legal actions, listed once: each clone inherits the list and
        # applies its choice (the very object) without the engine listing them again.
        listed = {action: action for action in state.legal_actions(seat)}
        for index, choice in enumerate(totals):
            # The last choice plays on the sampled state itself (nothing reads it after).
            trial = state if index == last else state.clone()
            trial.apply(seat, listed.get(choice.action, choice.action))
            _play_to_cards(trial, game, hands_before, kernel_phases)
            slot = len(results)
            if trial.phase in kernel_phases and trial.hands_played == hands_before:
                results.append(None)
                waiting.append((slot, trial, hands_before))
            else:
                results.append(_scored(trial, seat, hands_before))
        done += 1
        if len(waiting) >= BATCH_STATES:
            flush()
    flush()
    width = len(totals)
    for deal, weight in enumerate(weights):
        for index, choice in enumerate(totals):
            found = results[deal * width + index]
            assert found is not None
            choice.add(weight, found[0], found[1])
    return totals


def _kernel_values() -> Callable[..., Any] | None:
    """``tricktaker.kernel.values.kernel_choice_values`` where this build has it."""
    try:
        module = importlib.import_module("tricktaker.kernel.values")
    except ImportError:
        return None
    found = getattr(module, "kernel_choice_values", None)
    return found if callable(found) else None


def kernel_totals(
    obs: Observation,
    actions: Sequence[Action],
    *,
    seed: int,
    seconds: float,
    deals: int | None,
) -> list[ChoiceTotals] | None:
    """Every choice's sums from the compiled kernel, or None where it does not play this
    decision (or this build has no kernel)."""
    values = _kernel_values()
    if values is None:
        return None
    seat = obs.seat

    def made(state: GameState) -> bool | None:
        return made_bid(state.rules, state.history[-1], seat, state.setup.partnerships)

    try:
        if deals is None:
            moves = values(obs, seed=seed, deals=KERNEL_DEAL_CAP, seconds=seconds, made=made)
        else:
            moves = values(obs, seed=seed, deals=deals, seconds=None, made=made)
    except (KernelUnsupportedError, KernelUnavailableError):
        return None
    by_action = {move.action: move for move in moves}
    totals = []
    for action in actions:
        move = by_action[action]
        made_sum = move.made
        made_weight = getattr(move, "made_weight", None)
        if made_weight is None:
            made_weight = move.weight
        totals.append(
            ChoiceTotals(
                action,
                deals=int(move.deals),
                weight=float(move.weight),
                weight_sq=float(move.weight_sq),
                total=float(move.sum),
                total_sq=float(move.sum_sq),
                made=float(made_sum) if made_sum is not None else 0.0,
                made_weight=float(made_weight) if made_sum is not None else 0.0,
            )
        )
    return totals


def hint(
    observation: Observation,
    *,
    seconds: float = 1.0,
    seed: int = 0,
    deals: int | None = None,
    kernel: bool = True,
) -> Hint:
    """The coach's values of every legal choice of ``observation``'s seat, best first.

    ``seconds``: sample deals for about this long (at least :data:`MIN_DEALS`);
    ``deals``: sample exactly this many instead (then the same ``seed`` gives the same
    hint on any machine); ``kernel``: use the compiled kernel where it plays the
    decision (False: always Python). Raises ``ValueError`` when the seat has no decision
    now, :class:`UnreachableDecisionError` for a decision the coach cannot value.
    """
    started = time.perf_counter()
    actions = observation.legal_actions
    if not actions or observation.seat not in observation.to_act:
        raise ValueError(f"seat {observation.seat} has no decision to make now")
    if deals is not None and deals < 1:
        raise ValueError(f"a hint needs at least one deal, not {deals}")
    totals = None
    if kernel:
        totals = kernel_totals(observation, actions, seed=seed, seconds=seconds, deals=deals)
    if totals is None and kernel:
        totals = staged_totals(
            observation, actions, seed=seed, stop=_stop_rule(started, seconds, deals)
        )
    if totals is None:
        totals = python_totals(
            observation, actions, seed=seed, stop=_stop_rule(started, seconds, deals)
        )
    choices = ranked(totals, actions)
    return Hint(
        seat=observation.seat,
        choices=tuple(choices),
        best=choices[0].action,
        exact=False,
        seconds=time.perf_counter() - started,
    )
