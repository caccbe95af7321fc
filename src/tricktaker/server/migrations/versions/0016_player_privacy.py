"""What a player shares (issue 31; docs/players.md, What you share).

``player_privacy`` keeps, for each user who changed them, the audience of their page, of
the history of their games, of the score sheets they keep and of their ratings
(``public``, ``clubs`` or ``private``). A user without a row has the defaults, so the
upgrade adds no row and every page answers as before it.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision: str | None = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the players' sharing settings."""
    op.create_table(
        "player_privacy",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("page", sa.String(12), nullable=False),
        sa.Column("history", sa.String(12), nullable=False),
        sa.Column("sheets", sa.String(12), nullable=False),
        sa.Column("ratings", sa.String(12), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the settings: every page answers with the defaults again."""
    op.drop_table("player_privacy")
