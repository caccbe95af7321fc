"""Score sheets in the server's database: the models and their short transactions.

A sheet row holds the rules (as data), players, first dealer and credentials; its log
(``sheet_entries``) holds every entry in order. Each function takes a session factory
and commits before it returns, so what it wrote is durable before anyone is told.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from tricktaker.server.db import Base, now

Factory = sessionmaker[Session]


class SheetRow(Base):
    """One score sheet: its rules, players, first dealer and credentials. ``seq``
    counts the entries of its log (the guard against two writers)."""

    __tablename__ = "sheets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    game: Mapped[str] = mapped_column(String(100))
    ruleset_toml: Mapped[str | None] = mapped_column(Text, nullable=True)
    ruleset_data: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[str]] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    view_key: Mapped[str] = mapped_column(String(64))
    edit_link_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The hash of the edit link's key (another phone may keep the sheet), if one is out."""
    seq: Mapped[int] = mapped_column(Integer, default=0)


class SheetEntryRow(Base):
    """One entry of a sheet's log: ``add`` (a hand), ``fix`` (hand ``hand`` corrected)
    or ``undo`` (the last hand taken back), with the client's id of the request."""

    __tablename__ = "sheet_entries"
    __table_args__ = (
        UniqueConstraint("sheet_id", "seq", name="uq_sheet_entries_sheet_seq"),
        UniqueConstraint("sheet_id", "client_id", name="uq_sheet_entries_sheet_client"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    sheet_id: Mapped[str] = mapped_column(ForeignKey("sheets.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    hand: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclass(frozen=True, slots=True)
class Op:
    """A stored entry of a sheet's log."""

    seq: int
    kind: str
    hand: int
    data: dict[str, Any]
    client_id: str | None


@dataclass(slots=True)
class StoredSheet:
    """A sheet as stored; ``ops`` is None when only its head was read."""

    id: str
    game: str
    ruleset_toml: str | None
    ruleset_data: dict[str, Any]
    options: dict[str, Any]
    players: list[str]
    first_dealer: int
    edit_token_hash: str
    view_key: str
    seq: int
    ops: list[Op] | None = None
    edit_link_hash: str | None = None


class StaleSheetError(Exception):
    """Another writer stored an entry of this sheet first, or the entry's id was taken."""


def store_sheet(factory: Factory, stored: StoredSheet, ops: Sequence[Op]) -> None:
    """Store a new sheet and its log (an imported sheet comes with one)."""
    with factory() as session, session.begin():
        stamp = now()
        session.add(
            SheetRow(
                id=stored.id,
                game=stored.game,
                ruleset_toml=stored.ruleset_toml,
                ruleset_data=stored.ruleset_data,
                options=stored.options,
                players=stored.players,
                first_dealer=stored.first_dealer,
                edit_token_hash=stored.edit_token_hash,
                view_key=stored.view_key,
                created_at=stamp,
                updated_at=stamp,
                seq=len(ops),
            )
        )
        session.flush()
        for op in ops:
            session.add(SheetEntryRow(**_entry_columns(stored.id, op, stamp)))


class _EntryColumns(TypedDict):
    """A stored entry's columns (:class:`SheetEntryRow`), for the ORM row and the insert."""

    sheet_id: str
    seq: int
    kind: str
    hand: int
    data: dict[str, Any]
    client_id: str | None
    created_at: datetime


def _entry_columns(sheet_id: str, op: Op, stamp: datetime) -> _EntryColumns:
    return _EntryColumns(
        sheet_id=sheet_id,
        seq=op.seq,
        kind=op.kind,
        hand=op.hand,
        data=op.data,
        client_id=op.client_id,
        created_at=stamp,
    )


def load_sheet(factory: Factory, sheet_id: str, known_seq: int | None) -> StoredSheet | None:
    """The sheet, with its log unless the stored ``seq`` is ``known_seq`` (the caller
    has that version built already); None if there is no such sheet."""
    with factory() as session:
        row = session.get(SheetRow, sheet_id)
        if row is None:
            return None
        stored = StoredSheet(
            id=row.id,
            game=row.game,
            ruleset_toml=row.ruleset_toml,
            ruleset_data=row.ruleset_data,
            options=row.options,
            players=list(row.players),
            first_dealer=row.first_dealer,
            edit_token_hash=row.edit_token_hash,
            view_key=row.view_key,
            seq=row.seq,
            edit_link_hash=row.edit_link_hash,
        )
        if row.seq != known_seq:
            entries = session.scalars(
                select(SheetEntryRow)
                .where(SheetEntryRow.sheet_id == sheet_id)
                .order_by(SheetEntryRow.seq)
            ).all()
            stored.ops = [Op(e.seq, e.kind, e.hand, e.data or {}, e.client_id) for e in entries]
        return stored


def set_edit_link(factory: Factory, sheet_id: str, link_hash: str | None) -> bool:
    """Store the hash of the sheet's new edit link (None: no link; the old one stops
    working either way); False if there is no such sheet."""
    with factory() as session, session.begin():
        changed = session.execute(
            update(SheetRow).where(SheetRow.id == sheet_id).values(edit_link_hash=link_hash)
        )
        return bool(changed.rowcount == 1)  # type: ignore[attr-defined]


def append_op(factory: Factory, sheet_id: str, op: Op) -> None:
    """Store ``op`` as entry ``op.seq`` of the log, in one transaction with the sheet's
    seq. Raises :class:`StaleSheetError` if the log was not at ``op.seq - 1``."""
    with factory() as session, session.begin():
        connection = session.connection()
        stamp = now()
        changed = connection.execute(
            update(SheetRow)
            .where(SheetRow.id == sheet_id, SheetRow.seq == op.seq - 1)
            .values(seq=op.seq, updated_at=stamp)
        )
        if changed.rowcount != 1:
            raise StaleSheetError(sheet_id)
        try:
            connection.execute(
                insert(SheetEntryRow),
                [_entry_columns(sheet_id, op, stamp)],
            )
        except IntegrityError:
            raise StaleSheetError(sheet_id) from None
