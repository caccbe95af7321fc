"""A perfect-information Monte Carlo (PIMC) bot for the Oh Hell family.

For each decision the bot samples deals consistent with its observation
(:mod:`tricktaker.bots.determinize`), and in each one tries every legal bid or card:
it plays the rest of the hand with a fast greedy rollout policy that sees every hand
(each seat tries to make its bid exactly, or to lose every trick in a misere hand), and
scores its own result for the hand by the ruleset's scoring (in a cooperative game:
whether everyone was exact). It picks the action with the best mean. Caller Clag's
calls are left to the heuristic bot.

The search is deterministic given the seed: the budget is counted in rollouts, not
seconds, unless a ``time_budget`` is given (then the number of deals depends on the
machine's speed).
"""

from __future__ import annotations

import random
import time

from tricktaker.bots.determinize import Determinizer
from tricktaker.bots.heuristic import HeuristicBot
from tricktaker.cards import cards_of
from tricktaker.engine.actions import BID, PLAY, Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState
from tricktaker.engine.tables import CardTables, build_tables

__all__ = ["PIMCBot", "rollout_hand"]

_NO_TRUMP = build_tables(trump=None, jokers_as_trump=False)


def _estimate(state: GameState, seat: int) -> float:
    """Expected tricks of ``seat``'s hand from its own point of view (as the heuristic
    bot estimates them): each card wins if no unseen card beats it when it is led."""
    tables = state.tables or _NO_TRUMP
    mine = state.hands[seat]
    unseen = [c for c in state.setup.deck if not (mine >> c) & 1 and c != state.turn_up]
    others = (state.players - 1) * state.hand_size
    dealt_fraction = min(1.0, others / max(1, len(unseen)))
    total = 0.0
    for card in cards_of(mine):
        led = tables.suit_of[card]
        strength = tables.key(card, led)
        beaters = sum(1 for other in unseen if tables.key(other, led) > strength)
        total += (1.0 - dealt_fraction) ** beaters
    return total


def guess_bid(state: GameState, seat: int) -> Action:
    """The legal bid closest to the seat's estimated tricks (rollouts, hidden bids)."""
    target = _estimate(state, seat)
    return min(state.legal_actions(seat), key=lambda a: (abs(int(a.value) - target), a.value))


def _greedy_card(state: GameState, seat: int, actions: list[Action]) -> Action:
    """Play to make the bid exactly: win tricks while short, duck once made."""
    tables: CardTables = state.tables or _NO_TRUMP
    bid = state.bids[seat] or 0
    want = bid > state.tricks_won[seat] and not state.spec.misere
    cards = [int(a.value) for a in actions]
    trick = state.trick
    key = tables.key
    if not trick:
        suit_of = tables.suit_of
        ranked = sorted(cards, key=lambda c: key(c, suit_of[c]))
        return Action(PLAY, ranked[-1] if want else ranked[0])
    led = tables.suit_of[trick[0][1]]
    best = max(key(c, led) for _, c in trick)
    last = len(trick) == state.players - 1
    ranked = sorted(cards, key=lambda c: (key(c, led), tables.rank_of[c]))
    winners = [c for c in ranked if key(c, led) > best]
    losers = [c for c in ranked if key(c, led) <= best]
    if want:
        if winners:
            return Action(PLAY, winners[0] if last else winners[-1])
        return Action(PLAY, losers[0])
    if losers:
        return Action(PLAY, losers[-1])
    return Action(PLAY, winners[-1] if last else winners[0])


def rollout_hand(state: GameState, seat: int) -> float:
    """Play ``state`` to the end of its hand with the greedy policy; ``seat``'s result."""
    start = state.hands_played
    while state.hands_played == start and not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        for s in state.to_act():
            actions = state.legal_actions(s)
            if len(actions) == 1:
                action = actions[0]
            elif actions[0].kind == BID:
                action = guess_bid(state, s)
            elif actions[0].kind == PLAY:
                action = _greedy_card(state, s, actions)
            else:
                action = actions[0]
            state.apply(s, action)
    result = state.history[-1]
    if state.setup.cooperative:
        exact = sum(b == t for b, t in zip(result.bids, result.tricks, strict=True))
        return float(result.all_exact) + 0.01 * exact
    return float(result.hand_scores[seat])


class SearchBot:
    """What the search bots share: the checks before a search, and the fallback to the
    heuristic bot for decisions they do not search (Caller Clag's calls)."""

    name = "search"
    fallback: HeuristicBot

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise ValueError(f"seat {observation.seat} has no legal action now")
        if observation.rules.hooks is not None:
            raise NotImplementedError(f"the {self.name} bot does not play {observation.rules.id}")
        if len(actions) == 1:
            return actions[0]
        if actions[0].kind not in (BID, PLAY):
            return self.fallback.act(observation)
        return self._search(observation, actions)

    def _search(self, obs: Observation, actions: tuple[Action, ...]) -> Action:
        raise NotImplementedError


class PIMCBot(SearchBot):
    """Chooses bids and cards by rollouts over sampled deals.

    ``determinizations``: deals sampled per decision; ``rollouts``: a cap on the
    rollouts per decision (fewer deals are sampled when there are many legal actions,
    never fewer than ``min_determinizations``); ``time_budget``: seconds per decision
    after which no further deal is sampled (makes the bot depend on machine speed).

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
    ) -> None:
        self.rng = random.Random(seed)
        self.determinizations = determinizations
        self.time_budget = time_budget
        self.rollouts = rollouts
        self.min_determinizations = min_determinizations
        self.fallback = HeuristicBot(seed)

    def _search(self, obs: Observation, actions: tuple[Action, ...]) -> Action:
        count = min(
            self.determinizations,
            max(self.min_determinizations, self.rollouts // len(actions)),
        )
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        sampler = Determinizer(obs)
        totals = [0.0] * len(actions)
        seat = obs.seat
        for i in range(count):
            if deadline is not None and i and time.perf_counter() > deadline:
                break
            state = sampler.sample(self.rng, guess_bid=guess_bid)
            for j, action in enumerate(actions):
                trial = state.clone()
                trial.apply(seat, action)
                totals[j] += rollout_hand(trial, seat)
        best = max(range(len(actions)), key=lambda j: (totals[j], -j))
        return actions[best]
