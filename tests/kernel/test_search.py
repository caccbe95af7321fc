"""The kernel's ISMCTS and its use by the hard bot (ISMCTSBot)."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import at_hand
from tests.kernel.play import KERNEL_GAMES, variant
from tests.kernel.test_determinize import position
from tricktaker import load_ruleset, new_game
from tricktaker.bots import Bot, ISMCTSBot, PIMCBot, ismcts, make_bot, pimc, play_game
from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.kernel import (
    KernelUnsupportedError,
    kernel_rollouts,
    kernel_search,
    kernel_world,
    native,
)
from tricktaker.kernel.search import move_code


def search(obs: Observation, seed: int, iterations: int = 200) -> tuple[Action, int]:
    """The kernel's ISMCTS choice for ``obs`` and its iterations."""
    return kernel_search(
        obs,
        seed=seed,
        iterations=iterations,
        time_budget=None,
        exploration=0.3,
        noise=0.5,
        model_opponents=seed % 2 == 1,
        weighted=True,
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(KERNEL_GAMES),
    extra_players=st.integers(min_value=0, max_value=3),
    flags=st.lists(st.booleans(), max_size=5),
    seed=st.integers(min_value=0, max_value=2**31),
    moves=st.integers(min_value=0, max_value=80),
)
def test_kernel_search_picks_a_legal_action_reproducibly(
    name: str, extra_players: int, flags: list[bool], seed: int, moves: int
) -> None:
    """docs/games/blackout.md, Play: the search's choice is one of the legal actions,
    the same for the same seed, after exactly the iterations asked for."""
    base = load_ruleset(name)
    players = min(base.spec.players.min + extra_players, base.spec.players.max, 6)
    rules = variant(name, players, flags)
    if rules is None:
        return
    state = position(rules, players, seed, moves, bots=False)
    if state.is_terminal() or not state.to_act():
        return
    obs = state.observe(state.to_act()[0])
    if len(obs.legal_actions) < 2:
        return
    try:
        action, done = search(obs, seed)
    except KernelUnsupportedError:
        return
    assert action in obs.legal_actions
    assert done == 200
    assert search(obs, seed) == (action, done)


def test_kernel_search_keeps_to_its_time_budget() -> None:
    state = at_hand("blackout", 4, 13, first_dealer=0)
    state.apply_chance()
    obs = state.observe(state.to_act()[0])
    action, done = kernel_search(
        obs,
        seed=1,
        iterations=10**9,
        time_budget=0.02,
        exploration=0.3,
        noise=0.5,
        model_opponents=0,
        weighted=True,
    )
    assert action in obs.legal_actions
    assert 1 <= done < 10**9


def python_root(
    obs: Observation, iterations: int, model: int = -1, rivalry: float = -1.0
) -> dict[Action, tuple[int, float]]:
    """The Python ISMCTS's root statistics for ``obs``: per action, visits and mean."""
    roots: list[ismcts._Node] = []

    class Recorded(ismcts._Node):
        def __init__(self) -> None:
            super().__init__()
            roots.append(self)

    original = ismcts._Node
    ismcts._Node = Recorded  # type: ignore[misc]
    try:
        ISMCTSBot(
            seed=1, iterations=iterations, kernel=0, model_opponents=model, rivalry=rivalry
        ).act(obs)
    finally:
        ismcts._Node = original  # type: ignore[misc]
    return {
        action: (child.visits, child.mean()) for (_, action), child in roots[0].children.items()
    }


@pytest.mark.parametrize(
    ("deal", "moves", "model", "rivalry"),
    [(301, 0, 0, 1.0), (302, 6, 0, 1.0), (303, 11, 0, 1.0), (302, 6, 2, 0.0), (303, 11, 1, 0.5)],
)
def test_kernel_search_is_the_python_search(
    deal: int, moves: int, model: int, rivalry: float
) -> None:
    """The same ISMCTS as the Python one (tricktaker.bots.ismcts): on the same position
    the root's most visited action is the same, and every well-visited action's mean
    reward agrees within sampling noise, however the other seats are modelled (in the
    tree, by the policy, as in the rollouts) and whatever their results weigh against
    the searching seat's (the Oh Hell default, 1, first)."""
    state = at_hand("blackout", 4, 7, seed=deal, first_dealer=0)
    while state.is_chance():
        state.apply_chance()
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    for _ in range(moves):
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))
    obs = state.observe(state.to_act()[0])
    world = kernel_world(obs)
    codes = [move_code(a) for a in obs.legal_actions]
    _, _, root = native().search(world, codes, 3000, -1.0, 0.3, 0.5, model, True, 5, rivalry)
    kernel = {
        a: (visits, mean) for a, (_, visits, mean) in zip(obs.legal_actions, root, strict=True)
    }
    python = python_root(obs, 3000, model, rivalry)
    assert max(kernel, key=lambda a: kernel[a][0]) == max(python, key=lambda a: python[a][0])
    for action, (visits, mean) in kernel.items():
        if visits >= 300 and python[action][0] >= 300:
            assert mean == pytest.approx(python[action][1], abs=0.05)


