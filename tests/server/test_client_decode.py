"""The client reads a seat's JSON view back into the engine's Observation, the object
the terminal screen and the bots work on.

docs/protocol.md, Views: a seat's view is its observation, ``state.observe(seat)``, as
JSON; reading it back gives the same observation (and the hand's card tables).
"""

from __future__ import annotations

import json
import random

import pytest

from tricktaker.bots import make_bot
from tricktaker.client.decode import ViewError, hand_result, observation
from tricktaker.engine import new_game
from tricktaker.rules import list_rulesets, load_ruleset
from tricktaker.server.tables.views import observation_json


@pytest.mark.parametrize("game", list_rulesets())
def test_every_view_of_a_whole_game_reads_back_the_same(game: str) -> None:
    """docs/protocol.md, Views: every seat's view, at every step of a game, is read back
    into an observation equal to the seat's own (through JSON text, as it travels)."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=7)
    bots = [make_bot("random", seed=s) for s in range(players)]
    rng = random.Random(1)
    steps = 0
    while not state.is_terminal() and steps < 400:
        for seat in range(players):
            obs = state.observe(seat)
            view = json.loads(json.dumps(observation_json(obs)))
            back = observation(view, rules)
            assert observation_json(back) == observation_json(obs)
            assert back.tables == obs.tables
            assert back.legal_actions == obs.legal_actions
            assert back.hand == obs.hand
        if state.is_chance():
            state.apply_chance()
        else:
            seat = rng.choice(state.to_act())
            state.apply(seat, bots[seat].act(state.observe(seat)))
        steps += 1


def test_events_carry_no_history_and_the_client_keeps_it() -> None:
    """docs/protocol.md, Live play: an event's view has no history; the finished hands
    come as ``hand_result`` and the client keeps them."""
    rules = load_ruleset("blackout")
    state = new_game(rules, players=4, seed=3)
    bots = [make_bot("random", seed=s) for s in range(4)]
    while state.hands_played < 2:
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            state.apply(seat, bots[seat].act(state.observe(seat)))
    obs = state.observe(0)
    kept = [
        hand_result(h.to_json(labels=rules.joker_labels), rules.joker_labels) for h in obs.history
    ]
    back = observation(observation_json(obs, history=False), rules, kept)
    assert back.history == obs.history


def test_a_view_of_another_shape_is_a_clear_error() -> None:
    """A view the client cannot read names the problem instead of crashing later."""
    rules = load_ruleset("blackout")
    view = observation_json(new_game(rules, players=4, seed=1).observe(0))
    del view["to_act"]
    with pytest.raises(ViewError, match="to_act"):
        observation(view, rules)
