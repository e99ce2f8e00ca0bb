"""publication: the period state ``awaiting-approval`` and the back office's previews.

A category published with approval (``RATINGDB_PUBLICATION_APPROVAL``) has its list computed
at the cut-off by the scheduled close, which leaves the period ``awaiting-approval`` with when
it computed the list and the list's digest (``periods.computed_at``, ``computed_digest``) until
an officer approves it. ``state`` grows to 20 characters for the new state. The previews an
officer was shown, and approvals given before the cut-off, are kept in
``publication_previews`` (back office only).

On SQLite ``periods`` is rebuilt under its own name (ratingdb.db.sqlite_rebuild); on
PostgreSQL the column is altered and the CHECKs dropped and created again. A downgrade is
refused while a period awaits approval: revision 0007 has no such state.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 14:00:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STATE = "ck_periods_state"
STATE_BEFORE = "state IN ('open', 'closing', 'published')"
STATE_AFTER = "state IN ('open', 'closing', 'awaiting-approval', 'published')"
COMPUTED = "ck_periods_awaiting_approval_has_computed"
COMPUTED_CHECK = (
    "state <> 'awaiting-approval' OR (computed_at IS NOT NULL AND computed_digest IS NOT NULL)"
)
NEW_COLUMNS = ("computed_at", "computed_digest")


def _new_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("computed_digest", sa.String(length=64), nullable=True),
    ]


def _periods_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    new.c.state.type = sa.String(length=20)
    for column in _new_columns():
        new.append_column(column)
    _set_checks(new, {STATE: STATE_AFTER, COMPUTED: COMPUTED_CHECK})
    return new


def _periods_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata, drop=NEW_COLUMNS)
    new.c.state.type = sa.String(length=10)
    _set_checks(new, {STATE: STATE_BEFORE, COMPUTED: None})
    return new


def _set_checks(table: sa.Table, checks: dict[str, str | None]) -> None:
    """Replace the named CHECKs of ``table`` (None: drop it)."""
    for constraint in list(table.constraints):
        if isinstance(constraint, sa.CheckConstraint) and constraint.name in checks:
            table.constraints.discard(constraint)
    for name, condition in checks.items():
        if condition is not None:
            table.append_constraint(sa.CheckConstraint(condition, name=name))


def upgrade() -> None:
    if sqlite():
        rebuild_sqlite("periods", _periods_after, revision="0008")
    else:
        op.alter_column(
            "periods", "state", type_=sa.String(length=20),
            existing_type=sa.String(length=10), existing_nullable=False,
            existing_server_default=sa.text("'open'"),
        )  # fmt: skip
        for column in _new_columns():
            op.add_column("periods", column)
        op.drop_constraint(op.f(STATE), "periods", type_="check")
        op.create_check_constraint(op.f(STATE), "periods", STATE_AFTER)
        op.create_check_constraint(op.f(COMPUTED), "periods", COMPUTED_CHECK)
    op.create_table(
        "publication_previews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("category", sa.String(length=20), nullable=False),
        sa.Column("list_date", sa.Date(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("rule_version", sa.String(length=40), nullable=False),
        sa.Column("entry_count", sa.Integer(), nullable=False),
        sa.Column("previewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("previewed_by", sa.String(length=100), nullable=False),
        sa.Column("inputs", sa.JSON(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("approved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("approved_by", sa.String(length=100), nullable=True),
        sa.CheckConstraint(
            "(approved_at IS NULL AND approved_by IS NULL) OR "
            "(approved_at IS NOT NULL AND approved_by IS NOT NULL)",
            name=op.f("ck_publication_previews_approved_at_and_by"),
        ),
        sa.CheckConstraint(
            "category IN ('fide-standard', 'fide-rapid', 'fide-blitz', 'ffe-rapid')",
            name=op.f("ck_publication_previews_category"),
        ),
        sa.CheckConstraint(
            "entry_count >= 0", name=op.f("ck_publication_previews_entry_count_not_negative")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_publication_previews")),
        sa.UniqueConstraint(
            "category",
            "list_date",
            "digest",
            name=op.f("uq_publication_previews_category_list_date_digest"),
        ),
    )


def downgrade() -> None:
    waiting = (
        op.get_bind()
        .execute(sa.text("SELECT count(*) FROM periods WHERE state = 'awaiting-approval'"))
        .scalar_one()
    )
    if waiting:
        raise RuntimeError(
            f"{waiting} period(s) await approval, a state revision 0007 cannot record: approve "
            "them in the back office or publish them with `ratingdb periods close`; downgrade "
            "refused"
        )
    op.drop_table("publication_previews")
    if sqlite():
        rebuild_sqlite("periods", _periods_before, revision="0008")
        return
    op.drop_constraint(op.f(COMPUTED), "periods", type_="check")
    op.drop_constraint(op.f(STATE), "periods", type_="check")
    op.create_check_constraint(op.f(STATE), "periods", STATE_BEFORE)
    for column in reversed(NEW_COLUMNS):
        op.drop_column("periods", column)
    op.alter_column(
        "periods", "state", type_=sa.String(length=10),
        existing_type=sa.String(length=20), existing_nullable=False,
        existing_server_default=sa.text("'open'"),
    )  # fmt: skip
