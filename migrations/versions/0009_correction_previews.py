"""correction previews: a correction's request and impact kept until the officer confirms it

Revision ID: 0009
Revises: 0007
Create Date: 2026-12-01 13:01:10.735544

Written beside another branch's 0008 (publication preview and approval), which also follows
0007: once both are merged, this revision's down_revision becomes "0008".
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "correction_previews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("inputs", sa.JSON(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("filename", sa.String(length=200), nullable=True),
        sa.Column("content", sa.LargeBinary(), nullable=True),
        sa.Column("file_digest", sa.String(length=64), nullable=True),
        sa.Column("impact", sa.JSON(), nullable=False),
        sa.Column("impact_digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("correction_id", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "kind IN ('game', 'tournament', 'merge', 'list-replace')",
            name=op.f("ck_correction_previews_kind"),
        ),
        sa.CheckConstraint(
            "state IN ('previewed', 'applied', 'discarded', 'expired')",
            name=op.f("ck_correction_previews_state"),
        ),
        sa.ForeignKeyConstraint(
            ["correction_id"],
            ["corrections.id"],
            name=op.f("fk_correction_previews_correction_id_corrections"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_correction_previews_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_correction_previews")),
    )
    with op.batch_alter_table("correction_previews", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_correction_previews_user_id_state"), ["user_id", "state"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("correction_previews", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_correction_previews_user_id_state"))

    op.drop_table("correction_previews")
