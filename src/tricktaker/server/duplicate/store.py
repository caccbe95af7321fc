"""Duplicate sets and their tables in the database (migrations 0011 and 0014: the server's
secrets), each read or written
in one short transaction, as the tables' own store functions
(:mod:`tricktaker.server.tables.store`)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from tricktaker.duplicate import DuplicateError, DuplicateSet
from tricktaker.server.accounts.store import AccountSeatRow, UserRow
from tricktaker.server.db import Base, SeatRow, hash_token, now
from tricktaker.server.errors import DamagedError
from tricktaker.server.tables.store import Factory


class DuplicateSetRow(Base):
    """A duplicate set: the game, the seed and every hand's deck order (card names)."""

    __tablename__ = "duplicate_sets"
    __table_args__ = (UniqueConstraint("preset", "day", name="uq_duplicate_sets_daily"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    name: Mapped[str | None] = mapped_column(String(60), nullable=True)
    game: Mapped[str] = mapped_column(String(100))
    preset: Mapped[str | None] = mapped_column(String(100), nullable=True)
    ruleset_toml: Mapped[str | None] = mapped_column(Text, nullable=True)
    """A house ruleset's file (None: the shipped game ``preset``)."""
    ruleset_data: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    deals: Mapped[list[str]] = mapped_column(JSON)
    host_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    day: Mapped[str | None] = mapped_column(String(10), nullable=True)
    """A daily challenge's day (``YYYY-MM-DD``, UTC); None for a set someone made."""


class DuplicateTableRow(Base):
    """A table of a set, numbered from 1 in the order the tables were made."""

    __tablename__ = "duplicate_tables"
    __table_args__ = (UniqueConstraint("set_id", "number", name="uq_duplicate_tables_set_number"),)

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    set_id: Mapped[str] = mapped_column(ForeignKey("duplicate_sets.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ServerSecretRow(Base):
    """A random value the server made once, the first time it was needed, and never sends
    (``daily``: where the daily challenge's deals come from)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclass(frozen=True, slots=True)
class SetData:
    """A stored set, as the routes hold it."""

    id: str
    name: str | None
    preset: str | None
    ruleset_toml: str | None
    duplicate: DuplicateSet
    host_token_hash: str | None
    day: str | None
    created_at: datetime


def _set_data(row: DuplicateSetRow) -> SetData:
    try:
        duplicate = DuplicateSet.from_json(
            {
                "game": row.game,
                "ruleset": row.ruleset_data,
                "options": row.options,
                "players": row.players,
                "seed": row.seed,
                "deals": row.deals,
            }
        )
    except DuplicateError as exc:
        raise DamagedError("damaged-set", f"Duplicate set {row.id} cannot be read: {exc}") from None
    return SetData(
        id=row.id,
        name=row.name,
        preset=row.preset,
        ruleset_toml=row.ruleset_toml,
        duplicate=duplicate,
        host_token_hash=row.host_token_hash,
        day=row.day,
        created_at=row.created_at,
    )


def _row(data: SetData) -> DuplicateSetRow:
    stored = data.duplicate.to_json()
    return DuplicateSetRow(
        id=data.id,
        created_at=data.created_at,
        name=data.name,
        game=stored["game"],
        preset=data.preset,
        ruleset_toml=data.ruleset_toml,
        ruleset_data=stored["ruleset"],
        options=stored["options"],
        players=stored["players"],
        seed=stored["seed"],
        deals=stored["deals"],
        host_token_hash=data.host_token_hash,
        day=data.day,
    )


def create_set(factory: Factory, data: SetData) -> SetData:
    """Store a new set; a daily challenge already stored for its preset and day is
    returned instead (two servers asked for it at once)."""
    try:
        with factory() as session, session.begin():
            session.add(_row(data))
    except IntegrityError:
        if data.day is None or data.preset is None:
            raise
        found = daily_set(factory, data.preset, data.day)
        if found is None:
            raise
        return found
    return data


def load_set(factory: Factory, set_id: str) -> SetData | None:
    """The set ``set_id`` (None: none)."""
    with factory() as session:
        row = session.get(DuplicateSetRow, set_id)
        return _set_data(row) if row is not None else None


def daily_set(factory: Factory, preset: str, day: str) -> SetData | None:
    """The daily challenge of ``preset`` on ``day`` (None: not made yet)."""
    with factory() as session:
        row = session.scalar(
            select(DuplicateSetRow).where(
                DuplicateSetRow.preset == preset, DuplicateSetRow.day == day
            )
        )
        return _set_data(row) if row is not None else None


def add_table(factory: Factory, set_id: str, table_id: str) -> int:
    """Link the stored table ``table_id`` to the set; its number in the set."""
    for _ in range(5):  # two tables made at once take the next number by turns
        try:
            with factory() as session, session.begin():
                last = session.scalar(
                    select(func.max(DuplicateTableRow.number)).where(
                        DuplicateTableRow.set_id == set_id
                    )
                )
                number = (last or 0) + 1
                session.add(
                    DuplicateTableRow(
                        table_id=table_id, set_id=set_id, number=number, created_at=now()
                    )
                )
            return number
        except IntegrityError:
            continue
    raise RuntimeError(f"no number could be given to table {table_id} of set {set_id}")


def set_tables(factory: Factory, set_id: str) -> list[tuple[str, int]]:
    """The set's tables, ``(table id, number)`` in the order made."""
    with factory() as session:
        rows = session.execute(
            select(DuplicateTableRow.table_id, DuplicateTableRow.number)
            .where(DuplicateTableRow.set_id == set_id)
            .order_by(DuplicateTableRow.number)
        )
        return [(table_id, number) for table_id, number in rows]


def table_deals(factory: Factory, table_id: str) -> tuple[tuple[int, ...], ...] | None:
    """The deals the table ``table_id`` plays, when it is a table of a set (else None)."""
    with factory() as session:
        row = session.scalar(
            select(DuplicateSetRow)
            .join(DuplicateTableRow, DuplicateTableRow.set_id == DuplicateSetRow.id)
            .where(DuplicateTableRow.table_id == table_id)
        )
        return _set_data(row).duplicate.deals if row is not None else None


def server_secret(factory: Factory, name: str) -> bytes:
    """The server's secret ``name``, made (32 random bytes) and stored the first time it
    is asked for; two servers asking at once get the same one."""
    for _ in range(3):
        with factory() as session:
            row = session.get(ServerSecretRow, name)
            if row is not None:
                return bytes.fromhex(row.value)
        try:
            with factory() as session, session.begin():
                session.add(
                    ServerSecretRow(name=name, value=secrets.token_hex(32), created_at=now())
                )
        except IntegrityError:
            continue  # another server made it first: read theirs
    raise RuntimeError(f"the server's secret {name!r} could not be made")


def viewer_tables(
    factory: Factory, set_id: str, seat_token: str | None, user_id: int | None
) -> set[str]:
    """The set's tables where the viewer holds a seat: the table whose seat ``seat_token``
    is, and every table where a seat is linked to the account ``user_id``."""
    found: set[str] = set()
    with factory() as session:
        if seat_token is not None:
            found.update(
                session.scalars(
                    select(SeatRow.table_id)
                    .join(DuplicateTableRow, DuplicateTableRow.table_id == SeatRow.table_id)
                    .where(
                        DuplicateTableRow.set_id == set_id,
                        SeatRow.token_hash == hash_token(seat_token),
                    )
                )
            )
        if user_id is not None:
            found.update(
                session.scalars(
                    select(AccountSeatRow.table_id)
                    .join(DuplicateTableRow, DuplicateTableRow.table_id == AccountSeatRow.table_id)
                    .where(DuplicateTableRow.set_id == set_id, AccountSeatRow.user_id == user_id)
                )
            )
    return found


def seat_accounts(factory: Factory, set_id: str) -> dict[tuple[str, int], str]:
    """The account name of each seat of the set's tables that is linked to an account,
    by ``(table id, seat)``."""
    with factory() as session:
        rows = session.execute(
            select(AccountSeatRow.table_id, AccountSeatRow.seat, UserRow.name)
            .join(UserRow, UserRow.id == AccountSeatRow.user_id)
            .join(DuplicateTableRow, DuplicateTableRow.table_id == AccountSeatRow.table_id)
            .where(DuplicateTableRow.set_id == set_id)
        )
        return {(table_id, seat): name for table_id, seat, name in rows}


def link_seat(factory: Factory, user_id: int, table_id: str, seat: int) -> None:
    """Link the seat ``seat`` of ``table_id`` to the account ``user_id`` (a person's own
    table of the daily challenge)."""
    with factory() as session, session.begin():
        session.add(AccountSeatRow(user_id=user_id, table_id=table_id, seat=seat, created_at=now()))


def set_of_table(factory: Factory, table_id: str) -> str | None:
    """The id of the set the table ``table_id`` is of (None: it is no set's)."""
    with factory() as session:
        return session.scalar(
            select(DuplicateTableRow.set_id).where(DuplicateTableRow.table_id == table_id)
        )
