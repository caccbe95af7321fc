"""Records and saves of ``tricktaker play`` keep the players' names (GameRecord.names),
and ``tricktaker replay`` shows them; unnamed seats are counted from 1."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from tricktaker.cli import app
from tricktaker.cli.common import program_name

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": None})

ANSWERS = "1\n" * 12  # bid 1, then the first card, every time


def two_hands(tmp_path: Path) -> Path:
    path = tmp_path / "two.toml"
    path.write_text('id = "two"\nextends = "blackout"\n[schedule]\nsizes = "1..2"\n')
    return path


def played(tmp_path: Path, *args: str) -> tuple[dict[str, object], dict[str, object], str]:
    """Play a short game with ``args``: its record, its save and the replay's output."""
    rules = two_hands(tmp_path)
    save = tmp_path / "game.json"
    folder = tmp_path / "records"
    options = ["--seed", "3", "--bots", "random", "--record", str(folder), "--save", str(save)]
    result = runner.invoke(app, ["play", str(rules), *options, *args], input=ANSWERS)
    assert result.exit_code == 0, result.output
    [record_file] = folder.glob("*.json")
    shown = runner.invoke(app, ["replay", str(record_file)])
    assert shown.exit_code == 0, shown.output
    return json.loads(record_file.read_text()), json.loads(save.read_text()), shown.stdout


def test_a_record_keeps_the_names_and_replay_shows_them(tmp_path: Path) -> None:
    record, save, replay = played(tmp_path, "--names", "Ann,Bob,Cy,Di")
    assert record["names"] == ["Ann", "Bob", "Cy", "Di"]
    saved = save["record"]
    assert isinstance(saved, dict)
    assert saved["names"] == ["Ann", "Bob", "Cy", "Di"]
    assert "Players: 4 (Ann, Bob, Cy, Di)" in replay
    assert "Seat 0" not in replay
    final = replay.split("Final")[1]
    for name in ("Ann", "Bob", "Cy", "Di"):
        assert name in final
    standings = replay.split("Final standings")[1]  # the ranking, by name
    assert re.search(r"^1st\s+(Ann|Bob|Cy|Di)\s+\d+\s*$", standings, re.M)


def test_unnamed_seats_are_recorded_as_the_table_showed_them(tmp_path: Path) -> None:
    record, _, replay = played(tmp_path)
    assert record["names"] == ["Seat 1", "Ben", "Cleo", "Dot"]
    assert "Players: 4 (Seat 1, Ben, Cleo, Dot)" in replay
    assert "Seat 0" not in replay


def test_a_record_given_to_resume_points_to_replay_as_it_can_be_typed(tmp_path: Path) -> None:
    played(tmp_path)
    [record] = (tmp_path / "records").glob("*.json")
    result = runner.invoke(app, ["play", "--resume", str(record)])
    assert result.exit_code == 2
    assert f"not a saved game: {program_name()} replay shows it" in result.stderr
