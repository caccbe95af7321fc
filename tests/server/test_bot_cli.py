"""``tricktaker bot URL --bots BOT`` against a real server: it takes a free seat with the
invite link and plays until the game ends.

docs/protocol.md, HTTP API: joining with the invite code gives a seat token; Live play:
the bot's seat receives its own view and acts through ``action`` messages.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.conftest import LiveServer
from tests.server.helpers import tricktaker, wait_for_seats
from tests.server_process import free_port
from tricktaker.engine import GameRecord


def test_bot_command_fills_a_seat_and_the_game_ends(
    live_server: LiveServer, http: httpx.Client, tmp_path: Path
) -> None:
    """docs/protocol.md, HTTP API: a free seat is taken with the invite; the game is
    played to its end and its record replays."""
    made = http.post(
        "/tables",
        json={"game": "blackout", "seats": ["random", "human", "random", "random"], "seed": 3},
    ).json()
    table, invite = made["table"]["id"], made["invite"]
    link = f"{live_server.url}/tables/{table}?invite={invite}"
    process = tricktaker(["bot", link, "--bots", "easy", "--name", "Robo"], tmp_path / "s.json")
    wait_for_seats(http, table, [1], "connected")
    assert http.get(f"/tables/{table}").json()["seats"][1]["name"] == "Robo"
    started = http.post(
        f"/tables/{table}/start", headers={"Authorization": f"Bearer {made['host_token']}"}
    )
    assert started.status_code == 204, started.text
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "Joined seat 2" in out  # the second seat: people count seats from 1
    assert "Game over:" in out
    record = http.get(f"/tables/{table}/record")
    assert record.status_code == 200, record.text
    state = GameRecord.from_json(record.json()).replay()
    assert state.is_terminal()
    assert any(event[0] == 1 for event in state.events if event[0] != "chance")


HOUSE_RULES = """extends = "blackout"
id = "short_hook_blackout"
name = "Short Blackout with the hook"

[schedule]
sizes = "1..3"

[bidding]
hook = true
"""


def test_bot_command_plays_a_house_rules_table(
    live_server: LiveServer, http: httpx.Client, tmp_path: Path
) -> None:
    """docs/protocol.md, HTTP API: a table publishes its rules as data (house rules
    included), so a client plays a table made from a house-rules file."""
    made = http.post(
        "/tables",
        json={"ruleset_toml": HOUSE_RULES, "seats": ["random", "human", "random"], "seed": 5},
    ).json()
    table, invite = made["table"]["id"], made["invite"]
    assert made["table"]["ruleset"]["schedule"]["sizes"] == "1..3"
    link = f"{live_server.url}/tables/{table}?invite={invite}"
    process = tricktaker(["bot", link, "--bots", "easy"], tmp_path / "s.json")
    wait_for_seats(http, table, [1], "connected")
    started = http.post(
        f"/tables/{table}/start", headers={"Authorization": f"Bearer {made['host_token']}"}
    )
    assert started.status_code == 204, started.text
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "Game over:" in out
    state = GameRecord.from_json(http.get(f"/tables/{table}/record").json()).replay()
    assert state.is_terminal()
    assert [hand.hand_size for hand in state.history] == [1, 2, 3]


def test_bot_command_refuses_a_bad_bot_and_a_bad_link(tmp_path: Path) -> None:
    """The command line names what is wrong before it connects."""
    bad_bot = tricktaker(
        ["bot", "http://127.0.0.1:9/tables/x?invite=y", "--bots", "genius"], tmp_path / "s.json"
    )
    _, err = bad_bot.communicate(timeout=60)
    assert bad_bot.returncode == 2
    assert "genius" in err
    bad_link = tricktaker(
        ["bot", "http://127.0.0.1:9/nothing", "--bots", "easy"], tmp_path / "s.json"
    )
    _, err = bad_link.communicate(timeout=60)
    assert bad_link.returncode == 2
    assert "names no table" in err


def serve(port: int, db: str) -> subprocess.Popen[str]:
    """``tricktaker serve`` in a subprocess, once it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tricktaker", "serve", "--port", str(port), "--db", db],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/tables", timeout=1)
            return process
        except httpx.TransportError:
            assert process.poll() is None, process.communicate()[1]
            time.sleep(0.1)
    raise AssertionError("the server did not start")


def test_the_bot_reconnects_after_the_server_is_killed_and_finishes(tmp_path: Path) -> None:
    """docs/protocol.md, Live play: a client that reconnects with its last seq gets a
    fresh snapshot and carries on; the game survives the server's crash (SIGKILL)."""

    port, db = free_port(), f"sqlite:///{tmp_path / 'server.sqlite3'}"
    server = serve(port, db)
    try:
        http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        made = http.post(
            "/tables", json={"game": "blackout", "seats": ["human"] + ["random"] * 3, "seed": 5}
        ).json()
        table = made["table"]["id"]
        link = f"http://127.0.0.1:{port}/tables/{table}?invite={made['invite']}"
        slow = "ismcts:iterations=100000:time_budget=0.03"
        process = tricktaker(["bot", link, "--bots", slow], tmp_path / "s.json")
        wait_for_seats(http, table, [0], "connected")
        host = {"Authorization": f"Bearer {made['host_token']}"}
        assert http.post(f"/tables/{table}/start", headers=host).status_code == 204
        assert process.stdout is not None
        while "Hand 2:" not in process.stdout.readline():
            assert process.poll() is None, process.communicate()
        server.kill()
        server.wait()
        server = serve(port, db)
        out, err = process.communicate(timeout=240)
        assert process.returncode == 0, err
        assert "reconnecting" in err
        assert "Game over:" in out
        record = http.get(f"/tables/{table}/record")
        assert GameRecord.from_json(record.json()).replay().is_terminal()
    finally:
        server.kill()
        server.wait()
