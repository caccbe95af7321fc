"""The command line as a program: start-up (lazy imports, --version, python -m), help,
one error style, simulate --workers, Ctrl-C in simulate and arena, progress bars and the
arena table's width."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from tests.helpers import python_output
from tricktaker import load_ruleset
from tricktaker.cli import COMMANDS, app
from tricktaker.cli.common import plural, progress_bar

runner = CliRunner(env={"COLUMNS": "200"})


def run(*args: str) -> Result:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result.stdout


def cli_process(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """The command line in a real process, taking Ctrl-C (SIGINT) as a terminal sends it
    (whatever the test runner does with the signal)."""
    code = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler);"
        " sys.argv[0] = 'tricktaker'; from tricktaker.cli import main; main()"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


def test_version_and_python_m() -> None:
    assert ok("--version") == "tricktaker 0.1.0\n"
    result = subprocess.run(
        [sys.executable, "-m", "tricktaker", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout == "tricktaker 0.1.0\n"
    help_text = subprocess.run(
        [sys.executable, "-m", "tricktaker", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert help_text.startswith("Usage: python -m tricktaker [OPTIONS] COMMAND")


def test_top_level_help_loads_no_command() -> None:
    """The top-level help and --version import neither the commands nor the engine."""
    code = (
        "import sys; from tricktaker.cli import app;"
        " from typer.testing import CliRunner; CliRunner().invoke(app, ['--help']);"
        " print(sorted(m for m in sys.modules if m.startswith('tricktaker.')"
        " or m in ('rich.console', 'pydantic')))"
    )
    # tricktaker._version holds the version string alone (the package's top level reads it)
    assert python_output(code) == "['tricktaker._version', 'tricktaker.cli']"


@pytest.mark.parametrize("command", ["simulate", "arena", "replay"])
def test_command_help_loads_neither_engine_nor_rich(command: str) -> None:
    code = (
        "import sys; from tricktaker.cli import app;"
        f" from typer.testing import CliRunner; CliRunner().invoke(app, ['{command}', '-h']);"
        " print(sorted(m for m in ('tricktaker.engine', 'tricktaker.bots', 'rich.console')"
        " if m in sys.modules))"
    )
    assert python_output(code) == "[]"


def test_lazy_package_names_still_import() -> None:
    import tricktaker

    assert tricktaker.load_ruleset is load_ruleset
    assert "new_game" in dir(tricktaker)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = tricktaker.nothing


COMMAND_NAMES = list(COMMANDS)


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.parametrize("command", [[], *([name] for name in COMMAND_NAMES)])
def test_help_is_plain_and_fits(command: list[str], columns: int) -> None:
    result = CliRunner().invoke(app, [*command, "--help"], terminal_width=columns)
    assert result.exit_code == 0, result.output
    text = result.stdout
    for placeholder in ("<bool>", "<str>", "<path>", "{GAME}"):
        assert placeholder not in text
    assert max(len(line) for line in text.splitlines()) <= columns
    # The summary paragraph is wrapped as one paragraph, not at the source's line breaks.
    summary = text.split("\n\n")[1]
    assert "\n" not in summary or all(
        len(line) > columns - 25 for line in summary.splitlines()[:-1]
    ), summary


def test_help_lists_every_command_with_a_summary() -> None:
    out = ok("--help")
    for name in COMMAND_NAMES:
        assert f"  {name} " in out
    assert "--version" in out


def test_usage_errors_share_one_style() -> None:
    ours = run("simulate", "blackout", "--bots", "random,nope,random")
    typers = run("simulate", "blackout", "--games", "0")
    for result in (ours, typers):
        assert result.exit_code == 2
        assert "Error: " in result.stderr
        assert result.stdout == ""


def test_a_fixed_player_count_reads_naturally() -> None:
    result = run("simulate", "pluck", "--players", "4", "--bots", "random,random,random,random")
    assert result.exit_code == 2
    assert "Pluck is for 3 players, not 4" in result.stderr


def test_a_record_folder_that_cannot_be_made_is_a_failure(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = run("simulate", "blackout", "-g", "1", "--record", str(blocker / "records"))
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ")


@pytest.mark.parametrize(
    "args",
    [
        ["blackout", "-g", "6", "-b", "random,heuristic,random,random", "-s", "5"],
        ["euchre", "-g", "4", "-o", "target=3", "--json"],
        ["pluck", "-g", "3", "-o", "hands=2", "--json"],
    ],
)
def test_simulate_workers_give_the_same_output(args: list[str]) -> None:
    one = ok("simulate", *args)
    assert ok("simulate", *args, "--workers", "3") == one
    assert ok("simulate", *args, "-w", "2") == one


def test_simulate_workers_save_the_same_records(tmp_path: Path) -> None:
    args = ["simulate", "blackout", "-n", "3", "-g", "4", "-s", "20"]
    ok(*args, "--record", str(tmp_path / "one"))
    ok(*args, "--record", str(tmp_path / "two"), "--workers", "2")
    one = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert one == sorted(p.name for p in (tmp_path / "two").iterdir())
    assert len(one) == 4
    for name in one:
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_reports_the_finished_games_on_ctrl_c(workers: str) -> None:
    args = ["simulate", "blackout", "-n", "4", "-g", "100000", "-b", "random,random,random,random"]
    process = cli_process(*args, "--json", "--workers", workers)
    assert process.stdout is not None
    first = process.stdout.readline()
    assert json.loads(first)["seed"] == 0
    process.send_signal(signal.SIGINT)
    rest = process.stdout.read()  # after readline: communicate() would skip its buffer
    assert process.stderr is not None
    err = process.stderr.read()
    assert process.wait(timeout=120) == 130, err
    lines = [first, *rest.splitlines()]
    finished = len(lines)
    assert [json.loads(line)["seed"] for line in lines] == list(range(finished))
    assert f"Interrupted after {finished} of 100000 games" in err
    assert "Traceback" not in err


def test_simulate_summary_after_ctrl_c_covers_the_games_played() -> None:
    args = ["simulate", "blackout", "-n", "3", "-g", "100000", "-b", "random,random,random"]
    process = cli_process(*args, "--record", tempfile.mkdtemp())
    time.sleep(4)  # start-up, then some games
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    match = re.search(r"Interrupted after (\d+) of 100000 games", err)
    assert match is not None, err
    played = int(match[1])
    if played:
        assert f"Blackout: {plural(played, 'game')}, 3 players, seeds 0..{played - 1}" in out
        assert "Results by seat" in out
    assert f"Records saved: {plural(played, 'file')}" in out
    assert "Traceback" not in err


def test_arena_reports_the_finished_deal_sets_on_ctrl_c() -> None:
    process = cli_process("arena", "blackout", "-b", "heuristic,random,random", "-k", "100000")
    time.sleep(4)  # start-up, then some deal sets
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    match = re.search(r"Interrupted after (\d+) deal sets?:", err)
    if match is None:  # a very slow machine: nothing had finished
        assert "Interrupted before the first deal set finished" in err
        return
    deal_sets = int(match[1])
    assert f"Blackout arena: {plural(deal_sets, 'deal set')} x 3 rotations" in out
    assert "Results by bot" in out


def test_arena_table_fits_100_columns_with_full_headers() -> None:
    bots = "heuristic,ismcts:iterations=20,random,random"
    args = ["arena", "euchre", "-b", bots, "-k", "2", "-o", "target=2"]
    result = CliRunner(env={"COLUMNS": "100"}).invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    header = next(line for line in lines if "Mean/hand" in line)
    for title in ("#", "Name", "Partner", "Hands", "Mean/hand ± 95%", "Exact", "Wins"):
        assert title in header
    for title in ("Rating", "ms/move", "Ordinal"):
        assert title in header
    assert "…" not in result.stdout


def test_a_mistyped_command_gets_a_suggestion() -> None:
    result = run("simulat", "blackout")
    assert result.exit_code == 2
    assert "No such command 'simulat'. Did you mean 'simulate'?" in result.stderr


def test_progress_bars_show_the_time_left_on_a_terminal() -> None:
    screen = StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100, color_system=None)
    progress = progress_bar(terminal, unit="games")
    task = progress.add_task("Blackout", total=10)
    progress.advance(task, 4)
    terminal.print(progress.make_tasks_table(progress.tasks))
    line = screen.getvalue()
    assert "4/10 games" in line
    assert "elapsed," in line
    assert "left" in line
    piped = Console(file=StringIO(), width=100)
    assert progress_bar(piped, unit="games").disable is True
    assert progress.disable is False
