"""Observations built only when a bot asks for one, and built cheaply when it does."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping

import pytest

from tricktaker import Action, GameState, Observation, load_ruleset
from tricktaker.bots import RandomBot, make_bot, play_game
from tricktaker.bots.base import decide

GAMES = [("blackout", 4), ("bluke", 3), ("pluck", 3), ("euchre", 4), ("buckup", 4)]


class CountingState(GameState):
    """A game that counts the observations made of it."""

    observed = 0

    def observe(self, seat: int) -> Observation:
        type(self).observed += 1
        return super().observe(seat)


class ActOnly:
    """A random bot seen only through :meth:`act` (so it is handed every observation)."""

    def __init__(self, seed: int) -> None:
        self.inner = RandomBot(seed)
        self.name = "random"

    def act(self, observation: Observation) -> Action:
        return self.inner.act(observation)


def counting_game(game: str, players: int, seed: int) -> CountingState:
    CountingState.observed = 0
    return CountingState(load_ruleset(game, options=short(game)), players=players, seed=seed)


def short(game: str) -> Mapping[str, object]:
    return {"pluck": {"hands": 2}, "euchre": {"target": 3}, "buckup": {"hands": 3}}.get(game, {})


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_random_bots_never_need_an_observation(game: str, players: int) -> None:
    state = counting_game(game, players, seed=3)
    play_game(state, [RandomBot(seat) for seat in range(players)])
    assert state.is_terminal()
    assert CountingState.observed == 0


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_random_bots_choose_as_they_act(game: str, players: int) -> None:
    """The lazy path picks exactly what act() picks from the full observation."""
    lazy = counting_game(game, players, seed=7)
    play_game(lazy, [RandomBot(seat) for seat in range(players)])
    eager = counting_game(game, players, seed=7)
    play_game(eager, [ActOnly(seat) for seat in range(players)])
    assert CountingState.observed > 0
    assert lazy.record() == eager.record()


def test_other_bots_still_get_their_observation() -> None:
    state = counting_game("blackout", 3, seed=1)
    choices: list[Action] = []
    bot = make_bot("heuristic", seed=1)
    while len(choices) < 5:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        before = CountingState.observed
        choices.append(decide(bot, state, seat))
        assert CountingState.observed == before + 1
        state.apply(seat, choices[-1])
    assert CountingState.observed == 5


def test_a_lazy_bot_gets_the_observation_it_asks_for() -> None:
    state = counting_game("bluke", 4, seed=2)
    while state.is_chance():
        state.apply_chance()
    seat = state.to_act()[0]
    seen: list[Observation] = []

    class Looker:
        name = "looker"

        def act(self, observation: Observation) -> Action:
            raise AssertionError("choose() is used when a bot has it")

        def choose(
            self, seat: int, legal: tuple[Action, ...], observe: Callable[[], Observation]
        ) -> Action:
            seen.append(observe())
            return legal[0]

    action = decide(Looker(), state, seat)
    assert seen == [state.observe(seat)]
    assert action == seen[0].legal_actions[0]


def positions(game: str, players: int, count: int = 40) -> list[tuple[GameState, int]]:
    """Some positions of random games, with the seat to act."""
    rules = load_ruleset(game, options=short(game))
    found: list[tuple[GameState, int]] = []
    rng = random.Random(game)
    for seed in range(50):
        state = GameState(rules, players=players, seed=seed)
        while not state.is_terminal() and len(found) < count:
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            if rng.random() < 0.1:
                found.append((state.clone(), seat))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if len(found) >= count:
            break
    return found


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_observations_have_every_field_and_redacted_history(game: str, players: int) -> None:
    for state, seat in positions(game, players):
        observation = state.observe(seat)
        rebuilt = dataclasses.replace(observation)  # through the dataclass's __init__
        assert rebuilt == observation
        hooks = state.hooks
        expected = tuple(
            hooks.redact(hand, seat) if hooks is not None else hand for hand in state.history
        )
        assert observation.history == expected
        for other in range(players):
            if other != seat:
                assert state.observe(other).history == tuple(
                    hooks.redact(hand, other) if hooks is not None else hand
                    for hand in state.history
                )


def test_observing_a_seat_that_does_not_exist() -> None:
    state = GameState(load_ruleset("blackout"), players=3, seed=0)
    with pytest.raises(ValueError, match="there is no seat 3 in a 3-player game"):
        state.observe(3)
