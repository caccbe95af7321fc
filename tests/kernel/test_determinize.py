"""The kernel's determinizer: every sampled deal is one the seat cannot rule out, and the
deals are drawn uniformly among those (docs/games/blackout.md, Play: a seat that does not
follow suit shows it holds none of the led suit)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.kernel.play import KERNEL_GAMES, variant
from tricktaker import GameState, Ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.determinize import known_voids
from tricktaker.bots.search_ohhell import BID_FLOOR, BID_SPREAD, card_values
from tricktaker.engine.observation import Observation
from tricktaker.kernel import (
    KernelState,
    KernelUnsupportedError,
    WorldFacts,
    kernel_state,
    kernel_world,
    native,
)
from tricktaker.kernel.search import world_inputs
from tricktaker.rules.ruleset import load_ruleset


def position(rules: Ruleset, players: int, seed: int, moves: int, *, bots: bool) -> GameState:
    """A game after ``moves`` decisions of its first hands (random or heuristic)."""
    rng = random.Random(seed)
    heuristic = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    state = new_game(rules, players=players, seed=seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        if bots:
            action = heuristic[seat].act(state.observe(seat))
        else:
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
        state.apply(seat, action)
    while state.is_chance():
        state.apply_chance()
    return state


def check_samples(state: GameState, obs: Observation, count: int = 40) -> None:
    """Each sampled deal keeps the seat's own hand, gives every other seat as many cards
    as it holds, no card seen or played, none of a suit it showed void in, and its weight
    is the bid model's."""
    world = kernel_world(obs)
    _, public, det = world_inputs(obs)
    assert isinstance(public, KernelState)
    assert isinstance(det, WorldFacts)
    truth = kernel_state(state)

    def shared(state: KernelState) -> KernelState:  # what the seat and the truth share
        return replace(state, hands=(), first_bidder=0, bids=(), bid_sum=0)

    assert shared(public) == shared(truth)
    for seat, (shown, real) in enumerate(zip(public.bids, truth.bids, strict=True)):
        assert shown == real or (shown == -1 and seat in det.guess_bids)
    voids = known_voids(obs)
    tables = obs.tables
    assert tables is not None
    value = card_values(obs)
    for sample in native().samples(world, 7, count):
        hands, weight = list(sample[:-1]), sample[-1]
        assert hands[obs.seat] == obs.hand
        union = 0
        for seat, hand in enumerate(hands):
            assert hand.bit_count() == state.hands[seat].bit_count()
            assert not union & hand
            union |= hand
            if seat == obs.seat:
                continue
            assert hand & ~det.unknown == 0
            for card in range(54):
                if (hand >> card) & 1:
                    assert not (voids[seat] >> tables.suit_of[card]) & 1
        expected = 1.0
        if value is not None:
            for seat in det.weight_seats:
                held = hands[seat] | det.played[seat]
                estimate = sum(value[c] for c in range(54) if (held >> c) & 1)
                error = (obs.bids[seat] or 0) - estimate
                likely = math.exp(-0.5 * error * error / (BID_SPREAD * BID_SPREAD))
                expected *= BID_FLOOR + (1 - BID_FLOOR) * likely
        assert weight == pytest.approx(expected, rel=1e-9)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(KERNEL_GAMES),
    extra_players=st.integers(min_value=0, max_value=4),
    flags=st.lists(st.booleans(), max_size=5),
    seed=st.integers(min_value=0, max_value=2**31),
    moves=st.integers(min_value=0, max_value=120),
    bots=st.booleans(),
    viewer=st.integers(min_value=0, max_value=14),
)
def test_kernel_deals_are_consistent_with_the_observation(
    name: str, extra_players: int, flags: list[bool], seed: int, moves: int, bots: bool, viewer: int
) -> None:
    """Any seat's observation at any accepted position of any Oh Hell family ruleset."""
    base = load_ruleset(name)
    players = min(base.spec.players.min + extra_players, base.spec.players.max, 7)
    rules = variant(name, players, flags)
    if rules is None:
        return
    state = position(rules, players, seed, moves, bots=bots)
    if state.is_terminal():
        return
    obs = state.observe(viewer % players)
    try:
        kernel_world(obs)
    except KernelUnsupportedError:
        return
    check_samples(state, obs)


def consistent_deals(state: GameState, obs: Observation) -> set[tuple[int, ...]]:
    """Every deal of the unseen cards to the other seats that respects their card counts
    and known voids, by brute force (for small positions)."""
    _, _, det = world_inputs(obs)
    assert isinstance(det, WorldFacts)
    tables = obs.tables
    assert tables is not None
    voids = known_voids(obs)
    unknown = [c for c in range(54) if (det.unknown >> c) & 1]
    others = [s for s in range(obs.players) if s != obs.seat]
    counts = [state.hands[s].bit_count() for s in others]
    assert sum(counts) == len(unknown)  # the whole deck is dealt: no undealt cards
    deals: set[tuple[int, ...]] = set()
    for order in itertools.permutations(unknown):
        hands = [0] * obs.players
        at = 0
        for seat, count in zip(others, counts, strict=True):
            for card in order[at : at + count]:
                hands[seat] |= 1 << card
            at += count
        if all(
            not (voids[s] >> tables.suit_of[c]) & 1
            for s in others
            for c in range(54)
            if (hands[s] >> c) & 1
        ):
            hands[obs.seat] = state.hands[obs.seat]
            deals.add(tuple(hands))
    return deals


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_kernel_deals_are_uniform_among_the_consistent_ones(seed: int) -> None:
    """Late in a 13-card Blackout hand (every card dealt, so the hidden cards are the
    other seats'), every consistent deal is drawn, none other, each about equally often."""
    rules = load_ruleset("blackout")
    state = new_game(rules, players=4, seed=seed)
    while state.hand_size < 13 or state.is_chance():
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    rng = random.Random(seed)
    while len(state.trick_cards) < 10 or len(state.trick) < 1 + seed % 3:
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    obs = state.observe(state.to_act()[0])
    deals = consistent_deals(state, obs)
    assert tuple(state.hands) in deals
    assert len(deals) > 1
    draws = 400 * len(deals)
    seen = Counter(tuple(s[:-1]) for s in native().samples(kernel_world(obs), seed, draws))
    assert set(seen) == deals
    mean = draws / len(deals)
    spread = math.sqrt(mean)
    assert all(abs(n - mean) < 5 * spread for n in seen.values()), sorted(seen.values())
