"""An account's whole life (issue 31): deleted accounts, and failed log-ins counted in
the database.

``users.deleted_at`` marks an account its owner deleted: the row stays, without its
name's key (so the name is free again and no page finds it), its password's hash or
its name (shown as "deleted player"), so that the seats it held keep their place in
other people's finished games, ratings and standings (docs/accounts.md, Deleting your
account). ``users.name_key`` may therefore be empty.

``account_failures`` keeps each failed log-in (and each sign-up) for the length of its
window, under the SHA-256 of its key (a name's lower case, an address), so that every
server process on one database counts the same tries (docs/accounts.md, Limits).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision: str | None = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the deletion mark, let a deleted account's name key be empty (an account
    deleted before a downgrade is marked again), and add the table of failed tries."""
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
        batch.alter_column("name_key", existing_type=sa.String(32), nullable=True)
    op.execute(  # an account deleted before a downgrade (its key ``~`` and its id)
        sa.text(
            "UPDATE users SET name_key = NULL, deleted_at = CURRENT_TIMESTAMP"
            " WHERE name_key LIKE '~%'"
        )
    )
    op.create_table(
        "account_failures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(
        "ix_account_failures_kind_key", "account_failures", ["kind", "key_hash", "created_at"]
    )
    op.create_index("ix_account_failures_created_at", "account_failures", ["created_at"])


def downgrade() -> None:
    """Drop the failed tries and the deletion mark; a deleted account's name key becomes
    ``~`` and its id, which no user name can be (so no log-in or page finds it)."""
    op.drop_index("ix_account_failures_created_at", table_name="account_failures")
    op.drop_index("ix_account_failures_kind_key", table_name="account_failures")
    op.drop_table("account_failures")
    op.execute(
        sa.text("UPDATE users SET name_key = '~' || CAST(id AS VARCHAR(20)) WHERE name_key IS NULL")
    )
    with op.batch_alter_table("users") as batch:
        batch.alter_column("name_key", existing_type=sa.String(32), nullable=False)
        batch.drop_column("deleted_at")
