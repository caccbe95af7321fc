"""Caller Clag through its game hooks (``tricktaker.games.ohhell``) plays exactly as the
preset: the same phases, actions, refusals, observations, results and records."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from tricktaker import GameState, Observation, load_ruleset
from tricktaker.engine.actions import Action
from tricktaker.engine.hooks import keeps_engine_bids
from tricktaker.engine.record import GameRecord
from tricktaker.games.ohhell import CallerClagHooks

HOOKS_RULESET = Path(__file__).with_name("caller_clag_hooks.toml")
HOOKS_PATH = "tricktaker.games.ohhell:CallerClagHooks"


def _public(observation: Observation) -> dict[str, object]:
    """An observation's fields, but for the ruleset itself (another id)."""
    return {
        item.name: getattr(observation, item.name)
        for item in dataclasses.fields(observation)
        if item.name != "rules"
    }


@pytest.mark.parametrize("players", [3, 4, 7])
def test_random_games_agree_step_by_step(players: int) -> None:
    engine_rules = load_ruleset("caller_clag", options={"hands": 4})
    hooks_rules = load_ruleset(HOOKS_RULESET, options={"hands": 4})
    assert isinstance(hooks_rules.hooks, CallerClagHooks)
    for seed in range(4):
        rng = random.Random(seed)
        engine = GameState(engine_rules, players=players, seed=seed)
        hooked = GameState(hooks_rules, players=players, seed=seed)
        while not engine.is_terminal():
            assert engine.phase_name == hooked.phase_name
            assert engine.is_chance() == hooked.is_chance()
            for seat in range(players):
                assert _public(engine.observe(seat)) == _public(hooked.observe(seat))
            if engine.is_chance():
                engine.apply_chance()
                hooked.apply_chance()
                continue
            seat = engine.to_act()[0]
            legal = engine.legal_actions(seat)
            assert hooked.legal_actions(seat) == legal
            wrong = Action("call_modifier", "nuloss")
            assert engine.why_illegal(seat, wrong) == hooked.why_illegal(seat, wrong)
            action = rng.choice(legal)
            engine.apply(seat, action)
            hooked.apply(seat, action)
        assert hooked.is_terminal()
        assert hooked.history == engine.history
        assert hooked.scores == engine.scores
        assert hooked.events == engine.events
        replayed = GameRecord.loads(hooked.record().dumps()).replay()
        assert replayed.history == hooked.history


def test_a_clone_keeps_its_own_call() -> None:
    state = GameState(load_ruleset(HOOKS_RULESET), players=3, seed=2)
    state.apply(state.dealer, Action("call_size", 3))
    state.apply_chance()
    other = state.clone()
    other.apply(other.dealer, Action("call_kind", "misere"))
    assert state.phase_name == "call_kind"
    assert other.observe(0).call == {"caller_size": 3, "kind": "misere", "modifiers": []}
    assert state.observe(0).call == {"caller_size": 3, "kind": None, "modifiers": []}


def test_the_hooks_need_a_called_schedule(tmp_path: Path) -> None:
    path = tmp_path / "scheduled.toml"
    lines = ['extends = "blackout"', 'id = "scheduled"', f'hooks = "{HOOKS_PATH}"']
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"schedule\.called = true"):
        GameState(load_ruleset(path), players=4, seed=0)


def test_the_game_keeps_the_engine_bids() -> None:
    assert keeps_engine_bids(load_ruleset(HOOKS_RULESET).hooks)
    assert keeps_engine_bids(load_ruleset("caller_clag").hooks)
