"""Revision 0010 on a database built by closes and corrections: the parent of every list and
its chunks, as the migration derives them from the lists and entries of 0009, are exactly what
the close and the corrections write at 0010; a downgrade drops them. SQLite and PostgreSQL.

The chain of tests/corrections/test_revision_chain.py (an imported list of 2026-08, four closed
periods 2026-09..12), then two corrections: T1 (2026-09) revises every list, T3 (2026-11)
revises 2026-11 and 2026-12 again. The parents worked by hand: a closed list's parent is the
latest revision, written before it, of the list before it; the imported list has none; since
migration 0019, a correction's revision names the revision it replaces, and 0019's downgrade
gives it the first kind of parent again.

The latest list (latest_lists, latest_entries) is 2026-12 revision 3, worked by hand from the
chain's docstring: T1's Ada-Ben a forfeit (Ada 1800 in 2026-09, 1805 in 2026-10, as
test_a_win_made_a_forfeit_in_p_revises_p_to_p3 works them; Ben 1717, 1712), then T3's Ada-Dee
0-1: Ada 1805 vs Dee 1908, D -103 -> .36, -.36 x20 = -7.2 -> -7 -> 1798; Dee +7 -> 1915; Ben
vs Eve as before: 1709, Eve 1601. Rated games: 60 at the baseline (Zed 28), plus each rated
game (the forfeits are not: Ada none in T1). Peaks: the highest of the baseline rating (the
import's peak) and every later rating.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect

from ratingdb.db import current_revision, downgrade, head_revision, make_engine, upgrade
from ratingdb.db.chunks import CHUNK_SIZE, unpack
from ratingdb.rules.carry_forward import ancestry_of, resolved
from tests.corrections.test_revision_chain import ADA, BEN, DEE, build, correct
from tests.support.sql import query, table_names


def parents(url: str) -> dict[tuple[str, int], tuple[str, int] | None]:
    """(list month, revision) -> its parent's, for every list."""
    rows = query(
        url,
        "SELECT l.list_date, l.revision, p.list_date, p.revision FROM rating_lists l "
        "LEFT JOIN rating_lists p ON p.id = l.parent_list_id ORDER BY l.id",
    )
    return {
        (str(day)[:7], revision): None if parent is None else (str(parent)[:7], parent_revision)
        for day, revision, parent, parent_revision in rows
    }


def chunks(url: str) -> dict[tuple[int, int], tuple[Any, ...]]:
    rows = query(
        url,
        "SELECT list_id, chunk, top_rating, bottom_rating, size, entries FROM list_chunks",
    )
    return {(row[0], row[1]): (*row[2:5], list(unpack(bytes(row[5])))) for row in rows}


def entries(url: str) -> dict[int, list[tuple[Any, ...]]]:
    """Every list's entries from list_entries, in list order: at 0011 a computed list stores
    only its changes and markers, each list's entries resolved through its ancestry
    (rules.carry_forward.resolved)."""
    rows = query(
        url,
        "SELECT list_id, player_id, rating, previous_rating, change, games, k_factor, k_used, "
        "sum_delta, rated_games, peak_rating, last_rated, active FROM list_entries",
    )
    stored: list[tuple[Any, ...]] = []
    for row in rows:
        # SQLite gives a NUMERIC read by plain SQL back as a float, a DATE as text and a
        # BOOLEAN as an integer.
        delta = None if row[8] is None else Decimal(str(row[8])).quantize(Decimal("0.0001"))
        last_rated = date.fromisoformat(row[11]) if isinstance(row[11], str) else row[11]
        active = None if row[12] is None else bool(row[12])
        stored.append((*row[:8], delta, *row[9:11], last_rated, active))
    lists = query(url, "SELECT id, parent_list_id, list_date FROM rating_lists")
    parents = {row[0]: row[1] for row in lists}
    dates = {row[0]: row[2] for row in lists}
    by_list: dict[int, list[tuple[Any, ...]]] = {}
    for list_id in parents:
        chain = ancestry_of(parents, list_id)
        # The list and the revisions it replaces (of its date) show their rows as they are.
        same_date = 0
        while same_date < len(chain) and dates[chain[same_date]] == dates[list_id]:
            same_date += 1
        rows = [row for row in stored if row[0] in chain]
        found = resolved(chain, rows, same_date).values()
        if found:
            by_list[list_id] = sorted(found, key=lambda e: (-e[1], e[0]))
    return by_list


