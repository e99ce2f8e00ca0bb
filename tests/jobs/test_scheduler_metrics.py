"""The scheduler's figures, on SQLite and PostgreSQL: each run of each job counted once, a
failing run as a failure too (the jobs on a database that is not migrated fail, as they must);
the scheduler's own ``/metrics``; and ``python -m jobs`` logging JSON lines when asked."""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from apscheduler.events import EVENT_JOB_ERROR, EVENT_JOB_EXECUTED, JobExecutionEvent

from jobs.scheduler import _serve_metrics, build_scheduler, scheduled_jobs
from ratingdb.config import Settings
from ratingdb.observability import metrics
from tests.databases import free_port
from tests.support import forks
from tests.support.metrics import samples, value

JOBS = ("close-periods", "expire-previews")
TIMEOUT = 120


def figures() -> dict[str, dict[str, float]]:
    """Runs, failures and the last success of each job, as a scrape shows them."""
    text = metrics.exposition(metrics.app_registry(scheduler=True)).decode()
    return {
        job: {
            "runs": value(text, "ratingdb_scheduler_runs_total", job=job),
            "failures": value(text, "ratingdb_scheduler_failures_total", job=job),
            "last_success": value(
                text, "ratingdb_scheduler_last_success_timestamp_seconds", job=job
            ),
        }
        for job in JOBS
    }


def run_once(jobs: dict[str, Callable[[], object]]) -> dict[str, bool]:
    """The scheduler's catch-up run of every job (at start), then stop; job -> failed."""
    scheduler = build_scheduler(jobs)
    ended: dict[str, bool] = {}
    all_ended = threading.Event()

    def seen(event: JobExecutionEvent) -> None:
        # Called after the scheduler's own listeners (the figures): they are counted already.
        ended[event.job_id] = event.code == EVENT_JOB_ERROR
        if len(ended) == len(jobs):
            all_ended.set()

    scheduler.add_listener(seen, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR)
    thread = threading.Thread(target=scheduler.start, daemon=True)
    thread.start()
    try:
        assert all_ended.wait(TIMEOUT), "the scheduler's catch-up run did not end"
    finally:
        scheduler.shutdown(wait=True)
        thread.join(TIMEOUT)
    return ended


def grew(
    before: dict[str, dict[str, float]], after: dict[str, dict[str, float]]
) -> dict[str, tuple[float, float]]:
    return {
        job: (after[job]["runs"] - before[job]["runs"],
              after[job]["failures"] - before[job]["failures"])
        for job in JOBS
    }  # fmt: skip


def test_a_failing_job_is_counted_as_a_run_and_a_failure(empty_database_url: str) -> None:
    settings = Settings(database_url=empty_database_url)  # no schema: every job refuses it
    before = figures()
    assert run_once(scheduled_jobs(settings, "the test")) == dict.fromkeys(JOBS, True)
    after = figures()
    assert grew(before, after) == dict.fromkeys(JOBS, (1, 1))
    for job in JOBS:
        assert after[job]["last_success"] == before[job]["last_success"]


def test_a_run_that_succeeds_is_counted_and_dated(database_url: str) -> None:
    settings = Settings(database_url=database_url)
    before = figures()
    started = datetime.now(UTC).timestamp()
    assert run_once(scheduled_jobs(settings, "the test")) == dict.fromkeys(JOBS, False)
    after = figures()
    assert grew(before, after) == dict.fromkeys(JOBS, (1, 0))
    for job in JOBS:
        assert started <= after[job]["last_success"] <= datetime.now(UTC).timestamp()


def test_the_scheduler_serves_its_metrics_when_given_a_port(tmp_path: Path) -> None:
    port = free_port()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'unused.sqlite3'}",
        scheduler_metrics_port=port,
    )
    build_scheduler(scheduled_jobs(settings, "the test"))  # the jobs' series, at 0 or more
    server = _serve_metrics(settings)
    assert server is not None
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
            text = answer.read().decode()
    finally:
        server.shutdown()
        server.server_close()
    shown = samples(text)
    for job in JOBS:
        assert ("ratingdb_scheduler_runs_total", frozenset({("job", job)})) in shown
    assert "ratingdb_list_write_duration_seconds" in text  # its closes too


def test_no_port_no_server() -> None:
    assert _serve_metrics(Settings(database_url="sqlite:///unused.sqlite3")) is None


@pytest.mark.processes
def test_jobs_log_json_lines_when_asked(database_url: str) -> None:
    done = forks.run(
        ["--database-url", database_url, "run", "expire-previews"],
        module="jobs",
        env={"RATINGDB_LOG_FORMAT": "json", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"expired": 0}
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert lines, done.stderr
    for line in lines:
        assert {"time", "level", "logger", "message"} <= line.keys()
        assert datetime.fromisoformat(line["time"]).utcoffset() is not None
    assert {"level": "INFO", "logger": "jobs.expire_previews",
            "message": "0 correction preview(s) expired"}.items() <= lines[-1].items()  # fmt: skip


@pytest.mark.processes
def test_a_log_format_that_does_not_exist_is_refused(database_url: str) -> None:
    done = forks.run(
        ["--database-url", database_url, "run", "expire-previews"],
        module="jobs",
        env={"RATINGDB_LOG_FORMAT": "xml", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1, done.stderr  # as any unusable setting (docs/cli.md §1.1)
    assert "RATINGDB_LOG_FORMAT" in done.stderr
    assert "'xml'" in done.stderr
