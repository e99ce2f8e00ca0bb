"""submissions: uploaded tournament files, their check report and the officer's decision

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 10:43:49.915673

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("submitter_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("categories", sa.JSON(), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=True),
        sa.Column("source_format", sa.String(length=3), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("filename", sa.String(length=200), nullable=False),
        sa.Column("tournament_name", sa.String(length=200), nullable=False),
        sa.Column("start_date", sa.Date(), nullable=False),
        sa.Column("end_date", sa.Date(), nullable=False),
        sa.Column("report", sa.JSON(), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reviewer_id", sa.Integer(), nullable=True),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=True),
        sa.Column("tournament_ids", sa.JSON(), nullable=True),
        sa.CheckConstraint(
            "source_format IN ('csv', 'trf')", name=op.f("ck_submissions_source_format")
        ),
        sa.CheckConstraint(
            "state IN ('submitted', 'accepted', 'rejected')", name=op.f("ck_submissions_state")
        ),
        sa.ForeignKeyConstraint(
            ["reviewer_id"], ["users.id"], name=op.f("fk_submissions_reviewer_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["submitter_id"], ["users.id"], name=op.f("fk_submissions_submitter_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_submissions")),
    )
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_submissions_digest"), ["digest"], unique=False)
        batch_op.create_index(batch_op.f("ix_submissions_state"), ["state"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_submissions_submitter_id_state"), ["submitter_id", "state"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_submissions_submitter_id_state"))
        batch_op.drop_index(batch_op.f("ix_submissions_state"))
        batch_op.drop_index(batch_op.f("ix_submissions_digest"))

    op.drop_table("submissions")
