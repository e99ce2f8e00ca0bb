"""latest_entries: each category's latest list as one row per player, written with every list
(repositories.list_storage.latest.write_latest) and read by the close's previous list, the rank
table's counts and (on PostgreSQL) ranks_on when they read that list; any other list is read
from its chunks, with the same answers. SQLite and PostgreSQL.

The chain of tests/corrections/test_revision_chain.py with its two corrections, as
tests/migrations/test_0010_list_parents_and_chunks.py builds it: 2026-12 revision 3 is the
latest list (LATEST there, worked by hand); 2026-12 revision 2 (T1 corrected, T3 not) is an
older one, worked by hand in test_a_win_made_a_forfeit_in_p_revises_p_to_p3: Ada 1818 (peak
1818), Ben 1709, Dee 1895 (peak 1908 in 2026-10), the others as revision 3. Every player of
the chain is of FRA, born in 1990.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.orm import Session

from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.db.chunks import ENTRY, list_order
from ratingdb.models import (
    LatestEntryRow,
    LatestListRow,
    ListChunkRow,
    ListEntryRow,
    RatingListRow,
)
from ratingdb.repositories import period_inputs
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.list_storage import chunks as list_chunks
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.repositories.published import ranks
from ratingdb.rules import Category, Period
from ratingdb.services.close import CloseState, close_period
from tests.corrections.test_revision_chain import ADA, BEN, CAL, DEE, EVE, YAN, ZED, build, correct
from tests.db.test_vacuum import vacuumed
from tests.migrations.test_0010_list_parents_and_chunks import LATEST

#: The list of the last period that rated games of each player, on revisions 2 and 3 of
#: 2026-12 alike: the baseline 2026-08 is imported (its players active, counted as rated on it);
#: T1 is rated on 2026-09 (Ada's two games there forfeits once corrected), T2 on 2026-10 (Ada,
#: Ben, Cal, Dee), T3 on 2026-11 (Ada, Dee, Eve, Ben, Zed, Yan).
LAST_RATED = {
    ADA: date(2026, 11, 1), BEN: date(2026, 11, 1), CAL: date(2026, 10, 1),
    DEE: date(2026, 11, 1), EVE: date(2026, 11, 1), "2006": date(2026, 9, 1),
    "2007": date(2026, 9, 1), "2008": date(2026, 9, 1), ZED: date(2026, 11, 1),
    YAN: date(2026, 11, 1),
}  # fmt: skip
#: player -> (rating, rated_games, peak_rating, last_rated) on 2026-12 revision 3.
LATEST_HELD = {p: (*fields, LAST_RATED[p]) for p, fields in LATEST.items()}
#: 2026-12 revision 2: LATEST but Ada, Dee (T3's Ada-Dee still 1-0).
REVISION_2 = {
    **LATEST_HELD,
    ADA: (1818, 62, 1818, LAST_RATED[ADA]),
    DEE: (1895, 63, 1908, LAST_RATED[DEE]),
}


@pytest.fixture
def chain(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Iterator[Session]:
    ids = build(capsys, database_url, tmp_path / "chain")
    code, _, err = correct(capsys, database_url, ids["T1"], (1, ADA, BEN), "+-")
    assert code == 0, err
    code, out, err = correct(capsys, database_url, ids["T3"], (1, ADA, DEE), "0-1")
    assert code == 0, err
    assert len(json.loads(out)["revisions"]) == 2
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine)() as session:
            yield session
    finally:
        engine.dispose()


def list_id(session: Session, revision: int) -> int:
    found = session.scalar(
        select(RatingListRow.id).where(
            RatingListRow.list_date == date(2026, 12, 1),
            RatingListRow.revision == revision,
        )
    )
    assert found is not None
    return int(found)


def counts(worked: dict[str, tuple[Any, ...]]) -> list[tuple[str | None, int, int]]:
    by_rating: dict[int, int] = {}
    for rating, *_ in worked.values():
        by_rating[rating] = by_rating.get(rating, 0) + 1
    return sorted(("FRA", rating, entries) for rating, entries in by_rating.items())


def test_the_latest_list_read_from_latest_entries_and_an_older_from_its_chunks(
    chain: Session,
) -> None:
    session = chain
    latest, older = list_id(session, 3), list_id(session, 2)
    assert list_latest.latest_category(session, latest) == "fide-standard"
    assert list_latest.latest_category(session, older) is None
    for found, worked in ((latest, LATEST_HELD), (older, REVISION_2)):
        read = [
            # SQLite's driver reads latest_entries' DATE as its ISO text.
            (*row[:4], date.fromisoformat(row[4]) if isinstance(row[4], str) else row[4], row[5])
            for row in period_inputs.entries_with_birth_years(session, found)
        ]
        assert sorted(read) == sorted((player, *fields, 1990) for player, fields in worked.items())
        assert sorted(ranks.rating_counts(session, found)) == counts(worked)
    # Ranks: 1 + the entries rated higher, ties sharing a rank; everyone of FRA.
    # Revision 3: Gil, Hal 2200; Fay 2102; Cal 1975; Dee 1915; Ada 1798; Ben 1709; Eve 1601;
    # Zed, Yan 1500.
    assert ranks.ranks_on(session, latest, "2008") == (1, 1)
    assert ranks.ranks_on(session, latest, ADA) == (6, 6)
    assert ranks.ranks_on(session, latest, ZED) == (9, 9)
    # Revision 2: Gil, Hal; Fay; Cal; Dee 1895; Ada 1818; then as revision 3.
    assert ranks.ranks_on(session, older, ADA) == (6, 6)
    assert ranks.ranks_on(session, older, DEE) == (5, 5)
    assert ranks.ranks_on(session, latest, DEE) == (5, 5)
    assert ranks.ranks_on(session, latest, "9999") is None


def stored(session: Session) -> dict[str, tuple[Any, ...]]:
    rows = session.execute(
        select(
            LatestEntryRow.player_id,
            LatestEntryRow.rating,
            LatestEntryRow.rated_games,
            LatestEntryRow.peak_rating,
            LatestEntryRow.last_rated,
        )
    )
    return {row[0]: tuple(row[1:]) for row in rows}


def test_write_latest_rewrites_only_the_changed_players_of_the_latest_list(
    chain: Session,
) -> None:
    session = chain
    latest, older = list_id(session, 3), list_id(session, 1)
    # An older list (a cascade's revision of an earlier list) leaves the table alone.
    assert list_latest.write_latest(session, older) == 0
    assert stored(session) == LATEST_HELD
    assert list_latest.latest_category(session, older) is None
    # The latest list's entries changed (Ada's fields, Zed gone), then written again: two rows.
    rewrite(session, latest, {ADA: {"rating": 1790, "peak_rating": 1805}, ZED: None})
    assert list_latest.write_latest(session, latest) == 2
    assert stored(session) == {
        **{p: fields for p, fields in LATEST_HELD.items() if p != ZED},
        ADA: (1790, 62, 1805, LAST_RATED[ADA]),
    }
    session.rollback()


def entries_of(session: Session, found: int) -> dict[str, tuple[Any, ...]]:
    """player -> (rating, rated_games, peak_rating, last_rated) of every entry of a list (its
    chunks)."""
    ids, *fields = chunk_reads.list_columns(session, found, list_latest.LATEST_KEYS)
    return dict(zip(ids, zip(*fields, strict=True), strict=True))


def rewrite(session: Session, found: int, changes: dict[str, dict[str, int] | None]) -> None:
    """The list changed in both its stored forms, the fields ``changes`` gives a player changed
    (None: the player taken off the list): its chunks packed again, and each such player's row
    on the list replaced (by a marker for one taken off)."""
    changed = []
    for entry in chunk_reads.whole_list(session, found):
        fields = dict(zip(ENTRY, entry, strict=True))
        if entry[0] in changes:
            change = changes[entry[0]]
            session.execute(
                delete(ListEntryRow).where(
                    ListEntryRow.list_id == found, ListEntryRow.player_id == entry[0]
                )
            )
            if change is None:
                session.execute(insert(ListEntryRow).values(list_id=found, player_id=entry[0]))
                continue
            fields.update(change)
            session.execute(insert(ListEntryRow).values(list_id=found, **fields))
        changed.append(tuple(fields[name] for name in ENTRY))
    session.execute(delete(ListChunkRow).where(ListChunkRow.list_id == found))
    list_chunks.insert_chunks(
        session, list_chunks.packed_chunks(found, sorted(changed, key=list_order))
    )


def holding_the_parent(session: Session) -> tuple[int, int, dict[str, tuple[Any, ...]]]:
    """latest_entries made to hold 2026-12 revision 3's parent, as before 2026-12 was closed,
    its rows made to differ from it (Zed off revision 3): (revision 3, revision 1, the rows
    latest_entries hold). (Ada's and Zed's rows are all a close would give here; the others'
    differences too are made up, to show that only the rows given are written.)"""
    latest, older = list_id(session, 3), list_id(session, 1)
    parent = session.scalar(select(RatingListRow.parent_list_id).where(RatingListRow.id == latest))
    assert parent is not None
    before = {
        p: (r - 10, g - 1, peak, last)
        for p, (r, g, peak, last) in entries_of(session, parent).items()
    }
    rewrite(session, latest, {ZED: None})
    session.execute(delete(LatestEntryRow))
    session.execute(
        insert(LatestEntryRow).values(
            [
                {"category": "fide-standard", "player_id": p, "rating": r, "rated_games": g,
                 "peak_rating": peak, "last_rated": last}
                for p, (r, g, peak, last) in before.items()
            ]
        )
    )  # fmt: skip
    session.execute(update(LatestListRow).values(list_id=parent))
    return latest, older, before


#: What a close of 2026-12 gives: Ada's entry, Zed gone.
CLOSES_CHANGES = list_latest.LatestChanges([(ADA, *LATEST_HELD[ADA])], [ZED])


def test_write_latest_from_a_closes_changes_only_when_they_hold_its_parent(
    chain: Session,
) -> None:
    """A close gives the entries that may have changed since the list it started from (its
    parent) and the players gone: when latest_entries hold that list, only those rows are
    written; when they hold another, the list's entries (resolved) are compared, all."""
    session = chain
    latest, older, before = holding_the_parent(session)
    # Ada's entry and Zed gone given: only their rows rewritten (the others left as they were,
    # though they differ).
    assert list_latest.write_latest(session, latest, CLOSES_CHANGES) == 2
    assert stored(session) == {
        **{p: fields for p, fields in before.items() if p != ZED},
        ADA: LATEST_HELD[ADA],
    }
    assert list_latest.latest_category(session, latest) == "fide-standard"
    # Holding another list than the parent (here 2026-12's revision 1: revision 3's parent is
    # revision 2, the one it replaces), the names are not used.
    session.execute(update(LatestListRow).values(list_id=older))
    assert list_latest.write_latest(session, latest, CLOSES_CHANGES) == len(LATEST) - 2
    assert stored(session) == {p: fields for p, fields in LATEST_HELD.items() if p != ZED}
    session.rollback()


