"""What each legal choice is worth under the coach's model, computed in the compiled kernel.

:func:`kernel_choice_values` samples deals consistent with what the seat saw, plays
every legal choice out on each of them (the same deals for every choice: common random
numbers) with the search's rollout policy, no noise, by every seat, and returns per
choice the weighted sums from which the coach (:mod:`tricktaker.coach.values`) takes a
mean, its standard error and the chance of making the bid. The points are the seat's
score for the hand in the game's own points (:func:`tricktaker.coach.model.hand_points`):
in the Oh Hell family the kernel's score rule, in the hook games the hand scores of their
result tables (:func:`tricktaker.kernel.results.result_table`).

The deals come from the kernel's determinizer, weighted by the bid model, as the search
bots sample them, except in a hook game whose determinizer weighs soft evidence the
kernel does not (a model of the other seats' calls, stated in its
:class:`~tricktaker.engine.resample.HiddenFacts`): there the game's own determinizer
samples the deals in Python, with its weights, and the kernel plays them, so that the
values follow the coach's stated model (:data:`tricktaker.coach.model.MODEL`).

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
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tricktaker.engine.actions import Action
from tricktaker.engine.base import PLAYING
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFactsError
from tricktaker.engine.state import GameState
from tricktaker.kernel.convert import (
    HandInputs,
    ResultTable,
    hand_config,
    kernel_plays,
    kernel_state,
    plays_whole,
)
from tricktaker.kernel.native import native
from tricktaker.kernel.search import kernel_world, move_code
from tricktaker.kernel.spec import KernelUnsupportedError

__all__ = [
    "LEAST_DEALS",
    "SAMPLING_SHARE",
    "MoveValues",
    "finish_played",
    "kernel_choice_values",
    "play_out_hands",
    "python_deals",
]

LEAST_DEALS = 20
"""The fewest deals played under a time budget (fewer only where ``deals`` asks fewer)."""

SAMPLING_SHARE = 0.75
"""The share of a time budget that a game's own determinizer may spend sampling deals in
Python (the kernel plays the deals it gets in the rest, several times faster than they
are sampled); without it the sampling took the whole budget and the kernel played only
:data:`LEAST_DEALS` of them."""


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
    """The sum over the deals of weight where the seat took as many tricks as it bid;
    None where the kernel does not know it (a hook game's hand, scored by its tables)."""
    weight_sq: float = 0.0
    """The sum of the deals' squared weights (for the effective number of deals)."""

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
    sampler: Any, *, seed: int, deals: int, deadline: float | None, least: int
) -> list[tuple[float, ...]]:
    """``deals`` deals drawn by a game's own determinizer (``sampler``), each as the
    kernel takes it: every seat's hand, then the deal's weight; fewer once past the
    ``deadline`` (``time.perf_counter()``), but at least ``least``."""
    from tricktaker.bots.gamesearch import sample_weight

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
) -> list[MoveValues]:
    """Every legal choice of ``obs`` played out in the kernel on the same ``deals``
    deals (fewer once ``seconds`` have passed, but at least :data:`LEAST_DEALS`), in the
    order of ``obs.legal_actions`` (``world``: :func:`~tricktaker.kernel.kernel_world` of
    ``obs``, when already made). Raises :class:`KernelUnsupportedError` for a decision
    the kernel does not play, and
    :class:`~tricktaker.kernel.native.KernelUnavailableError` where it is not built."""
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
    if not plays_whole(obs.rules):  # a hook game: the kernel plays its cards only
        from tricktaker.bots.gamesearch import search_for

        if obs.phase != "playing":
            raise KernelUnsupportedError(f"the kernel values cards here, not the {obs.phase}")
        sampler = search_for(obs.rules.hooks).determinizer(obs)
    if world is None:
        world = kernel_world(obs, sampler=sampler)
    if sampler is not None and _soft_evidence(sampler):
        deadline = None if seconds is None else start + seconds * SAMPLING_SHARE
        given = python_deals(sampler, seed=seed, deals=deals, deadline=deadline, least=least)
    budget = -1.0 if seconds is None else max(0.0, seconds - (time.perf_counter() - start))
    try:
        made_known, rows = core.values(world, moves, deals, least, budget, seed, given)
    except core.Unsupported as exc:
        raise KernelUnsupportedError(str(exc)) from None
    return [
        MoveValues(
            action=action,
            deals=count,
            weight=weight,
            sum=total,
            sum_sq=total_sq,
            made=made if made_known else None,
            weight_sq=weight_sq,
        )
        for action, (count, weight, total, total_sq, made, weight_sq) in zip(
            actions, rows, strict=True
        )
    ]


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


def play_out_hands(states: Sequence[GameState]) -> list[tuple[int, ...] | None]:
    """Each state's card play played to the end of its hand in the kernel, by the
    rollout policy without noise (as :func:`tricktaker.bots.pimc.rollout_hand` plays it
    in Python): per state the winners of the tricks still to play, in order, or None
    where the kernel does not play that state (not in its card play, a game whose card
    play the kernel does not declare, a face-down pile, a score beyond its range): play
    those in Python. One kernel call for all the states; the states are not changed
    (:func:`finish_played` scores one with its winners)."""
    core = native()
    pairs: list[tuple[Any, Any]] = []
    where: list[int] = []
    for index, state in enumerate(states):
        if state.phase != PLAYING or not kernel_plays(state.rules):
            continue
        try:
            pairs.append((_card_play_config(state), kernel_state(state)))
        except (KernelUnsupportedError, core.Unsupported):
            continue
        where.append(index)
    out: list[tuple[int, ...] | None] = [None] * len(states)
    if not pairs:
        return out
    for index, winners in zip(where, core.play_out(pairs), strict=True):
        out[index] = winners
    return out


def finish_played(state: GameState, winners: Sequence[int]) -> None:
    """Score ``state``'s hand (its card play in progress) as the tricks still to play
    fell to ``winners`` (:func:`play_out_hands`), with the engine's and the game's own
    scoring, as if the cards had been played: ``state.history[-1]`` is the hand's
    result."""
    tricks = list(state.tricks_won)
    for seat in winners:
        tricks[seat] += 1
    state.finish_hand(tricks, trick_winners=(*state.trick_winners, *winners))
