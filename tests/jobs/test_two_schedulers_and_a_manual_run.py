"""Two schedulers and a manual ``jobs run`` started together (issue 7, "Done means"): every due
period is closed once, and no process logs an error; a closer that finds a period already
closed says so politely.

The database holds a fide-standard baseline list of 2026-06 (200 rated players) and one
tournament in each month from June to November 2026 (100 games each, every player playing
once), so that periods 2026-07 to 2026-12 have games. With the real clock at 2026-11-30 their
closing dates (2026-06-28 ... 2026-11-28) have all passed: six periods are due (computed from
the clock below, so the test stays right on a later day). Then, at the same moment:

    python -m jobs --database-url URL scheduler            (twice: each catches up at start)
    python -m jobs --database-url URL run close-periods    (once)

The test waits (with a timeout) until the manual run has exited, each scheduler has logged
its catch-up job as executed and every due period is published, then terminates the
schedulers.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from ratingdb.cli import main
from ratingdb.rules import Category, Period, closing_date, next_period
from tests.support import forks
from tests.support.files import GAMES_HEADER, LIST_HEADER

# Slow: two schedulers and a manual run, as processes, on six periods.
pytestmark = pytest.mark.slow

PLAYERS = 200
GAMES = 100
TIMEOUT = 150
RESULTS = ("1-0", "0-1", "1/2-1/2")
#: One tournament per month (start, end): each ends before its month's closing date.
TOURNAMENTS = {
    f"Open {month:02d}": (f"2026-{month:02d}-10", f"2026-{month:02d}-12") for month in range(6, 12)
}
BASELINE = Period(2026, 6)
STD = Category.FIDE_STANDARD
POLITE = re.compile(r" jobs\.close_periods fide-standard \d{4}-\d{2} is already published$")
PUBLISHED = re.compile(r" jobs\.close_periods fide-standard (\d{4}-\d{2}) published: ")
EXECUTED = 'Job "close-periods'


def player_id(index: int) -> str:
    return str(40001 + index)


def prepare(url: str, tmp_path: Path) -> None:
    rows = [
        f'{player_id(i)},"Player, {i}",FRA,M,1980,,{1500 + 4 * i},60,{1500 + 4 * i},20'
        for i in range(PLAYERS)
    ]
    baseline = tmp_path / "baseline.csv"
    baseline.write_text(LIST_HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    assert main(["lists", "import", str(baseline), "--category", "fide-standard",
                 "--period", str(BASELINE), "--database-url", url]) == 0  # fmt: skip
    for n, (name, (start, end)) in enumerate(TOURNAMENTS.items()):
        games = [
            f"{name},{start},{end},1,{player_id(2 * g)},{player_id(2 * g + 1)},"
            f"{RESULTS[(g + n) % 3]}"
            for g in range(GAMES)
        ]
        path = tmp_path / f"{name.replace(' ', '_')}.csv"
        path.write_text(GAMES_HEADER + "\n".join(games) + "\n", encoding="utf-8")
        assert main(["tournaments", "import", str(path), "--category", "fide-standard",
                     "--database-url", url]) == 0  # fmt: skip


def due_periods_now() -> list[str]:
    """The periods after the baseline whose closing date has passed by the real clock."""
    today = datetime.now(UTC).date()
    due: list[str] = []
    period = next_period(STD, BASELINE)
    while closing_date(STD, period) < today:
        due.append(str(period))
        period = next_period(STD, period)
    return due


def database_state(url: str) -> tuple[dict[str, int], dict[str, str]]:
    """Rating lists per period, and each period's state (fide-standard)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            lists = {
                str(list_date)[:7]: int(count)
                for list_date, count in connection.execute(
                    text(
                        "SELECT list_date, count(*) FROM rating_lists "
                        "WHERE category = 'fide-standard' GROUP BY list_date"
                    )
                )
            }
            states = {
                str(list_date)[:7]: state
                for list_date, state in connection.execute(
                    text("SELECT list_date, state FROM periods WHERE category = 'fide-standard'")
                )
            }
    finally:
        engine.dispose()
    return lists, states


