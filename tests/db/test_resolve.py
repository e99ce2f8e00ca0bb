"""A player's entry on a list through the list's ancestry (repositories.list_storage.changes:
ancestry, resolve; issue 16's entries stored as changes): their row on the nearest list the
list was computed from, shown as carried forward when older; a marker row (rating None) where
they left. Checked on hand-built chains, every expected entry written out by hand.

The chain (ids of rating_lists, parent in brackets): 1 imported 2026-01; 2 = 2026-02
revision 1 [1]; 3 = 2026-03 revision 1 [2]; 4 = 2026-02 revision 2 [1], a correction of 2026-02;
5 = 2026-03 revision 2 [4], recomputed from it; 6 = 2026-04 [5].

- A plays in 2026-02 (a row on 2); the correction changes that result (a row on 4). From 3 on,
  A is carried from 2; from 5 on, from 4.
- B drops off in 2026-03 (a marker on 3 and on 5).
- C leaves in 2026-02 (a marker on 2 and on 4) and comes back in 2026-03 (a row on 3, another
  on 5): carried from 5 on 6.
- D turns 18 in 2026-03: K 40 -> 20 without a game (a row on 3 and on 5, rating unchanged).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy.orm import Session

from ratingdb.enums import ListSource
from ratingdb.models import PlayerRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage.changes import ENTRY_KEYS, ancestry, resolve
from ratingdb.rules import Category, Period
from ratingdb.rules.carry_forward import ancestry_of, carried, entries_on_lists, resolved

PARENTS: dict[int, int | None] = {1: None, 2: 1, 3: 2, 4: 1, 5: 4, 6: 5}
MARK = (None,) * 11  # a marker: every field but the player id None

# (list_id, player_id, rating, previous_rating, change, games, k_factor, k_used, sum_delta,
#  rated_games, peak_rating, last_rated, active): the stored rows of the chain, changes only.
#  Last rated: the imported list's players on it (2026-01), A on 2026-02, C on 2026-03.
JAN, FEB, MAR = date(2026, 1, 1), date(2026, 2, 1), date(2026, 3, 1)
A1 = (1, "A", 2000, None, None, 0, 20, None, None, 40, 2010, JAN, True)
A2 = (2, "A", 2016, 2000, 16, 5, 20, 20, Decimal("0.8000"), 45, 2016, FEB, True)
A4 = (4, "A", 1990, 2000, -10, 5, 20, 20, Decimal("-0.5000"), 45, 2010, FEB, True)
B1 = (1, "B", 1450, None, None, 0, 20, None, None, 33, 1480, JAN, True)
B3 = (3, "B", *MARK)
B5 = (5, "B", *MARK)
C1 = (1, "C", 1500, None, None, 0, 20, None, None, 60, 1530, JAN, True)
C2 = (2, "C", *MARK)
C3 = (3, "C", 1510, 1500, 10, 4, 20, 20, Decimal("0.5000"), 64, 1530, MAR, True)
C4 = (4, "C", *MARK)
C5 = (5, "C", 1490, 1500, -10, 4, 20, 20, Decimal("-0.5000"), 64, 1530, MAR, True)
D1 = (1, "D", 2100, None, None, 0, 40, None, None, 120, 2150, JAN, True)
D3 = (3, "D", 2100, 2100, 0, 0, 20, None, None, 120, 2150, JAN, True)
D5 = (5, "D", 2100, 2100, 0, 0, 20, None, None, 120, 2150, JAN, True)
ROWS = (A1, A2, A4, B1, B3, B5, C1, C2, C3, C4, C5, D1, D3, D5)

#: Each list's entries, worked by hand from the story above.
EXPECTED: dict[int, dict[str, tuple[Any, ...]]] = {
    2: {
        "A": ("A", 2016, 2000, 16, 5, 20, 20, Decimal("0.8000"), 45, 2016, FEB, True),
        "B": ("B", 1450, 1450, 0, 0, 20, None, None, 33, 1480, JAN, True),
        "D": ("D", 2100, 2100, 0, 0, 40, None, None, 120, 2150, JAN, True),
    },
    3: {
        "A": ("A", 2016, 2016, 0, 0, 20, None, None, 45, 2016, FEB, True),
        "C": ("C", 1510, 1500, 10, 4, 20, 20, Decimal("0.5000"), 64, 1530, MAR, True),
        "D": ("D", 2100, 2100, 0, 0, 20, None, None, 120, 2150, JAN, True),
    },
    4: {
        "A": ("A", 1990, 2000, -10, 5, 20, 20, Decimal("-0.5000"), 45, 2010, FEB, True),
        "B": ("B", 1450, 1450, 0, 0, 20, None, None, 33, 1480, JAN, True),
        "D": ("D", 2100, 2100, 0, 0, 40, None, None, 120, 2150, JAN, True),
    },
    5: {
        "A": ("A", 1990, 1990, 0, 0, 20, None, None, 45, 2010, FEB, True),
        "C": ("C", 1490, 1500, -10, 4, 20, 20, Decimal("-0.5000"), 64, 1530, MAR, True),
        "D": ("D", 2100, 2100, 0, 0, 20, None, None, 120, 2150, JAN, True),
    },
    6: {
        "A": ("A", 1990, 1990, 0, 0, 20, None, None, 45, 2010, FEB, True),
        "C": ("C", 1490, 1490, 0, 0, 20, None, None, 64, 1530, MAR, True),
        "D": ("D", 2100, 2100, 0, 0, 20, None, None, 120, 2150, JAN, True),
    },
}


def test_ancestry_walks_the_parents() -> None:
    assert ancestry_of(PARENTS, 6) == [6, 5, 4, 1]
    assert ancestry_of(PARENTS, 3) == [3, 2, 1]
    assert ancestry_of(PARENTS, 1) == [1]
    with pytest.raises(ValueError, match="loop at list 7"):
        ancestry_of({7: 8, 8: 7}, 7)
    with pytest.raises(LookupError, match="list 9 of its ancestry is unknown"):
        ancestry_of({7: 9}, 7)


def test_carried_is_as_a_close_writes_a_player_without_games() -> None:
    assert carried(A2[1:]) == ("A", 2016, 2016, 0, 0, 20, None, None, 45, 2016, FEB, True)


@pytest.mark.parametrize("list_id", sorted(EXPECTED))
def test_entries_resolved_on_each_list(list_id: int) -> None:
    chain = ancestry_of(PARENTS, list_id)
    on_chain = [row for row in ROWS if row[0] in chain]
    assert resolved(chain, on_chain) == EXPECTED[list_id]
    assert resolved(chain, reversed(on_chain)) == EXPECTED[list_id]  # whatever the rows' order


@pytest.mark.parametrize("player", ["A", "B", "C", "D"])
def test_a_players_entries_on_every_list_at_once(player: str) -> None:
    """entries_on_lists (a player's history): each list resolved once, parents first."""
    rows = [row for row in ROWS if row[1] == player]
    first = next(row[1:] for row in rows if row[0] == 1)
    expected = {1: first} | {
        list_id: entries[player] for list_id, entries in EXPECTED.items() if player in entries
    }
    assert entries_on_lists(PARENTS, rows) == expected
    assert entries_on_lists(PARENTS, reversed(rows)) == expected
    with pytest.raises(ValueError, match="loop"):
        entries_on_lists({7: 8, 8: 7}, [])


def test_the_imported_list_is_its_rows() -> None:
    assert resolved([1], [row for row in ROWS if row[0] == 1]) == {
        row[1]: row[1:] for row in ROWS if row[0] == 1
    }


# --- the same chain in a database, markers and all.

STORED = ROWS
#: Player ids are digits in the database.
DIGITS = {"A": "1001", "B": "1002", "C": "1003", "D": "1004", "X": "1099"}
LISTS = (  # id, list date, revision, parent
    (1, date(2026, 1, 1), 1, None),
    (2, date(2026, 2, 1), 1, 1),
    (3, date(2026, 3, 1), 1, 2),
    (4, date(2026, 2, 1), 2, 1),
    (5, date(2026, 3, 1), 2, 4),
    (6, date(2026, 4, 1), 1, 5),
)


def build_chain(session: Session) -> dict[int, int]:
    """The chain's lists and stored rows; hand-built id -> the database's list id."""
    session.add_all(PlayerRow(player_id=p, name=f"Player {p}") for p in DIGITS.values())
    ids: dict[int, int] = {}
    for number, list_date, revision, parent in LISTS:
        period = period_repo.get_or_create_period(
            session, Category.FIDE_STANDARD, Period.of_list_date(list_date)
        )
        row = period_repo.add_list(
            session,
            period_id=period.id,
            category=Category.FIDE_STANDARD,
            list_date=list_date,
            revision=revision,
            source=ListSource.IMPORT if parent is None else ListSource.CLOSE,
            rule_version=None,
            published_at=datetime(2026, 1, 1, tzinfo=UTC),
            entry_count=2,
            digest=None,
            cause_correction_id=None,
            corrections_applied=0,
            parent_list_id=None if parent is None else ids[parent],
        )
        ids[number] = row.id
    # Another category's first list: not in any of these ancestries.
    other = period_repo.get_or_create_period(session, Category.FIDE_RAPID, Period(2026, 4))
    period_repo.add_list(
        session,
        period_id=other.id,
        category=Category.FIDE_RAPID,
        list_date=date(2026, 4, 1),
        revision=1,
        source=ListSource.IMPORT,
        rule_version=None,
        published_at=datetime(2026, 1, 1, tzinfo=UTC),
        entry_count=1,
        digest=None,
        cause_correction_id=None,
        corrections_applied=0,
        parent_list_id=None,
    )
    list_changes.insert_entries(
        session,
        [
            dict(zip(ENTRY_KEYS, (ids[row[0]], DIGITS[row[1]], *row[2:]), strict=True))
            for row in STORED
        ],
    )
    return ids


def test_resolve_in_the_database(session: Session) -> None:
    ids = build_chain(session)
    assert ancestry(session, ids[6]) == [ids[6], ids[5], ids[4], ids[1]]
    assert ancestry(session, ids[3]) == [ids[3], ids[2], ids[1]]
    for number in (2, 3, 4, 5, 6):
        expected = {DIGITS[p]: (DIGITS[p], *e[1:]) for p, e in EXPECTED[number].items()}
        assert resolve(session, ids[number], DIGITS.values()) == expected, number
        ratings = {DIGITS[p]: e[1] for p, e in EXPECTED[number].items()}
        assert list_changes.ratings_on(session, ids[number], DIGITS.values()) == ratings
    assert resolve(session, ids[6], []) == {}
    with pytest.raises(LookupError, match="no list"):
        ancestry(session, max(ids.values()) + 100)
