"""Player accounts (issue 31): users, their sessions, and the seats, tables and score
sheets a user's browser proved it held.

A user has a name (``name`` as typed; ``name_key``, its lower case, unique) and an
argon2 password hash. A session is an opaque random id kept in a cookie: only its
SHA-256 hash is stored (``token_hash``), with its public id (``id``, shown in the list
of sessions to revoke one), when it was made, last seen and expires, and the browser's
user agent. ``account_seats`` links a table's seat to the user whose seat token proved
it (one user a seat); ``account_hosted`` a table to the user whose host token proved
it; ``account_sheets`` a score sheet to a user whose edit token proved it. Removing a
user removes their sessions and links; removing a table or sheet removes its links.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels = None
depends_on = None


def _user() -> sa.Column[int]:
    return sa.Column(
        "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    """Add the users, their sessions and their links to tables and sheets."""
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_login_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("name_key", name="uq_users_name_key"),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        _user(),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("user_agent", sa.String(200), nullable=False, server_default=""),
        sa.UniqueConstraint("token_hash", name="uq_account_sessions_token_hash"),
    )
    op.create_index("ix_account_sessions_user_id", "account_sessions", ["user_id"])
    op.create_table(
        "account_seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _user(),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_account_seats_table_seat"),
    )
    op.create_index("ix_account_seats_user_id", "account_seats", ["user_id"])
    op.create_table(
        "account_hosted",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _user(),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", name="uq_account_hosted_table"),
    )
    op.create_index("ix_account_hosted_user_id", "account_hosted", ["user_id"])
    op.create_table(
        "account_sheets",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _user(),
        sa.Column(
            "sheet_id",
            sa.String(32),
            sa.ForeignKey("sheets.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("user_id", "sheet_id", name="uq_account_sheets_user_sheet"),
    )
    op.create_index("ix_account_sheets_sheet_id", "account_sheets", ["sheet_id"])


def downgrade() -> None:
    """Drop the accounts: users, sessions and links (the tables and sheets stay)."""
    op.drop_index("ix_account_sheets_sheet_id", table_name="account_sheets")
    op.drop_table("account_sheets")
    op.drop_index("ix_account_hosted_user_id", table_name="account_hosted")
    op.drop_table("account_hosted")
    op.drop_index("ix_account_seats_user_id", table_name="account_seats")
    op.drop_table("account_seats")
    op.drop_index("ix_account_sessions_user_id", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("users")
