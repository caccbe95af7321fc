"""The initial schema: tables, seats and the events of their game records.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables, seats and events."""
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game", sa.String(100), nullable=False),
        sa.Column("preset", sa.String(100), nullable=True),
        sa.Column("ruleset_toml", sa.Text, nullable=True),
        sa.Column("ruleset_data", sa.JSON, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("host_token_hash", sa.String(64), nullable=False),
        sa.Column("invite_code", sa.String(32), nullable=False, unique=True),
        sa.Column("grace_seconds", sa.Float, nullable=False),
        sa.Column("game_number", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.UniqueConstraint("table_id", "seat", name="uq_seats_table_seat"),
    )
    op.create_index("ix_seats_table_id", "seats", ["table_id"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("game_number", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("chance", sa.String(40), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "seq", name="uq_events_table_seq"),
    )
    op.create_index("ix_events_table_id", "events", ["table_id"])


def downgrade() -> None:
    """Drop everything."""
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_table("tables")
