"""The example bot of docs/protocol.md ("A complete bot") plays a whole game against a
real server, and is what the page says: under 100 lines, Python's standard library and
websockets only."""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import LiveServer
from tricktaker.engine import GameRecord

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "protocol_bot.py"
ALLOWED = {"argparse", "asyncio", "json", "random", "typing", "urllib", "websockets"}


def test_the_example_is_short_and_stands_alone() -> None:
    """docs/protocol.md, A complete bot: under 100 lines, no tricktaker import."""
    text = EXAMPLE.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 100
    imported = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= ALLOWED, imported - ALLOWED


def test_the_page_shows_the_example_whole() -> None:
    """docs/protocol.md, A complete bot: the page holds the file as it is."""
    page = (EXAMPLE.parents[1] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert "## A complete bot" in page
    assert EXAMPLE.read_text(encoding="utf-8").strip() in page


@pytest.mark.parametrize("game", ["blackout", "pluck"])
def test_the_example_bot_plays_a_whole_game(
    live_server: LiveServer, tmp_path: Path, game: str
) -> None:
    """docs/protocol.md, Live play: a client that offers only the server's
    legal_actions plays to the end; the game's record replays to its final scores."""
    http = httpx.Client(base_url=live_server.url, timeout=30)
    players = 3 if game == "pluck" else 7
    seats = ["human"] + ["random"] * (players - 1)
    made = http.post("/tables", json={"game": game, "seats": seats, "seed": 9}).json()
    table = made["table"]["id"]
    link = f"{live_server.url}/tables/{table}?invite={made['invite']}"
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), link, "--name", "Example"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while http.get(f"/tables/{table}").json()["seats"][0]["state"] != "connected":
        assert time.monotonic() < deadline, "the example bot never sat down"
        time.sleep(0.05)
    host = {"Authorization": f"Bearer {made['host_token']}"}
    assert http.post(f"/tables/{table}/start", headers=host).status_code == 204
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "Game over, scores:" in out
    assert "refused" not in out
    state = GameRecord.from_json(http.get(f"/tables/{table}/record").json()).replay()
    assert state.is_terminal()
    assert f"Game over, scores: {state.scores}" in out
