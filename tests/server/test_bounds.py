"""Bounded everything (docs/deploy.md, Limits): table ids asked for leave nothing behind,
idle tables leave memory and come back from the database the same, a client that stops
reading is cut off without slowing its table, and one address holds only so many
sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.frames import Close, Frame, Opcode
from websockets.protocol import State
from websockets.sync.client import connect
from websockets.uri import parse_uri

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table, start
from tests.server_process import ServerProcess, free_port
from tricktaker.server.app import create_app
from tricktaker.server.errors import TableNotFoundError
from tricktaker.server.limits import AddressSockets, ServerLimits
from tricktaker.server.tables.service import TableService
from tricktaker.server.tables.ws import slow_reader_reason

SHORT = """extends = "blackout"
id = "short_blackout"
name = "Blackout, hands of one and two cards"

[schedule]
sizes = "1..2"
"""
"""A game soon over: two short hands."""


@pytest.mark.slow
def test_unknown_table_ids_leave_nothing_behind(tmp_path: Path) -> None:
    """10,000 random unknown ids asked for at once (and some over HTTP), and a known
    table asked for by many at once: no per-id lock or table stays in memory (the
    database plays no part: SQLite only)."""
    app = create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}", http_rate=None)
    with TestClient(app) as client:
        service: TableService = app.state.service
        created = client.post("/tables", json={"game": "blackout", "seats": ["random"] * 3})
        known = created.json()["table"]["id"]
        for _ in range(50):
            assert client.get(f"/tables/{secrets.token_urlsafe(8)}").status_code == 404
        peak = 0

        async def ask(table_id: str) -> None:
            nonlocal peak
            peak = max(peak, service.held()[1])
            with contextlib.suppress(TableNotFoundError):  # an unknown id
                await service.live(table_id)

        async def ask_all() -> None:
            ids = [secrets.token_urlsafe(8) for _ in range(10_000)]
            for start_at in range(0, len(ids), 1000):
                await asyncio.gather(*(ask(i) for i in ids[start_at : start_at + 1000]))
            service.evict_idle()
            await asyncio.gather(*(ask(known) for _ in range(100)))

        assert client.portal is not None
        client.portal.call(ask_all)
        assert peak > 100  # the ids were asked for together
        assert service.held() == (1, 0)  # the known table only, no lock left
        assert not any(service.holds(i) for i in ("", "x" * 20))


@pytest.fixture
def short_lived(db_url: str) -> Iterator[tuple[LiveServer, TableService]]:
    """A real server on a free port whose idle tables leave memory after 0.2 s."""
    app = create_app(db_url, bounds=ServerLimits(idle_seconds=0.2))
    server = LiveServer(app)
    server.start()
    try:
        yield server, app.state.service
    finally:
        server.stop()


def _left_memory(service: TableService, table_id: str, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while service.holds(table_id):
        assert time.monotonic() < deadline, "the idle table stayed in memory"
        time.sleep(0.05)


def _play_to_the_end(player: Player, rng: random.Random, tag: str) -> dict[str, Any]:
    """Play random legal actions until the game is over; the last view."""
    turn = 0
    while True:
        view = player.view
        assert view is not None
        if view["phase"] == "game_over":
            return view
        if player.my_turn() and view["legal_actions"]:
            turn += 1
            action = player.random_action(rng)
            answer = player.act(action, f"{tag}-{turn}")
            while answer.get("code") == "rate_limited":  # faster than a person: wait
                time.sleep(0.1)
                answer = player.act(action, f"{tag}-{turn}")
            assert answer["type"] != "error", answer
        else:
            player.receive()


def test_an_idle_table_leaves_memory_and_comes_back_the_same(
    short_lived: tuple[LiveServer, TableService],
) -> None:
    """A waiting table and a finished one, evicted after the idle time, give the same
    welcome when joined again; the evicted finished table plays a rematch."""
    served, service = short_lived
    rng = random.Random(5)
    with httpx.Client(base_url=served.url) as http:
        table = make_table(http, ruleset_toml=SHORT, seats=["human", "random"], host_seat=0)
        first = Player(served.ws_url, table.id, table.tokens[0])
        waiting = first.messages[-1]
        first.close()
        _left_memory(service, table.id)
        again = Player(served.ws_url, table.id, table.tokens[0])
        assert again.messages[-1] == waiting
        start(http, table)
        again.until("welcome")
        _play_to_the_end(again, rng, "a")
        while not any(  # the table's status, told after its last event
            m["type"] == "table" and m["table"]["status"] == "finished" for m in again.messages
        ):
            again.receive()
        cached = Player(served.ws_url, table.id, table.tokens[0])  # from memory
        finished = cached.messages[-1]
        assert finished["table"]["status"] == "finished"
        cached.close()
        again.close()
        _left_memory(service, table.id)
        back = Player(served.ws_url, table.id, table.tokens[0])
        assert back.messages[-1] == finished
        assert http.get(f"/tables/{table.id}/record").status_code == 200
        back.close()
        _left_memory(service, table.id)
        rematch = http.post(f"/tables/{table.id}/rematch", headers=table.host())
        assert rematch.status_code == 204, rematch.text
        player = Player(served.ws_url, table.id, table.tokens[0])
        assert player.messages[-1]["table"]["game_number"] == 2
        assert _play_to_the_end(player, rng, "b")["phase"] == "game_over"
        player.close()


def test_address_sockets_forget_an_address_with_no_socket() -> None:
    """The count of an address goes with its last socket: the map stays as small as
    the sockets open."""
    sockets = AddressSockets(2)
    assert sockets.enter("a")
    assert sockets.enter("a")
    assert not sockets.enter("a")
    sockets.leave("a")
    assert sockets.enter("a")
    sockets.leave("a")
    sockets.leave("a")
    assert sockets.open == {}


@pytest.fixture
def limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    """A real ``tricktaker serve`` on SQLite with its rate limits, a backlog of 5
    messages for a socket that does not read and 3 sockets per address."""
    monkeypatch.setenv("TRICKTAKER_SEND_BACKLOG", "5")
    monkeypatch.setenv("TRICKTAKER_SOCKETS_PER_ADDRESS", "3")
    process = ServerProcess(
        f"sqlite:///{tmp_path / 'server.sqlite3'}",
        free_port(),
        tmp_path / "server.log",
        rate_limits=True,
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


class _SlowSpectator:
    """A spectator on a raw TCP socket with a small receive buffer (the protocol
    spoken by websockets' sans-I/O client): it says hello, reads its welcome, and then
    reads nothing until asked to read to the end."""

    def __init__(self, ws_url: str, table_id: str) -> None:
        self.raw = socket.socket()
        self.raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        host, port = ws_url.removeprefix("ws://").split(":")
        self.raw.connect((host, int(port)))
        self.raw.settimeout(30)
        self.protocol = ClientProtocol(parse_uri(f"{ws_url}/tables/{table_id}/ws"))
        self.protocol.send_request(self.protocol.connect())
        self._flush()
        self.texts: list[str] = []
        while self.protocol.handshake_exc is None and not self._opened():
            self._read()
        self.protocol.send_text(b'{"type": "hello", "v": 1}')
        self._flush()
        while not any('"welcome"' in text for text in self.texts):
            self._read()

    def _opened(self) -> bool:
        return self.protocol.state is State.OPEN

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self.raw.sendall(data)

    def _read(self) -> bool:
        data = self.raw.recv(65536)
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
        for event in self.protocol.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.texts.append(bytes(event.data).decode())
        self._flush()
        return bool(data)

    def read_to_the_end(self) -> Close | None:
        """Read until the server closes the connection: its close frame, if it sent
        one."""
        while self._read():
            pass
        self.raw.close()
        return self.protocol.close_rcvd


SENT_PAST_THE_BUFFERS = 6_000_000
"""Bytes of messages sent to a table's sockets after which one that stopped reading is
surely past its backlog: the kernel holds up to 4 MiB unsent for a socket on the
loopback (``net.ipv4.tcp_wmem``'s default maximum), the server's transport 64 KiB."""


@pytest.mark.slow
def test_a_reader_that_stops_is_cut_off_and_the_table_plays_on(limited: ServerProcess) -> None:
    """docs/deploy.md, Limits: a spectator that stops reading is cut off once 5
    messages wait for it (1008, the reason says why), while the seated person plays on
    with the bots, every action answered, game after game."""
    rng = random.Random(3)
    with httpx.Client(base_url=limited.url) as http:
        table = make_table(http, game="bluke", seats=["human", "easy", "easy", "easy"], seed=8)
        slow = _SlowSpectator(limited.ws_url, table.id)
        welcomed = len(slow.texts)
        player = Player(limited.ws_url, table.id, table.tokens[0])
        start(http, table)
        player.until("welcome")
        began = time.monotonic()
        for game in range(8):
            _play_to_the_end(player, rng, f"g{game}")
            if sum(len(json.dumps(m)) for m in player.messages) > SENT_PAST_THE_BUFFERS:
                break
            rematch = http.post(f"/tables/{table.id}/rematch", headers=table.host())
            assert rematch.status_code == 204, rematch.text
            player.until("welcome")
        played = time.monotonic() - began
        player.close()
    closing = slow.read_to_the_end()
    received = len(slow.texts) - welcomed
    assert closing is not None, "the server dropped the socket without a close frame"
    assert closing.code == 1008
    assert closing.reason == slow_reader_reason(5)
    events = sum(1 for m in player.messages if m["type"] == "event")
    assert received < events, (received, events)
    assert played < 120


def test_one_address_holds_at_most_so_many_sockets(limited: ServerProcess) -> None:
    """docs/deploy.md, Limits: with 3 sockets open from one address the 4th is closed
    at once (1008, the reason says why); once one closes, a new one is served."""
    with httpx.Client(base_url=limited.url) as http:
        table = make_table(http, game="blackout", seats=["random"] * 3)
    held = [Player(limited.ws_url, table.id, None) for _ in range(3)]
    with connect(f"{limited.ws_url}/tables/{table.id}/ws") as refused:
        with contextlib.suppress(ConnectionClosed):  # it may be closed already
            refused.send('{"type": "hello", "v": 1}')
        with pytest.raises(ConnectionClosed) as closed:
            refused.recv(timeout=20)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1008
        assert closed.value.rcvd.reason == "too many sockets from one address (at most 3)"
    held.pop().close()
    deadline = time.monotonic() + 10
    while True:  # the server sees the close a moment later
        try:
            held.append(Player(limited.ws_url, table.id, None))
            break
        except ConnectionClosed:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    for player in held:
        player.close()


@pytest.mark.slow
def test_sockets_are_not_compressed_unless_asked_for(tmp_path: Path) -> None:
    """docs/deploy.md, Limits: "No compression on the sockets, unless the server is
    started with `tricktaker serve --compress-sockets`" (a compressor's memory outlives
    its socket until a whole garbage collection). The client offers permessage-deflate,
    as browsers do; the server declines it by default and accepts it when asked to."""
    negotiated: dict[bool, str | None] = {}
    for compress in (False, True):
        process = ServerProcess(
            f"sqlite:///{tmp_path / f'server-{compress}.sqlite3'}",
            free_port(),
            tmp_path / f"server-{compress}.log",
            options=["--compress-sockets"] if compress else [],
        )
        process.start()
        try:
            with httpx.Client(base_url=process.url, timeout=30) as http:
                table = make_table(http, game="blackout", seats=["human", "easy", "easy"])
            with connect(f"{process.ws_url}/tables/{table.id}/ws") as socket_:
                assert socket_.response is not None
                negotiated[compress] = socket_.response.headers.get("Sec-WebSocket-Extensions")
        finally:
            process.stop()
    assert negotiated[False] is None
    offered = negotiated[True]
    assert offered is not None
    assert "permessage-deflate" in offered