def test_a_closes_changes_written_before_its_chunks_only_where_they_hold_its_parent(
    chain: Session,
) -> None:
    """A close writes latest_entries from its changes while it packs its chunks
    (write_latest_changes): as write_latest where latest_entries hold the parent; where they
    hold another list, nothing done (None: write_latest from the chunks once written); where
    they hold a later list, nothing to do (0)."""
    session = chain
    latest, older, before = holding_the_parent(session)
    session.execute(update(LatestListRow).values(list_id=older))
    assert list_latest.write_latest_changes(session, latest, CLOSES_CHANGES) is None
    assert stored(session) == before
    assert list_latest.latest_category(session, older) == "fide-standard"
    # Holding a later list (2026-12 revision 3, against revision 1): left alone.
    session.execute(update(LatestListRow).values(list_id=latest))
    assert list_latest.write_latest_changes(session, older, CLOSES_CHANGES) == 0
    assert stored(session) == before
    assert list_latest.latest_category(session, latest) == "fide-standard"
    # Holding the parent: Ada's row and Zed's written, the list held.
    parent = session.scalar(select(RatingListRow.parent_list_id).where(RatingListRow.id == latest))
    session.execute(update(LatestListRow).values(list_id=parent))
    assert list_latest.write_latest_changes(session, latest, CLOSES_CHANGES) == 2
    assert stored(session) == {
        **{p: fields for p, fields in before.items() if p != ZED},
        ADA: LATEST_HELD[ADA],
    }
    assert list_latest.latest_category(session, latest) == "fide-standard"
    session.rollback()


