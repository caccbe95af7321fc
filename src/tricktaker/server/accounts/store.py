"""Accounts in the server's database: the models (migration 0010) and their short
transactions.

Each function takes a session factory and commits before it returns. Session ids and
the tokens that prove a seat, a table's host or a sheet are only ever compared by their
SHA-256 hash (:func:`~tricktaker.server.db.hash_token`); none is stored in clear.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, ForeignKey, Integer, String, UniqueConstraint, delete, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from tricktaker.server.db import Base, SeatRow, TableRow, hash_token, now
from tricktaker.server.sheets.store import SheetRow

Factory = sessionmaker[Session]

SESSION_IDLE = timedelta(days=30)
"""A session not used for this long ends."""

SESSION_LONGEST = timedelta(days=180)
"""A session ends this long after its log-in however much it is used."""

TOUCH_EVERY = timedelta(minutes=5)
"""A session's last-seen time (and its expiry with it) is written at most this often."""


class UserRow(Base):
    """A player's account: the name as typed, its lower case (unique), the password's
    argon2 hash. A deleted account keeps its row (its seats stay in other people's
    games) with no name key, no hash and ``deleted_at`` set (:mod:`.deletion`)."""

    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("name_key", name="uq_users_name_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str | None] = mapped_column(String(32), nullable=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    last_login_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class AccountSessionRow(Base):
    """A signed-in browser: the hash of its cookie's session id, a public ``id`` to name
    it in the list of sessions, and when it was made, last seen and ends."""

    __tablename__ = "account_sessions"
    __table_args__ = (UniqueConstraint("token_hash", name="uq_account_sessions_token_hash"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    user_agent: Mapped[str] = mapped_column(String(200), default="", server_default="")


class AccountSeatRow(Base):
    """A table's seat that the user's seat token proved theirs (one user a seat)."""

    __tablename__ = "account_seats"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_account_seats_table_seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class AccountHostedRow(Base):
    """A table that the user's host token proved they made (one user a table)."""

    __tablename__ = "account_hosted"
    __table_args__ = (UniqueConstraint("table_id", name="uq_account_hosted_table"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class AccountSheetRow(Base):
    """A score sheet that the user's edit token (or edit link) proved they keep."""

    __tablename__ = "account_sheets"
    __table_args__ = (UniqueConstraint("user_id", "sheet_id", name="uq_account_sheets_user_sheet"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    sheet_id: Mapped[str] = mapped_column(ForeignKey("sheets.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


# ------------------------------------------------------------ users


@dataclass(frozen=True, slots=True)
class User:
    """A user as the routes see one (never the password's hash)."""

    id: int
    name: str
    created_at: datetime


def _user(row: UserRow) -> User:
    return User(row.id, row.name, row.created_at)


class NameTakenError(Exception):
    """Another user has that name (in any case)."""


def create_user(factory: Factory, name: str, key: str, password_hash: str) -> User:
    """Store a new user; :class:`NameTakenError` if the name's ``key`` is taken."""
    try:
        with factory() as session, session.begin():
            row = UserRow(name=name, name_key=key, password_hash=password_hash, created_at=now())
            session.add(row)
            session.flush()
            return _user(row)
    except IntegrityError:
        raise NameTakenError(name) from None


def password_of(factory: Factory, key: str) -> tuple[User, str] | None:
    """The user of a name's ``key`` and their password's hash (None: no such user)."""
    with factory() as session:
        row = session.scalars(select(UserRow).where(UserRow.name_key == key)).first()
        return None if row is None else (_user(row), row.password_hash)


def logged_in(factory: Factory, user_id: int, new_hash: str | None) -> None:
    """Note a log-in, and store the password's ``new_hash`` (its parameters changed)."""
    with factory() as session, session.begin():
        row = session.get(UserRow, user_id)
        if row is not None:
            row.last_login_at = now()
            if new_hash is not None:
                row.password_hash = new_hash


def password_hash_of(factory: Factory, user_id: int) -> str | None:
    """The password's hash of ``user_id`` (None: no such user, or deleted)."""
    with factory() as session:
        row = session.get(UserRow, user_id)
        if row is None or row.deleted_at is not None:
            return None
        return row.password_hash


def deleted_among(factory: Factory, user_ids: Iterable[int]) -> frozenset[int]:
    """Which of ``user_ids`` are deleted accounts (their seats show
    :data:`~tricktaker.server.accounts.deletion.DELETED_NAME`)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return frozenset()
    with factory() as session:
        return frozenset(
            session.scalars(
                select(UserRow.id).where(UserRow.id.in_(wanted), UserRow.deleted_at.is_not(None))
            ).all()
        )


def change_password(factory: Factory, user_id: int, new_hash: str) -> int:
    """Store the user's new password's hash and end every session of theirs (the
    browser that changed it is given a new one); answers how many ended."""
    with factory() as session, session.begin():
        row = session.get(UserRow, user_id)
        if row is None or row.deleted_at is not None:
            return 0
        row.password_hash = new_hash
        ended = session.execute(
            delete(AccountSessionRow).where(AccountSessionRow.user_id == user_id)
        )
        return int(ended.rowcount)  # type: ignore[attr-defined]


# ------------------------------------------------------------ sessions


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """A session as its user sees it in their list."""

    id: str
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime
    user_agent: str


def _info(row: AccountSessionRow) -> SessionInfo:
    return SessionInfo(row.id, row.created_at, row.last_seen_at, row.expires_at, row.user_agent)


def start_session(
    factory: Factory, user_id: int, public_id: str, token: str, user_agent: str
) -> SessionInfo:
    """Store a new session of ``user_id`` (its cookie holds ``token``); the user's
    sessions that have ended are removed."""
    with factory() as session, session.begin():
        stamp = now()
        session.execute(
            delete(AccountSessionRow).where(
                AccountSessionRow.user_id == user_id, AccountSessionRow.expires_at <= stamp
            )
        )
        row = AccountSessionRow(
            id=public_id,
            token_hash=hash_token(token),
            user_id=user_id,
            created_at=stamp,
            last_seen_at=stamp,
            expires_at=stamp + SESSION_IDLE,
            user_agent=user_agent[:200],
        )
        session.add(row)
        return _info(row)


def aware(stamp: datetime) -> datetime:
    """``stamp`` in UTC (SQLite gives back times without their zone)."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=UTC)


def session_user(factory: Factory, token: str) -> tuple[User, SessionInfo] | None:
    """The user and session of a cookie's ``token`` (None: no such session, or it has
    ended: an ended one is removed). Its last-seen time moves on, at most every
    :data:`TOUCH_EVERY`, and its end with it (up to :data:`SESSION_LONGEST`)."""
    with factory() as session, session.begin():
        row = session.scalars(
            select(AccountSessionRow).where(AccountSessionRow.token_hash == hash_token(token))
        ).first()
        if row is None:
            return None
        stamp = now()
        if aware(row.expires_at) <= stamp:
            session.delete(row)
            return None
        if stamp - aware(row.last_seen_at) >= TOUCH_EVERY:
            row.last_seen_at = stamp
            row.expires_at = min(stamp + SESSION_IDLE, aware(row.created_at) + SESSION_LONGEST)
        user = session.get(UserRow, row.user_id)
        if user is None:
            return None
        return _user(user), _info(row)


def sessions_of(factory: Factory, user_id: int) -> list[SessionInfo]:
    """The user's sessions that have not ended, the latest seen first."""
    with factory() as session:
        rows = session.scalars(
            select(AccountSessionRow)
            .where(AccountSessionRow.user_id == user_id, AccountSessionRow.expires_at > now())
            .order_by(AccountSessionRow.last_seen_at.desc())
        ).all()
        return [_info(row) for row in rows]


def end_session(factory: Factory, user_id: int, public_id: str) -> bool:
    """End the user's session ``public_id`` (False: they have none of that id)."""
    with factory() as session, session.begin():
        ended = session.execute(
            delete(AccountSessionRow).where(
                AccountSessionRow.user_id == user_id, AccountSessionRow.id == public_id
            )
        )
        return bool(ended.rowcount)  # type: ignore[attr-defined]


def end_sessions(factory: Factory, user_id: int) -> int:
    """End every session of the user (log out everywhere); answers how many."""
    with factory() as session, session.begin():
        ended = session.execute(
            delete(AccountSessionRow).where(AccountSessionRow.user_id == user_id)
        )
        return int(ended.rowcount)  # type: ignore[attr-defined]


def end_other_sessions(factory: Factory, user_id: int, keep_id: str) -> int:
    """End every session of the user but ``keep_id`` (sign out the other devices);
    answers how many."""
    with factory() as session, session.begin():
        ended = session.execute(
            delete(AccountSessionRow).where(
                AccountSessionRow.user_id == user_id, AccountSessionRow.id != keep_id
            )
        )
        return int(ended.rowcount)  # type: ignore[attr-defined]


def end_session_of_token(factory: Factory, token: str) -> None:
    """End the session whose cookie holds ``token`` (log out), if there is one."""
    with factory() as session, session.begin():
        session.execute(
            delete(AccountSessionRow).where(AccountSessionRow.token_hash == hash_token(token))
        )


def remove_ended_sessions(factory: Factory) -> int:
    """Remove every session that has ended; answers how many."""
    with factory() as session, session.begin():
        ended = session.execute(
            delete(AccountSessionRow).where(AccountSessionRow.expires_at <= now())
        )
        return int(ended.rowcount)  # type: ignore[attr-defined]


# ------------------------------------------------------------ what a user holds


@dataclass(frozen=True, slots=True)
class Proof:
    """A token a browser holds for a table or sheet (``thing_id``): a seat or host token,
    or a sheet's edit token or edit-link key."""

    thing_id: str
    token: str


@dataclass(frozen=True, slots=True)
class Claimed:
    """What a claim linked to the user: seats as (table id, seat), tables hosted, and
    sheets; ``refused``: proofs that proved nothing, or something another user holds."""

    seats: list[tuple[str, int]]
    hosted: list[str]
    sheets: list[str]
    refused: int


def claim(
    factory: Factory,
    user_id: int,
    *,
    seats: Iterable[Proof] = (),
    hosts: Iterable[Proof] = (),
    sheets: Iterable[Proof] = (),
) -> Claimed:
    """Link to ``user_id`` every seat, hosted table and sheet that a token proves; a seat
    or table already linked to another user stays theirs (counted as refused)."""
    linked_seats: list[tuple[str, int]] = []
    linked_tables: list[str] = []
    linked_sheets: list[str] = []
    refused = 0
    with factory() as session, session.begin():
        for proof in seats:
            seat = session.scalars(
                select(SeatRow.seat).where(
                    SeatRow.table_id == proof.thing_id,
                    SeatRow.token_hash == hash_token(proof.token),
                )
            ).first()
            if seat is None or not _link(session, AccountSeatRow, user_id, proof.thing_id, seat):
                refused += 1
            else:
                linked_seats.append((proof.thing_id, seat))
        for proof in hosts:
            found = session.scalars(
                select(TableRow.id).where(
                    TableRow.id == proof.thing_id,
                    TableRow.host_token_hash == hash_token(proof.token),
                )
            ).first()
            if found is None or not _link(session, AccountHostedRow, user_id, found, None):
                refused += 1
            else:
                linked_tables.append(found)
        for proof in sheets:
            digest = hash_token(proof.token)
            sheet = session.scalars(
                select(SheetRow.id).where(
                    SheetRow.id == proof.thing_id,
                    or_(SheetRow.edit_token_hash == digest, SheetRow.edit_link_hash == digest),
                )
            ).first()
            if sheet is None:
                refused += 1
                continue
            held = session.scalars(
                select(AccountSheetRow.id).where(
                    AccountSheetRow.user_id == user_id, AccountSheetRow.sheet_id == sheet
                )
            ).first()
            if held is None:
                session.add(AccountSheetRow(user_id=user_id, sheet_id=sheet, created_at=now()))
            linked_sheets.append(sheet)
    return Claimed(linked_seats, linked_tables, linked_sheets, refused)


def _link(
    session: Session,
    kind: type[AccountSeatRow] | type[AccountHostedRow],
    user_id: int,
    table_id: str,
    seat: int | None,
) -> bool:
    """Link a seat (``kind`` AccountSeatRow) or hosted table to ``user_id`` unless it
    is linked already: True if it is the user's now (False: another user's)."""
    if kind is AccountSeatRow:
        owner = session.scalars(
            select(AccountSeatRow.user_id).where(
                AccountSeatRow.table_id == table_id, AccountSeatRow.seat == seat
            )
        ).first()
    else:
        owner = session.scalars(
            select(AccountHostedRow.user_id).where(AccountHostedRow.table_id == table_id)
        ).first()
    if owner is not None:
        return owner == user_id
    with session.begin_nested():  # another claim of the same seat at once: one wins
        try:
            if seat is not None:
                session.add(AccountSeatRow(user_id=user_id, table_id=table_id, seat=seat))
            else:
                session.add(AccountHostedRow(user_id=user_id, table_id=table_id))
            session.flush()
        except IntegrityError:
            return False
    return True


@dataclass(frozen=True, slots=True)
class Holdings:
    """What is linked to a user: each table's seats (and whether they hosted it), newest
    link first, and the sheets."""

    tables: list[tuple[str, list[int], bool]]
    sheets: list[str]


def holdings(factory: Factory, user_id: int) -> Holdings:
    """The tables and sheets linked to ``user_id``."""
    with factory() as session:
        seats = session.execute(
            select(AccountSeatRow.table_id, AccountSeatRow.seat, AccountSeatRow.created_at)
            .where(AccountSeatRow.user_id == user_id)
            .order_by(AccountSeatRow.created_at.desc(), AccountSeatRow.id.desc())
        ).all()
        hosted = session.execute(
            select(AccountHostedRow.table_id, AccountHostedRow.created_at)
            .where(AccountHostedRow.user_id == user_id)
            .order_by(AccountHostedRow.created_at.desc(), AccountHostedRow.id.desc())
        ).all()
        sheets = session.scalars(
            select(AccountSheetRow.sheet_id)
            .where(AccountSheetRow.user_id == user_id)
            .order_by(AccountSheetRow.created_at.desc(), AccountSheetRow.id.desc())
        ).all()
    tables: dict[str, tuple[list[int], bool]] = {}
    for table_id, seat, _ in seats:
        tables.setdefault(table_id, ([], False))[0].append(seat)
    for table_id, _ in hosted:
        seat_list, _host = tables.get(table_id, ([], False))
        tables[table_id] = (seat_list, True)
    return Holdings(
        [(table_id, sorted(s), host) for table_id, (s, host) in tables.items()], list(sheets)
    )
