"""Smoke test of bench/soak.py: the soak still starts the real server on SQLite, plays
each kind of table to the end (bots, protocol clients, abandoned, resumed), replays every
finished record and samples the server's memory (no figure is asserted but the counts)."""

from __future__ import annotations

import pytest

from tests.helpers import load_bench

bench = load_bench("soak")


@pytest.mark.slow
def test_two_dozen_tables_of_every_kind_finish_and_replay(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = bench.main(["--tables", "24", "--db", "sqlite", "--wave", "12", "--json"])
    assert len(rows) == 1
    row = rows[0]
    assert row["db"] == "sqlite"
    assert row["tables"] == 24
    assert row["kinds"] == dict.fromkeys(bench.KINDS, 6)
    assert row["finished"] == 24
    assert row["replayed"] == 24
    assert row["failed_replays"] == 0
    assert row["actions"] > 0  # the protocol clients played
    assert row["errors"] == {}
    assert row["tracebacks"] == 0
    assert row["samples"] > 0
    assert row["rss_peak_mib"] >= row["rss_start_mib"] > 0
    assert '"replayed": 24' in capsys.readouterr().out


def test_the_slope_is_a_least_squares_line_over_the_second_half() -> None:
    """RSS growing 2 MiB per thousand tables in the second half gives a slope of 2; the
    warm-up before it does not count."""
    warm_up = [(done, 0.0, 100_000 + 50 * done) for done in range(0, 1000, 100)]
    flat_then = [
        (done, 0.0, 200 * 1024 + 2 * done * 1024 // 1000) for done in range(1000, 2000, 100)
    ]
    assert bench.slope_per_thousand(warm_up + flat_then) == pytest.approx(2.0, abs=0.01)
    assert bench.slope_per_thousand([(0, 0.0, 1), (0, 0.0, 2)]) is None
