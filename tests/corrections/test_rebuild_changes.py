"""``ratingdb periods rebuild-changes``: the chunks are the list, the rows in list_entries an
index of it that the command writes again (issue 26). On the chain of lists of
test_revision_chain (an imported baseline, four closes, a correction's revisions): intact, it
finds nothing to do; rows deleted, altered or added behind ratingdb's back, it writes them as
the close had, and ``periods verify`` passes again; a dry run writes nothing."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from ratingdb.models import RatingListRow
from ratingdb.services import list_rows
from tests.backoffice.test_races import DEADLINE, until, waiting_on_a_lock
from tests.corrections.test_revision_chain import (
    ADA,
    BEN,
    CATEGORY,
    DEE,
    EVE,
    P1,
    P2,
    build,
    correct,
    ok,
    stored_rows,
)
from tests.corrections.test_verify_and_audit import failing, verify
from tests.support.cli import run_cli as cli
from tests.support.rolled_back import RolledBack
from tests.support.sql import Where, execute, query


def rebuild(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, list[Any], str]:
    code, out, err = cli(capsys, "periods", "rebuild-changes", *(args or ("--all",)), url=url)
    return code, [json.loads(line) for line in out.splitlines()], err


def list_id(where: Where, period: str, revision: int) -> int:
    return int(
        query(
            where,
            "SELECT id FROM rating_lists WHERE category = :c AND list_date = :d AND revision = :r",
            c=CATEGORY,
            d=f"{period}-01",
            r=revision,
        )[0][0]
    )


def test_rebuild_writes_the_rows_the_chunks_make(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    code, _, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-")
    assert code == 0, err
    before = stored_rows(database)

    # Intact: every list's rows are what its chunks make (the closes wrote no more).
    code, lines, err = rebuild(capsys, url)
    assert code == 0, err
    assert len(lines) == 1 + 4 + 4  # the baseline, four closes, their four revisions
    assert [line["differed"] for line in lines] == [False] * 9
    assert "0 of 9 lists had rows that differ from their chunks; written again" in err
    baseline = lines[0]
    assert (baseline["period"], baseline["rows_after"], baseline["markers"]) == ("2026-08", 10, 0)
    assert stored_rows(database) == before

    # Behind ratingdb's back: P+1 revision 1 loses Dee's row and gains a needless one (Eve
    # did not play in P+1: her entry there is P's carried forward, which a close never
    # writes), and P+2 revision 2 has a field of its rows altered.
    p1, p2 = list_id(database, P1, 1), list_id(database, P2, 2)
    assert DEE in before[(P1, 1)]
    assert EVE not in before[(P1, 1)]
    assert execute(database, "DELETE FROM list_entries WHERE list_id = :l AND player_id = :p",
                   l=p1, p=DEE) == 1  # fmt: skip
    assert execute(
        database,
        "INSERT INTO list_entries (list_id, player_id, rating, previous_rating, change, games, "
        "k_factor, k_used, sum_delta, rated_games, peak_rating, last_rated, active) "
        "SELECT :l, player_id, rating, rating, 0, 0, k_factor, NULL, NULL, rated_games, "
        "peak_rating, last_rated, active FROM list_entries WHERE list_id = :parent AND "
        "player_id = :p",
        l=p1, parent=list_id(database, "2026-09", 1), p=EVE,
    ) == 1  # fmt: skip
    assert execute(database, "UPDATE list_entries SET peak_rating = peak_rating + 5 "
                   "WHERE list_id = :l AND rating IS NOT NULL", l=p2) >= 1  # fmt: skip
    code, lines = verify(capsys, url)
    assert code == 1
    assert {(f[1], f[2]) for f in failing(lines)} >= {(P1, 1)}

    # A dry run says which lists differ and writes nothing.
    tampered = stored_rows(database)
    code, lines, err = rebuild(capsys, url, "--all", "--dry-run")
    assert code == 0, err
    assert {(x["period"], x["revision"]) for x in lines if x["differed"]} == {(P1, 1), (P2, 2)}
    assert "(dry run: nothing was written)" in err
    assert stored_rows(database) == tampered

    # One list at a time, then all: the rows are the close's again, and verify passes.
    code, lines, err = rebuild(capsys, url, "--category", CATEGORY, "--period", P1,
                               "--revision", "1")  # fmt: skip
    assert code == 0, err
    assert [(x["period"], x["revision"], x["differed"]) for x in lines] == [(P1, 1, True)]
    code, lines, err = rebuild(capsys, url)
    assert code == 0, err
    assert {(x["period"], x["revision"]) for x in lines if x["differed"]} == {(P2, 2)}
    assert stored_rows(database) == before
    code, lines = verify(capsys, url)
    assert (code, failing(lines)) == (0, [])

    # Audited, in words.
    audit = ok(capsys, "audit", "--action", "list-rows-rebuild", url=url)
    rebuilt = [json.loads(line) for line in audit.splitlines()]
    assert sorted((x["details"]["period"], x["details"]["revision"]) for x in rebuilt) == [
        (P1, 1),
        (P2, 2),
    ]


def test_rebuild_refuses_what_matches_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    build(capsys, url, tmp_path / "chain", tournaments=(), periods=())
    code, _, err = cli(capsys, "periods", "rebuild-changes", url=url)
    assert (code, "--all" in err) == (2, True)
    code, _, err = cli(capsys, "periods", "rebuild-changes", "--category", CATEGORY,
                       "--period", "2030-01", url=url)  # fmt: skip
    assert (code, "--period" in err) == (2, True)


def test_two_rebuilds_of_one_list_at_once_take_turns(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two rebuilds of a list whose row was deleted, at once (PostgreSQL: two transactions in
    two threads; SQLite's writers take turns anyway): the first holds the list's lock until
    it commits, the second waits for it, then finds the rows as they should be and writes
    nothing: no duplicate key, no error, the row back once."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite writers take turns: two rebuilds never run at once")
    url = database_url
    build(capsys, url, tmp_path / "chain")
    before = stored_rows(url)
    p1 = list_id(url, P1, 1)
    assert execute(url, "DELETE FROM list_entries WHERE list_id = :l AND player_id = :p",
                   l=p1, p=DEE) == 1  # fmt: skip
    now = datetime(2026, 12, 4, tzinfo=UTC)
    engine = create_engine(url)
    try:
        first = Session(engine)
        results: dict[str, Any] = {}

        def second() -> None:
            try:
                with Session(engine) as session, session.begin():
                    row = session.get_one(RatingListRow, p1)
                    results["second"] = list_rows.rebuild_rows(
                        session, row, actor="b", now=now, dry_run=False
                    )
            except BaseException as error:  # reported to the test below
                results["error"] = error

        try:
            row = first.scalars(select(RatingListRow).where(RatingListRow.id == p1)).one()
            results["first"] = list_rows.rebuild_rows(first, row, actor="a", now=now,
                                                      dry_run=False)  # fmt: skip
            thread = threading.Thread(target=second)
            thread.start()
            until(lambda: waiting_on_a_lock(url) or not thread.is_alive(), "the second to wait")
            assert thread.is_alive(), results  # it waits for the first's lock
            first.commit()
        finally:
            first.close()
        thread.join(DEADLINE)
        assert not thread.is_alive()
    finally:
        engine.dispose()
    assert "error" not in results, results.get("error")
    assert (results["first"].differed, results["second"].differed) == (True, False)
    assert stored_rows(url) == before