def start(args: list[str], tmp_path: Path, name: str) -> tuple[forks.Forked, Path]:
    """``python -m jobs ARGS``, forked from a warm interpreter (tests/support/forks.py), its
    output in ``tmp_path/NAME.out`` and ``.err``."""
    process = forks.start(args, module="jobs", env={**os.environ, "PYTHONUNBUFFERED": "1"})
    err, out = tmp_path / f"{name}.err", tmp_path / f"{name}.out"
    err.symlink_to(process.stderr_path)
    out.symlink_to(process.stdout_path)
    return process, err


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def stop(process: forks.Forked) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)


def test_two_schedulers_and_a_manual_run_close_each_period_once(
    database_url: str, tmp_path: Path
) -> None:
    prepare(database_url, tmp_path)
    due = due_periods_now()
    assert due[:6] == ["2026-07", "2026-08", "2026-09", "2026-10", "2026-11", "2026-12"], due
    lists, states = database_state(database_url)
    assert lists == {str(BASELINE): 1}
    assert all(states[p] == "open" for p in due[:6]), states

    url = ["--database-url", database_url]
    scheduler = [*url, "scheduler"]
    manual = [*url, "run", "close-periods"]
    processes: dict[str, tuple[forks.Forked, Path]] = {}
    try:
        processes["scheduler 1"] = start(scheduler, tmp_path, "scheduler1")
        processes["scheduler 2"] = start(scheduler, tmp_path, "scheduler2")
        processes["manual run"] = start(manual, tmp_path, "manual")

        deadline = time.monotonic() + TIMEOUT
        while True:
            lists, states = database_state(database_url)
            done = (
                all(states.get(p) == "published" for p in due)
                and processes["manual run"][0].poll() is not None
                and all(
                    EXECUTED in read(processes[name][1]) or processes[name][0].poll() is not None
                    for name in ("scheduler 1", "scheduler 2")
                )
            )
            if done:
                break
            assert time.monotonic() < deadline, (
                f"not done after {TIMEOUT} s: states {states}; "
                + "; ".join(f"{name}: {read(err)[-2000:]}" for name, (_, err) in processes.items())
            )
            time.sleep(0.25)

        # The schedulers keep running (waiting for tomorrow's run) until they are stopped.
        crashed = {
            name: (process.returncode, read(err))
            for name, (process, err) in processes.items()
            if name.startswith("scheduler") and process.poll() is not None
        }
        assert crashed == {}, crashed
    finally:
        for process, _ in processes.values():
            stop(process)

    manual_run = processes["manual run"][0]
    logs = {name: read(err) for name, (_, err) in processes.items()}
    assert manual_run.returncode == 0, logs["manual run"]

    # Each due period has exactly one list, and is published.
    lists, states = database_state(database_url)
    assert lists == {str(BASELINE): 1, **dict.fromkeys(due, 1)}, lists
    assert {p: states[p] for p in due} == dict.fromkeys(due, "published")

    # No process logged an error; "already published" only in the polite form.
    for name, log in logs.items():
        for marker in ("Traceback", "ERROR", "Error", "raised an exception", "exception"):
            assert marker not in log, f"{name} logged {marker!r}:\n{log}"
        impolite = [
            line for line in log.splitlines() if "already" in line and not POLITE.search(line)
        ]
        assert impolite == [], f"{name}: {impolite}"
    for name in ("scheduler 1", "scheduler 2"):
        assert EXECUTED in logs[name], logs[name]
        assert "executed successfully" in logs[name], logs[name]

    # Across the three processes every due period was published exactly once.
    published = Counter(
        match[1] for log in logs.values() for match in map(PUBLISHED.search, log.splitlines())
        if match
    )  # fmt: skip
    assert published == Counter(dict.fromkeys(due, 1)), published
    outcomes = [json.loads(line) for line in read(tmp_path / "manual.out").splitlines()]
    assert {o["state"] for o in outcomes} <= {"published", "already-published"}, outcomes
    # It closes what was still due when it looked, oldest first (maybe nothing: it may look
    # after the schedulers closed everything).
    periods = [o["period"] for o in outcomes]
    assert periods == sorted(periods), outcomes
    assert set(periods) <= set(due), outcomes
