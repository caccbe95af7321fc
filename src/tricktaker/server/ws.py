"""The live-play socket: ``/tables/{id}/ws``, protocol v1.1 (see ``docs/protocol.md``).

The socket layer knows no rules: it reads messages, hands actions to the table service
and sends what the service queues for it. A slow client never delays a table: each
socket has its own queue and sending task.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnected

from tricktaker.server import messages as m
from tricktaker.server.live import Live
from tricktaker.server.problems import ServiceError
from tricktaker.server.service import TableService
from tricktaker.server.views import Json, view_delta

RATE_PER_SECOND = 50.0
"""Messages a connection may send per second, on average (a burst of four times as
many is allowed); :func:`~tricktaker.server.create_app` may change it."""

QUEUE_LIMIT = 1000
"""Messages queued for one socket before it is closed as too slow."""


def encode(message: dict[str, Json]) -> str:
    """``message`` as compact JSON text, by orjson (the standard library's encoder took a
    fifth of the server's time under load, ``bench/server_load.py``). What orjson refuses
    and ``json`` writes (a key that is not text, an integer beyond 64 bits, say from a
    house-rules file) is written by ``json``."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """One socket's sending side (a :class:`~tricktaker.server.service.Subscriber`).

    Messages wait in a plain deque; the sending task sleeps on a future only while the
    deque is empty, and sends everything queued each time it wakes (an ``ack`` and its
    ``event`` go out in one wake-up)."""

    def __init__(self, socket: WebSocket, rate: float | None = RATE_PER_SECOND) -> None:
        self.socket = socket
        self.seat: int | None = None
        self.pending: deque[dict[str, Json] | None] = deque()
        self._wake: asyncio.Future[None] | None = None
        self.rate = rate
        self.burst = 4 * rate if rate is not None else 0.0
        self.tokens = self.burst
        self.stamp = time.monotonic()
        self.deltas = False
        """Whether the client asked for views as changes (protocol 1.1)."""
        self.last_view: dict[str, Json] | None = None
        """The last view queued for this socket, when it asked for changes."""

    def _put(self, message: dict[str, Json] | None) -> None:
        self.pending.append(message)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    def push(self, message: dict[str, Json]) -> None:
        """Queue ``message``; a client too slow to read is cut off."""
        if self.deltas:
            message = self._as_changes(message)
        self._put(None if len(self.pending) >= QUEUE_LIMIT else message)

    def _as_changes(self, message: dict[str, Json]) -> dict[str, Json]:
        """``message`` for a client of views as changes (docs/protocol.md, Views as
        changes): an event's view as its changes from the last view queued here; a
        welcome's view is the new last one; after ``resumed`` the next view goes whole."""
        kind = message.get("type")
        if kind == "event":
            view = message.get("view")
            last, self.last_view = self.last_view, view
            if last is None or view is None:
                return message
            changes = view_delta(last, view)
            if changes is None:
                return message
            return {
                "type": "event",
                "seq": message["seq"],
                "game_number": message["game_number"],
                "actor": message["actor"],
                "chance": message["chance"],
                "action": message["action"],
                "delta": changes[0],
                "removed": changes[1],
                "hand_result": message.get("hand_result"),
            }
        if kind == "welcome":
            self.last_view = message.get("view")
        elif kind == "resumed":
            self.last_view = None
        return message

    def close(self) -> None:
        """Close the socket once the queued messages are sent."""
        self._put(None)

    def allow(self) -> bool:
        """Take one message from the connection's rate budget."""
        if self.rate is None:
            return True
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    async def pump(self) -> None:
        """Send queued messages until told to stop."""
        loop = asyncio.get_running_loop()
        pending = self.pending
        while True:
            if not pending:
                self._wake = loop.create_future()
                await self._wake
                self._wake = None
                continue
            message = pending.popleft()
            if message is None:
                await self.socket.close(code=1008)
                return
            await self.socket.send_text(encode(message))


def _error(
    code: str, message: str, *, id: str | None = None, rule: str | None = None
) -> dict[str, Any]:
    return m.Error(id=id, code=code, message=message, rule=rule).model_dump()


def _read(text: str) -> m.Hello | m.ActionMessage | m.ChatMessage | m.Ping | dict[str, Any]:
    """The client's message, or the error that answers it."""
    if len(text.encode("utf-8")) > m.MAX_MESSAGE_BYTES:
        return _error("too_large", f"A message may be at most {m.MAX_MESSAGE_BYTES} bytes.")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _error("bad_message", f"The message is not JSON: {exc.msg}.")
    try:
        return m.CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(p) for p in problem["loc"])
        return _error("bad_message", f"{where}: {problem['msg']}" if where else problem["msg"])


async def serve_socket(
    service: TableService,
    socket: WebSocket,
    table_id: str,
    *,
    rate: float | None = RATE_PER_SECOND,
) -> None:
    """Run one client's socket: hello, then actions, chat and pings until it closes
    (``rate``: messages a second it may send, None for no limit)."""
    await socket.accept()
    conn = Connection(socket, rate)
    pump = asyncio.get_running_loop().create_task(conn.pump())
    live: Live | None = None
    try:
        while True:
            text = await socket.receive_text()
            message = _read(text)
            if not conn.allow():
                the_id = message.id if isinstance(message, m.ActionMessage) else None
                conn.push(_error("rate_limited", "Too many messages: slow down.", id=the_id))
                continue
            if isinstance(message, dict):
                conn.push(message)
                continue
            if isinstance(message, m.Hello):
                if live is not None:
                    conn.push(_error("bad_message", "hello was already sent on this socket."))
                    continue
                if message.v != m.PROTOCOL_VERSION:
                    conn.push(
                        _error("bad_message", f"This server speaks protocol v{m.PROTOCOL_VERSION}.")
                    )
                    continue
                conn.deltas = message.deltas
                try:
                    resume = message.last_seq if message.resume else None
                    live = await service.connect(table_id, message.token, conn, resume_from=resume)
                except ServiceError as exc:
                    code = "unauthorized" if exc.status in (401, 403) else "not_found"
                    conn.push(_error(code, exc.detail))
                continue
            if isinstance(message, m.Ping):
                conn.push(m.Pong(seq=live.data.seq if live else 0).model_dump())
                continue
            if live is None:
                the_id = message.id if isinstance(message, m.ActionMessage) else None
                conn.push(
                    _error("unauthorized", "Send hello (with your seat token) first.", id=the_id)
                )
                continue
            if isinstance(message, m.ChatMessage):
                refused = await service.chat(live, conn.seat, message.text)
                if refused is not None:
                    conn.push(refused)
                continue
            if conn.seat is None:
                conn.push(_error("not_your_seat", "Spectators cannot act.", id=message.id))
                continue
            try:
                conn.push(await service.act(live, conn, message.id, message.action))
            except ServiceError as exc:
                conn.push(_error("not_playing", exc.detail, id=message.id))
    except (WebSocketDisconnect, WebSocketDisconnected):
        # WebSocketDisconnected: the sending side found the socket gone first (the
        # client left while a message was on its way, or the server closed it), and
        # reading from it is refused; the socket is over all the same.
        pass
    finally:
        if live is not None:
            service.disconnect(live, conn)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump
