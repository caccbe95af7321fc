"""The coach's reviews of finished games, stored with their table (one row a seat's
review of a game: :class:`ReviewRow`), read and written in one short transaction each, as
the other store functions (:mod:`tricktaker.server.tables.store`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, UniqueConstraint, delete, select
from sqlalchemy.orm import Mapped, mapped_column

from tricktaker.server.db import Base, now
from tricktaker.server.tables.store import Factory


class ReviewRow(Base):
    """A finished review of one seat's decisions in one game of a table, as
    :meth:`tricktaker.coach.review.Review.to_json` writes it, with the budget it was
    made with (a server with another budget makes it again)."""

    __tablename__ = "reviews"
    __table_args__ = (
        UniqueConstraint("table_id", "game_number", "seat", name="uq_reviews_table_game_seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    game_number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    deals: Mapped[int | None] = mapped_column(Integer, nullable=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


def save_review(
    factory: Factory, table_id: str, game_number: int, seat: int, review: dict[str, Any]
) -> None:
    """Store the review of ``seat`` in the table's game ``game_number`` (its JSON, with
    ``seconds`` and ``deals``), in place of one stored before."""
    with factory() as session, session.begin():
        session.execute(
            delete(ReviewRow).where(
                ReviewRow.table_id == table_id,
                ReviewRow.game_number == game_number,
                ReviewRow.seat == seat,
            )
        )
        session.add(
            ReviewRow(
                table_id=table_id,
                game_number=game_number,
                seat=seat,
                seconds=float(review["seconds"]),
                deals=review["deals"],
                review=review,
                created_at=now(),
            )
        )


def load_review(
    factory: Factory, table_id: str, game_number: int, seat: int
) -> dict[str, Any] | None:
    """The stored review of ``seat`` in the table's game ``game_number`` (None: none)."""
    with factory() as session:
        found = session.scalar(
            select(ReviewRow.review).where(
                ReviewRow.table_id == table_id,
                ReviewRow.game_number == game_number,
                ReviewRow.seat == seat,
            )
        )
        return dict(found) if isinstance(found, dict) else None
