"""The table server's reads and writes, each one short transaction (run off the event loop).

Every function takes a :class:`~sqlalchemy.orm.Session` factory and commits before it
returns, so that what it wrote is durable before anyone is told of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from tricktaker.server.db import ChatRow, EventRow, SeatRow, TableRow, now


@dataclass(slots=True)
class SeatData:
    """A seat as the service holds it."""

    seat: int
    kind: str
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None


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


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One stored record event: ``who`` is a seat or a chance kind."""

    seq: int
    game_number: int
    who: int | str
    text: str
    client_id: str | None


class StaleTableError(Exception):
    """Another writer stored events of this table first (the sequence guard)."""


Factory = sessionmaker[Session]


def _table_data(row: TableRow, seats: Sequence[SeatRow]) -> TableData:
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
        seq=row.seq,
        move_timer=row.move_timer,
        away_bot=row.away_bot,
        seats=[
            SeatData(s.seat, s.kind, s.bot, s.name, s.token_hash)
            for s in sorted(seats, key=lambda s: s.seat)
        ],
    )


def create_table(factory: Factory, data: TableData, ruleset_toml: str | None) -> None:
    """Store a new table with its seats."""
    with factory() as session, session.begin():
        session.add(
            TableRow(
                id=data.id,
                created_at=now(),
                game=data.game,
                preset=data.preset,
                ruleset_toml=ruleset_toml,
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
                seq=data.seq,
                move_timer=data.move_timer,
                away_bot=data.away_bot,
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
                )
            )


def load_table(factory: Factory, table_id: str) -> tuple[TableData, list[StoredEvent]] | None:
    """A table and the events of its current game, or None if there is no such table."""
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
        return _table_data(row, seats), [_stored(e) for e in events]


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


def append_events(
    factory: Factory,
    table_id: str,
    expected_seq: int,
    events: Sequence[StoredEvent],
    status: str,
) -> None:
    """Append ``events`` (numbered from ``expected_seq + 1``) and set the table's seq and
    status, in one transaction. Raises :class:`StaleTableError` if the stored seq is not
    ``expected_seq`` (another writer went first).

    This runs once per accepted action, so it uses Core statements on the session's
    connection: the ORM's unit of work and its bulk-update bookkeeping took more than
    half of a SQLite commit's time here (``bench/server_load.py``)."""
    with factory() as session, session.begin():
        connection = session.connection()
        new_seq = expected_seq + len(events)
        changed = connection.execute(
            update(TableRow)
            .where(TableRow.id == table_id, TableRow.seq == expected_seq)
            .values(seq=new_seq, status=status)
        )
        if changed.rowcount != 1:
            raise StaleTableError(table_id)
        if events:
            stamp = now()
            connection.execute(
                insert(EventRow),
                [
                    {
                        "table_id": table_id,
                        "seq": e.seq,
                        "game_number": e.game_number,
                        "seat": e.who if isinstance(e.who, int) else None,
                        "chance": e.who if isinstance(e.who, str) else None,
                        "text": e.text,
                        "client_id": e.client_id,
                        "created_at": stamp,
                    }
                    for e in events
                ],
            )


def set_table(factory: Factory, table_id: str, **values: Any) -> None:
    """Change some of a table's columns (``status``, ``game_number``...)."""
    with factory() as session, session.begin():
        session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))


def set_seat(factory: Factory, table_id: str, seat: SeatData) -> None:
    """Store a seat's kind, bot, name and token hash."""
    with factory() as session, session.begin():
        session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
            .values(kind=seat.kind, bot=seat.bot, name=seat.name, token_hash=seat.token_hash)
        )


def add_chat(factory: Factory, table_id: str, seat: int | None, name: str, text: str) -> str:
    """Store a chat message; its time (ISO 8601) is returned."""
    with factory() as session, session.begin():
        when = now()
        session.add(ChatRow(table_id=table_id, seat=seat, name=name, text=text, created_at=when))
        return when.isoformat()


def recent_chat(
    factory: Factory, table_id: str, limit: int = 50
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
