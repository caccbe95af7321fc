"""The table server's reads and writes, each one short transaction (run off the event loop).

Every function takes a :class:`~sqlalchemy.orm.Session` factory and commits before it
returns, so that what it wrote is durable before anyone is told of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, bindparam, func, insert, literal_column, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from tricktaker.server.db import ChatRow, EventRow, HintRow, SeatRow, TableRow, now


@dataclass(slots=True)
class SeatData:
    """A seat as the service holds it."""

    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    open_seat: bool = False
    """Whether anyone may take it from the list of open tables (a person's seat)."""


@dataclass(slots=True)
class TableData:
    """A table's stored settings and lifecycle, as the service holds it."""

    id: str
    game: str
    preset: str | None
    ruleset_data: dict[str, Any]
    options: dict[str, Any]
    players: int
    seed: int
    status: str
    public: bool
    host_token_hash: str
    invite_code: str
    grace_seconds: float
    game_number: int
    seq: int
    move_timer: float | None
    away_bot: str
    seats: list[SeatData] = field(default_factory=list)
    hints: bool = False
    """Whether the host allowed the coach's hints to everyone seated (a practice table
    has them whatever this says: :func:`~tricktaker.server.tables.hints.hints_on`)."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One stored record event: ``who`` is a seat or a chance kind."""

    seq: int
    game_number: int
    who: int | str
    text: str
    client_id: str | None


class StaleTableError(Exception):
    """Another writer stored events of this table first (the sequence guard: the events'
    unique ``(table_id, seq)``)."""


Factory = sessionmaker[Session]


def _seat_data(row: SeatRow) -> SeatData:
    return SeatData(
        seat=row.seat,
        kind=row.kind,
        bot=row.bot,
        name=row.name,
        token_hash=row.token_hash,
        open_seat=row.open_seat,
    )


def _table_data(row: TableRow, seats: Sequence[SeatRow], seq: int) -> TableData:
    return TableData(
        id=row.id,
        game=row.game,
        preset=row.preset,
        ruleset_data=row.ruleset_data,
        options=row.options,
        players=row.players,
        seed=row.seed,
        status=row.status,
        public=row.public,
        host_token_hash=row.host_token_hash,
        invite_code=row.invite_code,
        grace_seconds=row.grace_seconds,
        game_number=row.game_number,
        seq=seq,
        move_timer=row.move_timer,
        away_bot=row.away_bot,
        seats=[_seat_data(s) for s in sorted(seats, key=lambda s: s.seat)],
        hints=row.hints,
    )


def create_table(factory: Factory, data: TableData, ruleset_toml: str | None) -> None:
    """Store a new table with its seats."""
    with factory() as session, session.begin():
        session.add(
            TableRow(
                id=data.id,
                game=data.game,
                preset=data.preset,
                ruleset_data=data.ruleset_data,
                options=data.options,
                players=data.players,
                seed=data.seed,
                status=data.status,
                public=data.public,
                host_token_hash=data.host_token_hash,
                invite_code=data.invite_code,
                grace_seconds=data.grace_seconds,
                game_number=data.game_number,
                move_timer=data.move_timer,
                away_bot=data.away_bot,
                hints=data.hints,
                created_at=now(),
                ruleset_toml=ruleset_toml,
            )
        )
        session.flush()
        for seat in data.seats:
            session.add(
                SeatRow(
                    table_id=data.id,
                    seat=seat.seat,
                    kind=seat.kind,
                    bot=seat.bot,
                    name=seat.name,
                    token_hash=seat.token_hash,
                    open_seat=seat.open_seat,
                )
            )


def load_table(factory: Factory, table_id: str) -> tuple[TableData, list[StoredEvent]] | None:
    """A table and the events of its current game, or None if there is no such table.
    The table's sequence number is its last event's (0 before its first)."""
    with factory() as session:
        row = session.get(TableRow, table_id)
        if row is None:
            return None
        seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)).all()
        events = session.scalars(
            select(EventRow)
            .where(EventRow.table_id == table_id, EventRow.game_number == row.game_number)
            .order_by(EventRow.seq)
        ).all()
        seq = session.scalar(_LAST_SEQ.where(EventRow.table_id == table_id)) or 0
        return _table_data(row, seats, seq), [_stored(e) for e in events]


_LAST_SEQ = select(func.max(EventRow.seq))
"""A table's last event's sequence number (with a ``where`` on the table's id)."""


def _stored(e: EventRow) -> StoredEvent:
    who: int | str = e.seat if e.seat is not None else (e.chance or "")
    return StoredEvent(e.seq, e.game_number, who, e.text, e.client_id)


