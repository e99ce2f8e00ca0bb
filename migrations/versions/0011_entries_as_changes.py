"""entries as changes: a computed list keeps in list_entries only the entries that differ from
its parent's entry carried forward, and a marker row (every field NULL) for each player of the
parent not on it; list_entries is keyed by (player_id, list_id)

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 05:00:00

Issue 16, stage (b). A player's entry on a list is their row on the nearest list of its
ancestry (rating_lists.parent_list_id walked up), carried forward when older
(repositories.list_entries.carried: the same rating as the previous rating, change 0, no
games, no K used nor sum of deltas, the same K, rated games and peak); a marker there: not on
the list. Every list's whole entries stay in list_chunks (0010), which the downgrade rebuilds
the full rows from.

Set-based: markers are inserted where a parent's entry has no entry on the child list, then the
carried rows are deleted, each compared with its parent's row as it was before any was deleted
(PostgreSQL: one DELETE, whose join reads the rows as the statement began; SQLite: the keys
gathered in a temporary table first). The list-order index and the player index go (a list is
read from its chunks; the new key starts with the player); an index on list_id alone stays for
the reads of one list's own rows (``periods verify``, latest_entries written from an import):
about 7 bytes a row on PostgreSQL (its entries deduplicated), 4 % of a list-month's size.
"""

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from ratingdb.db.chunk_format_v1 import ENTRY, unpack
from ratingdb.db.sqlite_rebuild import rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

REQUIRED = ("rating", "games", "k_factor", "rated_games", "peak_rating")
OPTIONAL = ("previous_rating", "change", "k_used", "sum_delta")
CHECK = "ck_list_entries_entry_or_marker"
ENTRY_OR_MARKER = (
    "(" + " AND ".join(f"{name} IS NOT NULL" for name in REQUIRED) + ") OR ("
    + " AND ".join(f"{name} IS NULL" for name in (*REQUIRED, *OPTIONAL)) + ")"
)  # fmt: skip
LIST_ORDER_INDEX = "ix_list_entries_list_id_rating"
PLAYER_INDEX = "ix_list_entries_player_id"
LIST_INDEX = "ix_list_entries_list_id"
KEY = "pk_list_entries"

#: A marker on each computed list for each player with an entry on its parent and none on it
#: (every row is still a full entry here).
INSERT_MARKERS = """
INSERT INTO list_entries (list_id, player_id)
SELECT l.id, p.player_id
FROM rating_lists AS l JOIN list_entries AS p ON p.list_id = l.parent_list_id
WHERE p.rating IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM list_entries AS e WHERE e.list_id = l.id AND e.player_id = p.player_id)
"""

#: The rows of a computed list equal to their parent's row carried forward.
CARRIED = """
FROM list_entries AS e
JOIN rating_lists AS l ON l.id = e.list_id
JOIN list_entries AS p ON p.list_id = l.parent_list_id AND p.player_id = e.player_id
WHERE e.rating = p.rating AND e.previous_rating = p.rating AND e.change = 0 AND e.games = 0
  AND e.k_factor = p.k_factor AND e.k_used IS NULL AND e.sum_delta IS NULL
  AND e.rated_games = p.rated_games AND e.peak_rating = p.peak_rating
"""
DELETE_CARRIED_POSTGRESQL = """
DELETE FROM list_entries AS e USING rating_lists AS l, list_entries AS p
WHERE l.id = e.list_id AND p.list_id = l.parent_list_id AND p.player_id = e.player_id
  AND e.rating = p.rating AND e.previous_rating = p.rating AND e.change = 0 AND e.games = 0
  AND e.k_factor = p.k_factor AND e.k_used IS NULL AND e.sum_delta IS NULL
  AND e.rated_games = p.rated_games AND e.peak_rating = p.peak_rating
"""
KEYS_ASIDE = "_carried_0011"


