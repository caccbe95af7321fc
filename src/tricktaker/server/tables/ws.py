"""The live-play socket: ``/tables/{id}/ws``, protocol v1.3 (see ``docs/protocol.md``).

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
from collections.abc import Coroutine
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnected, WebSocketState

from tricktaker.server.deps import TokenBucket
from tricktaker.server.errors import (
    NotAllowedError,
    NotSignedInError,
    RefusedError,
    TableElsewhereError,
    UnavailableError,
)
from tricktaker.server.limits import SEND_BACKLOG, SLOW_READER_CODE
from tricktaker.server.tables import chatting
from tricktaker.server.tables import messages as m
from tricktaker.server.tables.leases import BUSY_CODE
from tricktaker.server.tables.live import Live
from tricktaker.server.tables.service import TableService
from tricktaker.server.tables.views import Json, SharedPart, view_delta

RATE_PER_SECOND = 50.0
"""Messages a connection may send per second, on average (a burst of four times as
many is allowed); :func:`~tricktaker.server.create_app` may change it."""

QUEUE_LIMIT = SEND_BACKLOG
"""Messages queued for one socket, unsent because its client does not read, before it
is cut off as too slow (:data:`~tricktaker.server.limits.SEND_BACKLOG`; the server's
:class:`~tricktaker.server.limits.ServerLimits` may change it)."""


def slow_reader_reason(backlog: int) -> str:
    """The close reason of a socket cut off with ``backlog`` messages unsent."""
    return f"too slow: more than {backlog} messages unsent"


def encode(message: dict[str, Json]) -> str:
    """``message`` as compact JSON text, by orjson (the standard library's encoder took a
    fifth of the server's time under load, ``bench/server_load.py``). What orjson refuses
    and ``json`` writes (a key that is not text, an integer beyond 64 bits, say from a
    house-rules file) is written by ``json``."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


FLUSH_AT = 32
"""Sockets with messages due after which they are all sent at once, without waiting for
the end of the loop's round (under load a round tells many tables' events: sending
them in groups keeps the first ones from waiting for the last)."""


class _Outbox:
    """The sockets with messages queued in this round of the event loop, in order: sent
    by one callback at the end of the round, or at once when :data:`FLUSH_AT` wait."""

    def __init__(self) -> None:
        self.due: list[Connection] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop whose end-of-round send is scheduled (None: none is)."""

    def add(self, conn: Connection) -> None:
        self.due.append(conn)
        if len(self.due) >= FLUSH_AT:
            self.flush()
            return
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # none scheduled in this loop (or one of a loop gone)
            self.loop = loop
            loop.call_soon(self._end_of_round)

    def _end_of_round(self) -> None:
        self.loop = None
        self.flush()

    def flush(self) -> None:
        due, self.due = self.due, []
        for conn in due:
            conn._flush()


_OUTBOX = _Outbox()


class Connection:
    """One socket's sending side (a :class:`~tricktaker.server.tables.service.Subscriber`).

    Messages queued while the event loop runs its current callbacks are sent right after
    them, or as soon as :data:`FLUSH_AT` sockets have some, all together (one callback a
    round, no task to wake per message): the writes of many sockets then come
    together, and a client process reading many sockets finds them together (written
    one by one as they were queued, each write cost the server twice as much, most of
    it waking the reader). Each send runs at once and,
    while the client keeps up, finishes without waiting (the message goes to the
    socket's buffer). A send that must wait (the client reads too slowly and the buffer
    is full) is finished by a task, which then sends what was queued meanwhile; the
    table never waits for it. A client that lets more than ``backlog`` messages wait
    is cut off: what waits is dropped and the socket closed (:data:`SLOW_READER_CODE`,
    :func:`slow_reader_reason`), so that a socket holds at most ``backlog`` messages
    of the server's memory, besides the one being written."""

    def __init__(
        self,
        socket: WebSocket,
        rate: float | None = RATE_PER_SECOND,
        backlog: int = QUEUE_LIMIT,
    ) -> None:
        self.socket = socket
        self.backlog = backlog
        self._closer: asyncio.Task[None] | None = None
        """The task closing a socket cut off as too slow (None: none is)."""
        self.seat: int | None = None
        self.pending: deque[dict[str, Json] | None] = deque()
        """Messages waiting for a send that could not finish at once (None: close)."""
        self._sender: asyncio.Task[None] | None = None
        self._soon = False
        """Whether the socket is in the outbox (its queue is sent with the round's)."""
        self.done = False
        """Whether the socket was closed (or found gone): nothing more is sent."""
        self.limit = TokenBucket(rate, 4 * rate, time.monotonic()) if rate is not None else None
        """The socket's rate limit (None: none)."""
        self.deltas = False
        """Whether the client asked for views as changes (protocol 1.1)."""
        self.event_acks = False
        """Whether the client asked for its actions' events to carry their ids in place
        of an ``ack`` (protocol 1.2)."""
        self.last_view: dict[str, Json] | None = None
        """The last view queued for this socket, when it asked for changes."""
        self.close_code, self.close_reason = 1008, ""
        """The close frame's code and reason, once the socket is to close."""
        self.last_shared: dict[str, Json] | None = None
        """The shared part (:class:`~tricktaker.server.tables.views.SharedPart`) that the last
        view holds, if it holds one."""

    def _put(self, message: dict[str, Json] | None) -> None:
        if self.done:
            return
        if message is not None and len(self.pending) >= self.backlog:
            self._cut_off()
            return
        self.pending.append(message)
        if self._sender is None and not self._soon:
            self._soon = True
            _OUTBOX.add(self)

    def push(self, message: dict[str, Json], shared: SharedPart | None = None) -> None:
        """Send ``message`` (or queue it behind a send that waits); a client too slow to
        read is cut off. ``shared``: the shared part of the event's views (its view may
        hold it)."""
        if self.deltas:
            message = self._as_changes(message, shared)
        self._put(message)

    def _cut_off(self) -> None:
        """Drop what waits for a client too slow to read, stop the send that waits on
        it and close the socket (the close frame waits behind the unread data, and
        the server drops the connection if it is not read in time)."""
        self._give_up()
        sender = self._sender
        if sender is not None:
            sender.cancel()
        reason = slow_reader_reason(self.backlog)
        closing = self.socket.close(code=SLOW_READER_CODE, reason=reason)
        self._closer = asyncio.get_running_loop().create_task(_quietly(closing))

    def _as_changes(
        self, message: dict[str, Json], shared: SharedPart | None = None
    ) -> dict[str, Json]:
        """``message`` for a client of views as changes (docs/protocol.md, Views as
        changes): an event's view as its changes from the last view queued here; a
        welcome's view is the new last one; after ``resumed`` the next view goes whole."""
        kind = message.get("type")
        if kind == "event":
            view = message.get("view")
            if shared is not None and self.seat not in shared.seats:
                shared = None  # this view does not hold it (a spectator's, say)
            last, self.last_view = self.last_view, view
            last_shared = self.last_shared
            self.last_shared = shared.part if shared is not None else None
            if last is None or view is None:
                return message
            changes = view_delta(last, view, shared, last_shared)
            if changes is None:
                return message
            delta: dict[str, Json] = {
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
            if "id" in message:
                delta["id"] = message["id"]
            return delta
        if kind == "welcome":
            self.last_view = message.get("view")
            self.last_shared = None
        elif kind == "resumed":
            self.last_view = None
            self.last_shared = None
        return message

    def close(self, code: int = 1008, reason: str = "") -> None:
        """Close the socket once the queued messages are sent (``code``, ``reason``:
        the close frame's)."""
        self.close_code, self.close_reason = code, reason
        self._put(None)

    def allow(self) -> bool:
        """Take one message from the connection's rate budget."""
        limit = self.limit
        return limit is None or limit.take(time.monotonic())

    def _send(self, message: dict[str, Json] | None) -> Coroutine[Any, Any, None]:
        if message is None:
            self.done = True
            return self.socket.close(code=self.close_code, reason=self.close_reason)
        return self.socket.send_text(encode(message))

    def _flush(self) -> None:
        """Send the queued messages now, as long as each send finishes without waiting;
        the first that must wait is handed to a task, with the rest behind it."""
        self._soon = False
        if self._sender is not None:
            return
        pending = self.pending
        while pending and not self.done:
            sending = self._send(pending.popleft())
            try:
                waiting = sending.send(None)
            except StopIteration:
                continue
            except Exception:  # the client is gone: its reading side ends the socket
                self._give_up()
                return
            self._sender = asyncio.get_running_loop().create_task(self._finish(sending, waiting))
            return

    async def _finish(self, sending: Coroutine[Any, Any, None], waiting: object) -> None:
        """Finish a send that had to wait, then send what was queued meanwhile."""
        try:
            await _resume(sending, waiting)
            while self.pending and not self.done:
                await self._send(self.pending.popleft())
        except asyncio.CancelledError:
            sending.close()
            raise
        except Exception:  # the client is gone: its reading side ends the socket
            self._give_up()
        finally:
            self._sender = None

    def _give_up(self) -> None:
        self.done = True
        self.pending.clear()

    async def stop(self) -> None:
        """Stop a send that waits (the socket is over)."""
        self._give_up()
        for task in (self._sender, self._closer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


async def _quietly(closing: Coroutine[Any, Any, None]) -> None:
    """Close a socket, whatever its state (the client may be gone already)."""
    with contextlib.suppress(Exception):
        await closing


async def _resume(coroutine: Coroutine[Any, Any, None], waiting: object) -> None:
    """Run ``coroutine`` to its end, which was started by hand and is now waiting on
    ``waiting`` (what it yielded: an asyncio future, or None to let others run once).
    What a task would do with it, so a send can start at once and go on in a task only
    when it must wait."""
    while True:
        if waiting is None:
            await asyncio.sleep(0)
        else:
            # What a task does with a future its coroutine yields: take the "a task waits
            # on me" mark off, then wait on it (its outcome reaches the coroutine below).
            waiting._asyncio_future_blocking = False  # type: ignore[attr-defined]
            with contextlib.suppress(Exception):
                await waiting  # type: ignore[misc]
        try:
            waiting = coroutine.send(None)
        except StopIteration:
            return


_WITH_ID = (m.ActionMessage, m.UndoMessage, m.HintMessage)
"""The client messages with an ``id``, which an error answering them carries."""


def _error(
    code: str,
    message: str,
    *,
    id: str | None = None,
    rule: str | None = None,
    field: str | None = None,
) -> dict[str, Any]:
    return m.Error(id=id, code=code, message=message, rule=rule, field=field).model_dump()


BINARY_FRAME = (
    "A binary frame is no message of this protocol: send each message as one JSON"
    " object in a text frame."
)
"""The ``bad_message`` error's text for a binary frame."""


async def _receive(socket: WebSocket) -> str | None:
    """The text of the client's next message; None for a binary frame (no message of
    the protocol: it is refused, and the socket stays open). Raises
    :class:`~fastapi.WebSocketDisconnect` once the client is gone, and
    ``WebSocketDisconnected`` once the server closed the socket (as Starlette's
    ``receive_text`` does, which fails on a binary frame)."""
    if socket.application_state != WebSocketState.CONNECTED:
        raise WebSocketDisconnected("The socket is closed.")
    received = await socket.receive()
    if received["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(received.get("code", 1000), received.get("reason"))
    text = received.get("text")
    return text if isinstance(text, str) else None


def _too_long_to_keep(text: str | None) -> bool:
    """Whether a message is over :data:`~tricktaker.server.tables.messages.MAX_SOCKET_MESSAGE_BYTES`
    (its socket is then closed)."""
    return (
        text is not None
        and len(text) > m.MAX_SOCKET_MESSAGE_BYTES // 4
        and len(text.encode("utf-8")) > m.MAX_SOCKET_MESSAGE_BYTES
    )


async def _close_too_large(conn: Connection, socket: WebSocket) -> None:
    """Answer a message over :data:`~tricktaker.server.tables.messages.MAX_SOCKET_MESSAGE_BYTES`
    with ``too_large`` and close the socket with code 1009 (message too big); what was
    queued for it is dropped."""
    await conn.stop()
    limit = m.MAX_SOCKET_MESSAGE_BYTES
    error = _error(
        "too_large", f"A message may be at most {limit} bytes: this socket is now closed."
    )
    with contextlib.suppress(Exception):  # the client may be gone already
        await socket.send_text(encode(error))
        await socket.close(code=1009, reason=f"message over {limit} bytes")


def _field(problem: Any) -> str | None:
    """The field of a client message that a validation ``problem`` is about (None: the
    message as a whole). Its location starts with the message's ``type`` (the tagged
    union's branch), which is left out; a missing or unknown tag is the ``type``'s."""
    if problem["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return "type"
    where = [str(part) for part in problem["loc"][1:]]
    return ".".join(where) or None


def _read(
    text: str | None,
) -> (
    m.Hello
    | m.ActionMessage
    | m.UndoMessage
    | m.HintMessage
    | m.ChatMessage
    | m.Ping
    | dict[str, Any]
):
    """The client's message (``text``; None: a binary frame), or the ``error`` that
    answers it: ``too_large``, or ``bad_message`` with the ``field`` at fault, if one."""
    if text is None:
        return _error("bad_message", BINARY_FRAME)
    if len(text.encode("utf-8")) > m.MAX_MESSAGE_BYTES:
        return _error("too_large", f"A message may be at most {m.MAX_MESSAGE_BYTES} bytes.")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _error("bad_message", f"The message is not JSON: {exc.msg}.")
    except RecursionError:
        return _error("bad_message", "The message is not JSON this server reads: nested too deep.")
    if not isinstance(data, dict):
        return _error("bad_message", "A message is one JSON object, with its type.")
    try:
        return m.CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        problem = exc.errors()[0]
        field = _field(problem)
        words = f"{field}: {problem['msg']}" if field else str(problem["msg"])
        given = data.get("id")  # an action's or undo's id, when it is one, is answered
        the_id = given if isinstance(given, str) and 1 <= len(given) <= 64 else None
        return _error("bad_message", words, field=field, id=the_id)


async def serve_socket(
    service: TableService,
    socket: WebSocket,
    table_id: str,
    *,
    rate: float | None = RATE_PER_SECOND,
    backlog: int = QUEUE_LIMIT,
) -> None:
    """Run one client's socket: hello, then actions, chat and pings until it closes
    (``rate``: messages a second it may send, None for no limit; ``backlog``: messages
    left unsent before a client that does not read is cut off)."""
    await socket.accept()
    conn = Connection(socket, rate, backlog)
    live: Live | None = None
    hinting: set[asyncio.Task[None]] = set()
    """The socket's hints being worked out (stopped when it closes)."""
    try:
        while True:
            text = await _receive(socket)
            if _too_long_to_keep(text):
                await _close_too_large(conn, socket)
                return
            message = _read(text)
            if not conn.allow():
                the_id = message.id if isinstance(message, _WITH_ID) else None
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
                conn.event_acks = message.event_acks
                try:
                    resume = message.last_seq if message.resume else None
                    live = await service.connect(table_id, message.token, conn, resume_from=resume)
                except RefusedError as exc:
                    refused_seat = isinstance(exc, NotSignedInError | NotAllowedError)
                    code = "unauthorized" if refused_seat else "not_found"
                    if isinstance(exc, UnavailableError):
                        code = exc.code
                    conn.push(_error(code, exc.detail))
                    if isinstance(exc, TableElsewhereError):  # reconnect, and ask again
                        conn.close(BUSY_CODE, "another server process holds the table: reconnect")
                continue
            if isinstance(message, m.Ping):
                conn.push(m.Pong(seq=live.data.seq if live else 0).model_dump())
                continue
            if live is None:
                the_id = message.id if isinstance(message, _WITH_ID) else None
                conn.push(
                    _error("unauthorized", "Send hello (with your seat token) first.", id=the_id)
                )
                continue
            forwarded = service.forwarding.forwards(live, conn)
            if isinstance(message, m.ChatMessage):
                try:
                    if forwarded:  # to the process that serves the table
                        refused = await service.forwarding.act(live, conn, "chat", "", message.text)
                    else:
                        refused = await chatting.say(service, live, conn.seat, message.text)
                except UnavailableError as exc:
                    refused = _error(exc.code, exc.detail)
                if refused is not None:
                    conn.push(refused)
                continue
            if conn.seat is None:
                conn.push(_error("not_your_seat", "Spectators cannot act.", id=message.id))
                continue
            if isinstance(message, m.HintMessage):  # worked out while the socket reads on
                task = asyncio.get_running_loop().create_task(
                    _answer_hint(service, live, conn, message.id, forwarded=forwarded)
                )
                hinting.add(task)
                task.add_done_callback(hinting.discard)
                continue
            try:
                answer: dict[str, Json] | None
                if forwarded:  # to the process that serves the table
                    kind, text = ("undo", "") if isinstance(message, m.UndoMessage) else ("act", "")
                    if isinstance(message, m.ActionMessage):
                        text = message.action
                    answer = await service.forwarding.act(live, conn, kind, message.id, text)
                elif isinstance(message, m.UndoMessage):
                    answer = await service.undo(live, conn, message.id)
                else:
                    answer = await service.act(live, conn, message.id, message.action)
                if answer is not None:
                    conn.push(answer)
            except UnavailableError as exc:  # nothing stored: the same id may be sent again
                conn.push(_error(exc.code, exc.detail, id=message.id))
            except RefusedError as exc:
                conn.push(_error("not_playing", exc.detail, id=message.id))
    except (WebSocketDisconnect, WebSocketDisconnected):
        # WebSocketDisconnected: the sending side found the socket gone first (the
        # client left while a message was on its way, or the server closed it), and
        # reading from it is refused; the socket is over all the same.
        pass
    finally:
        for task in list(hinting):
            task.cancel()
        if live is not None:
            service.disconnect(live, conn)
        await conn.stop()


async def _answer_hint(
    service: TableService, live: Live, conn: Connection, the_id: str, *, forwarded: bool
) -> None:
    """Work out a ``hint`` (docs/protocol.md, Hints) and send its answer to ``conn``;
    ``forwarded``: the table's owner, another process, works it out."""
    try:
        if forwarded:
            answer = await service.forwarding.act(live, conn, "hint", the_id)
            if answer is not None:
                conn.push(answer)
            return
        conn.push(await service.hint(live, conn, the_id))
    except UnavailableError as exc:  # the hint asked could not be stored: ask again
        conn.push(_error(exc.code, exc.detail, id=the_id))
    except RefusedError as exc:
        conn.push(_error("not_playing", exc.detail, id=the_id))
    except RuntimeError:  # the bots' threads are shut down: the server is closing
        pass