def game_events(factory: Factory, table_id: str, game_number: int) -> list[StoredEvent]:
    """The events of one game of a table, in order."""
    with factory() as session:
        rows = session.scalars(
            select(EventRow)
            .where(EventRow.table_id == table_id, EventRow.game_number == game_number)
            .order_by(EventRow.seq)
        ).all()
        return [_stored(e) for e in rows]


def table_ids(factory: Factory, *, statuses: Sequence[str], public_only: bool) -> list[str]:
    """The ids of the tables in one of ``statuses``, oldest first."""
    with factory() as session:
        query = select(TableRow.id).where(TableRow.status.in_(statuses))
        if public_only:
            query = query.where(TableRow.public.is_(True))
        return list(session.scalars(query.order_by(TableRow.created_at)).all())


@dataclass(frozen=True, slots=True)
class Append:
    """The new events of one table, numbered from ``expected_seq + 1``, and the table's
    status after them when they change it (None: unchanged), with its game number then
    (None: unchanged; a new game's deal starts it). ``hints_back_to``: for an undo, the
    number of record events its game keeps; the hints of that game asked beyond them
    move back to it in the same transaction (:func:`_rewind_hints`)."""

    table_id: str
    expected_seq: int
    events: Sequence[StoredEvent]
    status: str | None = None
    game_number: int | None = None
    hints_back_to: int | None = None

    def __post_init__(self) -> None:
        if [e.seq for e in self.events] != list(
            range(self.expected_seq + 1, self.expected_seq + 1 + len(self.events))
        ):
            raise ValueError(f"events not numbered from {self.expected_seq + 1}")


_EVENT_COLUMNS = ("table_id", "seq", "game_number", "seat", "chance", "text", "client_id")
"""The columns of an event row given per row; ``created_at`` is the transaction's."""


class _Bulk:
    """An ``executemany`` statement compiled once for each kind of database and run with
    its rows handed to the database driver as they are, in the driver's parameter style.

    SQLAlchemy's ``execute(statement, rows)`` checks and converts every value of every
    row in Python: for a busy server's group commits (some 90 events each, 30 a second)
    that was most of the database thread's Python time. The rows given here hold only
    values the drivers take as they are (text, whole numbers, None); a value with a type
    that needs converting (the time an event was stored) is given once for the whole
    batch and converted once, with the column type's own converter."""

    def __init__(
        self, statement: Any, columns: tuple[str, ...], constants: tuple[str, ...]
    ) -> None:
        self.statement = statement
        self.columns = columns
        self.constants = constants
        self._compiled: dict[Any, tuple[str, list[str] | None, dict[str, Any]]] = {}

    def _for(self, dialect: Any) -> tuple[str, list[str] | None, dict[str, Any]]:
        found = self._compiled.get(dialect)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            order = list(compiled.positiontup) if compiled.positional else None
            names = set(order if order is not None else compiled.binds)
            if names != {*self.columns, *self.constants}:
                raise RuntimeError(f"the statement binds {sorted(names)}")
            table = self.statement.table
            converters = {
                name: table.c[name].type.dialect_impl(dialect).bind_processor(dialect)
                for name in self.constants
            }
            found = self._compiled[dialect] = (compiled.string, order, converters)
        return found

    def run(self, connection: Any, rows: list[tuple[Any, ...]], **constants: Any) -> Any:
        """Execute the statement once for each row (its values in :attr:`columns`'
        order), with ``constants`` (the values of :attr:`constants`) the same in each."""
        sql, order, converters = self._for(connection.dialect)
        fixed = {
            name: value if converters[name] is None else converters[name](value)
            for name, value in constants.items()
        }
        params: list[Any]
        if order is None:  # named parameters
            params = [{**dict(zip(self.columns, row, strict=True)), **fixed} for row in rows]
        else:
            position = {name: i for i, name in enumerate(self.columns)}
            picks = [(position.get(name), fixed.get(name)) for name in order]
            params = [tuple(v if i is None else row[i] for i, v in picks) for row in rows]
        return connection.exec_driver_sql(sql, params)


_INSERT_EVENTS = _Bulk(
    insert(EventRow).values({name: bindparam(name) for name in (*_EVENT_COLUMNS, "created_at")}),
    _EVENT_COLUMNS,
    ("created_at",),
)


def _event_rows(appends: Sequence[Append]) -> list[tuple[Any, ...]]:
    """Each event of ``appends`` as a row of :data:`_EVENT_COLUMNS`."""
    return [
        (
            a.table_id,
            e.seq,
            e.game_number,
            e.who if isinstance(e.who, int) else None,
            e.who if isinstance(e.who, str) else None,
            e.text,
            e.client_id,
        )
        for a in appends
        for e in a.events
    ]


def _insert_events(connection: Any, appends: Sequence[Append]) -> None:
    rows = _event_rows(appends)
    if rows:
        _INSERT_EVENTS.run(connection, rows, created_at=now())
    for a in appends:
        if a.hints_back_to is not None and a.events:
            _rewind_hints(connection, a.table_id, a.events[0].game_number, a.hints_back_to)