def _entries_table(metadata: sa.MetaData, *, changes: bool) -> sa.Table:
    """list_entries as 0011 makes it (``changes``) or as 0010 has it."""
    nullable = changes
    key = ("player_id", "list_id") if changes else ("list_id", "player_id")
    table = sa.Table(
        "list_entries",
        metadata,
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=20), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=nullable),
        sa.Column("previous_rating", sa.Integer(), nullable=True),
        sa.Column("change", sa.Integer(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=nullable),
        sa.Column("k_factor", sa.Integer(), nullable=nullable),
        sa.Column("k_used", sa.Integer(), nullable=True),
        sa.Column("sum_delta", sa.Numeric(precision=10, scale=4), nullable=True),
        sa.Column("rated_games", sa.Integer(), nullable=nullable),
        sa.Column("peak_rating", sa.Integer(), nullable=nullable),
        sa.CheckConstraint("games >= 0", name="ck_list_entries_games_not_negative"),
        sa.CheckConstraint("rated_games >= 0", name="ck_list_entries_rated_games_not_negative"),
        sa.ForeignKeyConstraint(
            ["list_id"], ["rating_lists.id"], name="fk_list_entries_list_id_rating_lists"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.player_id"], name="fk_list_entries_player_id_players"
        ),
        sa.PrimaryKeyConstraint(*key, name=KEY),
    )
    if changes:
        table.append_constraint(sa.CheckConstraint(ENTRY_OR_MARKER, name=CHECK))
        sa.Index(LIST_INDEX, table.c.list_id)
    else:
        sa.Index(LIST_ORDER_INDEX, table.c.list_id, table.c.rating.desc(), table.c.player_id)
        sa.Index(PLAYER_INDEX, table.c.player_id)
    return table


def _rebuilt(changes: bool) -> Callable[[sa.Table, sa.MetaData], sa.Table]:
    def change(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
        return _entries_table(metadata, changes=changes)

    return change


def upgrade() -> None:
    if sqlite():
        rebuild_sqlite("list_entries", _rebuilt(True), revision="0011")
        op.execute(INSERT_MARKERS)
        op.execute(f"CREATE TEMP TABLE {KEYS_ASIDE} AS SELECT e.list_id, e.player_id {CARRIED}")
        op.execute(
            f"DELETE FROM list_entries WHERE (list_id, player_id) IN "
            f"(SELECT list_id, player_id FROM {KEYS_ASIDE})"
        )
        op.execute(f"DROP TABLE {KEYS_ASIDE}")
        return
    for name in REQUIRED:
        op.alter_column("list_entries", name, existing_type=sa.Integer(), nullable=True)
    op.create_check_constraint(op.f(CHECK), "list_entries", ENTRY_OR_MARKER)
    op.execute(INSERT_MARKERS)
    op.execute(DELETE_CARRIED_POSTGRESQL)
    op.drop_index(LIST_ORDER_INDEX, table_name="list_entries")
    op.drop_index(op.f(PLAYER_INDEX), table_name="list_entries")
    op.drop_constraint(op.f(KEY), "list_entries", type_="primary")
    op.create_primary_key(op.f(KEY), "list_entries", ["player_id", "list_id"])
    op.create_index(op.f(LIST_INDEX), "list_entries", ["list_id"], unique=False)


def downgrade() -> None:
    """Every list's full entries again, from its chunks (markers and changes deleted first)."""
    op.execute("DELETE FROM list_entries")
    _full_rows_from_chunks()
    if sqlite():
        rebuild_sqlite("list_entries", _rebuilt(False), revision="0011")
        return
    op.drop_index(op.f(LIST_INDEX), table_name="list_entries")
    op.drop_constraint(op.f(KEY), "list_entries", type_="primary")
    op.create_primary_key(op.f(KEY), "list_entries", ["list_id", "player_id"])
    op.drop_constraint(op.f(CHECK), "list_entries", type_="check")
    for name in REQUIRED:
        op.alter_column("list_entries", name, existing_type=sa.Integer(), nullable=False)
    op.create_index(
        LIST_ORDER_INDEX,
        "list_entries",
        ["list_id", sa.text("rating DESC"), "player_id"],
        unique=False,
    )
    op.create_index(op.f(PLAYER_INDEX), "list_entries", ["player_id"], unique=False)


def _full_rows_from_chunks() -> None:
    """Every list's entries inserted from its chunks, a list at a time."""
    bind = op.get_bind()
    types: dict[str, sa.types.TypeEngine[Any]] = {
        "player_id": sa.String(),
        "sum_delta": sa.Numeric(10, 4),
    }
    entries = sa.table(
        "list_entries",
        sa.column("list_id", sa.Integer()),
        *(sa.column(name, types.get(name, sa.Integer())) for name in ENTRY),
    )
    list_ids = [row[0] for row in bind.execute(sa.text("SELECT id FROM rating_lists ORDER BY id"))]
    select_chunks = sa.text(
        "SELECT entries FROM list_chunks WHERE list_id = :list_id ORDER BY chunk"
    )
    for list_id in list_ids:
        rows = [
            {"list_id": list_id, **dict(zip(ENTRY, entry, strict=True))}
            for (packed,) in bind.execute(select_chunks, {"list_id": list_id})
            for entry in unpack(bytes(packed))
        ]
        if rows:
            bind.execute(entries.insert(), rows)
