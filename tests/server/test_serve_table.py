"""``tricktaker serve --table GAME``: the server makes a table with bots, prints the
command that takes the human seat, and starts the game itself once that seat is taken.

docs/protocol.md, HTTP API: a table is created with ``POST /tables``, people join with
the invite code, and the host starts the game with the host token.
"""

from __future__ import annotations

import queue
import re
import subprocess
import threading
import time
from pathlib import Path

from tests.server.helpers import tricktaker
from tests.server_process import free_port

JOIN = re.compile(r"tricktaker join (http://\S+/tables/\S+\?invite=\S+) --seat (\d+)")


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


def test_serve_makes_a_table_and_starts_it_when_the_human_seat_is_taken(tmp_path: Path) -> None:
    """The printed join command takes the seat; the server starts the game by itself and
    the game is played to its end."""
    port = free_port()
    server = tricktaker(
        [
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp_path / 'server.sqlite3'}",
            "--table",
            "blackout",
            "--players",
            "3",
            "--seats",
            "human,random,random",
        ],
        tmp_path / "server-seats.json",
    )
    try:
        lines, seen = lines_of(server), list[str]()
        found = JOIN.search(wait_for(lines, "tricktaker join", seen))
        assert found is not None
        link, seat = found.group(1), found.group(2)
        assert link.startswith(f"http://127.0.0.1:{port}/tables/")
        assert seat == "0"
        bot = tricktaker(["bot", link, "--bots", "random"], tmp_path / "bot-seats.json")
        out, err = bot.communicate(timeout=120)
        assert bot.returncode == 0, err
        assert "Joined seat 0" in out
        assert "Game over:" in out
        wait_for(lines, "All seats taken: the game has started", seen, limit=5)
    finally:
        stop(server)


def test_serve_refuses_bad_seats_before_serving(tmp_path: Path) -> None:
    """An unknown bot in --seats is the server's clear message and exit status 2."""
    port = free_port()
    server = tricktaker(
        [
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp_path / 'server.sqlite3'}",
            "--table",
            "blackout",
            "--seats",
            "human,nobot,easy",
        ],
        tmp_path / "seats.json",
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
