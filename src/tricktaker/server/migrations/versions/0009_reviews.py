"""The coach's reviews of finished games, stored with their table (issue 29).

A review of one seat's decisions in one game of a table (``POST /tables/{id}/review``,
docs/protocol.md, Reviews) takes a minute or two to compute; once finished it is kept
here, with the budget it was made with, so that a second look, also after a restart, is
answered at once. Removing a table removes its reviews.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the reviews table: one row a table's game and seat."""
    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=True),
        sa.Column("review", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "game_number", "seat", name="uq_reviews_table_game_seat"),
    )


def downgrade() -> None:
    """Drop the reviews: they are computed again when asked for."""
    op.drop_table("reviews")
