"""Revision 0011 on a hand-built chain: the rows list_entries keeps (changes and markers), worked
by hand, and the full rows its downgrade rebuilds from the chunks. SQLite and PostgreSQL.

Lists: 1 imported 2026-01 (no parent), 2 closed 2026-02 [1], 3 closed 2026-03 [2]; as 0010
stores them, every entry in full. Players:
- A (2001) plays in 2026-02 (a row on 2), not in 2026-03 (carried: none on 3);
- B (2002) never plays: carried on 2 and 3 (no rows; on 3 compared with 2's row, itself
  deleted by the same migration);
- C (2003) leaves in 2026-02: a marker on 2, nothing on 3 (not on 2 either);
- D (2004) leaves in 2026-02 and comes back in 2026-03: a marker on 2, a row on 3;
- E (2005) changes K without a game in 2026-02 (20 -> 10): a row on 2, carried on 3.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from ratingdb.db import current_revision, downgrade, head_revision, upgrade
from ratingdb.db.chunk_format_v1 import chunk_rows, list_order  # the format at 0010
from tests.migrations.test_0005_list_replace_kind import run
from tests.support.sql import query

D8 = Decimal("0.8000")
#: (list, player, rating, previous_rating, change, games, k_factor, k_used, sum_delta,
#:  rated_games, peak_rating): every entry in full, as 0010 stores it.
FULL = [
    (1, "2001", 2000, None, None, 0, 20, None, None, 40, 2010),
    (1, "2002", 1800, None, None, 0, 20, None, None, 30, 1850),
    (1, "2003", 1600, None, None, 0, 20, None, None, 35, 1600),
    (1, "2004", 1500, None, None, 0, 20, None, None, 31, 1500),
    (1, "2005", 1700, None, None, 0, 20, None, None, 50, 1700),
    (2, "2001", 2016, 2000, 16, 5, 20, 20, D8, 45, 2016),
    (2, "2002", 1800, 1800, 0, 0, 20, None, None, 30, 1850),
    (2, "2005", 1700, 1700, 0, 0, 10, None, None, 50, 1700),
    (3, "2001", 2016, 2016, 0, 0, 20, None, None, 45, 2016),
    (3, "2002", 1800, 1800, 0, 0, 20, None, None, 30, 1850),
    (3, "2004", 1510, None, None, 9, 40, 40, None, 40, 1510),
    (3, "2005", 1700, 1700, 0, 0, 10, None, None, 50, 1700),
]
MARKER = (None,) * 9
#: What 0011 keeps, worked by hand from the story above.
CHANGES = [
    *(row for row in FULL if row[0] == 1),
    (2, "2001", 2016, 2000, 16, 5, 20, 20, D8, 45, 2016),
    (2, "2003", *MARKER),
    (2, "2004", *MARKER),
    (2, "2005", 1700, 1700, 0, 0, 10, None, None, 50, 1700),
    (3, "2004", 1510, None, None, 9, 40, 40, None, 40, 1510),
]

COLUMNS = (
    "list_id, player_id, rating, previous_rating, change, games, k_factor, k_used, sum_delta, "
    "rated_games, peak_rating"
)


def stored(url: str) -> list[tuple[Any, ...]]:
    rows = query(url, f"SELECT {COLUMNS} FROM list_entries ORDER BY list_id, player_id")
    # SQLite gives a NUMERIC read by plain SQL back as a float.
    return [
        (*row[:8], None if row[8] is None else Decimal(str(row[8])).quantize(D8), *row[9:])
        for row in rows
    ]


def plain(row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row with its sum of deltas as a float (SQLite's driver binds no Decimal)."""
    return (*row[:8], None if row[8] is None else float(row[8]), *row[9:])


def build(url: str) -> None:
    """The chain at 0010: lists, every entry in full, and each list's chunks."""
    for player in sorted({row[1] for row in FULL}):
        run(url, "INSERT INTO players (player_id, name) VALUES (:p, :n)", p=player, n=player)
    for month in (1, 2, 3):
        day = f"2026-0{month}-01"
        run(url, "INSERT INTO periods (id, category, list_date, closing_date, state) VALUES "
            "(:id, 'fide-standard', :day, :day, 'open')", id=month, day=day)  # fmt: skip
        run(url, "INSERT INTO rating_lists (id, period_id, category, list_date, revision, "
            "source, published_at, entry_count, parent_list_id) VALUES (:id, :id, "
            "'fide-standard', :day, 1, :source, '2026-01-01 00:00:00', 4, :parent)",
            id=month, day=day, source="import" if month == 1 else "close",
            parent=None if month == 1 else month - 1)  # fmt: skip
    for row in FULL:
        names = COLUMNS.split(", ")
        run(url, f"INSERT INTO list_entries ({COLUMNS}) VALUES "
            f"({', '.join(':' + name for name in names)})",
            **dict(zip(names, plain(row), strict=True)))  # fmt: skip
    for list_id in (1, 2, 3):
        listed = sorted((row[1:] for row in FULL if row[0] == list_id), key=list_order)
        for chunk in chunk_rows(list_id, listed):
            run(url, "INSERT INTO list_chunks (list_id, chunk, top_rating, bottom_rating, size, "
                "entries) VALUES (:list_id, :chunk, :top_rating, :bottom_rating, :size, "
                ":entries)", **chunk)  # fmt: skip


def test_changes_and_markers_up_full_rows_down(database_url: str) -> None:
    url = database_url
    downgrade(url, "0010")
    build(url)
    upgrade(url, "0011")
    assert stored(url) == CHANGES
    downgrade(url, "0010")
    assert current_revision(url) == "0010"
    assert stored(url) == FULL
    upgrade(url)
    assert current_revision(url) == head_revision()
    assert stored(url) == CHANGES
