"""Smoke test of bench/env_throughput.py: its tricktaker side still runs and reports (no
timing asserts), so the benchmark of the environments cannot rot unnoticed."""

from __future__ import annotations

import importlib.util
import sys
from functools import partial
from pathlib import Path
from types import ModuleType

from tests.envs.helpers import require_envs

require_envs()

from tricktaker.envs import pettingzoo_env  # noqa: E402

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "env_throughput.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_env_throughput", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


def test_the_tricktaker_rows_run() -> None:
    """bench/README.md, Environment throughput: every tricktaker environment of the
    benchmark plays decisions and the table shows them."""
    bench = load_bench()
    rows = []
    for label, game, players in bench.TRICKTAKER_GAMES:
        made = bench.aec_runner(partial(pettingzoo_env, game, players=players))
        rows.append(bench.measure(f"tricktaker:{label}", players, made, rounds=1, seconds=0.05))
    assert all(row.steps_per_second > 0 for row in rows)
    text = bench.table(rows)
    assert text.count("| tricktaker:") == len(bench.TRICKTAKER_GAMES)
