"""Caller Clag's game hooks (``tricktaker.games.ohhell``, the preset's ``hooks``): a clone
keeps its own call, the hooks need a called schedule, the game keeps the engine's bids."""

from __future__ import annotations

from pathlib import Path

import pytest

from tricktaker import GameState, load_ruleset
from tricktaker.engine.actions import Action
from tricktaker.engine.hooks import keeps_engine_bids

HOOKS_PATH = "tricktaker.games.ohhell:CallerClagHooks"


def test_a_clone_keeps_its_own_call() -> None:
    state = GameState(load_ruleset("caller_clag"), players=3, seed=2)
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
    assert keeps_engine_bids(load_ruleset("caller_clag").hooks)