#: player -> (rating, rated_games, peak_rating) on 2026-12 revision 3, as worked above.
LATEST = {
    "2001": (1798, 62, 1805),  # Ada: T2 (Cal), T3 (Dee); 1805 in 2026-10
    "2002": (1709, 63, 1717),  # Ben: T1 (Cal), T2 (Dee), T3 (Eve); 1717 in 2026-09
    "2003": (1975, 63, 2000),  # Cal: T1 (Dee, Ben), T2 (Ada)
    "2004": (1915, 63, 1915),  # Dee: T1 (Cal), T2 (Ben), T3 (Ada)
    "2005": (1601, 62, 1601),  # Eve: T1 (Fay), T3 (Ben)
    "2006": (2102, 61, 2102),  # Fay: T1 (Eve; Fay-Ada a forfeit)
    "2007": (2200, 61, 2200),  # Gil: T1 (Hal)
    "2008": (2200, 61, 2200),  # Hal
    "2009": (1500, 30, 1500),  # Zed: 28, T1 (Yan), T3 (Yan)
    "2010": (1500, 62, 1500),  # Yan
}


def latest(url: str) -> tuple[list[tuple[Any, ...]], dict[str, tuple[int, int, int]]]:
    """(latest_lists as (category, list month, revision), latest_entries by player)."""
    lists = [
        (category, str(day)[:7], revision)
        for category, day, revision in query(
            url,
            "SELECT x.category, l.list_date, l.revision FROM latest_lists x "
            "JOIN rating_lists l ON l.id = x.list_id",
        )
    ]
    rows = query(
        url,
        "SELECT category, player_id, rating, rated_games, peak_rating FROM latest_entries",
    )
    assert {row[0] for row in rows} <= {"fide-standard"}
    return lists, {row[1]: (row[2], row[3], row[4]) for row in rows}


def columns(url: str, table: str) -> set[str]:
    engine = make_engine(url)
    try:
        return {column["name"] for column in inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def test_parents_and_chunks_derived_as_written(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database_url
    ids = build(capsys, url, tmp_path / "chain")
    code, out, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-")
    assert code == 0, err
    assert len(json.loads(out)["revisions"]) == 4
    code, out, err = correct(capsys, url, ids["T3"], (1, ADA, DEE), "0-1")
    assert code == 0, err
    assert [(r["period"], r["to_revision"]) for r in json.loads(out)["revisions"]] == [
        ("2026-11", 3),
        ("2026-12", 3),
    ]
    written_parents, written_chunks = parents(url), chunks(url)
    # A correction's revision names the revision it replaces (migration 0019, issue 30).
    assert written_parents == {
        ("2026-08", 1): None,
        ("2026-09", 1): ("2026-08", 1),
        ("2026-10", 1): ("2026-09", 1),
        ("2026-11", 1): ("2026-10", 1),
        ("2026-12", 1): ("2026-11", 1),
        ("2026-09", 2): ("2026-09", 1),
        ("2026-10", 2): ("2026-10", 1),
        ("2026-11", 2): ("2026-11", 1),
        ("2026-12", 2): ("2026-12", 1),
        ("2026-11", 3): ("2026-11", 2),
        ("2026-12", 3): ("2026-12", 2),
    }
    # The chunks hold every entry in list order, every field as list_entries resolve it.
    by_list = entries(url)
    assert set(by_list) == {list_id for list_id, _ in written_chunks}
    for list_id, listed in by_list.items():
        numbers = sorted(c for lid, c in written_chunks if lid == list_id)
        assert numbers == list(range(len(numbers)))
        packed = [e for c in numbers for e in written_chunks[(list_id, c)][3]]
        assert packed == listed
        for c in numbers:
            top, bottom, size, part = written_chunks[(list_id, c)]
            assert (top, bottom, size) == (part[0][1], part[-1][1], len(part))
            assert size == CHUNK_SIZE or c == numbers[-1]

    # Written by the closes and corrections: the last written list of the latest date.
    assert latest(url) == ([("fide-standard", "2026-12", 3)], LATEST)

    downgrade(url, "0009")
    assert current_revision(url) == "0009"
    assert "parent_list_id" not in columns(url, "rating_lists")
    assert {"list_chunks", "latest_entries", "latest_lists"}.isdisjoint(table_names(url))
    assert query(url, "SELECT count(*) FROM rating_lists") == [(11,)]
    upgrade(url)
    assert current_revision(url) == head_revision()
    # 0019's downgrade made every revision whole, computed from the previous period's list, as
    # the close and the corrections wrote them from 0010 to 0018; 0010 derives those parents.
    assert parents(url) == {
        ("2026-08", 1): None,
        ("2026-09", 1): ("2026-08", 1),
        ("2026-10", 1): ("2026-09", 1),
        ("2026-11", 1): ("2026-10", 1),
        ("2026-12", 1): ("2026-11", 1),
        ("2026-09", 2): ("2026-08", 1),
        ("2026-10", 2): ("2026-09", 2),
        ("2026-11", 2): ("2026-10", 2),
        ("2026-12", 2): ("2026-11", 2),
        ("2026-11", 3): ("2026-10", 2),
        ("2026-12", 3): ("2026-11", 3),
    }
    assert chunks(url) == written_chunks
    assert latest(url) == ([("fide-standard", "2026-12", 3)], LATEST)
