"""docs/envs.md, The encoding: the environments leak nothing. Two states of the same game
that differ only in cards a seat may not know (other players' cards, the kitty, the
stock) give that seat the same observation vector and the same action mask.

The second state is built with the engine: the game so far is replayed with the same
actions from a deal in which two cards hidden from the seat have changed places (in
every chance outcome of the hand: the deal, the draws). Hypothesis picks the game's
seed, the moment, the seat and the two cards; a swap that makes some earlier action
impossible (a card now lacking to follow suit) is discarded.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.envs.helpers import GAMES, require_envs, rules_of, table_size

require_envs()

import numpy as np  # noqa: E402

from tests.swaps import hidden_cards, holder, swapped_replay  # noqa: E402
from tricktaker import ChanceOutcome, GameState, new_game  # noqa: E402
from tricktaker.cards import cards_of  # noqa: E402
from tricktaker.envs.encoding import Encoding  # noqa: E402


def hand_start(state: GameState, begin: int) -> int | None:
    """The index among the state's events of the current hand's last deal (the hand's
    events start at ``begin``); None before its deal."""
    for index in range(len(state.events) - 1, begin - 1, -1):
        outcome = state.events[index][1]
        if isinstance(outcome, ChanceOutcome) and outcome.kind == "deal":
            return index
    return None


def play_random(state: GameState, decisions: int, rng: random.Random) -> int:
    """Play ``decisions`` random actions (chance steps from the seed, also after the last
    one); the index of the first event of the hand then in progress."""
    begin = 0
    for _ in range(decisions + 1):
        hands = state.hands_played
        while not state.is_terminal() and state.is_chance():
            state.apply_chance()
        if state.is_terminal():
            break
        if _ == decisions:
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.hands_played != hands:
            begin = len(state.events) - 1
    return begin


@pytest.mark.parametrize("game_id", GAMES)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_hidden_cards_change_nothing_a_seat_sees(game_id: str, data: st.DataObject) -> None:
    """docs/envs.md, The encoding: a seat's vector and mask depend only on what it knows."""
    rules = rules_of(game_id)
    players = table_size(rules)
    seed = data.draw(st.integers(0, 10_000), label="seed")
    steps = data.draw(st.integers(0, 120), label="decisions")
    state = new_game(rules, players=players, seed=seed)
    begin = play_random(state, steps, random.Random(seed))
    assume(not state.is_terminal())
    start = hand_start(state, begin)
    assume(start is not None)
    assert start is not None
    seat = data.draw(st.integers(0, players - 1), label="seat")
    hidden = hidden_cards(state, seat, start)
    assume(len(hidden) >= 2)
    a, b = data.draw(st.lists(st.sampled_from(hidden), min_size=2, max_size=2, unique=True))
    assume(holder(state, a) != holder(state, b) or holder(state, a) == -1)
    other = swapped_replay(state, a, b, start)
    assume(other is not None)
    assert other is not None
    assume(other.hands != state.hands or other.kitty != state.kitty or other.rest != state.rest)
    encoding = Encoding.of(rules, players)
    mine, theirs = state.observe(seat), other.observe(seat)
    assert np.array_equal(encoding.encode(mine), encoding.encode(theirs))
    assert np.array_equal(encoding.action_mask(mine), encoding.action_mask(theirs))


def test_the_swap_changes_what_the_holders_see() -> None:
    """The test above can fail: the same swap changes the vector of a seat that holds one
    of the two cards."""
    rules = rules_of("blackout")
    state = new_game(rules, players=4, seed=1)
    state.apply_chance()
    cards = [cards_of(state.hands[s])[0] for s in (1, 2)]
    other = swapped_replay(state, cards[0], cards[1], hand_start(state, 0) or 0)
    assert other is not None
    encoding = Encoding.of(rules, 4)
    assert np.array_equal(encoding.encode(state.observe(0)), encoding.encode(other.observe(0)))
    assert not np.array_equal(encoding.encode(state.observe(1)), encoding.encode(other.observe(1)))
