"""Smoke test for bench/throughput.py: its tricktaker side still runs (no timing asserts,
no OpenSpiel needed), so the benchmark cannot rot unnoticed."""

from __future__ import annotations

import json
import random
import sys
from types import ModuleType

import pytest

from tests.helpers import load_bench, require_module
from tricktaker.kernel import available

bench = load_bench("throughput")

pytestmark = pytest.mark.usefixtures("frozen_heap")  # its gc.collect() calls stay quick


def test_benchmark_ruleset_is_the_oh_hell_hand() -> None:
    rules = bench.load_bench_rules()
    assert rules.id == "blackout_12"
    assert [h.hand_size for h in rules.hands_for(4)] == [12]
    assert rules.spec.trump.method == "turn_up"
    assert not rules.spec.bidding.hook
    assert rules.spec.play.follow_suit


def test_playout_loop_plays_whole_hands() -> None:
    rules = bench.load_bench_rules()
    rng = random.Random(0)
    for seed in range(5):
        state = bench.play_tricktaker_hand(rules, seed, rng)
        assert state.is_terminal()
        (hand,) = state.history
        assert hand.hand_size == 12
        assert len(hand.trick_cards) == 12
        assert sum(hand.tricks) == 12
        assert all(0 <= b <= 12 for b in hand.bids)
    bench.tricktaker_playouts(rules, 3, rng=rng, first_seed=100)
    assert bench.tricktaker_steps(rules) == (1, 52)


def test_mid_hand_states_support_the_timed_calls() -> None:
    rules = bench.load_bench_rules()
    for state, seat in bench.tricktaker_mid_hand_states(rules, 8):
        assert not state.is_terminal()
        assert state.to_act() == (seat,)
        assert state.legal_actions(seat)
        assert state.clone().legal_actions(seat) == state.legal_actions(seat)
        assert state.observe(seat).is_my_turn


def test_main_reports_tricktaker_without_openspiel(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes `import pyspiel` fail
    assert bench.main(["--quick", "--rounds", "1", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "NOT AVAILABLE" in out
    assert "median tricktaker" in out
    assert "state.observe(seat)" in out


# ------------------------------------------------------------ bench/search_speed.py


def _load_bench_module(name: str) -> ModuleType:
    """A bench script as a module (``search_speed`` imports its neighbours by name)."""
    return load_bench(name, name)


_load_bench_module("openspiel_adapter")
_load_bench_module("openspiel_settings")
_load_bench_module("vs_openspiel")
_load_bench_module("speed_common")
_load_bench_module("kernel_speed")
search_speed = _load_bench_module("search_speed")


def test_search_positions_cover_the_hand() -> None:
    """Our side alone: every phase's positions are decisions with a choice."""
    rules = _load_bench_module("openspiel_adapter").OhHellAdapter().rules
    positions = search_speed.make_positions(rules, 2, seed=1)
    assert list(positions) == ["bid", "early", "mid", "late"]
    for phase, first, _ in search_speed.PHASES:
        for k, position in enumerate(positions[phase]):
            state = position.state
            assert position.openspiel is None
            assert state.to_act() == (position.seat,)
            assert len(position.observation.legal_actions) >= 2
            assert position.next_action in position.observation.legal_actions
            played = 4 * 12 - sum(hand.bit_count() for hand in state.hands)
            made = sum(b is not None for b in state.bids) + played
            assert made == first + k
            assert state.phase_name == ("bidding" if phase == "bid" else "playing")


def test_search_speed_runs_without_openspiel(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes `import pyspiel` fail
    assert search_speed.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "NOT AVAILABLE" in out
    for label in ("ISMCTSBot iterations/s", "PIMCBot rollouts/s", "Determinizer(obs)"):
        assert label in out
    assert "vary by" in out


def test_search_speed_beside_openspiel(capsys: pytest.CaptureFixture[str]) -> None:
    require_module("pyspiel", "pip install -e '.[bench]'")
    assert search_speed.main(["--quick", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rows = {(r["metric"], r["phase"]): r for r in summary["rows"]}
    kernel: tuple[str, ...] = (
        "kernel_ismcts",
        "kernel_random_playout",
        "kernel_policy_playout",
        "kernel_sample",
    )
    if not available():  # the compiled kernel's rows (tests/kernel fails in CI without it)
        kernel = ()
    assert len(rows) == (9 + len(kernel)) * 4
    for metric in ("ismcts", "pimc", "random_playout", "sample", "clone", "apply", *kernel):
        for phase in ("bid", "early", "mid", "late"):
            row = rows[metric, phase]
            assert row["tricktaker"] > 0
            assert row["openspiel"] > 0
            assert row["speed_ratio"] > 0
    assert rows["determinizer", "mid"]["openspiel"] is None
