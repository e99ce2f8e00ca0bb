"""``python -m jobs``: the job list, the scheduler's settings, and ``run close-periods --now``."""

from __future__ import annotations

import json
import re
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from jobs.scheduler import build_scheduler, scheduled_jobs
from ratingdb.cli import main
from ratingdb.config import Settings
from tests.databases import copy_sqlite
from tests.support import forks
from tests.support.factories import ANNA, BOB, games_csv, list_csv

TIMEOUT = 120
BASELINE = list_csv(ANNA, BOB)
# Ends 2026-08-12: rated in 2026-09, whose closing date is 2026-08-29.
GAMES = games_csv("Open,2026-08-10,2026-08-12,1,1001,1002,1-0")


def jobs(*args: str, url: str) -> forks.Finished:
    return forks.run(["--database-url", url, *args], module="jobs")


def prepare(url: str, tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.csv"
    baseline.write_text(BASELINE, encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text(GAMES, encoding="utf-8")
    assert main(["lists", "import", str(baseline), "--category", "fide-standard",
                 "--period", "2026-08", "--database-url", url]) == 0  # fmt: skip
    assert main(["tournaments", "import", str(games), "--category", "fide-standard",
                 "--database-url", url]) == 0  # fmt: skip


def lists_and_states(url: str) -> tuple[list[str], dict[str, str]]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            lists = [
                f"{category} {str(list_date)[:7]}"
                for category, list_date in connection.execute(
                    text("SELECT category, list_date FROM rating_lists ORDER BY list_date")
                )
            ]
            states = {
                f"{category} {str(list_date)[:7]}": state
                for category, list_date, state in connection.execute(
                    text("SELECT category, list_date, state FROM periods")
                )
            }
    finally:
        engine.dispose()
    return lists, states


@pytest.mark.processes
def test_list_prints_the_close_periods_job(tmp_path: Path) -> None:
    done = jobs("list", url=f"sqlite:///{tmp_path / 'unused.sqlite3'}")
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("close-periods")]
    assert len(lines) == 1, done.stdout
    assert re.search(r"\d{4}-\d{2}-\d{2}", lines[0]), "no next run time"


def test_the_scheduler_runs_close_periods_at_start_then_without_piling_up(
    tmp_path: Path,
) -> None:
    settings = Settings.from_env({}, database_url=f"sqlite:///{tmp_path / 'unused.sqlite3'}")
    before = datetime.now(UTC)
    scheduler = build_scheduler(scheduled_jobs(settings, "the test"))
    # A BlockingScheduler blocks in start(): start it paused in a thread, so that the job
    # defaults are applied but the job never runs.
    thread = threading.Thread(target=scheduler.start, kwargs={"paused": True}, daemon=True)
    thread.start()
    try:
        for _ in range(100):
            if scheduler.running:
                break
            time.sleep(0.05)
        assert scheduler.running
        scheduled = scheduler.get_jobs()
        assert [job.id for job in scheduled] == ["close-periods", "expire-previews"]
        job = scheduled[0]
        assert job.coalesce is True
        assert job.max_instances == 1
        assert job.misfire_grace_time is None
        # The first run is at start (the catch-up), not at the next daily time.
        assert before - timedelta(seconds=1) <= job.next_run_time <= before + timedelta(minutes=1)
        # ... and later runs come from a trigger that fires again within a day.
        later = job.trigger.get_next_fire_time(None, before)
        assert later is not None
        assert later - before <= timedelta(days=1)
    finally:
        scheduler.shutdown(wait=False)
        thread.join(timeout=10)
    assert not thread.is_alive()


@pytest.mark.processes
def test_run_with_a_bad_now_exits_2(database_url: str, tmp_path: Path) -> None:
    prepare(database_url, tmp_path)
    before = lists_and_states(database_url)
    done = jobs("run", "close-periods", "--now", "not-a-date", url=database_url)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "--now" in done.stderr
    assert done.stdout == ""
    assert lists_and_states(database_url) == before


@pytest.mark.processes
def test_run_before_any_closing_date_closes_nothing(database_url: str, tmp_path: Path) -> None:
    prepare(database_url, tmp_path)
    done = jobs("run", "close-periods", "--now", "2026-08-20T12:00:00+00:00", url=database_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    lists, states = lists_and_states(database_url)
    assert lists == ["fide-standard 2026-08"]
    assert states == {"fide-standard 2026-08": "published", "fide-standard 2026-09": "open"}


@pytest.mark.processes
def test_run_after_the_closing_date_closes_the_period(database_url: str, tmp_path: Path) -> None:
    """The control of the test above: on 2026-09-01 the 2026-09 closing date has passed."""
    prepare(database_url, tmp_path)
    done = jobs("run", "close-periods", "--now", "2026-09-01T00:30:00+00:00", url=database_url)
    assert done.returncode == 0, done.stderr
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(o["category"], o["period"], o["state"]) for o in outcomes] == [
        ("fide-standard", "2026-09", "published")
    ]
    lists, states = lists_and_states(database_url)
    assert lists == ["fide-standard 2026-08", "fide-standard 2026-09"]
    assert states == {"fide-standard 2026-08": "published", "fide-standard 2026-09": "published"}
    # The audit log says how each entry came: the imports from the command line, the close
    # from the scheduled job, each with the operating system user who ran it.
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            entries = connection.execute(
                text("SELECT action, channel, credential FROM audit_log ORDER BY id")
            ).all()
    finally:
        engine.dispose()
    assert [(action, channel) for action, channel, _ in entries] == [
        ("list-import", "cli"), ("tournament-import", "cli"), ("close", "scheduler")
    ]  # fmt: skip
    assert all(credential.startswith(("os user ", "os uid ")) for _, _, credential in entries)


@pytest.mark.processes
def test_database_url_is_accepted_after_the_command_too(
    tmp_path: Path, sqlite_template: Path
) -> None:
    """Contract "Configuration": --database-url on any command, wherever it is written."""
    url = copy_sqlite(sqlite_template, tmp_path, "jobs.sqlite3")
    done = forks.run(
        ["run", "close-periods", "--now", "2026-08-20", "--database-url", url], module="jobs"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