def _rewind_hints(connection: Any, table_id: str, game_number: int, kept: int) -> None:
    """The hints of a game asked when its record held more than ``kept`` events (an undo
    took those positions back) now name the position it returned to, ``at = kept``: the
    hint was asked, so the record still lists it (docs/protocol.md, the record's
    ``hints``)."""
    connection.execute(
        update(HintRow)
        .where(
            HintRow.table_id == table_id,
            HintRow.game_number == game_number,
            HintRow.at > kept,
        )
        .values(at=kept)
    )


_SET_STATUS = _Bulk(
    update(TableRow)
    .where(
        TableRow.id == bindparam("b_id"),
        func.coalesce(
            _LAST_SEQ.where(EventRow.table_id == TableRow.id).scalar_subquery(),
            literal_column("0"),
        )
        == bindparam("b_last"),
    )
    .values(
        status=bindparam("b_status"),
        game_number=func.coalesce(bindparam("b_game", type_=Integer), TableRow.game_number),
    ),
    ("b_id", "b_last", "b_status", "b_game"),
    (),
)
"""A table's new status (and game number, unless None), set only if its last event is
the one expected."""


def _set_statuses(connection: Any, appends: Sequence[Append]) -> bool:
    """Set the status (and game number) of each table of ``appends`` that changes it (a
    game's start or end), only where the table's last stored event is the append's last
    (its events are in, and nobody wrote after them), with one ``executemany`` (the
    drivers of SQLite and PostgreSQL both count its rows; tables that start and end
    their games together, as a benchmark's do, would otherwise cost a round trip to the
    database each, within the group commit); whether every such table was set."""
    rows = [
        (a.table_id, a.expected_seq + len(a.events), a.status, a.game_number)
        for a in appends
        if a.status is not None
    ]
    if not rows:
        return True
    return bool(_SET_STATUS.run(connection, rows).rowcount == len(rows))


def append_events(
    factory: Factory,
    table_id: str,
    expected_seq: int,
    events: Sequence[StoredEvent],
    status: str | None = None,
    game_number: int | None = None,
    hints_back_to: int | None = None,
) -> None:
    """Append ``events`` (numbered from ``expected_seq + 1``) and set the table's status
    (unless None; with it, the game number unless None), in one transaction (with an
    undo's ``hints_back_to``, :class:`Append`). Raises
    :class:`StaleTableError`, having written nothing, if the table already has an
    event after ``expected_seq`` (another writer went first: the events' unique
    ``(table_id, seq)`` refuses the first new one), unless those events are exactly
    ``events`` (:func:`_already_stored`: the same append, sent again after its commit's
    answer was lost, is written once and succeeds).

    The table's row is not written for an event: its sequence number is its last
    event's. An event used to rewrite the whole row (the ruleset's JSON with it) to
    move a counter on, which was half the pages a busy SQLite commit wrote and most of
    PostgreSQL's log (``bench/README.md``). It uses Core statements on the session's
    connection: the ORM's unit of work took more than half of a SQLite commit's time."""
    append = Append(table_id, expected_seq, events, status, game_number, hints_back_to)
    try:
        with factory() as session, session.begin():
            connection = session.connection()
            _insert_events(connection, [append])
            if not _set_statuses(connection, [append]):
                raise StaleTableError(table_id)
    except IntegrityError:
        if not _already_stored(factory, append):
            raise StaleTableError(table_id) from None


def _already_stored(factory: Factory, append: Append) -> bool:
    """Whether the events of ``append`` are stored already, exactly as they are: a commit
    whose answer was lost with the database's connection (PostgreSQL stopped while it
    committed) went through after all, and the same append, sent again, finds its own
    events. Their transaction set the table's status too."""
    if not append.events:
        return False
    last = append.expected_seq + len(append.events)
    with factory() as session:
        stored = session.scalars(
            select(EventRow)
            .where(
                EventRow.table_id == append.table_id,
                EventRow.seq > append.expected_seq,
                EventRow.seq <= last,
            )
            .order_by(EventRow.seq)
        ).all()
        newer = session.scalar(_LAST_SEQ.where(EventRow.table_id == append.table_id))
    return newer == last and [_stored(e) for e in stored] == list(append.events)


class _FallbackError(Exception):
    """A batch must be written one append at a time (a stale table is among them)."""


