"""list storage guarded by the database: a list's parent is a list of the same category written
before it, latest_lists names a list of its own category, a chunk holds 1 to 200 entries.

Issue 26, item 2. Until now code alone kept these (the close and the corrections name an
existing list of the category as parent; ``periods verify`` checked the order since session
10). Now:

- ``rating_lists``: UNIQUE (id, category), the target of the composite keys below; the
  parent's key becomes (parent_list_id, category) -> rating_lists (id, category); CHECK
  parent_list_id < id (a player's entry is read from their nearest row below the list);
- ``latest_lists``: (list_id, category) -> rating_lists (id, category);
- ``list_chunks``: CHECK size <= 200 (the chunk size of the packed format, version 1).

A database whose rows break one of them is refused, naming the rows, and nothing changes.
SQLite: the three tables are rebuilt under their own names (ratingdb.db.sqlite_rebuild).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03 23:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The chunk size of the packed format, version 1 (ratingdb.db.chunks.CHUNK_SIZE then): frozen
#: here, so that this revision means the same whatever the live code becomes.
CHUNK_SIZE = 200
PARENT_FK = "fk_rating_lists_parent_list_id_rating_lists"
LATEST_FK = "fk_latest_lists_list_id_rating_lists"
ID_CATEGORY = "uq_rating_lists_id_category"
PARENT_BEFORE = "ck_rating_lists_parent_written_before"
PARENT_BEFORE_CHECK = "parent_list_id IS NULL OR parent_list_id < id"
CHUNK_BOUND = "ck_list_chunks_size_at_most_chunk_size"
CHUNK_BOUND_CHECK = f"size <= {CHUNK_SIZE}"

#: (what is wrong, the query finding the rows that break it)
BROKEN = (
    ("lists whose parent was written after them (list id, parent id)",
     "SELECT id, parent_list_id FROM rating_lists WHERE parent_list_id >= id"),
    ("lists whose parent is of another category (list id, parent id)",
     ("SELECT l.id, l.parent_list_id FROM rating_lists AS l JOIN rating_lists AS p "
      "ON p.id = l.parent_list_id WHERE p.category <> l.category")),
    ("latest_lists rows naming a list of another category (category, list id)",
     ("SELECT x.category, x.list_id FROM latest_lists AS x JOIN rating_lists AS l "
      "ON l.id = x.list_id WHERE l.category <> x.category")),
    ("chunks of more than 200 entries (list id, chunk)",
     f"SELECT list_id, chunk FROM list_chunks WHERE size > {CHUNK_SIZE}"),
)  # fmt: skip


def _refuse_broken_rows() -> None:
    bind = op.get_bind()
    found = []
    for what, query in BROKEN:
        rows = bind.execute(sa.text(query + " ORDER BY 1, 2 LIMIT 20")).all()
        if rows:
            found.append(f"{what}: " + ", ".join(str(tuple(row)) for row in rows))
    if found:
        raise RuntimeError(
            "revision 0013 refused: the database holds rows its new keys and checks would "
            "refuse; correct them (`ratingdb periods verify --all` names the lists), then run "
            "`ratingdb db upgrade` again: " + "; ".join(found)
        )


def _drop_fk(table: sa.Table, columns: set[str]) -> None:
    for constraint in list(table.constraints):
        if (
            isinstance(constraint, sa.ForeignKeyConstraint)
            and set(constraint.column_keys) == columns
        ):
            table.constraints.discard(constraint)
    for column in columns:
        table.c[column].foreign_keys.clear()


def _lists_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    _drop_fk(new, {"parent_list_id"})
    new.append_constraint(sa.UniqueConstraint("id", "category", name=ID_CATEGORY))
    new.append_constraint(sa.CheckConstraint(PARENT_BEFORE_CHECK, name=PARENT_BEFORE))
    new.append_constraint(
        sa.ForeignKeyConstraint(["parent_list_id", "category"],
                                ["rating_lists.id", "rating_lists.category"], name=PARENT_FK)
    )  # fmt: skip
    return new


def _latest_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    _drop_fk(new, {"list_id"})
    new.append_constraint(
        sa.ForeignKeyConstraint(["list_id", "category"],
                                ["rating_lists.id", "rating_lists.category"], name=LATEST_FK)
    )  # fmt: skip
    return new


def _chunks_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    new.append_constraint(sa.CheckConstraint(CHUNK_BOUND_CHECK, name=CHUNK_BOUND))
    return new


def upgrade() -> None:
    _refuse_broken_rows()
    if sqlite():
        rebuild_sqlite("rating_lists", _lists_after, revision="0013")
        rebuild_sqlite("latest_lists", _latest_after, revision="0013")
        rebuild_sqlite("list_chunks", _chunks_after, revision="0013")
        return
    op.create_unique_constraint(ID_CATEGORY, "rating_lists", ["id", "category"])
    op.drop_constraint(PARENT_FK, "rating_lists", type_="foreignkey")
    op.create_foreign_key(PARENT_FK, "rating_lists", "rating_lists",
                          ["parent_list_id", "category"], ["id", "category"])  # fmt: skip
    op.create_check_constraint(op.f(PARENT_BEFORE), "rating_lists", PARENT_BEFORE_CHECK)
    op.drop_constraint(LATEST_FK, "latest_lists", type_="foreignkey")
    op.create_foreign_key(LATEST_FK, "latest_lists", "rating_lists",
                          ["list_id", "category"], ["id", "category"])  # fmt: skip
    op.create_check_constraint(op.f(CHUNK_BOUND), "list_chunks", CHUNK_BOUND_CHECK)


def _without(table: sa.Table, names: set[str]) -> None:
    for constraint in list(table.constraints):
        if constraint.name in names:
            table.constraints.discard(constraint)


def _lists_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    _without(new, {ID_CATEGORY, PARENT_BEFORE, PARENT_FK})
    _drop_fk(new, {"parent_list_id", "category"})
    new.append_constraint(
        sa.ForeignKeyConstraint(["parent_list_id"], ["rating_lists.id"], name=PARENT_FK)
    )
    return new


def _latest_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    _without(new, {LATEST_FK})
    _drop_fk(new, {"list_id", "category"})
    new.append_constraint(sa.ForeignKeyConstraint(["list_id"], ["rating_lists.id"], name=LATEST_FK))
    return new


def _chunks_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    _without(new, {CHUNK_BOUND})
    return new


def downgrade() -> None:
    if sqlite():
        rebuild_sqlite("list_chunks", _chunks_before, revision="0013")
        rebuild_sqlite("latest_lists", _latest_before, revision="0013")
        rebuild_sqlite("rating_lists", _lists_before, revision="0013")
        return
    op.drop_constraint(op.f(CHUNK_BOUND), "list_chunks", type_="check")
    op.drop_constraint(LATEST_FK, "latest_lists", type_="foreignkey")
    op.create_foreign_key(LATEST_FK, "latest_lists", "rating_lists", ["list_id"], ["id"])
    op.drop_constraint(op.f(PARENT_BEFORE), "rating_lists", type_="check")
    op.drop_constraint(PARENT_FK, "rating_lists", type_="foreignkey")
    op.create_foreign_key(PARENT_FK, "rating_lists", "rating_lists", ["parent_list_id"], ["id"])
    op.drop_constraint(ID_CATEGORY, "rating_lists", type_="unique")
