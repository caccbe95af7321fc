"""A simple rule-of-thumb bot: it estimates its tricks from high cards, trumps and jokers,
then plays to make its bid exactly (or to lose every trick in a misere hand)."""

from __future__ import annotations

import random

from tricktaker.bots.policies import policy_for
from tricktaker.cards import cards_of
from tricktaker.engine.actions import (
    BID,
    CALL_DONE,
    CALL_KIND,
    CALL_MODIFIER,
    CALL_SIZE,
    PLAY,
    Action,
)
from tricktaker.engine.observation import Observation
from tricktaker.engine.tables import CardTables, build_tables


def _tables(obs: Observation) -> CardTables:
    if obs.tables is not None:
        return obs.tables
    return build_tables(trump=None, jokers_as_trump=False)


def _key(tables: CardTables, card: int, led: int) -> int:
    return tables.key(card, led)


def estimate_tricks(obs: Observation) -> float:
    """Expected tricks of the seat's hand: each card wins with the chance that no
    opponent holds a card that beats it when it is led."""
    if obs.hand is None:
        return obs.hand_size / obs.players
    tables = _tables(obs)
    deck = obs.rules.deck(obs.players)
    mine = obs.hand
    unseen = [c for c in deck if not (mine >> c) & 1]
    if obs.turn_up is not None and obs.turn_up in unseen:
        unseen.remove(obs.turn_up)
    others = (obs.players - 1) * obs.hand_size
    dealt_fraction = min(1.0, others / max(1, len(unseen)))
    total = 0.0
    for card in cards_of(mine):
        led = tables.suit_of[card]
        strength = _key(tables, card, led)
        beaters = sum(1 for other in unseen if _key(tables, other, led) > strength)
        total += (1.0 - dealt_fraction) ** beaters
    return total


def _partners(obs: Observation, seat: int) -> bool:
    """Whether ``seat`` is this seat's partner."""
    return any(seat in team and obs.seat in team and seat != obs.seat for team in obs.partnerships)


class HeuristicBot:
    """Bids its estimated tricks and plays to make the bid exactly.

    >>> HeuristicBot(seed=0).name
    'heuristic'
    """

    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        actions = observation.legal_actions
        if not actions:
            raise ValueError(f"seat {observation.seat} has no legal action now")
        if len(actions) == 1:
            return actions[0]
        policy = policy_for(actions)
        if policy is not None:
            return policy(observation, self.rng)
        kind = actions[0].kind
        if kind == BID:
            return self._bid(observation)
        if any(a.kind == PLAY for a in actions):
            return self._play(observation)
        if kind == CALL_SIZE:
            return self.rng.choice(actions)
        if kind == CALL_KIND:
            normal = [a for a in actions if a.value == "normal"]
            return normal[0] if normal and self.rng.random() < 0.6 else self.rng.choice(actions)
        if any(a.kind == CALL_DONE for a in actions):
            modifiers = [a for a in actions if a.kind == CALL_MODIFIER]
            if modifiers and self.rng.random() < 0.25:
                return self.rng.choice(modifiers)
            return next(a for a in actions if a.kind == CALL_DONE)
        return self.rng.choice(actions)

    def _bid(self, obs: Observation) -> Action:
        target = estimate_tricks(obs)
        return min(
            obs.legal_actions,
            key=lambda a: (abs(int(a.value) - target), int(a.value)),
        )

    def _play(self, obs: Observation) -> Action:
        tables = _tables(obs)
        legal = [int(a.value) for a in obs.legal_actions]
        if obs.rules.spec.hooks is not None:
            # No exact bid to make (Pluck, Euchre, Buckup): every trick helps.
            need = obs.hand_size
        else:
            need = (obs.bids[obs.seat] or 0) - obs.tricks_won[obs.seat]
        trick = obs.current_trick
        if not trick:
            by_strength = sorted(legal, key=lambda c: _key(tables, c, tables.suit_of[c]))
            card = by_strength[-1] if need > 0 and not obs.misere else by_strength[0]
            return Action(PLAY, card)
        led = tables.suit_of[trick[0][1]]
        best = max(_key(tables, c, led) for _, c in trick)
        last = len(trick) == obs.players - 1

        def strength(card: int) -> tuple[int, int]:
            return _key(tables, card, led), tables.rank_of[card]

        winners = sorted((c for c in legal if _key(tables, c, led) > best), key=strength)
        losers = sorted((c for c in legal if _key(tables, c, led) <= best), key=strength)
        leading_seat = max(trick, key=lambda sc: _key(tables, sc[1], led))[0]
        if need > 0 and losers and _partners(obs, leading_seat) and last:
            return Action(PLAY, losers[0])
        if need > 0 and not obs.misere:
            if winners:
                return Action(PLAY, winners[0] if last else winners[-1])
            return Action(PLAY, losers[0])
        if losers:
            return Action(PLAY, losers[-1])
        return Action(PLAY, winners[-1] if last else winners[0])
