"""Smoke test of bench/server_telling.py: telling's cost in-process still runs the
server's own telling and sockets over whole games (no timing is asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import load_bench

bench = load_bench("server_telling")


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
