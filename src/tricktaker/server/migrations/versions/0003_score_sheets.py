"""Score sheets of games played with real cards, kept with the server's games.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the sheets and the log of their entries."""
    op.create_table(
        "sheets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game", sa.String(100), nullable=False),
        sa.Column("ruleset_toml", sa.Text, nullable=True),
        sa.Column("ruleset_data", sa.JSON, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("edit_token_hash", sa.String(64), nullable=False),
        sa.Column("view_key", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    op.create_table(
        "sheet_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "sheet_id",
            sa.String(32),
            sa.ForeignKey("sheets.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("data", sa.JSON, nullable=True),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("sheet_id", "seq", name="uq_sheet_entries_sheet_seq"),
        sa.UniqueConstraint("sheet_id", "client_id", name="uq_sheet_entries_sheet_client"),
    )
    op.create_index("ix_sheet_entries_sheet_id", "sheet_entries", ["sheet_id"])


def downgrade() -> None:
    """Drop the sheets and their entries."""
    op.drop_table("sheet_entries")
    op.drop_table("sheets")
