"""Chat messages kept with their table; a move timer and the away bot per table.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the chat table and the tables' ``move_timer`` and ``away_bot`` columns."""
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("move_timer", sa.Float, nullable=True))
        batch.add_column(
            sa.Column("away_bot", sa.String(100), nullable=False, server_default="easy")
        )


def downgrade() -> None:
    """Remove the chat table and the two columns."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("away_bot")
        batch.drop_column("move_timer")
    op.drop_table("chat")
