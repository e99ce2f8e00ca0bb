"""activity on every list entry: ``last_rated`` (the list of the last period that rated games
of the player) and ``active``, in list_entries, latest_entries (last_rated) and the chunks
(packed format 2)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 06:00:00

Issue 27, item 3. Every stored list gets the activity its entries had, worked out list by list
in the order they were written (a list's parent before it), with the rule as it stood when
this revision was written, frozen here (ratingdb.rules.activity then):

- an entry whose period rated games of the player (``games`` > 0): last rated on that list;
- else the player's last_rated on the parent list (None when they were not on it);
- on a list without a parent: an imported list's entries last rated on that list (no earlier
  revision stored FIDE's flag: every imported player counts as active on it), a category's
  first computed list's as above;
- active while the last rated list is less than 12 months before the list (FIDE: 24 from the
  November 2020 list; FFE rapid: 12).

A computed list stores its changes against its parent carried forward (carry-forward keeps the
activity): a player whose activity changes on a list without their row there gets one (their
entry carried, with the new activity). Each list's chunks are packed again in format 2 (the
same entries, in the same chunks). latest_entries get their list's last_rated.

The downgrade packs the chunks in format 1 again and drops the columns; the rows added for a
change of activity stay (each equals its parent's entry carried forward: the same list).
"""

from collections.abc import Sequence
from datetime import date
from typing import Any

import sqlalchemy as sa
from alembic import op

import ratingdb.db.chunk_format_v1 as v1
import ratingdb.db.chunk_format_v2 as v2
from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECK = "ck_list_entries_entry_or_marker"
REQUIRED_BEFORE = ("rating", "games", "k_factor", "rated_games", "peak_rating")
OPTIONAL_BEFORE = ("previous_rating", "change", "k_used", "sum_delta")
REQUIRED_AFTER = (*REQUIRED_BEFORE, "active")
OPTIONAL_AFTER = (*OPTIONAL_BEFORE, "last_rated")
FIDE = ("fide-standard", "fide-rapid", "fide-blitz")
#: The FIDE Council's 24 months (fide.com/news/796), from this list on.
LONGER_FROM = date(2020, 11, 1)


def _entry_or_marker(required: Sequence[str], optional: Sequence[str]) -> str:
    entry = " AND ".join(f"{name} IS NOT NULL" for name in required)
    marker = " AND ".join(f"{name} IS NULL" for name in (*required, *optional))
    return f"({entry}) OR ({marker})"


def _months(category: str, list_date: date) -> int:
    return 24 if category in FIDE and list_date >= LONGER_FROM else 12


def _index(day: date) -> int:
    return day.year * 12 + day.month - 1


def _active(category: str, list_date: date, last_rated: date | None) -> bool:
    if last_rated is None:
        return False
    return _index(list_date) - _index(last_rated) < _months(category, list_date)


def _entries(bind: sa.Connection, list_id: int, unpack: Any) -> list[tuple[Any, ...]]:
    """The list's entries from its chunks, in list order."""
    rows = bind.execute(
        sa.text("SELECT entries FROM list_chunks WHERE list_id = :id ORDER BY chunk"),
        {"id": list_id},
    )
    return [entry for row in rows for entry in unpack(bytes(row[0]))]


def _repack(bind: sa.Connection, list_id: int, entries: list[tuple[Any, ...]], fmt: Any) -> None:
    bind.execute(sa.text("DELETE FROM list_chunks WHERE list_id = :id"), {"id": list_id})
    rows = list(fmt.chunk_rows(list_id, entries))
    if rows:
        bind.execute(
            sa.text(
                "INSERT INTO list_chunks (list_id, chunk, top_rating, bottom_rating, size, "
                "entries) VALUES (:list_id, :chunk, :top_rating, :bottom_rating, :size, :entries)"
            ),
            rows,
        )


_ENTRY_COLUMNS = ", ".join(v2.ENTRY)
_INSERT_ENTRY = sa.text(
    f"INSERT INTO list_entries (list_id, {_ENTRY_COLUMNS}) "
    f"VALUES (:list_id, {', '.join(':' + name for name in v2.ENTRY)})"
)
_SET_ACTIVITY = sa.text(
    "UPDATE list_entries SET last_rated = :last_rated, active = :active "
    "WHERE list_id = :list_id AND player_id = :player_id"
)


def _lists(bind: sa.Connection) -> list[Any]:
    return bind.execute(
        sa.text(
            "SELECT id, category, list_date, source, parent_list_id FROM rating_lists ORDER BY id"
        )
    ).all()


