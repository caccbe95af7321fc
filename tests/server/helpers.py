"""Helpers of the server tests: a table made through the API, a WebSocket player, and
the ``tricktaker`` command in a subprocess."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from tricktaker.server.tables.views import apply_delta


@dataclass
class Table:
    """A table created through the API: its id, host token, invite and seat tokens."""

    id: str
    host_token: str
    invite: str
    tokens: dict[int, str] = field(default_factory=dict)

    def host(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.host_token}"}


def start(http: httpx.Client, table: Table) -> None:
    """The host starts the table's game."""
    answer = http.post(f"/tables/{table.id}/start", headers=table.host())
    assert answer.status_code == 204, answer.text


def start_and_welcome(http: httpx.Client, table: Table, players: Iterable[Player]) -> None:
    """The host starts the game; each of ``players`` then reads up to its welcome."""
    start(http, table)
    for player in players:
        player.until("welcome")


def make_table(http: httpx.Client, **body: Any) -> Table:
    """Create a table; the host takes seat ``host_seat`` if given; every other free
    human seat is joined by a person named after it."""
    answer = http.post("/tables", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    table = Table(data["table"]["id"], data["host_token"], data["invite"])
    if data["seat_token"] is not None:
        table.tokens[data["seat"]] = data["seat_token"]
    for seat in data["table"]["seats"]:
        if seat["kind"] == "human" and seat["seat"] not in table.tokens:
            joined = http.post(
                f"/tables/{table.id}/join",
                json={"invite": table.invite, "name": f"P{seat['seat']}"},
            )
            assert joined.status_code == 200, joined.text
            table.tokens[joined.json()["seat"]] = joined.json()["seat_token"]
    return table


class Player:
    """One WebSocket client: sends hello, keeps the latest view and every message."""

    def __init__(
        self,
        ws_url: str,
        table_id: str,
        token: str | None,
        last_seq: int | None = None,
        *,
        hello: bool = True,
        resume: bool = False,
        deltas: bool = False,
        event_acks: bool = False,
    ) -> None:
        opening = connect(f"{ws_url}/tables/{table_id}/ws", max_size=2**24)
        self.socket: ClientConnection = opening.__enter__()
        self.messages: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.views: dict[int, dict[str, Any]] = {}
        """Protocol 1.1: the view after each event, by seq, as the client holds it."""
        self.seq = 0
        self.seat: int | None = None
        hello_message = {"type": "hello", "v": 1, "token": token, "last_seq": last_seq}
        if deltas:  # protocol 1.1: views as changes
            hello_message["deltas"] = True
        if event_acks:  # protocol 1.2: an action answered by its event
            hello_message["event_acks"] = True
        if resume:  # the first answer may be ``resumed``: the caller reads it
            self.send({**hello_message, "resume": True})
        elif hello:
            self.send(hello_message)
            self.seat = self.until("welcome")["seat"]

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def receive(self, timeout: float = 20.0) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "welcome" or message["type"] == "event":
            if "delta" in message:  # protocol 1.1: the changes from the view held
                assert self.view is not None, message
                self.view = apply_delta(self.view, message["delta"], message["removed"])
            else:
                self.view = message["view"]
            self.seq = message["seq"]
            if message["type"] == "event" and self.view is not None:
                self.views[self.seq] = self.view
        return message

    def until(self, kind: str, timeout: float = 20.0) -> dict[str, Any]:
        """Read messages until one of type ``kind``; it is returned."""
        while True:
            message = self.receive(timeout)
            if message["type"] == kind:
                return message

    def my_turn(self) -> bool:
        return self.view is not None and self.seat in self.view["to_act"]

    def act(self, action: str, action_id: str) -> dict[str, Any]:
        """Send an action and read until its answer: ack or error, or (protocol 1.2)
        the event that carries its id."""
        self.send({"type": "action", "id": action_id, "action": action})
        while True:
            message = self.receive()
            if message["type"] in ("ack", "error", "event") and message.get("id") == action_id:
                return message

    def random_action(self, rng: random.Random) -> str:
        assert self.view is not None
        return str(rng.choice(self.view["legal_actions"]))

    def close(self) -> None:
        self.socket.close()


def tricktaker(args: list[str], seats_file: Path) -> subprocess.Popen[str]:
    """``python -m tricktaker ARGS`` in a subprocess, seat tokens kept in ``seats_file``."""
    env = dict(os.environ, TRICKTAKER_SEATS=str(seats_file), COLUMNS="100")
    return subprocess.Popen(
        [sys.executable, "-m", "tricktaker", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def replay_saved(record: object, path: Path) -> str:
    """Write ``record`` (a game record's JSON) to ``path`` and replay it with
    ``python -m tricktaker replay``, which must succeed; its output."""
    path.write_text(json.dumps(record), encoding="utf-8")
    replayed = subprocess.run(
        [sys.executable, "-m", "tricktaker", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replayed.returncode == 0, replayed.stderr
    return replayed.stdout


def wait_for_seats(
    http: httpx.Client, table: str, seats: Iterable[int], state: str, limit: float = 30.0
) -> None:
    """Wait (``GET /tables/{table}``) until each of ``seats`` is in ``state``."""
    wanted = list(seats)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        info = http.get(f"/tables/{table}").json()
        if all(info["seats"][s]["state"] == state for s in wanted):
            return
        time.sleep(0.05)
    raise AssertionError(f"seats {wanted} never became {state}: {info['seats']}")
