"""Each game's own part of an observation is a typed view; ``extra`` is its JSON."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tricktaker import GameState, load_ruleset
from tricktaker.engine import GameView

GAMES = [
    ("pluck", 3, {"hands": 3}),
    ("euchre", 4, {"target": 3}),
    ("buckup", 4, {"hands": 3}),
    ("buckup", 5, {"hands": 2, "scare_cards": True, "out_for_now": True}),
]


def _cards_are_ids(value: object) -> None:
    """No card text inside a view: only numbers, seats, bid words and nested values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            _cards_are_ids(getattr(value, item.name))
    elif isinstance(value, tuple):
        for item in value:
            _cards_are_ids(item)
    else:
        assert value is None or isinstance(value, int | str), value


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_views_are_frozen_dataclasses_whose_json_is_extra(
    game: str, players: int, options: dict[str, object]
) -> None:
    rules = load_ruleset(game, options=options)
    seen = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = GameState(rules, players=players, seed=seed)
        while not state.is_terminal():
            for observation in state.observe_all():
                view = observation.view
                assert isinstance(view, GameView)
                assert dataclasses.is_dataclass(view)
                assert observation.extra == view.to_json()
                assert view == state.hooks.view(state, observation.seat)
                with pytest.raises(dataclasses.FrozenInstanceError):
                    view.__setattr__(dataclasses.fields(view)[0].name, None)
                _cards_are_ids(view)
                seen += 1
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert seen > 100


def test_a_game_without_hooks_has_no_view() -> None:
    state = GameState(load_ruleset("blackout"), players=4, seed=1)
    state.apply_chance()
    observation = state.observe(0)
    assert observation.view is None
    assert observation.extra == {}
