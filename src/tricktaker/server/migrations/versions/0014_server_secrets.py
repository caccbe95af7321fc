"""A server's secrets (issue 31, the daily challenge's deals).

``server_secrets`` keeps named random values that the server makes once, the first time
one is needed, and never sends: the daily challenge's deals come from the day, the game
and the secret named ``daily`` (docs/duplicate.md, The daily challenge), so nobody can
work them out in advance from the program's source.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision: str | None = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the server's secrets."""
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the secrets (a daily challenge made later deals from a new one)."""
    op.drop_table("server_secrets")
