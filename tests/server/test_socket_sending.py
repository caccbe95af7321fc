"""A socket's sending side (the JSON text of its messages, its queue) and the server's
running of the garbage collector.

docs/protocol.md: every message is one JSON object in a text frame. docs/deploy.md,
Limits: a socket that does not read is cut off once 1000 messages wait for it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import weakref
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from tricktaker.server import create_app
from tricktaker.server.collector import Collector
from tricktaker.server.tables.ws import QUEUE_LIMIT, Connection, encode, slow_reader_reason


def test_encode_writes_the_json_the_standard_library_reads() -> None:
    """Cards with suit symbols, nested views and None come back as they went in."""
    message = {
        "type": "event",
        "seq": 12,
        "view": {"hand": ["AS", "10H"], "present": {"text": "Ann plays A♠."}, "trump": None},
    }
    text = encode(message)
    assert json.loads(text) == message
    assert '"seq":12,"view":{' in text  # compact separators


def test_encode_writes_what_orjson_refuses_as_json_would() -> None:
    """A key that is not text and an integer beyond 64 bits (a house-rules file may hold
    one) are written as ``json.dumps`` writes them, not refused."""
    message = {"options": {1: "one"}, "big": 10**30}
    assert json.loads(encode(message)) == {"options": {"1": "one"}, "big": 10**30}


class _Recorder:
    """The ASGI side of a socket, recording what the server sends; while ``reading`` is
    clear, a send waits (a client that does not read)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []
        self.reading = asyncio.Event()
        self.reading.set()

    async def receive(self) -> dict[str, object]:
        await asyncio.sleep(3600)
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(self, message: dict[str, object]) -> None:
        await self.reading.wait()
        self.sent.append(message)


def _connection() -> tuple[Connection, _Recorder]:
    recorder = _Recorder()
    scope = {"type": "websocket", "path": "/tables/t/ws", "headers": []}
    socket = WebSocket(scope, recorder.receive, recorder.send)  # type: ignore[arg-type]
    socket.client_state = socket.application_state = type(socket.client_state).CONNECTED
    return Connection(socket, rate=None), recorder


def test_messages_are_sent_in_order_and_close_ends_the_socket() -> None:
    """Everything queued before close is sent, in order, then the socket is closed."""

    async def scenario() -> list[dict[str, object]]:
        conn, recorder = _connection()
        conn.push({"type": "ack", "id": "a", "seq": 1})
        assert recorder.sent == []  # sent once the loop's current callbacks are done
        await asyncio.sleep(0)
        assert len(recorder.sent) == 1  # sent: the client reads
        recorder.reading.clear()
        conn.push({"type": "ack", "id": "b", "seq": 2})
        conn.push({"type": "ack", "id": "c", "seq": 3})
        conn.close()
        conn.push({"type": "ack", "id": "d", "seq": 4})  # after close: never sent
        await asyncio.sleep(0.01)
        assert len(recorder.sent) == 1  # "b" waits for the client, "c" behind it
        recorder.reading.set()
        for _ in range(100):
            await asyncio.sleep(0.001)
        return recorder.sent

    sent = asyncio.run(scenario())
    texts = [json.loads(str(m["text"]))["id"] for m in sent if m["type"] == "websocket.send"]
    assert texts == ["a", "b", "c"]
    assert (sent[-1]["type"], sent[-1]["code"]) == ("websocket.close", 1008)


def test_a_send_that_waits_never_delays_the_table() -> None:
    """While one socket's client does not read, pushing to it returns at once and other
    sockets get their messages, all in the same round of the loop; stopping the socket
    ends the waiting send."""

    async def scenario() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
        slow, slow_side = _connection()
        fast, fast_side = _connection()
        slow_side.reading.clear()
        for n in range(10):
            slow.push({"type": "ack", "id": str(n), "seq": n})
            fast.push({"type": "ack", "id": str(n), "seq": n})
        await asyncio.sleep(0)
        assert len(fast_side.sent) == 10
        await asyncio.wait_for(slow.stop(), 5)
        slow.push({"type": "ack", "id": "late", "seq": 11})
        return slow_side.sent, fast_side.sent

    slow_sent, fast_sent = asyncio.run(scenario())
    assert slow_sent == []
    assert len(fast_sent) == 10


