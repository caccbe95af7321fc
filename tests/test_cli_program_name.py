"""The commands the CLI prints are ones the user can type: ``program_name()`` is
``tricktaker`` only when that name on PATH is this program, else its path (relative to
the current directory when shorter), e.g. ``.venv/bin/tricktaker`` after ``make``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).parent / "tricktaker"

CODE = "from tricktaker.cli.common import program_name; print(program_name())"


def name_seen(cwd: Path, path: str, *, argv0: str | None = None) -> str:
    """What program_name() says in a real process run from ``cwd`` with ``PATH=path``."""
    code = CODE if argv0 is None else f"import sys; sys.argv[0] = {argv0!r}; {CODE}"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


@pytest.fixture
def script() -> Path:
    if not SCRIPT.is_file():
        pytest.fail(f"the tricktaker script is not installed beside {sys.executable}")
    return SCRIPT


def test_the_bare_name_when_path_finds_this_program(script: Path) -> None:
    assert name_seen(Path.cwd(), f"{script.parent}{os.pathsep}/usr/bin:/bin") == "tricktaker"


def test_the_relative_path_when_path_does_not_find_it(script: Path) -> None:
    project = script.parent.parent.parent  # .venv/bin/tricktaker -> the project
    assert name_seen(project, "/usr/bin:/bin") == str(script.relative_to(project))


def test_the_absolute_path_when_shorter_than_a_relative_one(script: Path, tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "c" / "d" / "e" / "f" / "g" / "h" / "i" / "j" / "k"
    deep.mkdir(parents=True)
    assert name_seen(deep, "/usr/bin:/bin") == str(script)


def test_another_tricktaker_on_path_is_not_this_program(script: Path, tmp_path: Path) -> None:
    other = tmp_path / "bin" / "tricktaker"
    other.parent.mkdir()
    other.write_text("#!/bin/sh\necho another\n")
    other.chmod(0o755)
    seen = name_seen(tmp_path, f"{other.parent}{os.pathsep}/usr/bin:/bin", argv0=str(script))
    assert seen == str(script)


def test_a_saved_game_names_the_command_as_typed_after_make(script: Path, tmp_path: Path) -> None:
    """After ``make play`` the command is ``.venv/bin/tricktaker``, not on PATH: the
    "carry on with" line must be one the user can paste."""
    project = script.parent.parent.parent
    save = tmp_path / "game.json"
    result = subprocess.run(
        [str(script.relative_to(project)), "play", "blackout", "--seed", "1", "--save", str(save)],
        cwd=project,
        env={**os.environ, "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": str(tmp_path)},
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    relative = script.relative_to(project)
    assert f"carry on with: {relative} play --resume {save}" in result.stdout, result.stdout
