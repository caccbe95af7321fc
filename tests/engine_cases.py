"""Helpers of the engine contract tests (tests/test_engine.py, test_engine_rules.py):
a snapshot of a state, a game played out, the first bid and deal, and an illegal action
checked to change nothing."""

from __future__ import annotations

import pytest

from tricktaker import (
    GameState,
    IllegalActionError,
    load_ruleset,
)
from tricktaker.bots import make_bot, play_game
from tricktaker.engine.actions import Action


def min_players(name: str) -> int:
    return load_ruleset(name).spec.players.min


def snapshot(state: GameState) -> tuple[object, ...]:
    """What the outside can see of a state: its record and every observation."""
    return (
        state.record().dumps(),
        tuple(state.observe(s) for s in range(state.players)),
        state.to_act(),
        state.phase_name,
    )


def finish(state: GameState, seed: int = 0) -> None:
    play_game(state, [make_bot("random", seed=seed + s) for s in range(state.players)])


def to_first_bid(state: GameState) -> None:
    """Resolve chance steps and Caller Clag calls up to the first bid of the hand."""
    for _ in range(100):
        if state.phase_name == "bidding":
            return
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            done = [a for a in legal if a.kind in ("call_done", "call_kind")]
            state.apply(seat, done[0] if done else legal[0])
    raise AssertionError(f"no bidding in {state.rules.id}")


def first_deal(state: GameState) -> tuple[int, ...]:
    """The order of the first deal of the game (Caller Clag: after the size is called)."""
    for _ in range(10):
        if state.is_chance():
            outcome = state.sample_chance()
            state.apply_chance(outcome)
            return outcome.cards
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    raise AssertionError("no deal")


def expect_illegal(state: GameState, seat: int, action: Action, rule: str) -> IllegalActionError:
    """The action is refused naming ``rule`` and the state is unchanged."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, action)
    assert info.value.rule == rule, f"{info.value} names {info.value.rule!r}, not {rule!r}"
    assert info.value.reason
    assert f"(rule: {rule})" in str(info.value)
    assert not state.is_legal(seat, action)
    assert action not in state.legal_actions(seat)
    assert snapshot(state) == before
    return info.value
