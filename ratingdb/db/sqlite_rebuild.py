"""SQLite table rebuilds for migrations.

SQLite cannot alter a CHECK, a UNIQUE constraint or a foreign key in place. Alembic's batch mode
rebuilds the table and renames the copy, which breaks the foreign keys of the tables referring
to it while foreign keys are enforced (ratingdb's engines enforce them, and a migration runs in
one transaction, where they cannot be switched off). ``rebuild_sqlite`` rebuilds such a table
under the same name instead, with the checks deferred to COMMIT, where every reference is whole
again. Used by the revisions in migrations/versions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op


def sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def rebuild_sqlite(
    name: str, change: Callable[[sa.Table, sa.MetaData], sa.Table], *, revision: str
) -> None:
    """Rebuild SQLite table ``name`` as ``change`` makes it from the reflected table: copy the
    rows aside, drop the table, create the new one under the same name and insert the rows
    back, the foreign key checks deferred to COMMIT."""
    bind = op.get_bind()
    op.execute("PRAGMA defer_foreign_keys = ON")
    old = sa.Table(name, sa.MetaData(), autoload_with=bind)
    metadata = sa.MetaData()
    new = change(old, metadata)
    for other in old.metadata.tables.values():  # what the foreign keys refer to
        if other.name not in metadata.tables:
            other.to_metadata(metadata)
    aside = f"_{name}_{revision}"
    op.execute(f'CREATE TABLE "{aside}" AS SELECT * FROM "{name}"')
    op.execute(f'DROP TABLE "{name}"')
    new.create(bind)
    columns = ", ".join(f'"{c.name}"' for c in new.columns if c.name in old.columns)
    op.execute(f'INSERT INTO "{name}" ({columns}) SELECT {columns} FROM "{aside}"')
    op.execute(f'DROP TABLE "{aside}"')


def copy_table(old: sa.Table, metadata: sa.MetaData, *, drop: Sequence[str] = ()) -> sa.Table:
    """``old`` in ``metadata`` without the columns ``drop`` and what refers to them."""
    new = old.to_metadata(metadata)
    for index in list(new.indexes):
        if any(c.name in drop for c in index.columns):
            new.indexes.discard(index)
    for constraint in list(new.constraints):
        if isinstance(constraint, sa.ForeignKeyConstraint) and any(
            c in drop for c in constraint.column_keys
        ):
            new.constraints.discard(constraint)
    for column in drop:
        new._columns.remove(new.c[column])  # a Table has no public way to drop a column
    return new
