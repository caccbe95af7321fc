"""A perfect-information Monte Carlo (PIMC) bot for every game on the engine.

For each decision the bot samples states consistent with its observation (the game's
determinizer, see :mod:`tricktaker.bots.gamesearch`), and in each one tries every
legal action: it plays the rest of the hand with the game's fast rollout policy,
which sees every hand, and scores its own result for the hand (the game's reward:
the hand's score, or in a cooperative game whether everyone was exact). It picks the
action with the best mean, each sample weighted by how likely the other seats' bids
were with its cards where the game has a bid model. Decisions a game does not search
(Caller Clag's calls) are left to the heuristic bot.

The search is deterministic given the seed: the budget is counted in rollouts, not
seconds, unless a ``time_budget`` is given (then the number of deals depends on the
machine's speed).
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Sequence

from tricktaker.bots.gamesearch import GameSearch, Sampler, sample_weight, search_for
from tricktaker.bots.heuristic import HeuristicBot, legal_choices
from tricktaker.engine.actions import PLAY, Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState
from tricktaker.kernel import (
    KernelUnavailableError,
    KernelUnsupportedError,
    kernel_rollouts,
    kernel_world,
)

__all__ = [
    "PIMCBot",
    "SearchBot",
    "choose_by_rollouts",
    "fall_back",
    "rollout_hand",
]


LOG = logging.getLogger("tricktaker.bots")
"""Where the search bots say that they search in Python (once per reason)."""

_WARNED: set[str] = set()


def fall_back(reason: str) -> None:
    """Say once per reason (a warning on the ``tricktaker.bots`` logger) that the search
    runs in Python: the compiled kernel does not play this game or decision."""
    if reason not in _WARNED:
        _WARNED.add(reason)
        LOG.warning("the search runs in Python (slower): %s", reason)


def rollout_hand(
    state: GameState,
    game: GameSearch,
    *,
    noise: float = 0.0,
    rng: random.Random | None = None,
    me: int = -1,
) -> None:
    """Play ``state`` to the end of its hand with the game's rollout policy; with
    ``noise``, each move of a seat other than ``me`` is uniformly random with that
    chance instead (drawn from ``rng``)."""
    start = state.hands_played
    policy = game.rollout_action
    while state.hands_played == start and not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        for s in state.to_act():
            actions = state.legal_actions(s)
            if len(actions) == 1:
                action = actions[0]
            elif noise and s != me and rng is not None and rng.random() < noise:
                action = actions[rng.randrange(len(actions))]
            else:
                action = policy(state, s, actions)
            state.apply(s, action)


class SearchBot:
    """What the search bots share: the checks before a search, the game's search
    support, and the fallback to the heuristic bot for decisions they do not search."""

    name = "search"
    fallback: HeuristicBot

    def act(self, observation: Observation) -> Action:
        actions = legal_choices(observation)
        if len(actions) == 1:
            return actions[0]
        game = search_for(observation.rules.hooks)
        if not game.searches(actions[0].kind):
            return self.fallback.act(observation)
        return self._search(observation, actions, game)

    def _search(self, obs: Observation, actions: tuple[Action, ...], game: GameSearch) -> Action:
        raise NotImplementedError


class PIMCBot(SearchBot):
    """Chooses every searched decision by rollouts over sampled states.

    ``determinizations``: states sampled per decision; ``rollouts``: a cap on the
    rollouts per card play (fewer states are sampled when there are many legal cards,
    never fewer than ``min_determinizations``; bids, calls and the other decisions
    always get ``determinizations`` states); ``time_budget``: seconds per decision
    after which no further state is sampled (makes the bot depend on machine speed);
    ``opponent_noise``: the chance that another seat's move in a rollout is uniformly
    random rather than the game's policy (a model of weak opponents); ``kernel``: 1 (the
    default) runs the rollouts in the compiled kernel where it plays the game (the
    Oh Hell family), 0 always in Python.

    >>> PIMCBot(seed=0).name
    'pimc'
    """

    name = "pimc"

    def __init__(
        self,
        seed: int = 0,
        determinizations: int = 24,
        time_budget: float | None = None,
        *,
        rollouts: int = 160,
        min_determinizations: int = 6,
        opponent_noise: float = 0.0,
        kernel: int = 1,
    ) -> None:
        self.rng = random.Random(seed)
        self.kernel = bool(kernel)
        self.determinizations = determinizations
        self.time_budget = time_budget
        self.rollouts = rollouts
        self.min_determinizations = min_determinizations
        self.opponent_noise = opponent_noise
        self.fallback = HeuristicBot(seed)

    def _search(self, obs: Observation, actions: tuple[Action, ...], game: GameSearch) -> Action:
        count = self.determinizations
        if actions[0].kind == PLAY:  # bids and calls decide more: never fewer deals
            count = min(count, max(self.min_determinizations, self.rollouts // len(actions)))
        if self.kernel:
            try:
                world = kernel_world(obs)
            except (KernelUnsupportedError, KernelUnavailableError) as exc:
                fall_back(str(exc))
            else:
                action, _ = kernel_rollouts(
                    obs,
                    seed=self.rng.getrandbits(63),
                    first=count,
                    keep=len(actions),
                    rollouts=count * len(actions),
                    noise=self.opponent_noise,
                    time_budget=self.time_budget,
                    world=world,
                )
                return action
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        return choose_by_rollouts(
            game.determinizer(obs),
            actions,
            obs.seat,
            game,
            self.rng,
            first=count,
            keep=len(actions),
            rollouts=count * len(actions),
            noise=self.opponent_noise,
            deadline=deadline,
        )


def choose_by_rollouts(
    sampler: Sampler,
    actions: Sequence[Action],
    seat: int,
    game: GameSearch,
    rng: random.Random,
    *,
    first: int,
    keep: int,
    rollouts: int,
    noise: float = 0.0,
    deadline: float | None = None,
) -> Action:
    """The action with the best weighted mean result over sampled states, each action
    played out from the same states (common random numbers: the comparison is between
    actions, not between deals).

    Successive halving in two rounds: every action is tried on ``first`` states, then
    only the best ``keep`` on further states until about ``rollouts`` rollouts are
    spent. No state is sampled after the ``deadline`` (``time.perf_counter()``), once
    one has been. Each state counts with the sampler's weight (:func:`sample_weight`).
    """
    candidates = list(range(len(actions)))
    totals = [0.0] * len(actions)
    spent = 0
    for round_deals in (first, None):
        if round_deals is None:
            candidates = sorted(candidates, key=lambda j: (-totals[j], j))[:keep]
            round_deals = (rollouts - spent) // len(candidates)
        for _ in range(round_deals):
            if deadline is not None and spent and time.perf_counter() > deadline:
                break
            state = sampler.sample(rng)
            state.reseed(rng.getrandbits(62))  # fresh chance steps for this state
            weight = sample_weight(sampler, state)
            for j in candidates:
                trial = state.clone()
                trial.apply(seat, actions[j])
                rollout_hand(trial, game, noise=noise, rng=rng, me=seat)
                totals[j] += weight * game.rewards(trial)[seat]
            spent += len(candidates)
    best = max(candidates, key=lambda j: (totals[j], -j))
    return actions[best]