def test_latest_entries_vacuumed_once_a_rewrite_commits(chain: Session) -> None:
    """On PostgreSQL, latest_entries vacuumed (with ANALYZE) after each commit of a list that
    rewrote rows of them: the corrections of the chain did (their latest revisions of
    2026-12); a list written again unchanged does not ask for it, a changed one does."""
    session = chain
    engine = session.get_bind()
    assert isinstance(engine, Engine)
    latest = list_id(session, 3)
    if engine.dialect.name != "postgresql":
        assert list_latest.write_latest(session, latest) == 0
        assert not session.info
        session.rollback()
        return
    before = vacuumed(engine)
    assert before[0] >= 1  # by the corrections' cascades, through the command line
    assert list_latest.write_latest(session, latest) == 0
    session.commit()
    assert vacuumed(engine) == before
    rewrite(session, latest, {ADA: {"rating": 1790}})
    assert list_latest.write_latest(session, latest) == 1
    assert vacuumed(engine) == before  # not before the commit
    session.commit()
    assert vacuumed(engine) == (before[0] + 1, before[1] + 1)


@pytest.mark.parametrize("holding", ["the parent", "another list"])
def test_a_close_leaves_latest_entries_holding_its_list(chain: Session, holding: str) -> None:
    """A close writes latest_entries from the players who moved, beside the making of its list,
    when they hold its parent (2026-12 revision 3); when they hold another list (here 2026-12
    revision 1), from its chunks once written. Either way they hold the new list after it,
    every entry as its chunks have it."""
    session = chain
    parent, older = list_id(session, 3), list_id(session, 1)
    if holding == "another list":
        session.execute(update(LatestListRow).values(list_id=older))
        session.commit()

    outcome = close_period(
        session, Category.FIDE_STANDARD, Period(2027, 1), now=datetime(2027, 1, 31, tzinfo=UTC),
        closed_by="test",
    )  # fmt: skip

    assert outcome.state == CloseState.PUBLISHED
    new = outcome.list_id
    assert new is not None
    assert (
        session.scalar(select(RatingListRow.parent_list_id).where(RatingListRow.id == new))
        == parent
    )
    assert list_latest.latest_category(session, new) == "fide-standard"
    # No game in 2027-01: every entry carried from 2026-12 revision 3 (LATEST, worked by hand),
    # Zed and Yan, the last two rated on 2026-11, still listed.
    assert stored(session) == entries_of(session, new) == LATEST_HELD
    session.rollback()
