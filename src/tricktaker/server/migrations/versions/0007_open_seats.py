"""Open seats: a person's seat that anyone may take from the list of open tables.

Until now the list of public tables gave each table's invite code, so a stranger could
take a seat the host kept for someone invited. A seat is now kept for whoever has the
invite (as every seat was meant: the default), unless made ``open``; the list gives a
code that takes open seats only (docs/protocol.md, HTTP API).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column: every seat stored so far is kept for an invitee."""
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("open_seat", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Drop it: every seat is taken with the invite code again."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("open_seat")