def append_many(factory: Factory, appends: Sequence[Append]) -> list[bool]:
    """Write the appends of several tables in ONE transaction (group commit): one commit,
    so one disk flush, for them all. Returns, for each, whether it was written (False:
    its table already had an event after ``expected_seq``, another writer went first;
    nothing of it was written). Every append that returns True is committed when this
    returns.

    The fast path inserts every table's events with one ``executemany``; if the unique
    ``(table_id, seq)`` refuses one, or a status could not be set, the transaction is
    rolled back and each append is written in its own transaction instead, so that one
    stale table never holds back the others."""
    if len(appends) == 1:
        a = appends[0]
        try:
            append_events(
                factory,
                a.table_id,
                a.expected_seq,
                a.events,
                a.status,
                a.game_number,
                a.hints_back_to,
            )
        except StaleTableError:
            return [False]
        return [True]
    try:
        with factory() as session, session.begin():
            connection = session.connection()
            _insert_events(connection, appends)
            if not _set_statuses(connection, appends):
                raise _FallbackError
        return [True] * len(appends)
    except (_FallbackError, IntegrityError):
        pass
    written: list[bool] = []
    for a in appends:
        try:
            append_events(
                factory,
                a.table_id,
                a.expected_seq,
                a.events,
                a.status,
                a.game_number,
                a.hints_back_to,
            )
        except StaleTableError:
            written.append(False)
        else:
            written.append(True)
    return written


class GroupCommit:
    """Batches the appends of every table into shared transactions.

    While one transaction is being written, the appends that arrive wait; the next
    transaction takes all of them at once. Each caller is answered only once the
    transaction holding its events has committed, so "committed before anyone is told"
    holds for each action, while a busy server pays one commit (and one trip to the
    database thread) for many actions instead of one each. ``run`` runs a blocking
    store function off the event loop, giving it the session factory first (the
    service's :meth:`~tricktaker.server.tables.service.TableService.db`)."""

    def __init__(self, run: Callable[..., Awaitable[list[bool]]], limit: int = 500) -> None:
        self._run = run
        self._limit = limit
        self._waiting: list[tuple[Append, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        self.transactions = 0
        """Transactions written so far (for the benchmark and the tests)."""

    async def append(self, item: Append) -> None:
        """Write ``item`` in the next shared transaction; return once it is committed.
        Raises :class:`StaleTableError` if its table's stored seq has moved on."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())
        if not await future:
            raise StaleTableError(item.table_id)

    async def _write(self) -> None:
        while self._waiting:
            batch = self._waiting[: self._limit]
            del self._waiting[: self._limit]
            try:
                written = await self._run(append_many, [a for a, _ in batch])
            except asyncio.CancelledError:
                for _, future in batch:
                    future.cancel()
                raise
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            self.transactions += 1
            for (_, future), ok in zip(batch, written, strict=True):
                if not future.done():
                    future.set_result(ok)


def set_seat(factory: Factory, table_id: str, seat: SeatData) -> None:
    """Store a seat's kind, bot, name, token hash and openness."""
    with factory() as session, session.begin():
        session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
            .values(
                kind=seat.kind,
                bot=seat.bot,
                name=seat.name,
                token_hash=seat.token_hash,
                open_seat=seat.open_seat,
            )
        )


def add_chat(factory: Factory, table_id: str, seat: int | None, name: str, text: str) -> str:
    """Store a chat message; its time (ISO 8601) is returned."""
    with factory() as session, session.begin():
        when = now()
        session.add(ChatRow(table_id=table_id, seat=seat, name=name, text=text, created_at=when))
        return when.isoformat()


def add_hint(factory: Factory, table_id: str, game_number: int, seat: int, at: int) -> None:
    """Store that ``seat`` asked for a hint in the table's game ``game_number`` when its
    record held ``at`` events."""
    with factory() as session, session.begin():
        session.add(
            HintRow(table_id=table_id, game_number=game_number, seat=seat, at=at, created_at=now())
        )


def game_hints(factory: Factory, table_id: str, game_number: int) -> list[dict[str, int]]:
    """The hints asked in one game of a table, in order, as a game record lists them
    (``{"seat", "at"}``)."""
    with factory() as session:
        rows = session.execute(
            select(HintRow.seat, HintRow.at)
            .where(HintRow.table_id == table_id, HintRow.game_number == game_number)
            .order_by(HintRow.id)
        ).all()
        return [{"seat": seat, "at": at} for seat, at in rows]


CHAT_KEPT = 50
"""How many of a table's last chat messages a newcomer is shown."""


def recent_chat(
    factory: Factory, table_id: str, limit: int = CHAT_KEPT
) -> list[tuple[int | None, str, str, str]]:
    """The table's last ``limit`` chat messages, oldest first: seat, name, text, time."""
    with factory() as session:
        rows = session.scalars(
            select(ChatRow)
            .where(ChatRow.table_id == table_id)
            .order_by(ChatRow.id.desc())
            .limit(limit)
        ).all()
        return [(r.seat, r.name, r.text, r.created_at.isoformat()) for r in reversed(rows)]
