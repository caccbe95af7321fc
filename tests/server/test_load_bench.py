"""Smoke test of bench/server_load.py: the load benchmark still starts the real server,
plays over real WebSockets and reports what it promises (no timing is asserted)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.helpers import load_bench

bench = load_bench("server_load")


def test_two_tables_for_three_seconds_report_actions_latencies_and_memory(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = bench.main(["--tables", "2", "--seconds", "3", "--warmup", "0.5", "--json"])
    assert len(rows) == 1
    row = rows[0]
    assert row["db"] == "sqlite"
    assert row["tables"] == 2
    assert row["clients"] == 8
    assert row["actions"] > 0
    assert row["actions_per_s"] > 0
    assert row["latencies"] > 0
    for key in ("own_p50_ms", "own_p99_ms", "others_p50_ms", "others_p99_ms"):
        assert row[key] is not None, key
        assert row[key] > 0, key
    assert row["own_p50_ms"] <= row["own_p99_ms"]
    assert row["server_rss_mib"] > 0
    assert row["written_kib_per_action"] > 0  # every action is stored
    assert row["errors"] == {}
    assert row["views"] == "changes"
    assert '"actions_per_s"' in capsys.readouterr().out


def test_the_generator_applies_changes_as_the_protocol_says() -> None:
    """docs/protocol.md, Views as changes: the load generator's clients hold, after each
    event's changes, the whole view (as the server's own reference, apply_delta)."""
    from tricktaker import load_ruleset, new_game
    from tricktaker.present import present_json
    from tricktaker.server.tables.views import apply_delta, observation_json, view_delta

    state = new_game(load_ruleset("bluke"), players=4, seed=3)
    names = ["A", "B", "C", "D"]
    obs = state.observe(1)
    held = {**observation_json(obs), "present": present_json(obs, names)}
    mine = json.loads(json.dumps(held))
    rng = random.Random(1)
    for _ in range(120):
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        before, obs = obs, state.observe(1)
        view = observation_json(obs, history=False)
        view["present"] = present_json(obs, names, before)
        changes = view_delta(held, view)
        assert changes is not None
        message = json.loads(json.dumps({"delta": changes[0], "removed": changes[1]}))
        bench.apply_changes(mine, message)
        held = apply_delta(held, *changes)
        assert held == view
        assert mine == json.loads(json.dumps(view))


def test_staggered_tables_start_over_the_given_seconds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With --stagger the tables start at random moments within it, and all play."""
    rows = bench.main(
        ["--tables", "3", "--seconds", "2", "--warmup", "0.5", "--stagger", "1.5", "--json"]
    )
    assert rows[0]["actions"] > 0
    assert rows[0]["errors"] == {}
    with pytest.raises(SystemExit):
        bench.parse_args(["--stagger", "-1"])


def test_table_counts_are_parsed_and_checked() -> None:
    assert bench.parse_args(["--tables", "50,200,500"]).counts == [50, 200, 500]
    with pytest.raises(SystemExit):
        bench.parse_args(["--tables", "many"])
    with pytest.raises(SystemExit):
        bench.parse_args(["--tables", "0"])


def test_percentiles() -> None:
    values = [float(v) for v in range(1, 101)]
    assert bench.percentile(values, 0.5) == pytest.approx(50.5, abs=0.1)
    assert bench.percentile(values, 0.99) == pytest.approx(99.0, abs=0.1)
    assert bench.percentile([], 0.5) is None
    assert bench.percentile([7.0], 0.99) == 7.0


def test_timeline_splits_the_senders_latencies_by_window() -> None:
    """--timeline: each window's count, p50, p99 and largest, covering every latency."""
    rows = bench.main(
        ["--tables", "2", "--seconds", "3", "--warmup", "0.5", "--timeline", "1", "--json"]
    )
    windows = rows[0]["timeline"]
    assert windows, "no window"
    assert sum(w["n"] for w in windows) == rows[0]["latencies"]
    assert [w["at_s"] for w in windows] == sorted(w["at_s"] for w in windows)
    for w in windows:
        assert 0 < w["p50_ms"] <= w["p99_ms"] <= w["max_ms"]
    assert len(bench.format_timeline(rows[0])) == len(windows) + 1
    assert bench.format_timeline({"tables": 1}) == []
    with pytest.raises(SystemExit):
        bench.parse_args(["--timeline", "-1"])


@pytest.mark.postgres
def test_priming_leaves_log_files_to_reuse(postgres_server: Any) -> None:
    """prime_wal writes log file after log file, then checkpoints: the files it filled
    are kept for reuse (renamed ahead of the log), not removed; a checkpoint after a run
    keeps them too."""
    import psycopg

    from tests import postgres

    def files() -> int:
        with psycopg.connect(
            host=bench.HOST,
            port=postgres_server.port,
            user=postgres.USER,
            dbname="postgres",
            autocommit=True,
        ) as connection:
            row = connection.execute("SELECT count(*) FROM pg_ls_waldir()").fetchone()
            assert row is not None
            return int(row[0])

    before, position = files(), bench.wal_position(postgres_server.port, postgres.USER)
    bench.prime_wal(postgres_server.port, postgres.USER, 128)
    assert bench.wal_position(postgres_server.port, postgres.USER) >= position + 100 * 2**20
    assert files() >= before + 6
    bench.checkpoint(postgres_server.port, postgres.USER)
    assert files() >= before + 6
