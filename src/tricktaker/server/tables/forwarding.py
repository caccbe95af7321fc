"""A person's socket on a server process that does not hold its table (docs/deploy.md,
Several processes): its actions are forwarded to the table's owner.

Without a proxy that routes by table id, two devices of one seat may reach two
processes. Rather than take the table from its owner (which would take it back at the
other device's next message), the process the socket reached (the *forwarder*) keeps a
mirror of the table, as for spectators (:mod:`~tricktaker.server.tables.relay`), and
sends the person's requests to the owner through PostgreSQL: ``NOTIFY
tricktaker_handover, '!<request as JSON>'``, which every process hears and only the
table's lease holder answers. The owner holds a :class:`RemoteSeat` for each such socket,
one of the table's subscribers (so the seat counts as connected there, and its grace
and away bot behave as for a socket of its own), and applies each forwarded action,
undo, chat line or hint exactly as from its own socket (the same action-id idempotence,
the same sequence guard, the same hint budget, and the hint stored there), then answers
on the forwarder's own channel. The forwarder tells
its socket the answer once its mirror has told the events up to the answer's seq (read
back from the database), so an ``ack`` never comes before its event.

A request unanswered within :data:`FORWARD_SECONDS` (the owner died, or let the table
go) or answered ``moved`` (the owner does not know the socket: it took the table over,
or the table moved) closes the socket with
:data:`~tricktaker.server.tables.leases.MOVED_CODE`: its client reconnects and says
hello again, and a table whose lease is free then is taken over where it lands. A
forwarder that dies leaves its remote seats at the owner until the owner finds its
liveness lock free (:meth:`~tricktaker.server.tables.leases.Leases.alive`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tricktaker.server.db import hash_token
from tricktaker.server.errors import BadSeatTokenError, RefusedError, UnavailableError
from tricktaker.server.tables import chatting
from tricktaker.server.tables import messages as m
from tricktaker.server.tables.hints import HINT_SECONDS
from tricktaker.server.tables.leases import MOVED_CODE, PAYLOAD_BYTES
from tricktaker.server.tables.live import Live, Subscriber
from tricktaker.server.tables.views import Json, SharedPart

if TYPE_CHECKING:
    from tricktaker.server.tables.service import TableService

log = logging.getLogger("tricktaker.server")

FORWARD_SECONDS = 3.0
"""How long a forwarder waits for the owner's answer before it closes the socket with
:data:`~tricktaker.server.tables.leases.MOVED_CODE` (its client reconnects)."""

LOOK_SECONDS = 0.25
"""How often a forwarder waiting for an answer looks whether the table's lease is free
(its owner died): it then takes the table at once."""

HINT_FORWARD_SECONDS = FORWARD_SECONDS + 4 * HINT_SECONDS
"""How long a forwarder waits for the owner's answer to a ``hint``, which the owner
works out first (:data:`~tricktaker.server.tables.hints.HINT_SECONDS`, behind the bots'
own thinking)."""

HINT_BYTES = PAYLOAD_BYTES - 100
"""The longest ``hint`` an owner answers to a forwarder: it goes in a notification
(:data:`~tricktaker.server.tables.leases.PAYLOAD_BYTES`), with room for the envelope;
a longer one is refused ``unavailable``, not stored."""

HINT_LATE = (
    "The hint took too long at the server process that holds the table: ask again in a moment."
)
"""The ``unavailable`` error's text for a forwarded hint whose answer did not come within
:data:`HINT_FORWARD_SECONDS` (the socket stays open; an action's silence closes it)."""

TOLD_SECONDS = 5.0
"""How long a forwarder waits for its mirror to tell the events up to an ``ack``'s seq
before it sends the ``ack`` anyway."""


class RemoteSeat:
    """At the owner, a seat's socket connected to another process (a
    :class:`~tricktaker.server.tables.live.Subscriber`): nothing is pushed to it (the
    other process's mirror reads the events from the database); closing it tells that
    process to close its socket."""

    def __init__(
        self, forwarding: Forwarding, origin: str, key: str, seat: int, live: Live
    ) -> None:
        self.forwarding = forwarding
        self.origin = origin
        """The forwarder's answer channel."""
        self.key = key
        """The socket's key at the forwarder."""
        self.seat: int | None = seat
        self.event_acks = False
        self.live = live

    def push(self, message: dict[str, Json], shared: SharedPart | None = None) -> None:
        """Nothing: the forwarder's mirror tells its socket what is stored."""

    def close(self, code: int = 1008, reason: str = "") -> None:
        """Tell the forwarder to close the socket (the table moved, the seat was lost)."""
        self.forwarding.forget_remote(self)
        self.forwarding.answer(self.origin, {"close": self.key, "code": code, "reason": reason})


class Forwarding:
    """Both sides of forwarding for one process: the sockets it forwards for (the
    forwarder's) and the remote seats it holds for others (the owner's)."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._numbers = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        """The forwarder's requests sent and not answered yet, by number."""
        self.sockets: dict[str, tuple[str, Subscriber]] = {}
        """The forwarder's sockets, by key: their table's id and the socket."""
        self._keys: dict[int, str] = {}
        """The forwarder's sockets' keys, by ``id()`` of the socket."""
        self.remotes: dict[tuple[str, str], RemoteSeat] = {}
        """The owner's remote seats, by forwarder's channel and socket key."""
        self.forwarded = 0
        """Requests this process answered for another (a count, for the logs)."""
        self._requests: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ the forwarder's side

    def forwards(self, live: Live, subscriber: Subscriber) -> bool:
        """Whether ``subscriber`` is a seat's socket on a mirror, whose requests go to
        the table's owner."""
        return id(subscriber) in self._keys and self.service.relay.mirrors.get(live.data.id) is live

    async def attach(self, table_id: str, token: str, subscriber: Subscriber) -> int | None:
        """Tell the owner of ``table_id`` that the seat of ``token`` has a socket here:
        the seat, or None if there is no such table or the owner did not answer (the
        caller then takes the table as before). Raises the owner's refusal of the
        token."""
        key = secrets.token_hex(8)
        digest = hash_token(token)
        answer = await self._ask(table_id, {"kind": "attach", "key": key, "hash": digest})
        if answer is None or "seat" not in answer:
            if answer is not None and answer.get("refused"):
                raise BadSeatTokenError()
            return None
        seat = int(answer["seat"])
        self.sockets[key] = (table_id, subscriber)
        self._keys[id(subscriber)] = key
        return seat

    def detach(self, table_id: str, subscriber: Subscriber) -> None:
        """The socket closed: tell the owner (not awaited)."""
        key = self._keys.pop(id(subscriber), None)
        if key is None:
            return
        self.sockets.pop(key, None)
        self.service.leases.forward(table_id, self._request({"kind": "detach", "key": key}))

    async def act(
        self, live: Live, subscriber: Subscriber, kind: str, client_id: str, text: str = ""
    ) -> dict[str, Json] | None:
        """Forward an action (``kind`` "act"), an undo, a chat line or a hint to the
        owner: the answer to tell the socket (None: nothing to tell). An ``ack`` or a
        ``hint`` is told once the mirror has told the events up to its seq."""
        key = self._keys.get(id(subscriber))
        if key is None:
            return None
        request = {"kind": kind, "key": key, "id": client_id, "text": text}
        seconds = HINT_FORWARD_SECONDS if kind == "hint" else FORWARD_SECONDS
        answer = await self._ask(live.data.id, request, seconds)
        if answer is None and kind == "hint" and not self.service.leases.holds(live.data.id):
            # the owner is alive and holds the table, but the hint took too long there
            return m.Error(id=client_id, code="unavailable", message=HINT_LATE).model_dump()
        if answer is None or answer.get("moved"):
            subscriber.close(MOVED_CODE, "the table's server process changed: reconnect")
            return None
        told = answer.get("answer")
        if not isinstance(told, dict):
            return None
        seq = told.get("seq")
        if told.get("type") in ("ack", "hint") and isinstance(seq, int):
            await self._told(live, seq)
        return told

    async def _told(self, live: Live, seq: int) -> None:
        """Wait until the mirror told the events up to ``seq`` (read from the
        database on the owner's notification), at most :data:`TOLD_SECONDS`."""
        deadline = time.monotonic() + TOLD_SECONDS
        self.service.relay.notified(live.data.id)
        while live.data.seq < seq and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    def _request(self, body: dict[str, Any]) -> dict[str, Any]:
        return {**body, "from": self.service.leases.answers_channel}

    async def _ask(
        self, table_id: str, body: dict[str, Any], seconds: float = FORWARD_SECONDS
    ) -> dict[str, Any] | None:
        """Send a request to the table's owner and wait for its answer. None: none came
        within ``seconds``, or the table's lease was found free meanwhile
        (its owner died), and this process took the table (its forwarded sockets on it
        are closed with :data:`~tricktaker.server.tables.leases.MOVED_CODE`)."""
        number = next(self._numbers)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        deadline = time.monotonic() + seconds
        try:
            self.service.leases.forward(table_id, self._request({**body, "n": number}))
            while time.monotonic() < deadline:
                with contextlib.suppress(TimeoutError):
                    return await asyncio.wait_for(asyncio.shield(future), LOOK_SECONDS)
                if await self.service.leases.take(table_id):
                    await self._take(table_id)
                    return None
            return None
        finally:
            future.cancel()
            self._waiting.pop(number, None)

    async def _take(self, table_id: str) -> None:
        """The table's lease was free and is held here now: serve the table (its bots
        go on here)."""
        try:
            await self.service.live(table_id)
        except Exception:
            self.service.leases.release(table_id)
            log.exception("table %s: could not take it over from its owner", table_id)

    def answered(self, answer: dict[str, Any]) -> None:
        """An owner's answer (on this process's answer channel)."""
        closing = answer.get("close")
        if isinstance(closing, str):
            held = self.sockets.pop(closing, None)
            if held is not None:
                self._keys.pop(id(held[1]), None)
                held[1].close(int(answer.get("code", MOVED_CODE)), str(answer.get("reason", "")))
            return
        future = self._waiting.get(answer.get("n", 0))
        if future is not None and not future.done():
            future.set_result(answer)

    def owner_changed(self, table_ids: list[str]) -> None:
        """This process took these tables: its forwarded sockets on them reconnect (and
        are then served here)."""
        wanted = set(table_ids)
        for key, (table_id, subscriber) in list(self.sockets.items()):
            if table_id in wanted:
                self.sockets.pop(key, None)
                self._keys.pop(id(subscriber), None)
                subscriber.close(MOVED_CODE, "the table moved to this server process: reconnect")

    # ------------------------------------------------------------ the owner's side

    def received(self, table_id: str, request: dict[str, Any]) -> None:
        """A request forwarded by another process for a table held here (the event
        loop): handled in a task, in order with the table's lock."""
        task = asyncio.get_running_loop().create_task(self._handle(table_id, request))
        self._requests.add(task)
        task.add_done_callback(self._requests.discard)

    def answer(self, origin: str, body: dict[str, Any]) -> None:
        """Send ``body`` to the forwarder whose answer channel is ``origin``."""
        self.service.leases.answer(origin, body)

    def forget_remote(self, remote: RemoteSeat) -> None:
        """Forget a remote seat (its socket closed, or is closed now)."""
        if self.remotes.get((remote.origin, remote.key)) is remote:
            del self.remotes[(remote.origin, remote.key)]

    async def _handle(self, table_id: str, request: dict[str, Any]) -> None:
        origin, key, kind = request.get("from"), request.get("key"), request.get("kind")
        if not isinstance(origin, str) or not isinstance(key, str):
            return
        number = request.get("n")
        try:
            body = await self._apply(table_id, origin, key, kind, request)
        except Exception:
            log.exception("table %s: a forwarded %s failed", table_id, kind)
            body = {"moved": True}
        self.forwarded += 1
        if number is not None and body is not None:
            self.answer(origin, {**body, "n": number})

    async def _apply(
        self, table_id: str, origin: str, key: str, kind: Any, request: dict[str, Any]
    ) -> dict[str, Any] | None:
        service = self.service
        if kind == "attach":
            live = service.tables_held.cached(table_id)
            if live is None or not service.leases.holds(table_id):
                return {"moved": True}
            digest = request.get("hash")
            seat = next((s.seat for s in live.data.seats if s.token_hash == digest), None)
            if seat is None:
                return {"refused": "This is not a seat token of this table."}
            attached = RemoteSeat(self, origin, key, seat, live)
            self.remotes[(origin, key)] = attached
            service.seat_connected(live, attached)
            return {"seat": seat}
        remote = self.remotes.get((origin, key))
        if kind == "detach":
            if remote is not None:
                self.forget_remote(remote)
                service.disconnect(remote.live, remote)
            return None
        if remote is None or remote not in remote.live.subscribers:
            return {"moved": True}
        live, client_id, text = remote.live, str(request.get("id", "")), str(request.get("text"))
        try:
            answer: dict[str, Json] | None
            if kind == "act":
                answer = await service.act(live, remote, client_id, text)
            elif kind == "undo":
                answer = await service.undo(live, remote, client_id)
            elif kind == "chat":
                answer = await chatting.say(service, live, remote.seat, text)
            elif kind == "hint":
                answer = await service.hint_desk.answer(
                    live, remote, client_id, most_bytes=HINT_BYTES
                )
            else:
                return None
        except UnavailableError as exc:
            answer = m.Error(id=client_id or None, code=exc.code, message=exc.detail).model_dump()
        except RefusedError as exc:
            refused = m.Error(id=client_id or None, code="not_playing", message=exc.detail)
            answer = refused.model_dump()
        return {"answer": answer}

    async def check_origins(self, alive: Callable[[str], Any]) -> None:
        """Detach the remote seats of forwarders that died (``alive``: whether a
        forwarder's answer channel's process is alive, awaited)."""
        for origin in {remote.origin for remote in self.remotes.values()}:
            if await alive(origin):
                continue
            for remote in [r for r in self.remotes.values() if r.origin == origin]:
                self.forget_remote(remote)
                self.service.disconnect(remote.live, remote)
