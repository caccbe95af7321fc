"""Every seat's observation made at once (``GameState.observe_all``): each is exactly the
seat's own observation, and the public fields are made once and shared.

docs/protocol.md, Views: a seat's view is its observation, the same window the bots have;
the table server writes the fields that every seat sees alike once an event.
"""

from __future__ import annotations

import random

import pytest

from tricktaker import load_ruleset, new_game
from tricktaker.engine.observation import SHARED_FIELDS, Observation
from tricktaker.rules import list_rulesets

SHORT = {"pluck": {"hands": 2}, "euchre": {"target": 3}, "buckup": {"hands": 3}}
OWN = ("seat", "hand", "cards_in_hand", "bids", "legal_actions", "history", "extra", "view")


def test_the_fields_are_either_shared_or_the_seats_own() -> None:
    names = set(Observation.__dataclass_fields__)
    assert set(SHARED_FIELDS) | set(OWN) == names
    assert not set(SHARED_FIELDS) & set(OWN)


@pytest.mark.parametrize("game", list_rulesets())
def test_observe_all_is_each_seats_observation(game: str) -> None:
    """At every step of a whole game, ``observe_all()[seat] == observe(seat)``, and the
    shared fields are the same objects in every seat's observation."""
    rules = load_ruleset(game, options=SHORT.get(game, {}))
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    rng = random.Random(game)
    state = new_game(rules, players=players, seed=rng.getrandbits(32))
    steps = 0
    while True:
        together = state.observe_all()
        assert together == [state.observe(s) for s in range(players)], (game, steps)
        for name in SHARED_FIELDS:
            first = getattr(together[0], name)
            assert all(getattr(o, name) is first for o in together[1:]), (game, name)
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    assert steps > 20
