"""tricktaker simulate --dataset DIR and tricktaker.datasets: decisions as Parquet files.

A dataset written by the command is read back and checked against the games
themselves (each game replayed from its seed, and the command's own --json lines): every
decision is there, in order, with the seat's encoded observation, the legal mask, the
action and the outcome joined in. Needs the ``datasets`` extra (pyarrow) and the
``envs`` extra (numpy); under ``CI=true`` a missing one fails.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.envs.helpers import require_envs
from tests.helpers import require_module

require_envs()
pq = require_module("pyarrow.parquet", "pip install -e '.[datasets]'")

import numpy as np  # noqa: E402

from tricktaker import load_ruleset, new_game  # noqa: E402
from tricktaker.cli import app  # noqa: E402
from tricktaker.cli.common import make_bots  # noqa: E402
from tricktaker.datasets import (  # noqa: E402
    legal_masks,
    load,
    metadata,
    observations,
    open_dataset,
)
from tricktaker.datasets.record import play_recorded  # noqa: E402
from tricktaker.datasets.writer import DatasetError, DatasetWriter  # noqa: E402
from tricktaker.envs.encoding import Encoding  # noqa: E402

runner = CliRunner(env={"COLUMNS": "200"})
BOTS = ("heuristic", "random", "heuristic", "random")


def _simulate(
    directory: Path, *extra: str, game: str = "bluke", games: int = 4
) -> list[dict[str, Any]]:
    args = ["simulate", game, "--games", str(games), "--seed", "3", "--bots", ",".join(BOTS)]
    result = runner.invoke(app, [*args, "--json", "--dataset", str(directory), *extra])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def test_a_dataset_round_trips(tmp_path: Path) -> None:
    games = _simulate(tmp_path / "bluke")
    table = load(tmp_path / "bluke")
    info = metadata(tmp_path / "bluke")
    rules = load_ruleset("bluke")
    encoding = Encoding.of(rules, 4)
    assert info["games"] == 4
    assert info["decisions"] == table.num_rows
    assert info["observation_size"] == encoding.observation_size
    assert info["actions"] == [str(a) for a in encoding.actions]
    x = observations(table)
    masks = legal_masks(table)
    assert x.shape == (table.num_rows, encoding.observation_size)
    actions = table.column("action").to_numpy()
    assert masks[np.arange(len(actions)), actions].all()
    assert (masks.sum(axis=1) == table.column("choices").to_numpy()).all()
    assert set(table.column("game").to_pylist()) == {"bluke"}
    start = 0
    for data in games:
        seed = data["seed"]
        seated = make_bots(dict(enumerate(BOTS)), seed)
        rows = play_recorded(new_game(rules, players=4, seed=seed), [seated[s] for s in range(4)])
        part = table.slice(start, len(rows))
        start += len(rows)
        assert set(part.column("game_seed").to_pylist()) == {seed}
        assert part.column("step").to_pylist() == list(range(len(rows)))
        assert np.array_equal(observations(part), rows.observation)
        assert np.array_equal(part.column("action").to_numpy(), rows.action)
        seats = part.column("seat").to_pylist()
        assert part.column("bot").to_pylist() == [BOTS[s] for s in seats]
        finals = data["final_scores"]
        assert part.column("final_score").to_pylist() == [finals[s] for s in seats]
        assert part.column("won").to_pylist() == [s in data["winners"] for s in seats]
        hands = part.column("hand").to_pylist()
        assert part.column("hand_score").to_pylist() == [
            data["hands"][h - 1]["hand_scores"][s] for h, s in zip(hands, seats, strict=True)
        ]
        assert part.column("bid").to_pylist() == [
            data["hands"][h - 1]["bids"][s] for h, s in zip(hands, seats, strict=True)
        ]
    assert start == table.num_rows


@pytest.mark.parametrize("game", ["pluck", "euchre", "buckup"])
def test_the_games_with_their_own_phases_are_recorded(tmp_path: Path, game: str) -> None:
    bots = "heuristic,random,random" if game == "pluck" else "heuristic,random,heuristic,random"
    result = runner.invoke(
        app, ["simulate", game, "--games", "2", "--bots", bots, "--dataset", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    table = load(tmp_path)
    assert table.num_rows == metadata(tmp_path)["decisions"] > 0
    phases = set(table.column("phase").to_pylist())
    assert "playing" in phases
    assert len(phases) > 1


def test_workers_write_the_same_dataset(tmp_path: Path) -> None:
    one = _simulate(tmp_path / "one", game="blackout", games=6)
    two = _simulate(tmp_path / "two", "--workers", "2", game="blackout", games=6)
    assert one == two
    assert load(tmp_path / "two").equals(load(tmp_path / "one"))


def test_files_and_row_groups_are_bounded(tmp_path: Path) -> None:
    rules = load_ruleset("blackout")
    encoding = Encoding.of(rules, 4)
    parts = []
    for seed in range(3):
        seated = make_bots(dict(enumerate(BOTS)), seed)
        parts.append(
            play_recorded(new_game(rules, players=4, seed=seed), [seated[s] for s in range(4)])
        )
    total = sum(len(p) for p in parts)
    settings = {"players": 4, "seed": 0}
    with DatasetWriter(
        tmp_path / "small",
        encoding=encoding,
        game="blackout",
        bots=BOTS,
        settings=settings,
        rows_per_file=500,
        row_group=128,
    ) as writer:
        for rows in parts:
            writer.add(rows)
    files = sorted((tmp_path / "small").glob("part-*.parquet"))
    assert len(files) == -(-total // 500)
    for path in files:
        meta = pq.ParquetFile(path).metadata
        assert meta.num_rows <= 500
        assert all(meta.row_group(g).num_rows <= 128 for g in range(meta.num_row_groups))
    table = load(tmp_path / "small")
    assert table.num_rows == total
    assert np.array_equal(observations(table), np.concatenate([p.observation for p in parts]))
    assert open_dataset(tmp_path / "small").count_rows() == total
    with pytest.raises(DatasetError, match="already holds a dataset"):
        DatasetWriter(
            tmp_path / "small", encoding=encoding, game="blackout", bots=BOTS, settings=settings
        )


def test_not_a_dataset_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="not a tricktaker dataset"):
        load(tmp_path)
