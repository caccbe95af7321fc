"""``tricktaker serve --table GAME``: the server makes a table with bots, prints the
command that takes the human seat, and starts the game itself once that seat is taken.

docs/protocol.md, HTTP API: a table is created with ``POST /tables``, people join with
the invite code, and the host starts the game with the host token.
"""

from __future__ import annotations

import queue
import shlex
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.postgres import in_ci
from tests.server.helpers import tricktaker
from tests.server_process import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]


def lines_of(process: subprocess.Popen[str]) -> queue.Queue[str]:
    """The process's stdout, a line at a time, read in a thread."""
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return lines


def wait_for(lines: queue.Queue[str], pattern: str, seen: list[str], limit: float = 60.0) -> str:
    """The first line containing ``pattern`` (every line read is kept in ``seen``)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        seen.append(line)
        if pattern in line:
            return line
    raise AssertionError(f"{pattern!r} never printed; the output was:\n{''.join(seen)}")


def stop(process: subprocess.Popen[str]) -> None:
    """Terminate, then kill."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def serve_table(port: int, db: str, seats_file: Path, *options: str) -> subprocess.Popen[str]:
    """``tricktaker serve --port PORT --db DB --table blackout OPTIONS...``, started."""
    return tricktaker(
        ["serve", "--port", str(port), "--db", db, "--table", "blackout", *options], seats_file
    )


def test_serve_makes_a_table_and_starts_it_when_the_human_seat_is_taken(tmp_path: Path) -> None:
    """The printed join command takes the seat; the server starts the game by itself and
    the game is played to its end."""
    port = free_port()
    server = serve_table(
        port,
        f"sqlite:///{tmp_path / 'server.sqlite3'}",
        tmp_path / "server-seats.json",
        "--players",
        "3",
        "--seats",
        "human,random,random",
    )
    try:
        lines, seen = lines_of(server), list[str]()
        line = wait_for(lines, " join ", seen)
        # as printed: "seat 1: PROGRAM join 'LINK' --seat 1", the link quoted for the shell
        label, _, printed = line.strip().partition(": ")
        assert label == "seat 1"  # people count seats from 1
        words = shlex.split(printed)
        assert shutil.which(words[0]) is not None, f"{words[0]} cannot be run as printed"
        assert words[1] == "join"
        assert words[3:] == ["--seat", "1"]
        link = words[2]
        assert printed.endswith(f"join {shlex.quote(link)} --seat 1")
        assert link.startswith(f"http://127.0.0.1:{port}/tables/")
        bot = tricktaker(
            ["bot", link, "--bots", "random", "--seat", "1"], tmp_path / "bot-seats.json"
        )
        out, err = bot.communicate(timeout=120)
        assert bot.returncode == 0, err
        assert "Joined seat 1" in out
        assert "Game over:" in out
        wait_for(lines, "All seats taken: the game has started", seen, limit=5)
    finally:
        stop(server)


def test_serve_refuses_bad_seats_before_serving(tmp_path: Path) -> None:
    """An unknown bot in --seats is the server's clear message and exit status 2."""
    port = free_port()
    server = serve_table(
        port,
        f"sqlite:///{tmp_path / 'server.sqlite3'}",
        tmp_path / "seats.json",
        "--seats",
        "human,nobot,easy",
    )
    try:
        out, err = server.communicate(timeout=60)
    finally:
        stop(server)
    assert server.returncode == 2, out + err
    assert "Error: unknown bot 'nobot'" in err
    assert "tricktaker join" not in out


def test_serve_refuses_a_malformed_seats_list(tmp_path: Path) -> None:
    """An empty entry in --seats is refused before the server starts."""
    process = tricktaker(
        ["serve", "--port", str(free_port()), "--table", "blackout", "--seats", "human,,easy"],
        tmp_path / "seats.json",
    )
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2, out + err
    assert "Error: --seats expects kinds separated by commas" in err
    assert "Serving on" not in out


def test_serve_on_a_busy_port_says_so_before_announcing_anything(tmp_path: Path) -> None:
    """A port in use is a clear message with exit status 2, and nothing is announced (no
    address, no join command) before it."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        server = serve_table(port, str(tmp_path / "s.sqlite3"), tmp_path / "seats.json")
        try:
            out, err = server.communicate(timeout=60)
        finally:
            stop(server)
    assert server.returncode == 2, out + err
    assert err.strip() == (
        f"Error: port {port} on 127.0.0.1 is in use (another server?):"
        " choose another with --port N (make serve PORT=N)"
    )
    assert out == ""


@pytest.mark.parametrize("target", ["serve", "web"])
def test_make_serve_and_web_use_port(target: str) -> None:
    """``make serve PORT=N`` and ``make web PORT=N`` serve on port N."""
    if shutil.which("make") is None:
        if in_ci():
            pytest.fail("CI=true but make is not installed")
        pytest.skip("make is not installed")
    shown = subprocess.run(
        ["make", "-n", target, "PORT=8123"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    serving = [line for line in shown.splitlines() if "tricktaker serve" in line]
    assert len(serving) == 1, shown
    assert serving[0].split()[-2:] == ["--port", "8123"]
    assert "8000" not in shown


def test_serve_takes_a_plain_path_as_its_sqlite_database(tmp_path: Path) -> None:
    """``--db FILE`` is a SQLite database file (made if missing)."""
    path = tmp_path / "games.sqlite3"
    server = ServerProcess(str(path), free_port(), tmp_path / "log")
    server.start()
    try:
        made = httpx.post(f"{server.url}/tables", json={"game": "blackout", "seats": ["human"] * 4})
        assert made.status_code == 201, made.text
    finally:
        server.stop()
    assert path.is_file()
    assert path.stat().st_size > 0
    assert f"Database: {path}" in server.log.read_text()


@pytest.mark.parametrize(
    ("db", "message"),
    [
        ("mysql://me@host/games", "--db 'mysql://me@host/games' is no database"),
        ("{missing}/games.sqlite3", "the folder {missing} does not exist"),
        ("{folder}", "that is a folder; give a file in it, e.g. --db {folder}/games.sqlite3"),
    ],
)
def test_serve_explains_a_db_it_cannot_use(db: str, message: str, tmp_path: Path) -> None:
    """A --db that is neither a SQLite file nor a database URL is a clear message with
    examples (exit status 2), before anything is served."""
    where = {"missing": str(tmp_path / "nowhere"), "folder": str(tmp_path)}
    process = tricktaker(
        ["serve", "--port", str(free_port()), "--db", db.format(**where)], tmp_path / "seats.json"
    )
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2, out + err
    assert message.format(**where) in err
    assert "Serving on" not in out
    if "mysql" in db:
        assert "--db games.sqlite3" in err
        assert "--db postgresql://" in err
