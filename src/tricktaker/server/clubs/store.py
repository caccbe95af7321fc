"""Clubs in the database (migration 0013): the models and their short transactions,
each function taking a session factory and committing before it returns, as the
tables' own store functions (:mod:`tricktaker.server.tables.store`).

Nothing here returns an invitation code (only its hash is stored) or a table's host
token to anyone but the club routes, which never answer it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from tricktaker.server.accounts.store import AccountSeatRow, UserRow, aware
from tricktaker.server.db import Base, now
from tricktaker.server.tables.messages import ClubEvening, ClubPlace

Factory = sessionmaker[Session]

ORGANISER = "organiser"
MEMBER = "member"


class ClubRow(Base):
    """A club: its name and house rules (a ruleset, its options and their fingerprint)."""

    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    game: Mapped[str] = mapped_column(String(100))
    preset: Mapped[str | None] = mapped_column(String(100), nullable=True)
    ruleset_toml: Mapped[str | None] = mapped_column(Text, nullable=True)
    ruleset_data: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    fingerprint: Mapped[str] = mapped_column(String(64))


class ClubMemberRow(Base):
    """A user's membership of a club, with their role."""

    __tablename__ = "club_members"
    __table_args__ = (UniqueConstraint("club_id", "user_id", name="uq_club_members_club_user"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(12))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ClubInviteRow(Base):
    """An invitation: the hash of its code, its expiry, whether it was revoked."""

    __tablename__ = "club_invites"
    __table_args__ = (UniqueConstraint("code_hash", name="uq_club_invites_code_hash"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    code_hash: Mapped[str] = mapped_column(String(64))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked: Mapped[bool] = mapped_column(Boolean, default=False)
    uses: Mapped[int] = mapped_column(Integer, default=0)


class ClubEveningRow(Base):
    """An evening of a club: a day and a kind (tables, duplicate, cards)."""

    __tablename__ = "club_evenings"
    __table_args__ = (Index("ix_club_evenings_club_day", "club_id", "day"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    day: Mapped[str] = mapped_column(String(10))
    name: Mapped[str | None] = mapped_column(String(60), nullable=True)
    kind: Mapped[str] = mapped_column(String(12))
    set_id: Mapped[str | None] = mapped_column(
        ForeignKey("duplicate_sets.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ClubTableRow(Base):
    """A table of an evening, numbered from 1, with its host token (the server starts
    it for the club's organisers; never answered)."""

    __tablename__ = "club_tables"
    __table_args__ = (
        UniqueConstraint("evening_id", "number", name="uq_club_tables_evening_number"),
    )

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    evening_id: Mapped[str] = mapped_column(ForeignKey("club_evenings.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    host_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ClubSheetRow(Base):
    """A score sheet kept for an evening, with the user at each column (None: a guest)."""

    __tablename__ = "club_sheets"

    sheet_id: Mapped[str] = mapped_column(
        ForeignKey("sheets.id", ondelete="CASCADE"), primary_key=True
    )
    evening_id: Mapped[str] = mapped_column(ForeignKey("club_evenings.id", ondelete="CASCADE"))
    members: Mapped[list[int | None]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


# ------------------------------------------------------------------ clubs


@dataclass(frozen=True, slots=True)
class Club:
    """A stored club."""

    id: str
    name: str
    created_at: datetime
    game: str
    preset: str | None
    ruleset_toml: str | None
    ruleset_data: dict[str, Any]
    options: dict[str, Any]
    players: int
    fingerprint: str


def _club(row: ClubRow) -> Club:
    return Club(
        row.id,
        row.name,
        aware(row.created_at),
        row.game,
        row.preset,
        row.ruleset_toml,
        dict(row.ruleset_data),
        dict(row.options),
        row.players,
        row.fingerprint,
    )


def create_club(factory: Factory, club: Club, organiser: int) -> Club:
    """Store a new club, ``organiser`` its first organiser."""
    with factory() as session, session.begin():
        session.add(
            ClubRow(
                id=club.id,
                name=club.name,
                created_at=club.created_at,
                game=club.game,
                preset=club.preset,
                ruleset_toml=club.ruleset_toml,
                ruleset_data=club.ruleset_data,
                options=club.options,
                players=club.players,
                fingerprint=club.fingerprint,
            )
        )
        session.flush()
        session.add(
            ClubMemberRow(club_id=club.id, user_id=organiser, role=ORGANISER, joined_at=now())
        )
    return club


def load_club(factory: Factory, club_id: str) -> Club | None:
    """The club ``club_id`` (None: none)."""
    with factory() as session:
        row = session.get(ClubRow, club_id)
        return _club(row) if row is not None else None


def clubs_of(factory: Factory, user_id: int) -> list[tuple[Club, str]]:
    """The clubs ``user_id`` belongs to, with their role, by name."""
    with factory() as session:
        rows = session.execute(
            select(ClubRow, ClubMemberRow.role)
            .join(ClubMemberRow, ClubMemberRow.club_id == ClubRow.id)
            .where(ClubMemberRow.user_id == user_id)
            .order_by(ClubRow.name, ClubRow.id)
        ).all()
        return [(_club(row), role) for row, role in rows]


def role_of(factory: Factory, club_id: str, user_id: int) -> str | None:
    """The user's role in the club (None: not a member)."""
    with factory() as session:
        return session.scalars(
            select(ClubMemberRow.role).where(
                ClubMemberRow.club_id == club_id, ClubMemberRow.user_id == user_id
            )
        ).first()


@dataclass(frozen=True, slots=True)
class Member:
    """A member of a club."""

    user_id: int
    name: str
    role: str
    joined_at: datetime


def members(factory: Factory, club_id: str) -> list[Member]:
    """The club's members, organisers first, then by name."""
    with factory() as session:
        rows = session.execute(
            select(ClubMemberRow.user_id, UserRow.name, ClubMemberRow.role, ClubMemberRow.joined_at)
            .join(UserRow, UserRow.id == ClubMemberRow.user_id)
            .where(ClubMemberRow.club_id == club_id)
        ).all()
    found = [Member(user, name, role, aware(joined)) for user, name, role, joined in rows]
    return sorted(found, key=lambda m: (m.role != ORGANISER, m.name.lower()))


class LastOrganiserError(Exception):
    """The change would leave the club without an organiser."""


def change_member(factory: Factory, club_id: str, user_id: int, role: str | None) -> bool:
    """Give the member ``role``, or remove them (``role`` None): False if they are not a
    member; :class:`LastOrganiserError` if no organiser would be left."""
    with factory() as session, session.begin():
        row = session.scalars(
            select(ClubMemberRow)
            .where(ClubMemberRow.club_id == club_id, ClubMemberRow.user_id == user_id)
            .with_for_update()
        ).first()
        if row is None:
            return False
        if row.role == ORGANISER and role != ORGANISER:
            organisers = session.scalar(
                select(func.count()).where(
                    ClubMemberRow.club_id == club_id, ClubMemberRow.role == ORGANISER
                )
            )
            if (organisers or 0) <= 1:
                raise LastOrganiserError()
        if role is None:
            session.delete(row)
        else:
            row.role = role
    return True


def user_named(factory: Factory, key: str) -> tuple[int, str] | None:
    """The user whose name's lower case is ``key``: (id, name)."""
    with factory() as session:
        found = session.execute(select(UserRow.id, UserRow.name).where(UserRow.name_key == key))
        row = found.first()
        return (row[0], row[1]) if row is not None else None


# ------------------------------------------------------------------ invitations


@dataclass(frozen=True, slots=True)
class Invite:
    """An invitation, without its code."""

    id: str
    club_id: str
    created_at: datetime
    expires_at: datetime
    revoked: bool
    uses: int

    def open_at(self, moment: datetime) -> bool:
        """Whether it may still be accepted at ``moment``."""
        return not self.revoked and moment < self.expires_at


def _invite(row: ClubInviteRow) -> Invite:
    return Invite(
        row.id,
        row.club_id,
        aware(row.created_at),
        aware(row.expires_at),
        row.revoked,
        row.uses,
    )


def create_invite(
    factory: Factory, invite_id: str, club_id: str, code_hash: str, by: int, expires: datetime
) -> Invite:
    """Store an invitation (its code's hash)."""
    with factory() as session, session.begin():
        row = ClubInviteRow(
            id=invite_id,
            club_id=club_id,
            code_hash=code_hash,
            created_by=by,
            created_at=now(),
            expires_at=expires,
            revoked=False,
            uses=0,
        )
        session.add(row)
        session.flush()
        return _invite(row)


def invites(factory: Factory, club_id: str) -> list[Invite]:
    """The club's invitations, the newest first."""
    with factory() as session:
        rows = session.scalars(
            select(ClubInviteRow)
            .where(ClubInviteRow.club_id == club_id)
            .order_by(ClubInviteRow.created_at.desc(), ClubInviteRow.id)
        ).all()
        return [_invite(row) for row in rows]


def revoke_invite(factory: Factory, club_id: str, invite_id: str) -> bool:
    """Revoke an invitation of the club (False: it has none of that id)."""
    with factory() as session, session.begin():
        done = session.execute(
            update(ClubInviteRow)
            .where(ClubInviteRow.club_id == club_id, ClubInviteRow.id == invite_id)
            .values(revoked=True)
        )
        return bool(done.rowcount)  # type: ignore[attr-defined]


def invite_of(factory: Factory, code_hash: str) -> tuple[Invite, Club] | None:
    """The invitation whose code hashes to ``code_hash``, and its club."""
    with factory() as session:
        row = session.scalars(
            select(ClubInviteRow).where(ClubInviteRow.code_hash == code_hash)
        ).first()
        if row is None:
            return None
        club = session.get(ClubRow, row.club_id)
        return (_invite(row), _club(club)) if club is not None else None


def accept(factory: Factory, code_hash: str, user_id: int, moment: datetime) -> str | None:
    """Make ``user_id`` a member of the invitation's club (already one: nothing
    changes): the club's id, or None when the code is unknown, revoked or expired."""
    with factory() as session, session.begin():
        row = session.scalars(
            select(ClubInviteRow).where(ClubInviteRow.code_hash == code_hash).with_for_update()
        ).first()
        if row is None or not _invite(row).open_at(moment):
            return None
        held = session.scalars(
            select(ClubMemberRow.id).where(
                ClubMemberRow.club_id == row.club_id, ClubMemberRow.user_id == user_id
            )
        ).first()
        if held is None:
            try:
                with session.begin_nested():
                    session.add(
                        ClubMemberRow(
                            club_id=row.club_id, user_id=user_id, role=MEMBER, joined_at=now()
                        )
                    )
                    session.flush()
            except IntegrityError:  # the same user accepting twice at once
                pass
            else:
                row.uses += 1
        return row.club_id


# ------------------------------------------------------------------ evenings


@dataclass(frozen=True, slots=True)
class Evening:
    """An evening of a club."""

    id: str
    club_id: str
    day: str
    name: str | None
    kind: str
    set_id: str | None
    created_at: datetime


def _evening(row: ClubEveningRow) -> Evening:
    return Evening(
        row.id, row.club_id, row.day, row.name, row.kind, row.set_id, aware(row.created_at)
    )


def create_evening(factory: Factory, evening: Evening) -> Evening:
    """Store a new evening."""
    with factory() as session, session.begin():
        session.add(
            ClubEveningRow(
                id=evening.id,
                club_id=evening.club_id,
                day=evening.day,
                name=evening.name,
                kind=evening.kind,
                set_id=evening.set_id,
                created_at=evening.created_at,
            )
        )
    return evening


def evenings(
    factory: Factory, club_id: str, first: str | None = None, last: str | None = None
) -> list[Evening]:
    """The club's evenings from day ``first`` to ``last`` (inclusive; None: no bound),
    the latest first."""
    query = select(ClubEveningRow).where(ClubEveningRow.club_id == club_id)
    if first is not None:
        query = query.where(ClubEveningRow.day >= first)
    if last is not None:
        query = query.where(ClubEveningRow.day <= last)
    query = query.order_by(ClubEveningRow.day.desc(), ClubEveningRow.created_at.desc())
    with factory() as session:
        return [_evening(row) for row in session.scalars(query).all()]


def load_evening(factory: Factory, club_id: str, evening_id: str) -> Evening | None:
    """The club's evening ``evening_id`` (None: the club has none of that id)."""
    with factory() as session:
        row = session.get(ClubEveningRow, evening_id)
        return _evening(row) if row is not None and row.club_id == club_id else None


@dataclass(frozen=True, slots=True)
class ClubTable:
    """A table of an evening."""

    table_id: str
    evening_id: str
    number: int
    host_token: str


def add_table(factory: Factory, evening_id: str, table_id: str, host_token: str) -> int:
    """Link the stored table to the evening; its number in the evening."""
    for _ in range(5):  # two tables made at once take the next number by turns
        try:
            with factory() as session, session.begin():
                last = session.scalar(
                    select(func.max(ClubTableRow.number)).where(
                        ClubTableRow.evening_id == evening_id
                    )
                )
                number = (last or 0) + 1
                session.add(
                    ClubTableRow(
                        table_id=table_id,
                        evening_id=evening_id,
                        number=number,
                        host_token=host_token,
                        created_at=now(),
                    )
                )
            return number
        except IntegrityError:
            continue
    raise RuntimeError(f"no number could be given to table {table_id} of evening {evening_id}")


def evening_tables(factory: Factory, evening_ids: Sequence[str]) -> list[ClubTable]:
    """The tables of the evenings, by evening and number."""
    if not evening_ids:
        return []
    with factory() as session:
        rows = session.scalars(
            select(ClubTableRow)
            .where(ClubTableRow.evening_id.in_(list(evening_ids)))
            .order_by(ClubTableRow.evening_id, ClubTableRow.number)
        ).all()
        return [ClubTable(r.table_id, r.evening_id, r.number, r.host_token) for r in rows]


def club_table(factory: Factory, club_id: str, table_id: str) -> ClubTable | None:
    """The table ``table_id`` when it is one of the club's evenings' (else None)."""
    with factory() as session:
        row = session.execute(
            select(ClubTableRow)
            .join(ClubEveningRow, ClubEveningRow.id == ClubTableRow.evening_id)
            .where(ClubTableRow.table_id == table_id, ClubEveningRow.club_id == club_id)
        ).scalar()
        if row is None:
            return None
        return ClubTable(row.table_id, row.evening_id, row.number, row.host_token)


def place(club: Club | ClubRow, evening: Evening | ClubEveningRow, number: int | None) -> ClubPlace:
    """What a table of the evening (its ``number``), or its duplicate set (None), shows
    of the club: its id and name, and the evening."""
    return ClubPlace(
        id=club.id,
        name=club.name,
        evening=ClubEvening(id=evening.id, day=evening.day, name=evening.name),
        number=number,
    )


def place_of_table(factory: Factory, table_id: str) -> ClubPlace | None:
    """The club and evening the table was made for (None: it was not a club's)."""
    with factory() as session:
        found = session.execute(
            select(ClubRow, ClubEveningRow, ClubTableRow.number)
            .join(ClubEveningRow, ClubEveningRow.club_id == ClubRow.id)
            .join(ClubTableRow, ClubTableRow.evening_id == ClubEveningRow.id)
            .where(ClubTableRow.table_id == table_id)
        ).first()
        return None if found is None else place(found[0], found[1], found[2])


def place_of_set(factory: Factory, set_id: str) -> ClubPlace | None:
    """The club and duplicate evening the duplicate set was made for (None: none)."""
    with factory() as session:
        found = session.execute(
            select(ClubRow, ClubEveningRow)
            .join(ClubEveningRow, ClubEveningRow.club_id == ClubRow.id)
            .where(ClubEveningRow.set_id == set_id)
            .order_by(ClubEveningRow.created_at)
        ).first()
        return None if found is None else place(found[0], found[1], None)


def seat_users(factory: Factory, table_ids: Sequence[str]) -> dict[str, dict[int, int]]:
    """The users linked to the tables' seats: ``{table id: {seat: user id}}``."""
    found: dict[str, dict[int, int]] = {}
    if not table_ids:
        return found
    with factory() as session:
        rows = session.execute(
            select(AccountSeatRow.table_id, AccountSeatRow.seat, AccountSeatRow.user_id).where(
                AccountSeatRow.table_id.in_(list(table_ids))
            )
        ).all()
    for table_id, seat, user_id in rows:
        found.setdefault(table_id, {})[seat] = user_id
    return found


@dataclass(frozen=True, slots=True)
class ClubSheet:
    """A score sheet of an evening and the user at each of its columns."""

    sheet_id: str
    evening_id: str
    members: tuple[int | None, ...]


def add_sheet(
    factory: Factory, evening_id: str, sheet_id: str, people: Sequence[int | None]
) -> None:
    """Link a stored sheet to the evening with the user at each column."""
    with factory() as session, session.begin():
        session.add(
            ClubSheetRow(
                sheet_id=sheet_id, evening_id=evening_id, members=list(people), created_at=now()
            )
        )


def evening_sheets(factory: Factory, evening_ids: Sequence[str]) -> list[ClubSheet]:
    """The sheets of the evenings, in the order made."""
    if not evening_ids:
        return []
    with factory() as session:
        rows = session.scalars(
            select(ClubSheetRow)
            .where(ClubSheetRow.evening_id.in_(list(evening_ids)))
            .order_by(ClubSheetRow.created_at, ClubSheetRow.sheet_id)
        ).all()
        return [ClubSheet(r.sheet_id, r.evening_id, tuple(r.members)) for r in rows]
