"""The scheduled close of a category published with approval (``RATINGDB_PUBLICATION_APPROVAL``),
on SQLite and PostgreSQL: at the cut-off it computes the list, leaves the period
awaiting-approval with when and the digest, publishes nothing, and closes no later period of
the category until an officer approves; an approval given before the cut-off lets it publish
that very list, and only that one; automatic categories are closed as before. The small case of
tests/support/publication.py (period 2026-12, cut-off 2026-11-28)."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from jobs.close_periods import close_periods
from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.rules import Category, Period
from ratingdb.services import publication
from tests.support import forks
from tests.support import publication as case
from tests.support.cli import cli_ok
from tests.support.sql import entries_where, query

DECEMBER = Period.parse(case.PERIOD)
JANUARY = Period.parse("2027-01")
#: The day after the 2026-12 cut-off; and a day after the 2027-01 one (2026-12-29).
AFTER_DECEMBER_CUT_OFF = datetime(2026, 12, 1, 0, 30, tzinfo=UTC)
AFTER_JANUARY_CUT_OFF = datetime(2027, 1, 2, 0, 30, tzinfo=UTC)
BEFORE_CUT_OFF = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def approval_settings(url: str) -> Settings:
    return Settings.from_env({"RATINGDB_PUBLICATION_APPROVAL": "fide-standard"}, database_url=url)


def lists(url: str) -> list[tuple[Any, ...]]:
    """(category, list date, revision) of every published list, oldest first."""
    rows = query(url, "SELECT category, list_date, revision FROM rating_lists ORDER BY list_date")
    return [(category, str(day)[:10], revision) for category, day, revision in rows]


def periods(url: str) -> dict[str, tuple[Any, ...]]:
    return {
        str(list_date)[:7]: (state, computed_digest)
        for list_date, state, computed_digest in query(
            url, "SELECT list_date, state, computed_digest FROM periods WHERE category = "
            "'fide-standard'",
        )
    }  # fmt: skip


def preview(url: str, now: datetime, approval: tuple[Category, ...]) -> publication.Preview:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine).begin() as session:
            return publication.preview(session, Category.FIDE_STANDARD, DECEMBER, now=now,
                                       viewer="officer1", approval=approval)  # fmt: skip
    finally:
        engine.dispose()


def approve(url: str, digest: str, now: datetime) -> publication.Approved:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine).begin() as session:
            return publication.approve(session, Category.FIDE_STANDARD, DECEMBER, digest,
                                       now=now, user="officer1",
                                       approval=(Category.FIDE_STANDARD,))  # fmt: skip
    finally:
        engine.dispose()


def test_the_cut_off_leaves_the_list_awaiting_approval_and_later_periods_wait(
    database_url: str, tmp_path: Path
) -> None:
    case.prepare(database_url, tmp_path)
    settings = approval_settings(database_url)
    outcomes = close_periods(settings, AFTER_DECEMBER_CUT_OFF, "scheduler")
    assert [(o.category.value, str(o.period), o.state) for o in outcomes] == [
        ("fide-standard", "2026-12", "awaiting-approval")]  # fmt: skip
    held = outcomes[0]
    assert (held.entries, held.games) == (case.EXPECTED_ENTRIES, case.EXPECTED_GAMES)
    # Nothing published; the period holds when and what was computed: the digest a preview
    # shows for the same list.
    assert lists(database_url) == [("fide-standard", "2026-11-01", 1)]
    shown = preview(database_url, AFTER_DECEMBER_CUT_OFF, settings.publication_approval)
    assert (shown.state, shown.mode) == ("awaiting-approval", "approval")
    assert held.digest == shown.digest
    assert periods(database_url)["2026-12"] == ("awaiting-approval", shown.digest)
    assert query(database_url, "SELECT count(*) FROM periods WHERE computed_at IS NULL AND "
                 "state = 'awaiting-approval'") == [(0,)]  # fmt: skip
    assert query(database_url, "SELECT action, actor FROM audit_log WHERE action LIKE 'close%'"
                 ) == [("close-awaiting-approval", "scheduler")]  # fmt: skip
    # A month later, 2027-01 is due too, but starts from 2026-12: it waits, nothing is done.
    later = close_periods(settings, AFTER_JANUARY_CUT_OFF, "scheduler")
    assert [(str(o.period), o.state) for o in later] == [("2026-12", "awaiting-approval")]
    assert len(lists(database_url)) == 1
    assert "2027-01" not in periods(database_url)
    # The officer approves what the preview shows: published, as the officer's close.
    done = approve(database_url, shown.digest, AFTER_JANUARY_CUT_OFF)
    assert (done.state, done.revision, done.entries) == ("published", 1, case.EXPECTED_ENTRIES)
    assert periods(database_url)["2026-12"] == ("published", shown.digest)
    assert query(database_url, "SELECT digest FROM rating_lists WHERE list_date = '2026-12-01'"
                 ) == [(shown.digest,)]  # fmt: skip
    # Then the next run computes 2027-01, which waits for its own approval.
    after = close_periods(settings, AFTER_JANUARY_CUT_OFF, "scheduler")
    assert [(str(o.period), o.state) for o in after] == [("2027-01", "awaiting-approval")]
    assert periods(database_url)["2027-01"][0] == "awaiting-approval"


def test_automatic_categories_are_closed_as_before(database_url: str, tmp_path: Path) -> None:
    """The control: the same database and runs with the default settings publish both."""
    case.prepare(database_url, tmp_path)
    settings = Settings.from_env({}, database_url=database_url)
    assert settings.publication_approval == ()
    outcomes = close_periods(settings, AFTER_JANUARY_CUT_OFF, "scheduler")
    assert [(str(o.period), o.state) for o in outcomes] == [
        ("2026-12", "published"), ("2027-01", "published")]  # fmt: skip
    assert [d[:7] for _, d, _ in lists(database_url)] == ["2026-11", "2026-12", "2027-01"]
    december = entries_where(database_url, "l.list_date = '2026-12-01'", ("player_id", "rating"))
    assert dict(december)["1003"] == case.GUS


def test_an_approval_before_the_cut_off_is_published_by_the_scheduled_close(
    database_url: str, tmp_path: Path
) -> None:
    case.prepare(database_url, tmp_path)
    settings = approval_settings(database_url)
    shown = preview(database_url, BEFORE_CUT_OFF, settings.publication_approval)
    assert (shown.state, shown.cut_off_passed) == ("open", False)
    done = approve(database_url, shown.digest, BEFORE_CUT_OFF)
    assert (done.state, done.list_id) == ("approved", None)
    assert len(lists(database_url)) == 1  # nothing published before the cut-off
    outcomes = close_periods(settings, AFTER_DECEMBER_CUT_OFF, "scheduler")
    assert [(str(o.period), o.state) for o in outcomes] == [("2026-12", "published")]
    assert query(database_url, "SELECT digest FROM rating_lists WHERE list_date = '2026-12-01'"
                 ) == [(shown.digest,)]  # fmt: skip


def test_an_approved_list_that_changed_before_the_cut_off_waits_again(
    database_url: str, tmp_path: Path
) -> None:
    case.prepare(database_url, tmp_path)
    settings = approval_settings(database_url)
    approved = preview(database_url, BEFORE_CUT_OFF, settings.publication_approval)
    approve(database_url, approved.digest, BEFORE_CUT_OFF)
    case.add_tournament(database_url, tmp_path, "club.csv", case.LATE_ENTRY)
    outcomes = close_periods(settings, AFTER_DECEMBER_CUT_OFF, "scheduler")
    assert [(str(o.period), o.state) for o in outcomes] == [("2026-12", "awaiting-approval")]
    assert outcomes[0].digest != approved.digest
    assert len(lists(database_url)) == 1
    state, digest = periods(database_url)["2026-12"]
    assert (state, digest) == ("awaiting-approval", outcomes[0].digest)


@pytest.mark.processes
def test_the_job_and_periods_status_show_the_waiting_period(
    database_url: str, tmp_path: Path, capsys: Any
) -> None:
    """``python -m jobs run close-periods`` with the variable set, then ``periods status``."""
    case.prepare(database_url, tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGDB_")}
    env["RATINGDB_PUBLICATION_APPROVAL"] = "fide-standard"
    done = forks.run(
        ["--database-url", database_url, "--actor", "scheduler", "run", "close-periods",
         "--now", AFTER_DECEMBER_CUT_OFF.isoformat()],
        module="jobs", env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = done.stdout.splitlines()
    outcome = json.loads(line)
    assert (outcome["period"], outcome["state"], outcome["entries"]) == (
        "2026-12", "awaiting-approval", case.EXPECTED_ENTRIES)  # fmt: skip
    assert "fide-standard 2026-12 is awaiting-approval" in done.stderr
    assert "later periods of fide-standard wait for it" in done.stderr
    status = cli_ok(capsys, "periods", "status", "--category", "fide-standard", url=database_url)
    periods = [json.loads(line) for line in status.splitlines()]  # one JSON line per period
    december = next(p for p in periods if p["period"] == "2026-12")
    assert december["state"] == "awaiting-approval"
    assert december["computed_digest"] == outcome["digest"]
    assert december["computed_at"].startswith("20")
    assert december["published_at"] is None


def test_a_waiting_list_is_computed_again_and_updated_only_when_it_changed(
    database_url: str, tmp_path: Path
) -> None:
    case.prepare(database_url, tmp_path)
    settings = approval_settings(database_url)
    computed = "SELECT computed_at, computed_digest FROM periods WHERE list_date = '2026-12-01'"
    held = "SELECT count(*) FROM audit_log WHERE action = 'close-awaiting-approval'"
    first = close_periods(settings, AFTER_DECEMBER_CUT_OFF, "scheduler")[0]
    before = query(database_url, computed)
    # The next day's run: the same list, nothing written.
    again = close_periods(settings, AFTER_DECEMBER_CUT_OFF, "scheduler")[0]
    assert (again.state, again.digest) == ("awaiting-approval", first.digest)
    assert query(database_url, computed) == before
    assert query(database_url, held) == [(1,)]
    # A tournament accepted late (after the cut-off, still in 2026-12): the waiting list is
    # the new one, recorded again.
    case.add_tournament(database_url, tmp_path, "club.csv", case.LATE_ENTRY)
    changed = close_periods(settings, AFTER_DECEMBER_CUT_OFF, "scheduler")[0]
    assert changed.state == "awaiting-approval"
    assert changed.digest != first.digest
    ((computed_at, digest),) = query(database_url, computed)
    assert digest == changed.digest
    assert str(computed_at) > str(before[0][0])
    assert query(database_url, held) == [(2,)]
    assert len(lists(database_url)) == 1
