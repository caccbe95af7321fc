"""Who serves a table: one server process at a time (docs/deploy.md, Several processes).

With PostgreSQL any number of ``tricktaker serve`` processes share one database, and a
process serves a table only while it holds the table's *lease*: a PostgreSQL session
advisory lock keyed by ``hashtextextended(table_id, 0)``, taken on a connection of its
own that the process keeps open. The lock belongs to that connection, so a process that
dies (SIGKILL, a lost machine) releases every table it held the moment PostgreSQL sees
its connection close: no expiry to wait for, no heartbeat to tune, no row to clean up.

A process asked about a table another holds asks the holder to let it go (``NOTIFY
tricktaker_handover``): the holder drops it from memory, closes its sockets with code
1012 (the client reconnects, through the proxy, to the process that asked) and releases
the lock; the process that asked then takes it and replays the table's record. The
proxy routes by a hash of the table id, so this happens only when the processes behind
it change (one died, one was restarted). A process takes over the tables in play whose
lease is free (their owner died) every :data:`ORPHAN_SECONDS`, and drives their bots.

SQLite is one process: ``tricktaker serve`` holds an exclusive lock on a file beside the
database (``FILE.serving.lock``, :func:`serve_alone`) while it runs, and a second
``tricktaker serve`` on the same file is refused with :class:`SecondProcessError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, TypeVar

import orjson
from sqlalchemy.engine import make_url

from tricktaker.server.db import sqlite_file

log = logging.getLogger("tricktaker.server")

T = TypeVar("T")

HANDOVER_CHANNEL = "tricktaker_handover"
"""The PostgreSQL channel on which a process asks the holder of a table to let it go
(payload: the table id)."""

EVENTS_CHANNEL = "tricktaker_t_"
"""What starts the name of a table's own PostgreSQL channel (:func:`events_channel`), on
which its owner tells the processes that follow it (:meth:`Leases.follow`) that it
committed something there (payload: ``<table id>:<seq>``), or says something at it that
is not stored as an event, a chat line or a seat's presence (``<table id>:<seq>:<message
as JSON>``; :mod:`~tricktaker.server.tables.relay`). A channel per table, so that a
process hears only the tables it has sockets on (docs/scale.md, The table server)."""

ID_IN_CHANNEL = 48
"""The longest table id (in bytes) that a channel name holds as it is; a longer one's
channel holds its MD5 (a channel's name is at most 63 bytes)."""

PRESENCE_ASKED = "?"
"""What starts a payload on :data:`HANDOVER_CHANNEL` that asks the holder of a table
(the rest of it) for the presence of its seats, rather than to let it go."""

FORWARDED = "!"
"""What starts a payload on :data:`HANDOVER_CHANNEL` that forwards a person's request to
the holder of a table (the rest: the request as JSON, the table's id under ``"t"``;
:mod:`~tricktaker.server.tables.forwarding`)."""

PAYLOAD_BYTES = 7900
"""The longest message carried in a notification (PostgreSQL's limit is 8,000 bytes);
a longer one goes as a plain ``<table id>:<seq>``, its mirrors reading what is stored."""

ORPHAN_SECONDS = 1.0
"""How often a process looks for tables in play that no process holds (their owner
died) and takes them over."""

HANDOVER_SECONDS = 5.0
"""How long a process waits for a table's holder to let it go before it answers
``unavailable`` (the client tries again)."""

MOVED_CODE = 1012
"""The WebSocket close code of a socket whose table moved to another process
(RFC 6455's *service restart*: reconnect)."""

BUSY_CODE = 1013
"""The WebSocket close code of a socket whose ``hello`` found its table held by another
server process that did not let it go in time (RFC 6455's *try again later*: the
``unavailable`` error is sent first; the client reconnects after its back-off)."""


def events_channel(table_id: str) -> str:
    """The name of the table's own channel (:data:`EVENTS_CHANNEL`); the SQL that sends
    on it (``PostgresLeases._send_notifications``) names it alike."""
    key = table_id.encode()
    if len(key) <= ID_IN_CHANNEL:
        return EVENTS_CHANNEL + table_id
    return EVENTS_CHANNEL + hashlib.md5(key, usedforsecurity=False).hexdigest()


_CHANNEL_SQL = (
    f"%s || CASE WHEN octet_length(split_part(payload, ':', 1)) <= {ID_IN_CHANNEL}"
    " THEN split_part(payload, ':', 1) ELSE md5(split_part(payload, ':', 1)) END"
)
"""The channel of a notification's table (the payload's first field), as SQL."""


class SecondProcessError(RuntimeError):
    """Another server process already serves this SQLite database."""


class Leases:
    """The leases of one server process (the base: one process serves every table, as
    with SQLite). :meth:`take` a table's lease before serving it, :meth:`release` it
    when the table leaves memory."""

    shared = False
    """Whether other processes may serve the same database (PostgreSQL)."""

    def __init__(self) -> None:
        self.held: set[str] = set()
        """The ids of the tables whose lease this process holds."""
        self.on_handover: Callable[[str], None] | None = None
        """Called on the event loop with a table id another process asked for."""
        self.on_events: Callable[[str], None] | None = None
        """Called on the event loop with the id of a table whose owner committed
        something, when :attr:`watching` says this process watches it."""
        self.watching: Callable[[str], bool] = lambda _table_id: False
        """Whether this process has sockets on a table another process serves."""
        self.on_said: Callable[[str, dict[str, Any]], None] | None = None
        """Called on the event loop with a table id and the message its owner said there
        (:meth:`say`), when :attr:`watching` says this process watches it."""
        self.on_presence_asked: Callable[[str], None] | None = None
        """Called on the event loop with the id of a table this process holds whose
        seats' presence another process asked for (:meth:`ask_presence`)."""
        self.on_forwarded: Callable[[str, dict[str, Any]], None] | None = None
        """Called on the event loop with the id of a table this process holds and a
        request another process forwarded for it (:meth:`forward`)."""
        self.on_listened: Callable[[str], None] | None = None
        """Called on the event loop with the id of a table whose channel this process
        listens on now (:meth:`follow`): what its owner says from now on is heard."""
        self.on_answer: Callable[[dict[str, Any]], None] | None = None
        """Called on the event loop with an answer to a request this process forwarded
        (:meth:`answer`)."""

    @property
    def answers_channel(self) -> str:
        """The channel on which this process hears the answers to what it forwards."""
        return ""

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the table's lease."""
        return table_id in self.held

    def forward(self, table_id: str, request: dict[str, Any]) -> None:
        """Send a person's request to the process that holds the table (not awaited;
        nothing with one process, which holds every table)."""

    def answer(self, channel: str, body: dict[str, Any]) -> None:
        """Answer a forwarded request on the forwarder's ``channel`` (not awaited)."""

    async def alive(self, channel: str) -> bool:
        """Whether the process whose answer channel is ``channel`` is alive."""
        return True

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Begin (``loop``: the server's event loop, where :attr:`on_handover` runs)."""

    def close(self) -> None:
        """Release every lease."""
        self.held.clear()

    async def take(self, table_id: str) -> bool:
        """Take the table's lease; whether this process holds it now."""
        self.held.add(table_id)
        return True

    async def claim(self, table_id: str) -> None:
        """Mark the table as asked for by this process (:meth:`ask_handover`), so that
        no process takes it as an orphan in the moment between its holder letting it
        go and this one taking it; :meth:`unclaim` when done."""

    def unclaim(self, table_id: str) -> None:
        """Take back a :meth:`claim` (not awaited)."""

    def release(self, table_id: str) -> None:
        """Let the table's lease go (nothing if it is not held). Not awaited: the lock
        is let go in order with the next :meth:`take` of the same table."""
        self.held.discard(table_id)

    async def ask_handover(self, table_id: str) -> None:
        """Ask the process that holds the table to let it go."""

    def notify(self, table_id: str, seq: int) -> None:
        """Tell the other processes that the table's events up to ``seq`` are
        committed (not awaited; nothing with one process)."""

    def say(self, table_id: str, seq: int, message: dict[str, Any]) -> None:
        """Tell the other processes' sockets on the table ``message`` (a chat line, a
        seat's presence: what is not read back from the events), in order with the
        table's other notifications (not awaited; nothing with one process)."""

    async def ask_presence(self, table_id: str) -> None:
        """Ask the process that holds the table to say its seats' presence."""

    def follow(self, table_id: str) -> None:
        """Hear the table's notifications (its channel), from now until :meth:`unfollow`:
        :attr:`on_events` is called once this process listens, so that what was
        committed before is read."""

    def unfollow(self, table_id: str) -> None:
        """Stop hearing the table's notifications."""

    async def orphans(self) -> list[str]:
        """Take the lease of every table in play that no process holds; their ids."""
        return []

    def broken(self) -> bool:
        """Whether the leases were lost (the connection that held them closed)."""
        return False

    async def reconnect(self) -> set[str]:
        """Hold leases again after they were lost: the ids that were held (none is
        held after)."""
        held, self.held = self.held, set()
        return held


class OneProcess(Leases):
    """One process serves the database (SQLite): every lease is this process's; with
    :meth:`lock` (``tricktaker serve`` takes it: :func:`serve_alone`), a file lock
    beside a SQLite file keeps a second process out."""

    def __init__(self, db_url: str) -> None:
        super().__init__()
        self.lock_path: Path | None = None
        if sqlite_file(db_url):
            database = make_url(db_url).database
            if database:
                self.lock_path = (
                    Path(database).resolve().with_name(Path(database).name + ".serving.lock")
                )
        self._file: IO[bytes] | None = None

    def lock(self) -> None:
        """Lock the file beside the database, or raise :class:`SecondProcessError`."""
        if self.lock_path is None or self._file is not None:
            return
        file = self.lock_path.open("ab")
        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            file.close()
            raise SecondProcessError(
                f"another tricktaker serve already serves this SQLite database (it holds"
                f" {self.lock_path}): SQLite is served by one process; to run several,"
                f" use PostgreSQL (docs/deploy.md, Several processes)"
            ) from None
        self._file = file

    def close(self) -> None:
        super().close()
        if self._file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._file.fileno(), fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def serve_alone(db_url: str) -> OneProcess | None:
    """Lock the SQLite file at ``db_url`` for this process (``tricktaker serve`` keeps
    what this returns while it runs), or raise :class:`SecondProcessError` if another
    process serves it; None for PostgreSQL, which any number of processes share."""
    if db_url.startswith("postgresql"):
        return None
    holder = OneProcess(db_url)
    holder.lock()
    return holder


def _libpq_url(db_url: str) -> str:
    """The URL psycopg takes for a SQLAlchemy ``postgresql+psycopg://`` URL."""
    url = make_url(db_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class PostgresLeases(Leases):
    """The leases of one process among several on one PostgreSQL database: advisory
    locks on a connection of their own (one thread runs its calls), and a second
    connection that listens for the handover requests of the others."""

    shared = True

    def __init__(self, db_url: str, name: str | None = None) -> None:
        super().__init__()
        self.url = _libpq_url(db_url)
        self.name = name or f"tricktaker serve pid {os.getpid()}"
        """The lease connection's ``application_name`` (who holds a table, in
        ``pg_stat_activity``)."""
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="tricktaker-lease")
        self._connection: Any = None
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: dict[str, int] = {}
        """The notifications not sent yet, by table (the last seq of each)."""
        self._said: list[str] = []
        """The payloads of :meth:`say` not sent yet, in order."""
        self._pending_lock = threading.Lock()
        self._sending = False
        self._followed: set[str] = set()
        """The tables whose channels the listener is to listen on (under its lock)."""
        self._followed_lock = threading.Lock()
        self._wake = f"tricktaker_wake_{secrets.token_hex(8)}"
        """The channel on which this process wakes its own listener (to listen on a
        table's channel, or stop)."""

    def _connect(self) -> Any:
        import psycopg

        return psycopg.connect(self.url, autocommit=True, application_name=self.name)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._connection = self._pool.submit(self._connect).result()
        self._pool.submit(self._hold_alive).result()
        self._listener = threading.Thread(
            target=self._listen, name="tricktaker-handover", daemon=True
        )
        self._listener.start()

    def _listen(self) -> None:
        """Listen for handover requests and the followed tables' notifications until
        closed (a lost connection is made again, and listens again)."""
        while not self._stop.is_set():
            try:
                with self._connect() as connection:
                    connection.execute(f"LISTEN {HANDOVER_CHANNEL}")
                    connection.execute(f'LISTEN "{self._wake}"')
                    listened: set[str] = set()
                    while not self._stop.is_set():
                        listened = self._listen_again(connection, listened)
                        # One batch at a time (stop_after: the whole packet is read, none
                        # is dropped), then the channels followed now are listened on: a
                        # notification on the wake channel only ends the wait.
                        for notice in connection.notifies(timeout=0.5, stop_after=1):
                            if notice.channel == HANDOVER_CHANNEL:
                                self._handover(notice.payload)
                            elif notice.channel != self._wake:
                                self._events(notice.payload)
                            elif notice.payload:
                                self._answered(notice.payload)
            except Exception as error:  # the database went away: listen again once back
                if not self._stop.is_set():
                    log.warning("the listener of other processes lost its connection: %s", error)
                    self._stop.wait(1.0)

    def _listen_again(self, connection: Any, listened: set[str]) -> set[str]:
        """Listen on the channels of the tables followed now, and on no other (the
        listener's thread); each new one's table is read once it is listened on."""
        with self._followed_lock:
            wanted = set(self._followed)
        for table_id in listened - wanted:
            connection.execute(f'UNLISTEN "{events_channel(table_id)}"')
        new = wanted - listened
        for table_id in new:
            connection.execute(f'LISTEN "{events_channel(table_id)}"')
        loop, call, heard = self._loop, self.on_events, self.on_listened
        if loop is not None and call is not None:
            for table_id in new:
                with contextlib.suppress(RuntimeError):  # the loop is closed
                    loop.call_soon_threadsafe(call, table_id)
                    if heard is not None:
                        loop.call_soon_threadsafe(heard, table_id)
        return wanted

    def follow(self, table_id: str) -> None:
        with self._followed_lock:
            self._followed.add(table_id)
        self._wake_listener()

    def unfollow(self, table_id: str) -> None:
        with self._followed_lock:
            self._followed.discard(table_id)
        self._wake_listener()

    def _wake_listener(self) -> None:
        def wake() -> None:
            with contextlib.suppress(Exception):  # lost: it listens again when back
                self._connection.execute("SELECT pg_notify(%s, '')", (self._wake,))

        with contextlib.suppress(RuntimeError):  # closed
            self._pool.submit(wake)

    def _answered(self, payload: str) -> None:
        loop, call = self._loop, self.on_answer
        with contextlib.suppress(ValueError):  # not one this server sends
            body = orjson.loads(payload)
            if loop is not None and call is not None and isinstance(body, dict):
                with contextlib.suppress(RuntimeError):  # the loop is closed
                    loop.call_soon_threadsafe(call, body)

    def _forwarded(self, payload: str) -> None:
        loop, call = self._loop, self.on_forwarded
        with contextlib.suppress(ValueError):  # not one this server sends
            body = orjson.loads(payload[len(FORWARDED) :])
            if not isinstance(body, dict):
                return
            table_id = body.get("t")
            if loop is not None and call is not None and table_id in self.held:
                with contextlib.suppress(RuntimeError):  # the loop is closed
                    loop.call_soon_threadsafe(call, table_id, body)

    def _handover(self, payload: str) -> None:
        if payload.startswith(FORWARDED):
            self._forwarded(payload)
            return
        call = self.on_handover
        table_id = payload
        if payload.startswith(PRESENCE_ASKED):
            call, table_id = self.on_presence_asked, payload[len(PRESENCE_ASKED) :]
        loop = self._loop
        if loop is not None and call is not None and table_id in self.held:
            with contextlib.suppress(RuntimeError):  # the loop is closed
                loop.call_soon_threadsafe(call, table_id)

    def _events(self, payload: str) -> None:
        table_id, _, rest = payload.partition(":")
        said = rest.partition(":")[2]
        loop = self._loop
        if loop is None or not self.watching(table_id):
            return
        with contextlib.suppress(RuntimeError):  # the loop is closed
            if not said:
                if self.on_events is not None:
                    loop.call_soon_threadsafe(self.on_events, table_id)
                return
            if self.on_said is not None:
                with contextlib.suppress(ValueError):  # not one this server sends
                    message = orjson.loads(said)
                    if isinstance(message, dict):
                        loop.call_soon_threadsafe(self.on_said, table_id, message)

    @property
    def answers_channel(self) -> str:
        return self._wake

    def forward(self, table_id: str, request: dict[str, Any]) -> None:
        payload = FORWARDED + orjson.dumps({**request, "t": table_id}).decode()
        self._notify_soon(HANDOVER_CHANNEL, payload)

    def answer(self, channel: str, body: dict[str, Any]) -> None:
        self._notify_soon(channel, orjson.dumps(body).decode())

    def _notify_soon(self, channel: str, payload: str) -> None:
        """Send one notification from the lease thread, in order with its other calls."""
        connection = self._connection

        def send() -> None:
            with contextlib.suppress(Exception):  # lost: the forwarder gives up and retries
                connection.execute("SELECT pg_notify(%s, %s)", (channel, payload))

        with contextlib.suppress(RuntimeError):  # closed
            self._pool.submit(send)

    def _hold_alive(self) -> None:
        """Hold this process's liveness lock (the lease thread): free once it dies."""
        self._connection.execute("SELECT pg_advisory_lock(hashtextextended(%s, 2))", (self._wake,))

    async def alive(self, channel: str) -> bool:
        def call() -> bool:
            row = self._connection.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 2))", (channel,)
            ).fetchone()
            if row is None or not row[0]:
                return True  # held: its process is alive
            self._connection.execute(
                "SELECT pg_advisory_unlock(hashtextextended(%s, 2))", (channel,)
            )
            return False

        if channel == self._wake:
            return True
        return await self._in_turn(call)

    def notify(self, table_id: str, seq: int) -> None:
        # Coalesced: one statement sends every table's last seq since the last one, so
        # that a busy process sends fewer, larger notifications rather than queueing.
        with self._pending_lock:
            self._pending[table_id] = seq
            if self._sending:
                return
            self._sending = True
        self._send_soon()

    def say(self, table_id: str, seq: int, message: dict[str, Any]) -> None:
        payload = f"{table_id}:{seq}:{orjson.dumps(message).decode()}"
        if len(payload.encode()) > PAYLOAD_BYTES:
            self.notify(table_id, seq)  # too long to carry: its mirrors read the table
            return
        with self._pending_lock:
            self._said.append(payload)
            if self._sending:
                return
            self._sending = True
        self._send_soon()

    def _send_soon(self) -> None:
        with contextlib.suppress(RuntimeError):  # closed
            self._pool.submit(self._send_notifications)

    def _send_notifications(self) -> None:
        while True:
            with self._pending_lock:
                pending, self._pending = self._pending, {}
                said, self._said = self._said, []
                if not pending and not said:
                    self._sending = False
                    return
            # The events' notifications first, then what was said, in order (one
            # statement sends them so): a mirror tells what was said once it has told
            # the events it was notified of before (relay.Relay.said).
            payloads = [f"{table_id}:{seq}" for table_id, seq in pending.items()] + said
            with contextlib.suppress(Exception):  # lost: the next look reads it anyway
                self._connection.execute(
                    f"SELECT pg_notify({_CHANNEL_SQL}, payload) FROM unnest(%s::text[]) AS payload",
                    (EVENTS_CHANNEL, payloads),
                )

    async def _run(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        def call() -> list[tuple[Any, ...]]:
            cursor = self._connection.execute(sql, params)
            return list(cursor.fetchall()) if cursor.description is not None else []

        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def _in_turn(self, call: Callable[[], T]) -> T:
        """Run ``call`` in the lease thread, in order with every other lease call."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def take(self, table_id: str) -> bool:
        # :attr:`held` is read and changed only in the lease thread, in order with the
        # locks themselves: a session's advisory lock counts how often it was taken, so
        # a table taken twice (by two requests at once, or by a request and the orphan
        # scan) would stay locked after its one release.
        def call() -> bool:
            if table_id in self.held:
                return True
            row = self._connection.execute(
                "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (table_id,)
            ).fetchone()
            if row is not None and row[0]:
                self.held.add(table_id)
                return True
            return False

        return await self._in_turn(call)

    def release(self, table_id: str) -> None:
        connection = self._connection

        def unlock() -> None:
            if table_id not in self.held:
                return
            self.held.discard(table_id)
            with contextlib.suppress(Exception):  # a lost connection released it already
                connection.execute(
                    "SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (table_id,)
                )

        with contextlib.suppress(RuntimeError):  # closed: the connection's end releases it
            self._pool.submit(unlock)

    async def claim(self, table_id: str) -> None:
        # A shared lock on the table's second key: the orphan scan of every process
        # tries that key exclusively first (for its one statement), and skips the table
        # while any process holds it shared.
        await self._run("SELECT pg_advisory_lock_shared(hashtextextended(%s, 1))", table_id)

    def unclaim(self, table_id: str) -> None:
        connection = self._connection

        def unlock() -> None:
            with contextlib.suppress(Exception):  # a lost connection released it already
                connection.execute(
                    "SELECT pg_advisory_unlock_shared(hashtextextended(%s, 1))", (table_id,)
                )

        with contextlib.suppress(RuntimeError):  # closed: the connection's end releases it
            self._pool.submit(unlock)

    def broken(self) -> bool:
        """Whether the lease connection was lost (every lease with it)."""
        return self._connection is None or bool(self._connection.closed)

    async def reconnect(self) -> set[str]:
        """Open the lease connection again, after it was lost (raises while the
        database is away); the ids of the tables that were held, none of which is
        held now."""

        def call() -> set[str]:
            connection = self._connect()
            old, self._connection = self._connection, connection
            if old is not None:
                with contextlib.suppress(Exception):
                    old.close()
            held, self.held = self.held, set()
            self._hold_alive()
            return held

        return await self._in_turn(call)

    async def ask_handover(self, table_id: str) -> None:
        await self._run("SELECT pg_notify(%s, %s)", HANDOVER_CHANNEL, table_id)

    async def ask_presence(self, table_id: str) -> None:
        payload = PRESENCE_ASKED + table_id
        await self._run("SELECT pg_notify(%s, %s)", HANDOVER_CHANNEL, payload)

    async def orphans(self) -> list[str]:
        # The subquery (OFFSET 0 keeps it apart) picks the candidates first, so that a
        # lock is tried only for a table in play this process does not hold already.
        # A table another process asked for (:meth:`claim`: its holder lets it go to
        # that one) is skipped: its claim key is tried exclusively for this statement
        # alone (a transaction's lock), and CASE keeps that try before the lease's.
        def call() -> list[str]:
            rows = self._connection.execute(
                "SELECT id FROM (SELECT id, created_at FROM tables WHERE status = 'playing'"
                " AND NOT (id = ANY(%s)) OFFSET 0) AS candidates"
                " WHERE CASE WHEN pg_try_advisory_xact_lock(hashtextextended(id, 1))"
                " THEN pg_try_advisory_lock(hashtextextended(id, 0)) ELSE false END"
                " ORDER BY created_at",
                (list(self.held),),
            ).fetchall()
            taken = [row[0] for row in rows]
            self.held.update(taken)
            return taken

        return await self._in_turn(call)

    def close(self) -> None:
        self._stop.set()
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._pool.submit(self._connection.close).result(timeout=5)
        self._pool.shutdown(wait=False)
        if self._listener is not None:
            self._listener.join(timeout=2)
        super().close()


def leases_for(db_url: str, name: str | None = None) -> Leases:
    """The leases of a server process on the database at ``db_url``: shared ones on
    PostgreSQL (``name``: how the process shows in ``pg_stat_activity``), one process's
    otherwise."""
    if db_url.startswith("postgresql"):
        return PostgresLeases(db_url, name)
    return OneProcess(db_url)
