"""docs/envs.md, The encoding: an observation read back from JSON (a remote seat's, as
``tricktaker bot URL`` plays it) has only the wire form of the game's data, and encodes
exactly as the observation the engine made, typed view and all."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.envs.helpers import require_envs, rules_of, table_size

require_envs()

import numpy as np  # noqa: E402

from tricktaker import new_game  # noqa: E402
from tricktaker.engine.view import GameView  # noqa: E402
from tricktaker.envs.encoding import Encoding  # noqa: E402
from tricktaker.games.buckup.view import BuckupView  # noqa: E402
from tricktaker.games.euchre.view import EuchreView  # noqa: E402
from tricktaker.games.pluck.view import PluckView  # noqa: E402

READ: dict[str, Callable[[Mapping[str, Any], tuple[str, str]], GameView]] = {
    "pluck": PluckView.from_json,
    "euchre": lambda extra, labels: EuchreView.from_json(extra),
    "buckup": lambda extra, labels: BuckupView.from_json(extra),
}
"""Each game's view read back from its wire form."""


@pytest.mark.parametrize("game_id", sorted(READ))
def test_the_wire_form_encodes_as_the_typed_view(game_id: str) -> None:
    """Every seat's vector is the same with the view and with its JSON alone; the view
    read back from the JSON is the view itself."""
    rules = rules_of(game_id)
    players = table_size(rules)
    encoding = Encoding.of(rules, players)
    hooks = rules.hooks
    assert hooks is not None
    state = new_game(rules, players=players, seed=3)
    rng = random.Random(8)
    checked = 0
    while not state.is_terminal() and checked < 600:
        if state.is_chance():
            state.apply_chance()
            continue
        for seat in range(players):
            observation = state.observe(seat)
            view = observation.view
            assert view is not None
            read = READ[game_id](observation.extra, rules.joker_labels)
            assert read == view
            remote = dataclasses.replace(observation, view=None)
            assert np.array_equal(encoding.encode(remote), encoding.encode(observation))
            checked += 1
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 100
