"""Coach hints at a table (issue 29): whether the host allowed them, and when one was
asked.

A table's ``hints`` says whether its host allowed the coach's hints for everyone
seated (a practice table has them whatever it says); each hint a seat asks for is kept
in ``hints`` (the seat, the game, and how many record events the game had then), so
that the game's record lists it (:attr:`~tricktaker.engine.GameRecord.hints`).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table's setting (off for every table made so far) and the hints asked."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "hints",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("at", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_hints_table_id", "hints", ["table_id"])


def downgrade() -> None:
    """Drop them: no table has hints for people, and the hints asked are forgotten."""
    op.drop_index("ix_hints_table_id", table_name="hints")
    op.drop_table("hints")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints")
