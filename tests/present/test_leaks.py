"""A seat's presentation depends only on what the seat may know: two states that
differ only in cards the seat cannot see give it the same present JSON.

The second state is sampled by the bots' determinizers, which deal the unseen cards
afresh consistently with the seat's observation (docs/games/README.md, hidden
information: a seat sees its own cards, the cards played, and what its game shows it).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.present.helpers import NAMES, games, players_for
from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import decide
from tricktaker.bots.determinize import Determinizer
from tricktaker.engine import Observation
from tricktaker.games.buckup.search import BuckupDeterminizer
from tricktaker.games.euchre.search import EuchreDeterminizer
from tricktaker.games.pluck.search import PluckDeterminizer
from tricktaker.present import present_json

SAMPLERS: dict[str | None, Callable[[Observation], object]] = {
    None: Determinizer,
    "pluck": PluckDeterminizer,
    "euchre": EuchreDeterminizer,
    "buckup": BuckupDeterminizer,
}


def resample(obs: Observation, seed: int) -> GameState:
    """Another state that ``obs``'s seat cannot tell from the real one."""
    # A game of the Oh Hell family with hooks of its own (Caller Clag's calls) is
    # resampled as the family is.
    sampler = SAMPLERS.get(obs.rules.spec.hooks, Determinizer)(obs)
    state = sampler.sample(random.Random(seed))  # type: ignore[attr-defined]
    assert isinstance(state, GameState)
    return state


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    database=None,
)
@given(
    game=st.sampled_from(games()),
    seed=st.integers(0, 10_000),
    length=st.integers(1, 400),
    seat=st.integers(0, 6),
    other=st.integers(0, 10_000),
)
def test_unseen_cards_change_nothing_a_seat_is_shown(
    game: str, seed: int, length: int, seat: int, other: int
) -> None:
    """Whatever the unseen cards are, the seat's panel and seat rows are the same (the
    scorecard is read from the finished hands as the engine shows them to the seat)."""
    players = players_for(game)
    seat %= players
    state = new_game(load_ruleset(game), players=players, seed=seed)
    bots = [make_bot("random", seed=seed + s) for s in range(players)]
    for _ in range(length):
        if state.is_terminal():
            return
        if state.is_chance():
            state.apply_chance()
        else:
            actor = state.to_act()[0]
            state.apply(actor, decide(bots[actor], state, actor))
    if state.is_terminal() or state.is_chance():
        return
    obs = state.observe(seat)
    twin = resample(obs, other).observe(seat)
    names = NAMES[:players]
    shown, twin_shown = present_json(obs, names), present_json(twin, names)
    if not twin.history:  # a sampler that starts at this hand: no finished hands to compare
        shown.pop("scorecard")
        twin_shown.pop("scorecard")
    assert twin_shown == shown
    event(f"compared {obs.phase}, {'no' if not obs.history else 'some'} hands played")
