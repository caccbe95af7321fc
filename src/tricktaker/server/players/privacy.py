"""What a player shares (issue 31; docs/players.md, "What you share"): their page as a
whole, and apart from it the history of their games, the score sheets they keep and
their ratings, each to everyone, to the members of their clubs only, or to nobody but
themself.

A part is never shown more widely than the page: the page's audience caps each part's
(the statistics are the page's own and follow it). The settings are kept in
``player_privacy`` (migration 0016), one row a user who changed them; a user without a
row has the defaults (:data:`DEFAULTS`). Every route that answers a player's data asks
:func:`shown_to` (the players' pages; the members' statistics of a club).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import DateTime, ForeignKey, String, select
from sqlalchemy.orm import Mapped, Session, aliased, mapped_column, sessionmaker

from tricktaker.server.clubs.store import ClubMemberRow
from tricktaker.server.db import Base, now

Factory = sessionmaker[Session]

Audience = Literal["public", "clubs", "private"]
"""Who may see a part: everyone (guests too), the members of a club the player belongs
to (and the player), or the player alone."""

AUDIENCES: tuple[Audience, ...] = ("public", "clubs", "private")
"""The audiences, the widest first."""

Part = Literal["page", "history", "sheets", "ratings"]
"""What a player decides on: the page as a whole (with the statistics), the history of
their games, the score sheets they keep, their ratings."""

PARTS: tuple[Part, ...] = ("page", "history", "sheets", "ratings")

Relation = Literal["self", "club", "other"]
"""Who asks, as the player sees them: the player, a member of one of their clubs, or
anyone else (a signed-in user or a guest alike)."""


class PlayerPrivacyRow(Base):
    """A user's sharing settings, one audience a part (a user without a row has
    :data:`DEFAULTS`)."""

    __tablename__ = "player_privacy"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    page: Mapped[str] = mapped_column(String(12))
    history: Mapped[str] = mapped_column(String(12))
    sheets: Mapped[str] = mapped_column(String(12))
    ratings: Mapped[str] = mapped_column(String(12))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


@dataclass(frozen=True, slots=True)
class Privacy:
    """A player's settings: the audience of each part."""

    page: Audience = "public"
    history: Audience = "public"
    sheets: Audience = "private"
    ratings: Audience = "public"

    def audience(self, part: Part) -> Audience:
        """Who sees ``part`` in effect: its own audience, or the page's where that is
        narrower."""
        own: Audience = getattr(self, part)
        return max(own, self.page, key=AUDIENCES.index)

    def to_json(self) -> dict[str, str]:
        """The settings as the API answers and takes them."""
        return {part: getattr(self, part) for part in PARTS}

    def changed(self, values: dict[str, Any]) -> Privacy:
        """These settings with the parts named in ``values`` changed (values already
        checked to be audiences)."""
        return replace(self, **{key: value for key, value in values.items() if key in PARTS})


DEFAULTS = Privacy()
"""The settings of a player who has changed none: the page, the history of games at
public tables and the ratings to everyone (what a public table shows anyway, and what a
rating is for); the score sheets to the player alone (a sheet names people who may have
no account and never agreed to be shown)."""

assert [f.name for f in fields(Privacy)] == list(PARTS)


def allows(audience: Audience, relation: Relation) -> bool:
    """Whether someone of ``relation`` to the player sees a part shown to ``audience``.

    >>> allows("clubs", "club"), allows("clubs", "other"), allows("private", "self")
    (True, False, True)
    """
    if relation == "self" or audience == "public":
        return True
    return audience == "clubs" and relation == "club"


def shown_to(privacy: Privacy, relation: Relation) -> dict[Part, bool]:
    """Which parts someone of ``relation`` to the player sees."""
    return {part: allows(privacy.audience(part), relation) for part in PARTS}


# ------------------------------------------------------------ the store


def _privacy(row: PlayerPrivacyRow | None) -> Privacy:
    if row is None:
        return DEFAULTS
    values = {part: getattr(row, part) for part in PARTS}
    # A value the program no longer knows reads as the narrowest audience.
    return Privacy(**{k: v if v in AUDIENCES else "private" for k, v in values.items()})


def load_privacy(factory: Factory, user_id: int) -> Privacy:
    """The user's settings (the defaults when they changed none)."""
    with factory() as session:
        return _privacy(session.get(PlayerPrivacyRow, user_id))


def load_privacies(factory: Factory, user_ids: list[int]) -> dict[int, Privacy]:
    """Each user's settings."""
    found = dict.fromkeys(user_ids, DEFAULTS)
    with factory() as session:
        for start in range(0, len(user_ids), 500):
            rows = session.scalars(
                select(PlayerPrivacyRow).where(
                    PlayerPrivacyRow.user_id.in_(user_ids[start : start + 500])
                )
            ).all()
            for row in rows:
                found[row.user_id] = _privacy(row)
    return found


def save_privacy(factory: Factory, user_id: int, privacy: Privacy) -> Privacy:
    """Store the user's settings and answer them."""
    with factory() as session:
        row = session.get(PlayerPrivacyRow, user_id)
        if row is None:
            row = PlayerPrivacyRow(user_id=user_id)
            session.add(row)
        for part in PARTS:
            setattr(row, part, getattr(privacy, part))
        row.updated_at = now()
        session.commit()
    return privacy


def relation_of(factory: Factory, player_id: int, viewer_id: int | None) -> Relation:
    """Who ``viewer_id`` (None: a guest) is to the player: themself, a member of one of
    the player's clubs, or anyone else."""
    if viewer_id is None:
        return "other"
    if viewer_id == player_id:
        return "self"
    mine, theirs = aliased(ClubMemberRow), aliased(ClubMemberRow)
    with factory() as session:
        shared = session.scalars(
            select(mine.club_id)
            .join(theirs, theirs.club_id == mine.club_id)
            .where(mine.user_id == player_id, theirs.user_id == viewer_id)
            .limit(1)
        ).first()
    return "club" if shared is not None else "other"
