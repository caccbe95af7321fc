"""Drop the indexes that a unique constraint already gives.

``events``, ``seats`` and ``sheet_entries`` each had an index on their table's id and a
unique constraint that begins with it (``(table_id, seq)``, ``(table_id, seat)``,
``(sheet_id, seq)``); the constraint's own index answers every lookup by that id, so the
other one was only written, at every event stored (about a third of what a busy server's
database spent on each, ``bench/README.md``).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None

_DROPPED = (
    ("ix_events_table_id", "events", "table_id"),
    ("ix_seats_table_id", "seats", "table_id"),
    ("ix_sheet_entries_sheet_id", "sheet_entries", "sheet_id"),
)


def upgrade() -> None:
    """Drop the three indexes."""
    for name, table, _column in _DROPPED:
        op.drop_index(name, table_name=table)


def downgrade() -> None:
    """Make them again."""
    for name, table, column in _DROPPED:
        op.create_index(name, table, [column])
