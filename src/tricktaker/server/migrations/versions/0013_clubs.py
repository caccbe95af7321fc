"""Clubs and their evenings (issue 31, point 2; docs/clubs.md).

``clubs`` keeps a club: its name, its house rules (a shipped game ``preset`` or a
house ruleset's file, the ruleset's data and options, and their ``fingerprint`` as the
statistics use it) and its table size. ``club_members`` links users to a club with a
role (``organiser`` or ``member``). ``club_invites`` keeps the SHA-256 hash of each
invitation code (never the code), who made it, when it expires and whether it was
revoked. ``club_evenings`` are a club's evenings: a day, a kind (``tables``,
``duplicate`` with its duplicate set, or ``cards``, a real-card evening).
``club_tables`` links a table to its evening with the table's host token, which the
server uses to start the table for the club's organisers (never answered);
``club_sheets`` links a score sheet to its evening with the user recorded at each of
its columns. Removing a club removes all of these; removing a user removes their
memberships; removing a table or sheet removes its link.

Revision ID: 0013
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0011"
branch_labels = None
depends_on = None


def _club() -> sa.Column[str]:
    return sa.Column(
        "club_id", sa.String(32), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False
    )


def _evening() -> sa.Column[str]:
    return sa.Column(
        "evening_id",
        sa.String(32),
        sa.ForeignKey("club_evenings.id", ondelete="CASCADE"),
        nullable=False,
    )


def upgrade() -> None:
    """Add the clubs, their members, invitations, evenings, tables and sheets."""
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("game", sa.String(100), nullable=False),
        sa.Column("preset", sa.String(100), nullable=True),
        sa.Column("ruleset_toml", sa.Text(), nullable=True),
        sa.Column("ruleset_data", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
    )
    op.create_table(
        "club_members",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _club(),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("role", sa.String(12), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("club_id", "user_id", name="uq_club_members_club_user"),
    )
    op.create_table(
        "club_invites",
        sa.Column("id", sa.String(32), primary_key=True),
        _club(),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("uses", sa.Integer(), nullable=False),
        sa.UniqueConstraint("code_hash", name="uq_club_invites_code_hash"),
    )
    op.create_table(
        "club_evenings",
        sa.Column("id", sa.String(32), primary_key=True),
        _club(),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("name", sa.String(60), nullable=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column(
            "set_id",
            sa.String(32),
            sa.ForeignKey("duplicate_sets.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_evenings_club_day", "club_evenings", ["club_id", "day"])
    op.create_table(
        "club_tables",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        _evening(),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("host_token", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("evening_id", "number", name="uq_club_tables_evening_number"),
    )
    op.create_table(
        "club_sheets",
        sa.Column(
            "sheet_id",
            sa.String(32),
            sa.ForeignKey("sheets.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        _evening(),
        sa.Column("members", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the clubs and everything of theirs (their tables and sheets stay)."""
    op.drop_table("club_sheets")
    op.drop_table("club_tables")
    op.drop_index("ix_club_evenings_club_day", table_name="club_evenings")
    op.drop_table("club_evenings")
    op.drop_table("club_invites")
    op.drop_table("club_members")
    op.drop_table("clubs")