def test_the_hard_bot_searches_in_the_kernel_unless_told_not_to() -> None:
    state = new_game(load_ruleset("blackout"), players=4, seed=2)
    state.apply_chance()
    while state.hand_size < 3 or state.is_chance():
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    obs = state.observe(state.to_act()[0])
    fast, slow = ISMCTSBot(seed=4, iterations=50), ISMCTSBot(seed=4, iterations=50, kernel=0)
    first = fast.act(obs)
    assert first in obs.legal_actions
    assert fast.last_iterations == 50
    assert slow.act(obs) in obs.legal_actions
    assert slow.last_iterations == 50
    assert [ISMCTSBot(seed=4, iterations=50).act(obs) for _ in range(2)] == [first] * 2


def test_the_search_bots_say_once_when_they_search_in_python(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Pluck's trump call (and plucks) are not card play, which is all the kernel plays
    of it: the hard and medium bots search them in Python and say so once, naming the
    game."""
    pimc._WARNED.clear()
    rules = load_ruleset("pluck")
    state = new_game(rules, players=rules.spec.players.min, seed=1)
    with caplog.at_level(logging.WARNING, logger="tricktaker.bots"):
        bots: list[Bot] = [ISMCTSBot(seed=0, iterations=5)]
        bots += [PIMCBot(seed=s, determinizations=2) for s in range(1, state.players)]
        play_game(state, bots, until_hand_end=True)
    said = [r.getMessage() for r in caplog.records if r.name == "tricktaker.bots"]
    assert len(said) == 1
    assert "Pluck" in said[0]


def test_the_medium_bot_runs_its_rollouts_in_the_kernel() -> None:
    """PIMC in the kernel: a legal choice, reproducible for a seed, the rollouts it was
    given (docs/games/blackout.md, Play)."""
    state = at_hand("blackout", 4, 6, first_dealer=0)
    while state.is_chance():
        state.apply_chance()
    for _ in range(6):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    obs = state.observe(state.to_act()[0])
    first = PIMCBot(seed=2).act(obs)
    assert first in obs.legal_actions
    assert PIMCBot(seed=2).act(obs) == first
    action, done = kernel_rollouts(
        obs, seed=1, first=10, keep=2, rollouts=60, noise=0.0, time_budget=None
    )
    assert action in obs.legal_actions
    assert done == 10 * len(obs.legal_actions) + (60 - 10 * len(obs.legal_actions)) // 2 * 2


def test_kernel_world_refuses_what_it_does_not_play() -> None:
    """docs/games/clag.md, Special hands: hand 11's cards are face-down piles played in
    pile order; the kernel does not play them (the bot then searches in Python)."""
    state = at_hand("clag", 4, 11)
    while state.is_chance():
        state.apply_chance()
    with pytest.raises(KernelUnsupportedError, match="piles"):
        kernel_world(state.observe(state.to_act()[0]))


def test_kernel_searches_hidden_simultaneous_bids() -> None:
    """docs/games/kachuful.md, Bidding: bids are made at once and hidden until all are
    in; the kernel guesses the hidden ones in each sample and bids first in its tree."""
    state = new_game(load_ruleset("kachuful"), players=4, seed=0)
    while state.is_chance():
        state.apply_chance()
    while state.hand_size < 4 or state.is_chance() or state.phase_name != "bidding":
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    first, second = state.to_act()[:2]
    state.apply(first, state.legal_actions(first)[-1])
    obs = state.observe(second)
    assert obs.bid_made[first]
    assert obs.bids[first] is None
    action, done = search(obs, 3, iterations=500)
    assert action in obs.legal_actions
    assert done == 500


def test_the_kernel_loaded_is_the_one_asked_for() -> None:
    """``make kernel-asan`` runs these tests on the sanitizer build it names in
    TRICKTAKER_KERNEL_LIBRARY: make sure that build, not the installed one, is loaded."""
    import os
    from pathlib import Path

    path = os.environ.get("TRICKTAKER_KERNEL_LIBRARY")
    loaded = Path(native().__file__ or "").resolve()
    if path:
        assert loaded == Path(path).resolve()
    else:
        assert loaded.parent == Path(ismcts.__file__).resolve().parents[1] / "kernel"


def test_the_kernel_gets_its_own_budget() -> None:
    """``kernel_iterations`` is the budget of a decision searched in the kernel; the
    Python search keeps ``iterations``."""
    state = at_hand("blackout", 4, 5, first_dealer=0)
    while state.is_chance():
        state.apply_chance()
    obs = state.observe(state.to_act()[0])
    bot = ISMCTSBot(seed=1, iterations=5, kernel_iterations=777)
    assert bot.act(obs) in obs.legal_actions
    assert bot.last_iterations == 777
    python = ISMCTSBot(seed=1, iterations=5, kernel_iterations=777, kernel=0)
    python.act(obs)
    assert python.last_iterations == 5
    with pytest.raises(ValueError, match="kernel_iterations"):
        ISMCTSBot(kernel_iterations=-1)
