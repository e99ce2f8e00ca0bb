"""Two closers at the same moment, in two OS processes: the period is closed once.

The processes are forked from a warm interpreter (tests/support/forks.py): without the
interpreter's start between them they start closer together, so they overlap more.

The data makes the close take a moment so that the two really overlap: a fide-standard
baseline list of 2026-08 with 300 rated players, and a tournament of 150 games (every player
plays once) ending in August, rated in 2026-09. Its list then has 300 entries and 300
calculations (one per player and game).
"""

from __future__ import annotations

import contextlib
import io
import json
import multiprocessing
import sys
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tests.support import forks
from tests.support.calculations import calculation_count
from tests.support.files import GAMES_HEADER, LIST_HEADER

# Slow: each test races several close processes.
pytestmark = pytest.mark.slow

PLAYERS = 300
GAMES = 150
RESULTS = ("1-0", "0-1", "1/2-1/2")
TIMEOUT = 180


def player_id(index: int) -> str:
    return str(20001 + index)


def baseline_csv() -> str:
    rows = [
        f'{player_id(i)},"Player, {i}",FRA,M,1980,,{1500 + 3 * i},60,{1500 + 3 * i},20'
        for i in range(PLAYERS)
    ]
    return LIST_HEADER + "\n".join(rows) + "\n"


def tournament_csv(name: str, start: str, end: str) -> str:
    rows = [
        f"{name},{start},{end},1,{player_id(2 * g)},{player_id(2 * g + 1)},{RESULTS[g % 3]}"
        for g in range(GAMES)
    ]
    return GAMES_HEADER + "\n".join(rows) + "\n"


def prepare(url: str, tmp_path: Path, tournaments: dict[str, tuple[str, str]]) -> None:
    from ratingdb.cli import main

    baseline = tmp_path / "baseline.csv"
    baseline.write_text(baseline_csv(), encoding="utf-8")
    assert main(["lists", "import", str(baseline), "--category", "fide-standard",
                 "--period", "2026-08", "--database-url", url]) == 0  # fmt: skip
    for name, (start, end) in tournaments.items():
        path = tmp_path / f"{name}.csv"
        path.write_text(tournament_csv(name, start, end), encoding="utf-8")
        assert main(["tournaments", "import", str(path), "--category", "fide-standard",
                     "--database-url", url]) == 0  # fmt: skip


def lists_per_period(url: str) -> dict[str, int]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT list_date, count(*) FROM rating_lists "
                    "WHERE category = 'fide-standard' GROUP BY list_date"
                )
            )
            return {str(list_date)[:7]: count for list_date, count in rows}
    finally:
        engine.dispose()


def count(url: str, query: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(text(query)).scalar_one())
    finally:
        engine.dispose()


