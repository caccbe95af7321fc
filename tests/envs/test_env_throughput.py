"""Smoke test of bench/env_throughput.py: its tricktaker side still runs and reports (no
timing asserts), so the benchmark of the environments cannot rot unnoticed."""

from __future__ import annotations

from functools import partial

from tests.envs.helpers import require_envs
from tests.helpers import load_bench

require_envs()

from tricktaker.envs import pettingzoo_env  # noqa: E402


def test_the_tricktaker_rows_run() -> None:
    """bench/README.md, Environment throughput: every tricktaker environment of the
    benchmark plays decisions and the table shows them."""
    bench = load_bench("env_throughput")
    rows = []
    for label, game, players in bench.TRICKTAKER_GAMES:
        made = bench.aec_runner(partial(pettingzoo_env, game, players=players))
        rows.append(bench.measure(f"tricktaker:{label}", players, made, rounds=1, seconds=0.05))
    assert all(row.steps_per_second > 0 for row in rows)
    text = bench.table(rows)
    assert text.count("| tricktaker:") == len(bench.TRICKTAKER_GAMES)
