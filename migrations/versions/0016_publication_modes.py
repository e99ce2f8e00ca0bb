"""publication modes in the database: ``publication_modes``, each category's mode as an admin
chose it (approval or automatic), with who, when and why

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 12:30:00

Issue 28, item 6. The approval mode was a setting of each process
(``RATINGDB_PUBLICATION_APPROVAL``), which the scheduler and every back office had to be given
alike. It is now stored here and edited by an admin (audited); a category without a row is
published automatically unless the setting, still read, puts it under approval (the setting can
only add approval: a category it names cannot be made automatic from the back office).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "publication_modes",
        sa.Column("category", sa.String(length=20), nullable=False),
        sa.Column("approval", sa.Boolean(), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_by", sa.String(length=100), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.CheckConstraint(
            "category IN ('fide-standard', 'fide-rapid', 'fide-blitz', 'ffe-rapid')",
            name=op.f("ck_publication_modes_category"),
        ),
        sa.CheckConstraint("changed_by <> ''", name=op.f("ck_publication_modes_changed_by_given")),
        sa.CheckConstraint("reason <> ''", name=op.f("ck_publication_modes_reason_given")),
        sa.PrimaryKeyConstraint("category", name=op.f("pk_publication_modes")),
    )


def downgrade() -> None:
    op.drop_table("publication_modes")
