"""A score sheet's edit link: a second key that may change the sheet, kept as its hash.

The keeper's own edit token stays with the browser that started the sheet; the edit link
lets another phone keep the sheet too, and making a new one (or revoking it) shuts out
whoever held the old one.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (no sheet has an edit link yet)."""
    with op.batch_alter_table("sheets") as batch:
        batch.add_column(sa.Column("edit_link_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop it: every edit link stops working."""
    with op.batch_alter_table("sheets") as batch:
        batch.drop_column("edit_link_hash")
