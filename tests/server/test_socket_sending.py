"""A socket's sending side (the JSON text of its messages, its queue) and the server's
tuning of the garbage collector.

docs/protocol.md: every message is one JSON object in a text frame. docs/deploy.md,
Limits: a socket that does not read is closed once 1000 messages wait for it.
"""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path

from fastapi.testclient import TestClient
from starlette.websockets import WebSocket

from tricktaker.server import create_app
from tricktaker.server.api import GC_THRESHOLDS
from tricktaker.server.ws import QUEUE_LIMIT, Connection, encode


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
    """The ASGI side of a socket, recording what the server sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []

    async def receive(self) -> dict[str, object]:
        await asyncio.sleep(3600)
        return {"type": "websocket.disconnect", "code": 1000}

    async def send(self, message: dict[str, object]) -> None:
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
        pump = asyncio.get_running_loop().create_task(conn.pump())
        conn.push({"type": "ack", "id": "a", "seq": 1})
        await asyncio.sleep(0)
        conn.push({"type": "ack", "id": "b", "seq": 2})
        conn.push({"type": "ack", "id": "c", "seq": 3})
        conn.close()
        await asyncio.wait_for(pump, 5)
        return recorder.sent

    sent = asyncio.run(scenario())
    texts = [json.loads(str(m["text"]))["id"] for m in sent if m["type"] == "websocket.send"]
    assert texts == ["a", "b", "c"]
    assert (sent[-1]["type"], sent[-1]["code"]) == ("websocket.close", 1008)


def test_a_client_that_does_not_read_is_closed_after_the_queue_limit() -> None:
    """docs/deploy.md, Limits: with QUEUE_LIMIT messages waiting, the next one closes
    the socket instead of being queued."""

    async def scenario() -> list[dict[str, object]]:
        conn, recorder = _connection()
        for n in range(QUEUE_LIMIT + 5):
            conn.push({"type": "ack", "id": str(n), "seq": n})
        await asyncio.wait_for(conn.pump(), 30)
        return recorder.sent

    sent = asyncio.run(scenario())
    assert len(sent) == QUEUE_LIMIT + 1
    assert sent[-1]["type"] == "websocket.close"


def test_the_server_tunes_the_garbage_collector_while_it_serves(tmp_path: Path) -> None:
    """docs/deploy.md, Limits: while the server serves, the cyclic garbage collector runs
    with the server's thresholds; they are given back when it stops."""
    before = gc.get_threshold()
    assert before != GC_THRESHOLDS
    app = create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    with TestClient(app) as client:
        assert client.get("/tables").status_code == 200
        assert gc.get_threshold() == GC_THRESHOLDS
    assert gc.get_threshold() == before
