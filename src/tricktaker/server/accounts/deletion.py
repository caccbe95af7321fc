"""Deleting an account (docs/accounts.md, Deleting your account).

What is the person's own goes: their sessions, their password's hash, their name (and
its key, so the name may be taken again and its page answers 404), the links to the
tables they hosted and the sheets they kept, their club memberships and the invitations
they made (kept, unsigned). A club whose only member they are goes with them; while
they are the only organiser of a club that has other members, the deletion is refused
until they appoint another organiser (or leave the club).

What other people share stays: the account's row is kept as a blank, named
:data:`DELETED_NAME`, so that the seats it held in finished games, ratings, duplicate
evenings and daily challenges keep their place and everyone else's figures do not
change; the names at those seats (and at the chat lines they wrote) become
:data:`DELETED_NAME` too.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from tricktaker.server.accounts.store import (
    AccountHostedRow,
    AccountSeatRow,
    AccountSessionRow,
    AccountSheetRow,
    UserRow,
)
from tricktaker.server.db import ChatRow, SeatRow, now
from tricktaker.server.errors import NotPossibleNowError

Factory = sessionmaker[Session]

DELETED_NAME = "deleted player"
"""The name a deleted account's seats show (no user name can be it: it has a space)."""


class HandOverFirstError(NotPossibleNowError):
    """The user is the only organiser of clubs with other members (409): they appoint
    another organiser first (the problem body lists the clubs)."""

    def __init__(self, clubs: list[tuple[str, str]]) -> None:
        names = ", ".join(name for _id, name in clubs)
        super().__init__(
            "hand-over-first",
            f"You are the only organiser of {names}: make another member an organiser"
            " (or leave the club) before you delete your account.",
        )
        self.clubs = clubs

    def extra(self) -> dict[str, object]:
        """The clubs to hand over, by id and name."""
        return {"clubs": [{"id": club_id, "name": name} for club_id, name in self.clubs]}


@dataclass(frozen=True, slots=True)
class Deleted:
    """What a deletion changed: the seats renamed, as ``{table id: [seat, ...]}``, and
    the sessions ended."""

    seats: dict[str, list[int]]
    sessions: int


def _clubs(session: Session, user_id: int) -> tuple[list[tuple[str, str]], list[str]]:
    """The clubs the user alone organises that have other members (to hand over), and
    the clubs whose only member they are (to delete)."""
    from tricktaker.server.clubs.store import (  # the clubs import the accounts
        ORGANISER,
        ClubMemberRow,
        ClubRow,
    )

    mine = session.execute(
        select(ClubMemberRow.club_id, ClubMemberRow.role, ClubRow.name)
        .join(ClubRow, ClubRow.id == ClubMemberRow.club_id)
        .where(ClubMemberRow.user_id == user_id)
    ).all()
    hand_over: list[tuple[str, str]] = []
    alone: list[str] = []
    for club_id, role, name in mine:
        members = session.scalar(
            select(func.count()).select_from(ClubMemberRow).where(ClubMemberRow.club_id == club_id)
        )
        if members == 1:
            alone.append(club_id)
            continue
        if role != ORGANISER:
            continue
        others = session.scalar(
            select(func.count())
            .select_from(ClubMemberRow)
            .where(
                ClubMemberRow.club_id == club_id,
                ClubMemberRow.role == ORGANISER,
                ClubMemberRow.user_id != user_id,
            )
        )
        if not others:
            hand_over.append((club_id, name))
    return sorted(hand_over, key=lambda c: c[1].lower()), alone


def clubs_to_hand_over(factory: Factory, user_id: int) -> list[tuple[str, str]]:
    """The clubs (id, name) that the user alone organises and that have other members."""
    with factory() as session:
        return _clubs(session, user_id)[0]


def delete_account(factory: Factory, user_id: int) -> Deleted:
    """Delete the user's account as the module says, in one transaction
    (:class:`HandOverFirstError`: nothing changed)."""
    from tricktaker.server.clubs.store import ClubInviteRow, ClubMemberRow, ClubRow

    with factory() as session, session.begin():
        row = session.get(UserRow, user_id, with_for_update=True)
        if row is None or row.deleted_at is not None:
            return Deleted({}, 0)
        hand_over, alone = _clubs(session, user_id)
        if hand_over:
            raise HandOverFirstError(hand_over)
        if alone:
            session.execute(delete(ClubRow).where(ClubRow.id.in_(alone)))
        session.execute(delete(ClubMemberRow).where(ClubMemberRow.user_id == user_id))
        session.execute(
            update(ClubInviteRow).where(ClubInviteRow.created_by == user_id).values(created_by=None)
        )
        ended = session.execute(
            delete(AccountSessionRow).where(AccountSessionRow.user_id == user_id)
        )
        session.execute(delete(AccountHostedRow).where(AccountHostedRow.user_id == user_id))
        session.execute(delete(AccountSheetRow).where(AccountSheetRow.user_id == user_id))
        seats: dict[str, list[int]] = {}
        for table_id, seat in session.execute(
            select(AccountSeatRow.table_id, AccountSeatRow.seat).where(
                AccountSeatRow.user_id == user_id
            )
        ).all():
            seats.setdefault(table_id, []).append(seat)
            for kind in (SeatRow, ChatRow):
                session.execute(
                    update(kind)
                    .where(kind.table_id == table_id, kind.seat == seat)
                    .values(name=DELETED_NAME)
                )
        row.name = DELETED_NAME
        row.name_key = None
        row.password_hash = ""
        row.last_login_at = None
        row.deleted_at = now()
        return Deleted(
            {table_id: sorted(s) for table_id, s in seats.items()},
            int(ended.rowcount),  # type: ignore[attr-defined]
        )
