"""list parents and chunks: each computed list names the list it was computed from, and every
list's entries are also kept in list order, packed 200 a row (list_chunks); each category's
latest list is kept as one row per player (latest_entries, latest_lists)

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01 20:00:00

The parent of a computed list is what the close and the corrections compute it from
(services.close.computation.previous_list over repositories.periods.lists_of): the latest
revision, among the lists written before it, of its category's list of the period before.
An imported list has none. On SQLite ``rating_lists`` is rebuilt under its own name
(ratingdb.db.sqlite_rebuild) to add the foreign key. The chunks are packed in Python
(ratingdb.db.chunks), list by list, from each list's entries read in list order. A category's
latest list is its latest list date's latest revision; latest_entries hold its entries' rating,
rated games and peak (what the next close starts from).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ratingdb.db.chunk_format_v1 import chunk_rows
from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PARENT = "parent_list_id"
PARENT_FK = "fk_rating_lists_parent_list_id_rating_lists"

#: Every computed list's parent, set-based: the latest revision written before it of the
#: category's latest list dated before it.
SET_PARENTS = """
UPDATE rating_lists SET parent_list_id = (
    SELECT p.id FROM rating_lists AS p
    WHERE p.category = rating_lists.category
      AND p.id < rating_lists.id
      AND p.list_date = (
          SELECT max(q.list_date) FROM rating_lists AS q
          WHERE q.category = rating_lists.category
            AND q.id < rating_lists.id
            AND q.list_date < rating_lists.list_date)
    ORDER BY p.revision DESC
    LIMIT 1)
WHERE source = 'close'
"""

ENTRY_COLUMNS = (
    "player_id, rating, previous_rating, change, games, k_factor, k_used, sum_delta, "
    "rated_games, peak_rating"
)


#: Each category's latest list: no list of the category with a later date, or the same date
#: and a later revision.
SET_LATEST_LISTS = """
INSERT INTO latest_lists (category, list_id)
SELECT l.category, l.id FROM rating_lists AS l
WHERE NOT EXISTS (
    SELECT 1 FROM rating_lists AS m
    WHERE m.category = l.category
      AND (m.list_date > l.list_date OR (m.list_date = l.list_date AND m.revision > l.revision)))
"""

SET_LATEST_ENTRIES = """
INSERT INTO latest_entries (category, player_id, rating, rated_games, peak_rating)
SELECT x.category, e.player_id, e.rating, e.rated_games, e.peak_rating
FROM latest_lists AS x JOIN list_entries AS e ON e.list_id = x.list_id
"""

CATEGORIES = "category IN ('fide-standard', 'fide-rapid', 'fide-blitz', 'ffe-rapid')"


def _parent_column() -> sa.Column[int]:
    return sa.Column(PARENT, sa.Integer(), nullable=True)


def _lists_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    new.append_column(_parent_column())
    new.append_constraint(sa.ForeignKeyConstraint([PARENT], ["rating_lists.id"], name=PARENT_FK))
    return new


def _lists_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    return copy_table(old, metadata, drop=(PARENT,))


def upgrade() -> None:
    if sqlite():
        rebuild_sqlite("rating_lists", _lists_after, revision="0010")
    else:
        op.add_column("rating_lists", _parent_column())
        op.create_foreign_key(op.f(PARENT_FK), "rating_lists", "rating_lists", [PARENT], ["id"])
    op.execute(SET_PARENTS)
    chunks = op.create_table(
        "list_chunks",
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.Column("chunk", sa.Integer(), nullable=False),
        sa.Column("top_rating", sa.Integer(), nullable=False),
        sa.Column("bottom_rating", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("entries", sa.LargeBinary(), nullable=False),
        sa.CheckConstraint("chunk >= 0", name=op.f("ck_list_chunks_chunk_not_negative")),
        sa.CheckConstraint("size > 0", name=op.f("ck_list_chunks_size_positive")),
        sa.CheckConstraint(
            "top_rating >= bottom_rating", name=op.f("ck_list_chunks_top_not_below_bottom")
        ),
        sa.ForeignKeyConstraint(
            ["list_id"], ["rating_lists.id"], name=op.f("fk_list_chunks_list_id_rating_lists")
        ),
        sa.PrimaryKeyConstraint("list_id", "chunk", name=op.f("pk_list_chunks")),
    )
    _write_chunks(chunks)
    _latest()


def _latest() -> None:
    op.create_table(
        "latest_entries",
        sa.Column("category", sa.String(length=20), nullable=False),
        sa.Column("player_id", sa.String(length=20), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        sa.Column("peak_rating", sa.Integer(), nullable=False),
        sa.CheckConstraint(CATEGORIES, name=op.f("ck_latest_entries_category")),
        sa.CheckConstraint(
            "rated_games >= 0", name=op.f("ck_latest_entries_rated_games_not_negative")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.player_id"],
            name=op.f("fk_latest_entries_player_id_players"),
        ),
        sa.PrimaryKeyConstraint("category", "player_id", name=op.f("pk_latest_entries")),
    )
    op.create_index(
        op.f("ix_latest_entries_category_rating_player_id"),
        "latest_entries",
        ["category", "rating", "player_id"],
        unique=False,
    )
    op.create_table(
        "latest_lists",
        sa.Column("category", sa.String(length=20), nullable=False),
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.CheckConstraint(CATEGORIES, name=op.f("ck_latest_lists_category")),
        sa.ForeignKeyConstraint(
            ["list_id"], ["rating_lists.id"], name=op.f("fk_latest_lists_list_id_rating_lists")
        ),
        sa.PrimaryKeyConstraint("category", name=op.f("pk_latest_lists")),
    )
    op.execute(SET_LATEST_LISTS)
    op.execute(SET_LATEST_ENTRIES)


def _write_chunks(chunks: sa.Table) -> None:
    """Every list's chunks from its entries, list by list, in list order (rating descending,
    then player_id in code point order)."""
    bind = op.get_bind()
    collate = "" if sqlite() else ' COLLATE "C"'
    list_ids = [row[0] for row in bind.execute(sa.text("SELECT id FROM rating_lists ORDER BY id"))]
    select_entries = sa.text(
        f"SELECT {ENTRY_COLUMNS} FROM list_entries WHERE list_id = :list_id "
        f"ORDER BY rating DESC, player_id{collate}"
    )
    for list_id in list_ids:
        entries = [tuple(row) for row in bind.execute(select_entries, {"list_id": list_id})]
        rows = list(chunk_rows(list_id, entries))
        if rows:
            bind.execute(chunks.insert(), rows)


def downgrade() -> None:
    op.drop_table("latest_lists")
    op.drop_index(op.f("ix_latest_entries_category_rating_player_id"), table_name="latest_entries")
    op.drop_table("latest_entries")
    op.drop_table("list_chunks")
    if sqlite():
        rebuild_sqlite("rating_lists", _lists_before, revision="0010")
    else:
        op.drop_constraint(op.f(PARENT_FK), "rating_lists", type_="foreignkey")
        op.drop_column("rating_lists", PARENT)
