"""What a player's page reads from the database: the user of a name, the tables whose
seats are linked to users, when each game ended, and the sheets a user keeps.

Read only; each function takes a session factory. Nothing here reads a token or a
password's hash.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from tricktaker.server.accounts.store import AccountSeatRow, AccountSheetRow, UserRow, aware
from tricktaker.server.clubs.store import ClubSheetRow
from tricktaker.server.db import EventRow, TableRow

Factory = sessionmaker[Session]


@dataclass(frozen=True, slots=True)
class Person:
    """A user, as their page names them."""

    id: int
    name: str
    created_at: datetime


def person_of(factory: Factory, key: str) -> Person | None:
    """The user whose name's lower case is ``key`` (None: no such user)."""
    with factory() as session:
        row = session.scalars(select(UserRow).where(UserRow.name_key == key)).first()
        return None if row is None else Person(row.id, row.name, aware(row.created_at))


@dataclass(frozen=True, slots=True)
class LinkedTable:
    """A table with seats linked to users: the user at each linked seat, how many games
    it has begun, its status and whether it is listed publicly."""

    id: str
    people: dict[int, int]
    """Seat to user id."""
    game_number: int
    status: str
    public: bool

    def finished_games(self) -> list[int]:
        """The numbers of its games that are over: every game before the one it is at,
        and that one once the table is finished."""
        last = self.game_number if self.status == "finished" else self.game_number - 1
        return list(range(1, last + 1))


def _linked(session: Session, table_ids: Sequence[str] | None) -> list[LinkedTable]:
    query = select(
        AccountSeatRow.table_id,
        AccountSeatRow.seat,
        AccountSeatRow.user_id,
        TableRow.game_number,
        TableRow.status,
        TableRow.public,
    ).join(TableRow, TableRow.id == AccountSeatRow.table_id)
    if table_ids is not None:
        query = query.where(AccountSeatRow.table_id.in_(list(table_ids)))
    tables: dict[str, LinkedTable] = {}
    for table_id, seat, user_id, number, status, public in session.execute(query).all():
        found = tables.get(table_id)
        if found is None:
            found = tables[table_id] = LinkedTable(table_id, {}, number, status, bool(public))
        found.people[seat] = user_id
    return [tables[key] for key in sorted(tables)]


def tables_of(factory: Factory, user_id: int) -> list[LinkedTable]:
    """The tables where ``user_id`` holds a seat, with every linked seat of each."""
    with factory() as session:
        mine = session.scalars(
            select(AccountSeatRow.table_id).where(AccountSeatRow.user_id == user_id).distinct()
        ).all()
        return _linked(session, list(mine)) if mine else []


def shared_tables(factory: Factory) -> list[LinkedTable]:
    """Every table where two users or more hold seats (the games that may be rated)."""
    with factory() as session:
        ids = session.scalars(
            select(AccountSeatRow.table_id)
            .group_by(AccountSeatRow.table_id)
            .having(func.count(func.distinct(AccountSeatRow.user_id)) >= 2)
        ).all()
        return _linked(session, list(ids)) if ids else []


def finish_times(factory: Factory, table_ids: Sequence[str]) -> dict[tuple[str, int], datetime]:
    """When each game of the tables had its last event: ``{(table id, game): time}``."""
    found: dict[tuple[str, int], datetime] = {}
    ids = sorted(set(table_ids))
    with factory() as session:
        for start in range(0, len(ids), 500):
            rows = session.execute(
                select(EventRow.table_id, EventRow.game_number, func.max(EventRow.created_at))
                .where(EventRow.table_id.in_(ids[start : start + 500]))
                .group_by(EventRow.table_id, EventRow.game_number)
            ).all()
            for table_id, number, stamp in rows:
                if stamp is not None:
                    found[(table_id, number)] = aware(stamp)
    return found


def sheets_of(factory: Factory, user_id: int) -> list[str]:
    """The ids of the score sheets linked to ``user_id``, the latest linked first."""
    with factory() as session:
        return list(
            session.scalars(
                select(AccountSheetRow.sheet_id)
                .where(AccountSheetRow.user_id == user_id)
                .order_by(AccountSheetRow.created_at.desc(), AccountSheetRow.id.desc())
            ).all()
        )


def sheet_members(factory: Factory, sheet_id: str) -> list[int | None] | None:
    """The user at each column of a sheet kept for a club's evening (None at a guest's
    column), or None for a sheet that records no one (its columns are names only)."""
    with factory() as session:
        row = session.get(ClubSheetRow, sheet_id)
        return None if row is None else list(row.members)