def close_in_child(url: str, barrier: Any, results: Any) -> None:
    """A child process: everything imported and the database reached, then wait for the other
    child, then ``ratingdb periods close`` in-process."""
    from ratingdb.cli import main

    out, err = io.StringIO(), io.StringIO()
    args = ["periods", "close", "--category", "fide-standard", "--period", "2026-09",
            "--database-url", url]  # fmt: skip
    barrier.wait(timeout=TIMEOUT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    except BaseException:
        results.put((1, out.getvalue(), err.getvalue() + traceback.format_exc()))
        sys.exit(1)
    results.put((code, out.getvalue(), err.getvalue()))
    sys.exit(code)


@pytest.mark.parametrize(
    ("tournaments", "calculations"),
    [
        pytest.param({"Open": ("2026-08-10", "2026-08-12")}, 300, id="with a tournament"),
        # No tournament: the period has no row yet, both closers have to create it.
        pytest.param({}, 0, id="without a tournament"),
    ],
)
def test_two_processes_close_the_same_period_once(
    database_url: str, tmp_path: Path, tournaments: dict[str, tuple[str, str]], calculations: int
) -> None:
    prepare(database_url, tmp_path, tournaments)
    assert lists_per_period(database_url) == {"2026-08": 1}

    # Children of a clean process (never a fork of this one, its threads and connections):
    # multiprocessing's fork server, started once per worker with the close imported.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__, "ratingdb.cli", "ratingdb.services.close"])
    barrier = context.Barrier(2)
    results = context.Queue()
    processes = [
        context.Process(target=close_in_child, args=(database_url, barrier, results))
        for _ in range(2)
    ]
    for process in processes:
        process.start()
    reports = [results.get(timeout=TIMEOUT) for _ in processes]
    for process in processes:
        process.join(timeout=TIMEOUT)
    results.close()
    results.join_thread()

    assert [process.exitcode for process in processes] == [0, 0], reports
    assert [code for code, _, _ in reports] == [0, 0], reports
    states = sorted(json.loads(out.splitlines()[-1])["state"] for _, out, _ in reports)
    assert states == ["already-published", "published"], reports
    assert lists_per_period(database_url) == {"2026-08": 1, "2026-09": 1}
    september = (
        "(SELECT id FROM rating_lists WHERE category = 'fide-standard' "
        "AND list_date = '2026-09-01')"
    )
    entries = f"SELECT sum(size) FROM list_chunks WHERE list_id IN {september}"
    assert count(database_url, entries) == PLAYERS
    # Written once: every player plays one game, so one row of player_calculations each.
    done = f"SELECT count(*) FROM player_calculations WHERE list_id IN {september}"
    assert count(database_url, done) == calculations
    assert calculation_count(database_url, f"c.list_id IN {september}") == calculations
    assert count(database_url, "SELECT count(*) FROM periods WHERE state <> 'published'") == 0


def test_two_close_commands_started_together_close_once(database_url: str, tmp_path: Path) -> None:
    """The same race with two ``python -m ratingdb periods close`` processes."""
    prepare(database_url, tmp_path, {"Open": ("2026-08-10", "2026-08-12")})
    command = ["periods", "close", "--category", "fide-standard", "--period", "2026-09",
               "--database-url", database_url]  # fmt: skip
    processes = [forks.start(command) for _ in range(2)]
    reports = [(p, *p.communicate(timeout=TIMEOUT)) for p in processes]
    assert [p.returncode for p, _, _ in reports] == [0, 0], reports
    states = sorted(json.loads(out.splitlines()[-1])["state"] for _, out, _ in reports)
    assert states == ["already-published", "published"], reports
    assert lists_per_period(database_url) == {"2026-08": 1, "2026-09": 1}


@pytest.mark.parametrize(
    "tournaments",
    [
        pytest.param(
            {
                "Sep": ("2026-08-10", "2026-08-12"),
                "Oct": ("2026-09-10", "2026-09-12"),
                "Nov": ("2026-10-10", "2026-10-12"),
                "Dec": ("2026-11-10", "2026-11-12"),
            },
            id="a tournament in every period",
        ),
        pytest.param(
            {"Sep": ("2026-08-10", "2026-08-12"), "Nov": ("2026-10-10", "2026-10-12")},
            id="periods without tournaments",
        ),
    ],
)
def test_two_catch_up_jobs_at_once_close_each_period_once(
    database_url: str, tmp_path: Path, tournaments: dict[str, tuple[str, str]]
) -> None:
    """At 2026-12-01 00:30 the closing dates of 2026-09 (08-29), 2026-10 (09-28), 2026-11
    (10-29) and 2026-12 (11-28) have passed: four periods are due, each is closed once."""
    prepare(database_url, tmp_path, tournaments)
    command = ["--database-url", database_url, "run", "close-periods", "--now",
               "2026-12-01T00:30:00+00:00"]  # fmt: skip
    processes = [forks.start(command, module="jobs") for _ in range(2)]
    reports = [(p, *p.communicate(timeout=TIMEOUT)) for p in processes]
    assert [p.returncode for p, _, _ in reports] == [0, 0], [err for _, _, err in reports]

    assert lists_per_period(database_url) == {
        "2026-08": 1,
        "2026-09": 1,
        "2026-10": 1,
        "2026-11": 1,
        "2026-12": 1,
    }
    outcomes = [json.loads(line) for _, out, _ in reports for line in out.splitlines()]
    assert {o["state"] for o in outcomes} <= {"published", "already-published"}
    published = Counter(o["period"] for o in outcomes if o["state"] == "published")
    assert published == {"2026-09": 1, "2026-10": 1, "2026-11": 1, "2026-12": 1}
    assert count(database_url, "SELECT count(*) FROM periods WHERE state <> 'published'") == 0
