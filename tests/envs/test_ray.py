"""--ray: simulations, arenas and datasets on a Ray cluster give a local run's results.

One local Ray instance with two CPUs serves the whole module (started once: Ray takes
seconds to start); the commands and the library find it already running and use it.
Needs the ``ray`` extra; under ``CI=true`` a missing Ray fails, never skips.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.helpers import require_module
from tricktaker.arena import ArenaConfig, run_arena
from tricktaker.arena.pool import ordered_results
from tricktaker.arena.ray_pool import RayUnavailableError, check_reachable
from tricktaker.cli import app

ray = require_module("ray", "pip install -e '.[ray]'")

runner = CliRunner(env={"COLUMNS": "200"})


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def _without_machine_time(data: dict[str, Any]) -> dict[str, Any]:
    for bot in data["bots"]:
        bot.pop("ms_per_move")
    return data


def test_ordered_results_come_back_in_order_in_chunks() -> None:
    jobs = range(23)
    with ordered_results(functools.partial(pow, 3), jobs, ray="local", chunk=4) as stream:
        assert list(stream) == [3**k for k in jobs]
    with ordered_results(functools.partial(pow, 2), range(10**9), ray="local") as endless:
        assert [next(endless) for _ in range(5)] == [1, 2, 4, 8, 16]


def test_arena_on_ray_equals_the_local_run() -> None:
    config = ArenaConfig("blackout", bots=("heuristic", "random", "random"), hands=30, seed=4)
    local = run_arena(config)
    on_ray = run_arena(config, ray="local")
    assert local.deal_sets > 1
    assert _without_machine_time(on_ray.to_json()) == _without_machine_time(local.to_json())


def test_simulate_and_its_dataset_on_ray_equal_the_local_run(tmp_path: Path) -> None:
    require_module("pyarrow", "pip install -e '.[datasets]'")
    from tricktaker.datasets import load

    args = ["simulate", "pluck", "--games", "5", "--seed", "9", "--bots", "heuristic,random,random"]
    local = runner.invoke(app, [*args, "--json", "--dataset", str(tmp_path / "local")])
    assert local.exit_code == 0, local.output
    on_ray = runner.invoke(
        app, [*args, "--json", "--dataset", str(tmp_path / "ray"), "--ray", "local"]
    )
    assert on_ray.exit_code == 0, on_ray.output
    lines = [line for line in local.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 5
    assert [json.loads(line)["seed"] for line in lines] == [9, 10, 11, 12, 13]
    assert [line for line in on_ray.stdout.splitlines() if line.startswith("{")] == lines
    assert load(tmp_path / "ray").equals(load(tmp_path / "local"))
    summary = runner.invoke(app, [*args, "--ray", "local"])
    assert summary.exit_code == 0, summary.output
    assert "Pluck: 5 games, 3 players, seeds 9..13" in summary.stdout


def test_arena_command_takes_ray() -> None:
    args = ["arena", "blackout", "--bots", "heuristic,random,random", "--hands", "8", "--json"]
    local = runner.invoke(app, args)
    on_ray = runner.invoke(app, [*args, "--ray", "local"])
    assert local.exit_code == 0, local.output
    assert on_ray.exit_code == 0, on_ray.output
    first = _without_machine_time(json.loads(local.stdout))
    assert first == _without_machine_time(json.loads(on_ray.stdout))


def test_an_address_where_nothing_listens_fails_at_once() -> None:
    with pytest.raises(RayUnavailableError, match=r"nothing answers at 127\.0\.0\.1:1"):
        check_reachable("127.0.0.1:1", timeout=2.0)
    check_reachable("auto")  # left to Ray
    check_reachable("ray://head:10001")
