"""A close that fails half-way leaves nothing behind: the period is still open, it has no list,
no entries, no statuses and no calculations; a later close then publishes it normally.

Baseline fide-standard 2026-08: four rated players and one unrated who does not play; one
tournament in 2026-09 with three played games, so the 2026-09 list has 4 entries and 6
calculations (one per player and game), stored in 4 rows of player_calculations (one per player
who played: 1001 and 1003 played two games each).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import ratingdb.repositories.list_storage.changes as close_module
from ratingdb.cli import main
from ratingdb.db.bulk import bulk_insert_rows
from ratingdb.rules import Category, Period
from ratingdb.services.close import close_period
from tests.support.calculations import calculation_count
from tests.support.cli import cli_ok, run_cli
from tests.support.factories import BASELINE
from tests.support.rolled_back import RolledBack

TABLES = (
    "players",
    "periods",
    "rating_lists",
    "list_entries",
    "player_status",
    "tournaments",
    "games",
    "player_calculations",
)
GAMES = (
    "tournament,start_date,end_date,round,white_id,black_id,result\n"
    "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
    "Open,2026-08-10,2026-08-12,1,1003,1004,1/2-1/2\n"
    "Open,2026-08-10,2026-08-12,2,1001,1003,0-1\n"
)
SEPTEMBER = Period.parse("2026-09")
NOW = datetime(2026, 9, 1, 0, 30, tzinfo=UTC)


class DiskFull(RuntimeError):
    pass


def snapshot(database: RolledBack) -> dict[str, Any]:
    """What the test's transaction holds, once every session that wrote in it has ended (a
    close that failed: rolled back to where it began)."""
    out: dict[str, Any] = {
        table: database.rows(f"SELECT count(*) FROM {table}")[0][0] for table in TABLES
    }
    out["periods"] = database.rows(
        "SELECT category, list_date, state, claimed_by, claimed_at, published_at "
        "FROM periods ORDER BY category, list_date"
    )
    ((out["september lists"],),) = database.rows(
        "SELECT count(*) FROM rating_lists WHERE category = 'fide-standard' AND list_date = :d",
        d=SEPTEMBER.list_date,
    )
    ((out["september state"],),) = database.rows(
        "SELECT state FROM periods WHERE category = 'fide-standard' AND list_date = :d",
        d=SEPTEMBER.list_date,
    )
    return out


def prepare(capsys: pytest.CaptureFixture[str], url: str, folder: Path) -> None:
    """The 2026-08 baseline and the 2026-09 tournament, imported."""
    baseline = folder / "baseline.csv"
    baseline.write_text(BASELINE, encoding="utf-8")
    games = folder / "games.csv"
    games.write_text(GAMES, encoding="utf-8")
    cli_ok(capsys, "lists", "import", str(baseline), "--category", "fide-standard",
           "--period", "2026-08", url=url)  # fmt: skip
    cli_ok(capsys, "tournaments", "import", str(games), "--category", "fide-standard",
           url=url)  # fmt: skip


@pytest.fixture
def prepared(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> RolledBack:
    """The case, in the test's rolled-back transaction."""
    prepare(capsys, database.url, tmp_path)
    return database


