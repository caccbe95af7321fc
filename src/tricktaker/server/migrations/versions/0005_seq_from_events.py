"""A table's sequence number is its last event's: drop ``tables.seq``.

Every stored event moved ``tables.seq`` on, which rewrote the table's whole row (its
ruleset's JSON with it) in the same transaction as the event: on SQLite about half the
pages of a busy server's group commit, on PostgreSQL most of its write-ahead log
(``bench/README.md``). The events' unique ``(table_id, seq)`` already refuses a second
writer, and a table's last event gives its sequence number.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seq")


def downgrade() -> None:
    """Make it again, from each table's last event."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("seq", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        "UPDATE tables SET seq = COALESCE("
        "(SELECT MAX(events.seq) FROM events WHERE events.table_id = tables.id), 0)"
    )
