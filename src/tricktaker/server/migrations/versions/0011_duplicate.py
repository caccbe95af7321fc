"""Duplicate sets (issue 31): the same deals in the same seats at several tables.

``duplicate_sets`` keeps a set: its game (the ruleset's data and options, the preset's
id when it is a shipped game, else the house ruleset's file), its number of players,
its seed and every hand's deck order (``deals``, a list of card names a hand), its
name, the SHA-256 hash of its host token (None for a daily challenge, which nobody
hosts), and for a daily challenge its day (``YYYY-MM-DD``): one a preset and day.
``duplicate_tables`` links a table to its set, numbered in the order made. Removing a
set or a table removes its links; a set's tables stay tables.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the duplicate sets and their tables."""
    op.create_table(
        "duplicate_sets",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("name", sa.String(60), nullable=True),
        sa.Column("game", sa.String(100), nullable=False),
        sa.Column("preset", sa.String(100), nullable=True),
        sa.Column("ruleset_toml", sa.Text(), nullable=True),
        sa.Column("ruleset_data", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("deals", sa.JSON(), nullable=False),
        sa.Column("host_token_hash", sa.String(64), nullable=True),
        sa.Column("day", sa.String(10), nullable=True),
        sa.UniqueConstraint("preset", "day", name="uq_duplicate_sets_daily"),
    )
    op.create_table(
        "duplicate_tables",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "set_id",
            sa.String(32),
            sa.ForeignKey("duplicate_sets.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("set_id", "number", name="uq_duplicate_tables_set_number"),
    )


def downgrade() -> None:
    """Drop the sets and their links (their tables stay, as ordinary tables)."""
    op.drop_table("duplicate_tables")
    op.drop_table("duplicate_sets")
