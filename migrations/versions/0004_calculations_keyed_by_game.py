"""calculations: the player, opponent and tournament are the game's, so no keys of their own.

A calculation row is one game from one player's side: its ``player_id``, ``opponent_id`` and
``tournament_id`` are copied from the game (``game_id``), whose own foreign keys already tie
them to players and tournaments. The three extra keys made PostgreSQL run three more checks per
row, each locking a players or tournaments row (FOR KEY SHARE): measured on a 2,000,000-player
close (benchmarks/README.md), 103 s to insert 1,980,190 calculation rows with the five keys,
41 s with ``game_id`` and ``list_id`` alone. ``game_id`` and ``list_id`` stay: a calculation
always names a stored game and a stored list. ``periods verify`` recomputes every row.

On SQLite the table is rebuilt under its own name (ratingdb.db.sqlite_rebuild).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 09:20:00.000000

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: (column, referred table, referred column) of the keys this revision drops.
KEYS = (
    ("player_id", "players", "player_id"),
    ("opponent_id", "players", "player_id"),
    ("tournament_id", "tournaments", "tournament_id"),
)


def _name(column: str, table: str) -> str:
    return f"fk_calculations_{column}_{table}"


def _without_keys(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    dropped = {(column,) for column, _, _ in KEYS}
    for constraint in list(new.constraints):
        if (
            isinstance(constraint, sa.ForeignKeyConstraint)
            and tuple(constraint.column_keys) in dropped
        ):
            new.constraints.discard(constraint)
            for column in constraint.columns:
                column.foreign_keys.clear()
    return new


def _with_keys(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    for column, table, referred in KEYS:
        new.append_constraint(
            sa.ForeignKeyConstraint([column], [f"{table}.{referred}"], name=_name(column, table))
        )
    return new


def upgrade() -> None:
    if sqlite():
        rebuild_sqlite("calculations", _without_keys, revision="0004")
        return
    for column, table, _ in KEYS:
        op.drop_constraint(op.f(_name(column, table)), "calculations", type_="foreignkey")


def downgrade() -> None:
    if sqlite():
        rebuild_sqlite("calculations", _with_keys, revision="0004")
        return
    for column, table, referred in KEYS:
        op.create_foreign_key(
            op.f(_name(column, table)), "calculations", table, [column], [referred]
        )
