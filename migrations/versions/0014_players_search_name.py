"""players search name: ``players.search_name``, each name as the search compares it
(accents and case removed, punctuation as spaces), NOT NULL, with an index for prefix LIKE.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04 10:00:00

Issue 29, item 2. The column is added, computed for every existing player in batches of
``BATCH`` (by player id), then made NOT NULL and indexed (PostgreSQL: the pattern operator
class, so that ``LIKE 'word%'`` uses it whatever the collation). The key is computed by
``search_key_v1`` below, a frozen copy of ratingdb.formats.names.search_key as it is at this
revision: the live function may change later (that would be a new revision computing the keys
again), this revision must mean the same. ``tests/migrations/test_0014_players_search_name.py``
checks that the two still agree today.

SQLite: the column is added in place (nullable), filled, then ``players`` is rebuilt under its
own name (ratingdb.db.sqlite_rebuild) to make it NOT NULL; the downgrade rebuilds it without.
Dropping and refilling a table others refer to makes SQLite look, for each of its rows, for
the rows referring to it (foreign keys are on, their checks deferred): a scan of each referring
table where no index starts with the referring column (games' white_id and black_id,
latest_entries' and player_status' player_id, players' merged_into), 200,000 players times
the table. Those columns get an index for the rebuild (``_CHILD_INDEXES``), dropped after it.
"""

import unicodedata
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: The length of players.name and of the key.
LENGTH = 200
INDEX = "ix_players_search_name"
#: Players read and written at a time.
BATCH = 5000

_SPELLED_V1 = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "đ": "d", "ð": "d", "ł": "l", "\u0131": "i", "þ": "th",
     "ħ": "h", "ŧ": "t", "ŋ": "n", "ĸ": "k"}
)  # fmt: skip


def _without_marks_v1(text: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if unicodedata.category(ch)[0] != "M"
    )


def search_key_v1(name: str) -> str:
    """Frozen: ratingdb.formats.names.search_key at revision 0014. Never edit."""
    folded = _without_marks_v1(_without_marks_v1(name).casefold()).translate(_SPELLED_V1)
    spaced = "".join(ch if ch.isalnum() else " " for ch in folded)
    return " ".join(spaced.split())[:LENGTH].rstrip()


def _backfill() -> None:
    """Every player's key, ``BATCH`` players at a time in player id order."""
    bind = op.get_bind()
    select = sa.text(
        "SELECT player_id, name FROM players WHERE player_id > :after "
        "ORDER BY player_id LIMIT :batch"
    )
    update = sa.text("UPDATE players SET search_name = :key WHERE player_id = :player_id")
    after = ""
    while rows := bind.execute(select, {"after": after, "batch": BATCH}).all():
        bind.execute(update, [{"key": search_key_v1(name), "player_id": pid} for pid, name in rows])
        after = rows[-1][0]


#: The columns referring to players that no index starts with, each indexed while players is
#: rebuilt on SQLite (and players' own merged_into, by ``_rebuilt``).
_CHILD_INDEXES = (
    ("_0014_games_white_id", "games", "white_id"),
    ("_0014_games_black_id", "games", "black_id"),
    ("_0014_latest_entries_player_id", "latest_entries", "player_id"),
    ("_0014_player_status_player_id", "player_status", "player_id"),
)
_MERGED_INTO_INDEX = "_0014_players_merged_into"


def _rebuilt(change: Callable[[sa.Table, sa.MetaData], sa.Table]) -> None:
    """SQLite: ``players`` rebuilt as ``change`` makes it, the referring columns indexed for
    the while."""
    for name, table, column in _CHILD_INDEXES:
        op.create_index(name, table, [column])
    # Reflected with the table, it is made again on the rebuilt one, before the rows return.
    op.create_index(_MERGED_INTO_INDEX, "players", ["merged_into"])
    rebuild_sqlite("players", change, revision="0014")
    op.drop_index(_MERGED_INTO_INDEX, table_name="players")
    for name, table, _ in _CHILD_INDEXES:
        op.drop_index(name, table_name=table)


def _not_null(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    new.c.search_name.nullable = False
    return new


def _without_key(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    return copy_table(old, metadata, drop=["search_name"])


def upgrade() -> None:
    op.add_column("players", sa.Column("search_name", sa.String(length=LENGTH), nullable=True))
    _backfill()
    if sqlite():
        _rebuilt(_not_null)
        op.create_index(INDEX, "players", ["search_name"])
        return
    op.alter_column("players", "search_name", existing_type=sa.String(LENGTH), nullable=False)
    op.create_index(
        INDEX, "players", ["search_name"], postgresql_ops={"search_name": "varchar_pattern_ops"}
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="players")
    if sqlite():
        _rebuilt(_without_key)
        return
    op.drop_column("players", "search_name")
