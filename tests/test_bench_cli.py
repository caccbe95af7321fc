"""Smoke tests for bench/startup.py and bench/simulate_loop.py: they still run (no timing
asserts, no OpenSpiel needed), so the benchmarks cannot rot unnoticed."""

from __future__ import annotations

import json

import pytest

from tests.helpers import load_bench

startup = load_bench("startup")
simulate_loop = load_bench("simulate_loop")


def test_startup_times_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    status = startup.main(["--runs", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert set(data["commands"]) == set(startup.commands())
    assert data["commands"]["python -c pass"]["ratio"] == 1.0
    for row in data["commands"].values():
        assert row["median_ms"] > 0
    over = [
        label
        for label in ("tricktaker --help", "tricktaker --version")
        if data["commands"][label]["median_ms"] > startup.TARGET_MS
    ]
    assert status == (1 if over else 0)


def test_simulate_loop_plays_and_observes() -> None:
    simulate_loop.tricktaker_games(2)
    count, each = simulate_loop.observation_cost("pluck", 3, games=1)
    assert count > 0
    assert each > 0
