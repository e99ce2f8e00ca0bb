"""``python -m jobs scheduler`` as a process: it refuses a database that is not at the latest
schema, stops cleanly on SIGTERM after its catch-up run, and logs what goes wrong with a job."""

from __future__ import annotations

import codecs
import logging
import os
import select
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from apscheduler.schedulers.background import BackgroundScheduler

from jobs.scheduler import report_job_problems
from ratingdb.db import upgrade
from tests.databases import copy_sqlite

TIMEOUT = 60


def start_scheduler(url: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "jobs", "--database-url", url, "scheduler"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


class Log:
    """The process's stderr as read so far, read straight from its pipe: select() on the pipe
    with a buffered readline() waited for lines already read into the buffer (a loaded host's
    scheduler wrote several lines at once, and the test timed out with them unread)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        self._fd = process.stderr.fileno()
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self.text = ""
        self._after = 0  # where the next needle is looked for: after the last one found

    def until(self, needle: str) -> str:
        """Everything logged so far, once ``needle`` is, after the previous needle."""
        deadline = time.monotonic() + TIMEOUT
        while (found := self.text.find(needle, self._after)) < 0:
            assert time.monotonic() < deadline, f"{needle!r} not logged; got:\n{self.text}"
            ready, _, _ = select.select([self._fd], [], [], 1.0)
            if ready:
                chunk = os.read(self._fd, 65536)
                assert chunk, f"the scheduler ended before logging {needle!r}:\n{self.text}"
                self.text += self._decoder.decode(chunk)
        self._after = found + len(needle)
        return self.text


@pytest.mark.processes
@pytest.mark.parametrize("migrated", [False, True], ids=["empty", "older"])
def test_the_scheduler_refuses_a_database_not_at_the_latest_schema(
    empty_database_url: str, migrated: bool
) -> None:
    if migrated:
        upgrade(empty_database_url, "0003")
    process = start_scheduler(empty_database_url)
    _, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 1
    assert "run `ratingdb db upgrade`" in err
    assert ("schema revision 0003" in err) is migrated
    assert "Traceback" not in err


@pytest.mark.processes
def test_sigterm_stops_the_scheduler_cleanly(tmp_path: Path, sqlite_template: Path) -> None:
    url = copy_sqlite(sqlite_template, tmp_path)
    with start_scheduler(url) as process:  # its pipes closed at the end, whatever happens
        try:
            # The catch-up run at start has finished (nothing to close in an empty database).
            log = Log(process)
            log.until("close-periods")
            log.until("executed successfully")
            process.send_signal(signal.SIGTERM)
            _, rest = process.communicate(timeout=TIMEOUT)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 0, rest
    assert "SIGTERM: stopping" in rest
    assert "scheduler stopped" in rest
    assert "Traceback" not in rest


def _failing_job() -> None:
    raise RuntimeError("the database went away")


def test_a_failing_job_and_a_missed_run_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    scheduler = BackgroundScheduler(timezone=UTC)
    report_job_problems(scheduler)
    caplog.set_level(logging.WARNING, logger="jobs.scheduler")
    now = datetime.now(UTC)
    scheduler.add_job(_failing_job, "date", run_date=now, id="failing")
    # Due a minute ago with one second of grace: APScheduler skips it as missed.
    scheduler.add_job(
        _failing_job, "date", run_date=now - timedelta(minutes=1), id="late",
        misfire_grace_time=1,
    )  # fmt: skip
    scheduler.start()
    try:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and len(caplog.records) < 2:
            time.sleep(0.05)
    finally:
        scheduler.shutdown(wait=True)
    messages = {record.getMessage().split("\n")[0]: record for record in caplog.records}
    failed = next(text for text in messages if text.startswith("job failing failed"))
    assert "the database went away" in failed
    assert messages[failed].levelno == logging.ERROR
    assert "RuntimeError" in messages[failed].getMessage()  # the traceback is in the log
    missed = next(text for text in messages if text.startswith("job late missed its run"))
    assert messages[missed].levelno == logging.WARNING
