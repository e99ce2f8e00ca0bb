"""corrections: the kind ``list-replace`` (``lists import --replace``).

An imported list replaced by a corrected file is a correction like the others: a row of
``corrections`` that the new revisions name. Only the CHECK on ``kind`` changes; on SQLite the
table is rebuilt under its own name (ratingdb.db.sqlite_rebuild), on PostgreSQL the CHECK is
dropped and created again.

A downgrade is refused while list replacements are stored: the revisions they caused, and every
revision computed after them, would lose the correction they name.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 10:20:00.000000

"""

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = "ck_corrections_kind"
BEFORE = "kind IN ('game', 'tournament', 'merge')"
AFTER = "kind IN ('game', 'tournament', 'merge', 'list-replace')"


def _with_check(condition: str) -> Callable[[sa.Table, sa.MetaData], sa.Table]:
    def change(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
        new = copy_table(old, metadata)
        for constraint in list(new.constraints):
            if isinstance(constraint, sa.CheckConstraint) and constraint.name == NAME:
                new.constraints.discard(constraint)
        new.append_constraint(sa.CheckConstraint(condition, name=NAME))
        return new

    return change


def _set_check(condition: str) -> None:
    if sqlite():
        rebuild_sqlite("corrections", _with_check(condition), revision="0005")
        return
    op.drop_constraint(op.f(NAME), "corrections", type_="check")
    op.create_check_constraint(op.f(NAME), "corrections", condition)


def upgrade() -> None:
    _set_check(AFTER)


def downgrade() -> None:
    stored = (
        op.get_bind()
        .execute(sa.text("SELECT count(*) FROM corrections WHERE kind = 'list-replace'"))
        .scalar_one()
    )
    if stored:
        raise RuntimeError(
            f"the database holds {stored} list replacements (lists import --replace), which "
            "revision 0004 cannot record: downgrade refused"
        )
    _set_check(BEFORE)