def test_a_client_that_does_not_read_is_cut_off_after_the_queue_limit() -> None:
    """docs/deploy.md, Limits: with QUEUE_LIMIT messages waiting, the next one cuts the
    socket off: what waits is dropped at once (the server keeps no more of it) and
    the socket is closed with 1008 and a reason saying why."""

    async def scenario() -> tuple[list[dict[str, object]], int]:
        conn, recorder = _connection()
        recorder.reading.clear()
        for n in range(QUEUE_LIMIT + 5):
            conn.push({"type": "ack", "id": str(n), "seq": n})
        held = len(conn.pending)
        recorder.reading.set()
        for _ in range(200):
            await asyncio.sleep(0.001)
        return recorder.sent, held

    sent, held = asyncio.run(scenario())
    assert held == 0
    assert [m["type"] for m in sent] == ["websocket.close"]
    assert sent[-1]["code"] == 1008
    assert sent[-1]["reason"] == slow_reader_reason(QUEUE_LIMIT)


def test_the_server_runs_the_garbage_collector_itself_while_it_serves(tmp_path: Path) -> None:
    """docs/deploy.md, Limits: while the server serves, the automatic cyclic garbage
    collector is off and the server collects on the heap's growth; it is given back
    when the server stops."""
    assert gc.isenabled()
    app = create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    with TestClient(app) as client:
        assert client.get("/tables").status_code == 200
        assert not gc.isenabled()
        assert gc.get_freeze_count() > 0  # what start-up made is never scanned
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0


def test_the_collector_collects_once_the_heap_has_grown() -> None:
    """Garbage cycles are collected once enough objects were made since the last
    collection, and not before."""

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    async def scenario() -> tuple[int, int, int]:
        collector = Collector(check_seconds=0.01, min_growth=5_000)
        collector.start()
        try:
            marker = weakref.ref(Cycle())  # garbage at once, but only a collection finds it
            await asyncio.sleep(0.05)
            early = collector.runs
            alive_early = marker() is not None
            keep = [[n] for n in range(20_000)]  # the heap grows
            for _ in range(100):
                await asyncio.sleep(0.01)
                if collector.runs > early:
                    break
            assert keep
            return early, int(alive_early), int(marker() is None)
        finally:
            await collector.stop()

    early, alive_early, freed = asyncio.run(scenario())
    assert early == 0
    assert alive_early == 1
    assert freed == 1


def test_the_collector_collects_once_resident_memory_has_grown() -> None:
    """Garbage cycles of few objects but many bytes are collected once the resident
    memory grew past the collector's bound, though their count of objects is far below
    its bound in objects."""

    class Cycle:
        def __init__(self, size: int) -> None:
            self.me = self
            self.payload = b"x" * size  # every byte written: resident

    async def scenario() -> tuple[int, bool]:
        collector = Collector(check_seconds=0.01, min_growth=10**9, min_rss_growth=16 << 20)
        collector.start()
        try:
            if collector.resident_after is None:
                pytest.fail("this test needs /proc/self/statm (Linux)")
            early = collector.runs
            # Past the bound: half of what the process held (a test worker may hold
            # hundreds of MiB already) and 16 MiB, in cycles of 3 objects and 1 MiB each.
            bound = max(16 << 20, collector.resident_after // 2)
            marker = weakref.ref(Cycle(1 << 20))
            for _ in range(bound // (1 << 20) + 32):
                Cycle(1 << 20)
            for _ in range(200):
                await asyncio.sleep(0.01)
                if collector.runs > early:
                    break
            return collector.runs - early, marker() is None
        finally:
            await collector.stop()

    runs, freed = asyncio.run(scenario())
    assert runs >= 1
    assert freed


def test_live_sockets_are_served_ahead_of_the_middleware(tmp_path: Path) -> None:
    """docs/deploy.md, Limits: a table's live-play socket is served without the
    middleware's wrappers around every message it sends; the HTTP API, and a socket on
    any other path, still pass through the middleware."""
    from starlette.types import ASGIApp, Receive, Scope, Send

    seen: list[tuple[str, str]] = []

    class Watch:
        def __init__(self, app: ASGIApp) -> None:
            self.app = app

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            seen.append((scope["type"], scope.get("path", "")))
            await self.app(scope, receive, send)

    app = create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    app.add_middleware(Watch)
    with TestClient(app) as client:
        table = client.post("/tables", json={"game": "bluke", "players": 4}).json()
        table_id = table["table"]["id"]
        with client.websocket_connect(f"/tables/{table_id}/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "v": 1}))
            welcome = json.loads(socket.receive_text())
        assert welcome["type"] == "welcome"
        assert welcome["seat"] is None  # a spectator: no token
        with (
            pytest.raises(WebSocketDisconnect),  # refused by the router, after the middleware
            client.websocket_connect("/tables/x/not-a-socket"),
        ):
            pass
    assert ("http", "/tables") in seen
    assert ("websocket", f"/tables/{table_id}/ws") not in seen
    assert ("websocket", "/tables/x/not-a-socket") in seen