def _with_activity(bind: sa.Connection) -> None:
    lists = _lists(bind)
    children: dict[int, int] = {}
    for row in lists:
        if row.parent_list_id is not None:
            children[row.parent_list_id] = children.get(row.parent_list_id, 0) + 1
    #: list id -> player -> (last_rated, active), kept while a child is still to come.
    activity: dict[int, dict[str, tuple[date | None, bool]]] = {}
    latest = dict(bind.execute(sa.text("SELECT list_id, category FROM latest_lists")).all())
    for row in lists:
        list_date = row.list_date
        if isinstance(list_date, str):  # SQLite's driver, through a plain statement
            list_date = date.fromisoformat(list_date)
        category = row.category
        parent = row.parent_list_id
        before = {} if parent is None else activity[parent]
        entries = _entries(bind, row.id, v1.unpack)
        now: dict[str, tuple[date | None, bool]] = {}
        packed: list[tuple[Any, ...]] = []
        for entry in entries:
            player_id, games = entry[0], entry[4]
            if games or (parent is None and row.source == "import"):
                last_rated: date | None = list_date
            else:
                last_rated = before.get(player_id, (None, False))[0]
            flags = (last_rated, _active(category, list_date, last_rated))
            now[player_id] = flags
            packed.append((*entry, *flags))
        _repack(bind, row.id, packed, v2)
        _rows_with_activity(bind, row.id, parent, packed, before)
        if row.id in latest:
            _latest_with_activity(bind, category, packed)
        if children.get(row.id):
            activity[row.id] = now
        if parent is not None:
            children[parent] -= 1
            if not children[parent]:
                del activity[parent]


def _rows_with_activity(
    bind: sa.Connection,
    list_id: int,
    parent: int | None,
    packed: list[tuple[Any, ...]],
    before: dict[str, tuple[date | None, bool]],
) -> None:
    """The list's own rows given their activity; a row added for each player whose activity
    differs from the parent's (carried forward) without a row of their own."""
    own = {
        player_id
        for (player_id,) in bind.execute(
            sa.text("SELECT player_id FROM list_entries WHERE list_id = :id"), {"id": list_id}
        )
    }
    updates: list[dict[str, Any]] = []
    inserts: list[dict[str, Any]] = []
    for entry in packed:
        player_id, last_rated, active = entry[0], entry[-2], entry[-1]
        if player_id in own:
            updates.append(
                {"list_id": list_id, "player_id": player_id, "last_rated": last_rated,
                 "active": active}
            )  # fmt: skip
        elif parent is not None and before.get(player_id) != (last_rated, active):
            inserts.append({"list_id": list_id, **dict(zip(v2.ENTRY, entry, strict=True))})
    if updates:
        bind.execute(_SET_ACTIVITY, updates)
    if inserts:
        bind.execute(_INSERT_ENTRY, inserts)


def _latest_with_activity(
    bind: sa.Connection, category: str, packed: list[tuple[Any, ...]]
) -> None:
    rows = [
        {"category": category, "player_id": entry[0], "last_rated": entry[-2]}
        for entry in packed
        if entry[-2] is not None
    ]
    if rows:
        bind.execute(
            sa.text(
                "UPDATE latest_entries SET last_rated = :last_rated "
                "WHERE category = :category AND player_id = :player_id"
            ),
            rows,
        )


def _entries_after(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata)
    for constraint in list(new.constraints):
        if constraint.name == CHECK:
            new.constraints.discard(constraint)
    new.append_constraint(
        sa.CheckConstraint(_entry_or_marker(REQUIRED_AFTER, OPTIONAL_AFTER), name=CHECK)
    )
    return new


def _entries_before(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata, drop=("last_rated", "active"))
    for constraint in list(new.constraints):
        if constraint.name == CHECK:
            new.constraints.discard(constraint)
    new.append_constraint(
        sa.CheckConstraint(_entry_or_marker(REQUIRED_BEFORE, OPTIONAL_BEFORE), name=CHECK)
    )
    return new


def upgrade() -> None:
    op.add_column("list_entries", sa.Column("last_rated", sa.Date(), nullable=True))
    op.add_column("list_entries", sa.Column("active", sa.Boolean(), nullable=True))
    op.add_column("latest_entries", sa.Column("last_rated", sa.Date(), nullable=True))
    _with_activity(op.get_bind())
    if sqlite():
        rebuild_sqlite("list_entries", _entries_after, revision="0015")
        return
    op.drop_constraint(op.f(CHECK), "list_entries", type_="check")
    op.create_check_constraint(
        op.f(CHECK), "list_entries", _entry_or_marker(REQUIRED_AFTER, OPTIONAL_AFTER)
    )


def downgrade() -> None:
    bind = op.get_bind()
    for row in _lists(bind):
        entries = _entries(bind, row.id, v2.unpack)
        _repack(bind, row.id, [entry[:-2] for entry in entries], v1)
    if sqlite():
        rebuild_sqlite("list_entries", _entries_before, revision="0015")
    else:
        op.drop_constraint(op.f(CHECK), "list_entries", type_="check")
        op.create_check_constraint(
            op.f(CHECK), "list_entries", _entry_or_marker(REQUIRED_BEFORE, OPTIONAL_BEFORE)
        )
        op.drop_column("list_entries", "active")
        op.drop_column("list_entries", "last_rated")
    op.drop_column("latest_entries", "last_rated")
