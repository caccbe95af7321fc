"""The table server's data: SQLAlchemy 2 models, the engine, and the schema upgrade.

The database is the truth; a server process keeps a table in memory only as a cache of
what is stored here. Seat and host tokens are stored as SHA-256 hashes, never in clear.
Everything here runs on SQLite and on PostgreSQL (``postgresql+psycopg://...``).
"""

from __future__ import annotations

import base64
import hashlib
import logging
import secrets
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

log = logging.getLogger("tricktaker.server")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
"""The folder of the Alembic migrations shipped in the package."""


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


def new_token() -> str:
    """A fresh secret token: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(32)


def open_code(invite_code: str) -> str:
    """The code that the list of open tables gives for a table (``GET /tables``): it
    takes the table's open seats only, where its invite code takes any free seat. Made
    from the invite code, so only the server, and whoever has the invite, can make it.

    >>> len(open_code("x")), open_code("x") == open_code("x") != open_code("y")
    (16, True)
    """
    digest = hashlib.sha256(b"tricktaker-open-seats:" + invite_code.encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest[:12]).decode("ascii")


def hash_token(token: str) -> str:
    """The SHA-256 hash (hex) under which a token is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Base(DeclarativeBase):
    """The declarative base of the server's models."""


class TableRow(Base):
    """One table: its game, settings, host and lifecycle (``waiting``, ``playing``,
    ``finished``). ``game_number`` counts the games played at it (rematches); its
    sequence number is its last event's (:class:`EventRow`), not kept here."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    game: Mapped[str] = mapped_column(String(100))
    preset: Mapped[str | None] = mapped_column(String(100), nullable=True)
    ruleset_toml: Mapped[str | None] = mapped_column(Text, nullable=True)
    ruleset_data: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), default="waiting", index=True)
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    host_token_hash: Mapped[str] = mapped_column(String(64))
    invite_code: Mapped[str] = mapped_column(String(32), unique=True)
    grace_seconds: Mapped[float] = mapped_column(Float, default=60.0)
    game_number: Mapped[int] = mapped_column(Integer, default=0)
    move_timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    away_bot: Mapped[str] = mapped_column(String(100), default="easy")
    hints: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the host allowed the coach's hints to everyone seated (a practice table
    has them whatever this says)."""


class SeatRow(Base):
    """A seat: ``human`` (free until someone joins; kept for an invitee unless
    ``open_seat``) or ``bot`` with its spec."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_seats_table_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    open_seat: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """A person's seat that anyone may take from the list of open tables (else it is
    kept for whoever has the table's invite code)."""


class EventRow(Base):
    """One event of a game record (an action of a seat, or a chance step), in order.

    ``seq`` numbers the table's events across all its games; the unique constraint on
    ``(table_id, seq)`` is the guard against two writers. ``client_id`` is the id the
    client gave the action (a repeated id is answered from here)."""

    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    game_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    chance: Mapped[str | None] = mapped_column(String(40), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ChatRow(Base):
    """A chat message, stored with its table (plain text)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class HintRow(Base):
    """A hint a seat asked for: ``at`` is how many record events its game had then
    (:attr:`~tricktaker.engine.GameRecord.hints`)."""

    __tablename__ = "hints"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    game_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    at: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


def sqlite_file(url: str) -> bool:
    """Whether ``url`` is a SQLite database in a file (not one in memory)."""
    return url.startswith("sqlite") and ":memory:" not in url and url != "sqlite://"


def unavailable(error: BaseException) -> str | None:
    """Why the database cannot store anything just now, if ``error`` says so (None: it is
    some other error, a bug or a refusal, not the database's absence).

    PostgreSQL stopped, restarting or out of reach, a connection it cut, SQLite's disk
    full, its file unwritable or locked past the busy timeout, every pooled connection
    taken: these pass, and the same write succeeds once the database is back. The
    engine's pool (``pool_pre_ping``) drops the dead connections and makes new ones by
    itself, so nothing needs restarting."""
    if isinstance(error, PoolTimeoutError):
        return "every database connection is busy"
    if isinstance(error, DBAPIError) and (
        error.connection_invalidated or isinstance(error, OperationalError | InterfaceError)
    ):
        name = str(getattr(error.orig, "sqlite_errorname", ""))  # SQLite's result code
        for prefix, reason in _SQLITE_REASONS:
            if name.startswith(prefix):
                return reason
        return "the database is out of reach"
    return None


_SQLITE_REASONS = (
    ("SQLITE_FULL", "the database's disk is full"),
    ("SQLITE_IOERR", "the database's disk cannot be written"),
    ("SQLITE_BUSY", "the database is busy"),
    ("SQLITE_LOCKED", "the database is busy"),
    ("SQLITE_READONLY", "the database's file cannot be written"),
    ("SQLITE_CANTOPEN", "the database's file cannot be opened"),
)
"""What a SQLite result code (by its name's start) says of the database, in words."""


def make_engine(url: str, *, checkpoint_apart: bool = False) -> Engine:
    """A SQLAlchemy engine for ``url``; SQLite files get WAL, foreign keys and a busy
    timeout so that readers and the one writer get along. With ``checkpoint_apart`` a
    SQLite connection never copies the write-ahead log back into the database file
    itself (``wal_autocheckpoint=0``): a :class:`WalCheckpointer` must."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            if sqlite_file(url):
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=NORMAL")
                if checkpoint_apart:
                    cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)


class WalCheckpointer:
    """Copies a SQLite database's write-ahead log back into the database file every
    ``interval`` seconds, in a thread of its own, for an engine made with
    ``make_engine(url, checkpoint_apart=True)``.

    By default SQLite does it within the commit that takes the log past 1,000 pages:
    that commit, and every action waiting on it, then waits for the copy and a flush of
    the database file to disk. A busy server's group commits wrote the log's 1,000 pages
    every second or so, and those commits were its slowest (``bench/README.md``). Here
    the copy is ``PASSIVE``: it waits for no reader or writer, and copies what it can;
    the log starts again from its beginning once all of it has been copied. Stopping
    makes one last copy; the engine's last connection to close then removes the log, as
    SQLite does."""

    def __init__(self, engine: Engine, interval: float = 0.5) -> None:
        self.engine = engine
        self.interval = interval
        self.runs = 0
        """Checkpoints made so far."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="tricktaker-checkpoint", daemon=True)
        self._thread.start()

    def _checkpoint(self, connection: Any) -> None:
        cursor = connection.cursor()
        try:
            cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
            cursor.fetchall()
        finally:
            cursor.close()
        self.runs += 1

    def _run(self) -> None:
        connection = self.engine.raw_connection()
        try:
            stopping = False
            while not stopping:
                stopping = self._stop.wait(self.interval)
                try:
                    self._checkpoint(connection)
                except Exception:  # a busy or closing database: the next one copies it
                    log.debug("a checkpoint of the write-ahead log failed", exc_info=True)
        finally:
            connection.close()

    def stop(self) -> None:
        """Stop, after one last checkpoint."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def alembic_config(url: str) -> Any:
    """An Alembic configuration for ``url`` with the shipped migrations (no alembic.ini)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Upgrade the database at ``url`` to ``revision`` (default: the newest schema)."""
    from alembic import command

    command.upgrade(alembic_config(url), revision)


def current_revision(url: str) -> str | None:
    """The schema revision the database at ``url`` is at (None: no schema yet)."""
    from alembic.runtime.migration import MigrationContext

    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