@pytest.fixture
def prepared_url(database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The case in a database of the test's own (tests/services/test_close_streamed.py)."""
    prepare(capsys, database_url, tmp_path)
    return database_url


@pytest.mark.parametrize("failing_call", [1, 2, 3])
def test_a_failure_in_the_middle_of_a_close_changes_nothing(
    prepared: RolledBack, monkeypatch: pytest.MonkeyPatch, failing_call: int
) -> None:
    """``failing_call``: which bulk write of the close fails (2 = the one after the entries)."""
    before = snapshot(prepared)
    assert (before["september lists"], before["september state"]) == (0, "open")
    real = bulk_insert_rows
    calls: list[object] = []

    def failing(session: Any, table: Any, keys: Sequence[str], rows: Iterable[Any]) -> int:
        calls.append(table)
        if len(calls) == failing_call:
            raise DiskFull("disk full")
        return real(session, table, keys, rows)

    monkeypatch.setattr(close_module, "bulk_insert_rows", failing)
    with pytest.raises(DiskFull), prepared.sessions.begin() as session:
        close_period(session, Category.FIDE_STANDARD, SEPTEMBER, now=NOW, closed_by="test failing")
    assert len(calls) == failing_call

    after = snapshot(prepared)
    assert after["september state"] == "open"
    assert after["september lists"] == 0
    assert after == before  # no entries, statuses or calculations, nor anything else

    monkeypatch.undo()
    with prepared.sessions.begin() as session:
        outcome = close_period(
            session, Category.FIDE_STANDARD, SEPTEMBER, now=NOW, closed_by="test again"
        )
    assert outcome.state == "published"

    published = snapshot(prepared)
    assert published["september state"] == "published"
    assert published["september lists"] == 1
    assert published["rating_lists"] == before["rating_lists"] + 1
    assert published["list_entries"] == before["list_entries"] + 4
    assert published["player_calculations"] == before["player_calculations"] + 4
    connection = prepared.connection
    assert calculation_count(connection, "l.list_date = :d", d=SEPTEMBER.list_date) == 6


def test_the_cli_close_after_a_failed_close_publishes(
    prepared: RolledBack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same through the command: the failed close exits 1 with one line (the traceback with
    --debug), the next one exits 0."""
    real = bulk_insert_rows
    calls: list[object] = []

    def failing(session: Any, table: Any, keys: Sequence[str], rows: Iterable[Any]) -> int:
        calls.append(table)
        if len(calls) == 2:
            raise DiskFull("disk full")
        return real(session, table, keys, rows)

    before = snapshot(prepared)
    command = ("periods", "close", "--category", "fide-standard", "--period", "2026-09")
    monkeypatch.setattr(close_module, "bulk_insert_rows", failing)
    code, _, err = run_cli(capsys, *command, url=prepared.url)
    assert code == 1
    assert err == (
        "ratingdb periods: unexpected DiskFull: disk full "
        "(run again with --debug, or RATINGDB_DEBUG=1, to see the traceback)\n"
    )
    assert snapshot(prepared) == before
    calls.clear()
    with pytest.raises(DiskFull):  # --debug: the exception itself, with its traceback
        main(["--debug", *command, "--database-url", prepared.url], sessions=prepared.sessions)
    assert snapshot(prepared) == before

    monkeypatch.undo()
    code, out, err = run_cli(capsys, *command, url=prepared.url)
    assert code == 0, err
    assert '"state": "published"' in out
    published = snapshot(prepared)
    assert (published["september state"], published["september lists"]) == ("published", 1)


def test_a_failure_inside_a_streamed_write_changes_nothing(
    prepared: RolledBack, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The calculations are streamed into the database; a failure after some of them were sent
    (inside the COPY on PostgreSQL) leaves nothing behind either."""
    before = snapshot(prepared)
    real = bulk_insert_rows

    def breaks_after_two(rows: Iterable[Any]) -> Iterator[Any]:
        for count, row in enumerate(rows):
            if count == 2:
                raise DiskFull("disk full")
            yield row

    def failing(session: Any, table: Any, keys: Sequence[str], rows: Iterable[Any]) -> int:
        if "packed" in keys:  # player_calculations: 4 rows, one per player who played
            rows = breaks_after_two(rows)
        return real(session, table, keys, rows)

    monkeypatch.setattr(close_module, "bulk_insert_rows", failing)
    with pytest.raises(DiskFull), prepared.sessions.begin() as session:
        close_period(session, Category.FIDE_STANDARD, SEPTEMBER, now=NOW, closed_by="test")
    assert snapshot(prepared) == before
