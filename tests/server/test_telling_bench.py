"""Smoke test of bench/server_telling.py: telling's cost in-process still runs the
server's own telling and sockets over whole games (no timing is asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH_SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "server_telling.py"


def _load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_server_telling", BENCH_SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load_bench()


def test_tables_played_in_turn_report_every_kind_of_action() -> None:
    """Enough actions for hands to end and games to start again: each kind is timed."""
    row = bench.run_once(tables=3, actions=3000, game="bluke", seed=2)
    assert row["actions"] == 3000
    assert row["hand_ends"] > 0
    for key in ("us_per_action", "us_plain", "us_hand_end"):
        assert row[key] > 0, key


def test_a_baseline_runs_in_turns_in_subprocesses(capsys: pytest.CaptureFixture[str]) -> None:
    """--baseline-src runs another checkout's package the same way (here: this one)."""
    root = Path(__file__).resolve().parents[2]
    rows = bench.main(
        ["--tables", "2", "--actions", "300", "--repeat", "1", "--baseline-src", str(root)]
    )
    assert [r["variant"] for r in rows] == ["new", "base"]
    assert "ratio new/base" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main(["--tables", "0"])
