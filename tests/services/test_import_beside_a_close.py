"""A tournament imported while the close of its period runs (PostgreSQL, two real
transactions in two threads): it is either rated by the close or stored in the next period as
late, never left in the closed period unrated (``periods verify`` then fails, and a later
correction silently rates it).

The close is held inside its transaction (``before_publishing``: computed, nothing written
yet) while the import runs. Nothing sleeps: the test waits for events, for the import to end,
or for it to wait on a lock (``pg_locks``). On SQLite the import cannot run beside a close at
all (writers take turns: BEGIN IMMEDIATE), so the race is PostgreSQL's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from ratingdb.cli import main
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.rules import Category, Period
from ratingdb.services.close import close_period
from ratingdb.services.tournaments import import_tournament_file
from tests.support.calculations import stored_calculations
from tests.support.files import GAMES_HEADER, LIST_HEADER
from tests.support.sql import query

DEADLINE = 120.0
CATEGORY = "fide-standard"
PLAYERS = [str(30001 + i) for i in range(6)]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, f"ratingdb {' '.join(args)}: {err}"
    return out


def _games(name: str, start: str, end: str, pairs: list[tuple[int, int, str]]) -> str:
    rows = [f"{name},{start},{end},1,{PLAYERS[w]},{PLAYERS[b]},{r}" for w, b, r in pairs]
    return GAMES_HEADER + "\n".join(rows) + "\n"


def _prepare(url: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A 2026-08 list, tournament A rated in 2026-09; the file of B (also 2026-09's)."""
    baseline = folder / "baseline.csv"
    baseline.write_text(
        LIST_HEADER
        + "".join(
            f'{p},"Player, {i}",FRA,M,1990,,{1600 + 50 * i},40,{1600 + 50 * i},20\n'
            for i, p in enumerate(PLAYERS)
        ),
        encoding="utf-8",
    )
    _run(capsys, "lists", "import", str(baseline), "--category", CATEGORY, "--period", "2026-08",
         "--database-url", url)  # fmt: skip
    first = folder / "a.csv"
    first.write_text(_games("A", "2026-08-10", "2026-08-12", [(0, 1, "1-0"), (2, 3, "0-1")]))
    _run(capsys, "tournaments", "import", str(first), "--category", CATEGORY,
         "--database-url", url)  # fmt: skip
    second = folder / "b.csv"
    second.write_text(_games("B", "2026-08-20", "2026-08-22", [(4, 5, "1-0"), (1, 2, "1/2-1/2")]))
    return second


def _waiting_on_a_lock(url: str) -> bool:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return bool(
                connection.execute(
                    text(
                        "SELECT count(*) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                    )
                ).scalar_one()
            )
    finally:
        engine.dispose()


def _until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"waited {DEADLINE} s for {what}"
        time.sleep(0.02)


@pytest.mark.parametrize("first", ["close", "import"])
def test_a_tournament_imported_beside_the_close_of_its_period_is_rated_or_late(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], first: str
) -> None:
    """``first``: which of the two is held inside its transaction while the other starts (the
    close once computed, before it writes; the import once stored, before it commits)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite writers take turns: an import never runs beside a close")
    url = database_url
    path = _prepare(url, tmp_path, capsys)
    held, release = threading.Event(), threading.Event()
    outcome: dict[str, Any] = {}
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)

    def hold(_: object = None) -> None:
        held.set()
        assert release.wait(DEADLINE), "the test never released the first transaction"

    def close() -> None:
        try:
            with sessions.begin() as session:
                closed = close_period(
                    session, Category.FIDE_STANDARD, Period.parse("2026-09"),
                    now=datetime.now(UTC), closed_by="test",
                    before_publishing=hold if first == "close" else None,
                )  # fmt: skip
            outcome["close"] = closed.state
        except BaseException as error:
            outcome["close"] = error
            held.set()

    def import_b() -> None:
        try:
            with sessions.begin() as session:
                imported = import_tournament_file(session, path, [Category.FIDE_STANDARD], None)
                if first == "import":
                    hold()
            outcome["import"] = imported.tournaments[0]
        except BaseException as error:
            outcome["import"] = error
            held.set()

    one, other = (close, import_b) if first == "close" else (import_b, close)
    try:
        started = threading.Thread(target=one)
        started.start()
        assert held.wait(DEADLINE), f"the {first} never reached its hold"
        second = threading.Thread(target=other)
        second.start()
        # Either the second is done (it did not wait for the first) or it waits on a lock.
        _until(lambda: not second.is_alive() or _waiting_on_a_lock(url), "the second")
        release.set()
        started.join(DEADLINE)
        second.join(DEADLINE)
        assert not started.is_alive()
        assert not second.is_alive()
    finally:
        release.set()
        engine.dispose()
    assert outcome["close"] == "published", outcome
    imported = outcome["import"]
    assert not isinstance(imported, BaseException), outcome
    rows = query(
        url,
        "SELECT t.tournament_id, p.list_date, t.late FROM tournaments t "
        "JOIN periods p ON p.id = t.period_id WHERE t.name = 'B'",
    )
    assert len(rows) == 1
    _, list_date, late = rows[0]
    rated = sum(
        c.tournament_id == imported.tournament_id
        for c in stored_calculations(url, "l.list_date = '2026-09-01'")
    )
    # Rated by the close, or the next period's, late: never in 2026-09 unrated.
    assert (str(list_date), bool(late), rated) in {
        ("2026-09-01", False, 4),
        ("2026-10-01", True, 0),
    }, (rows, rated)
    assert (str(imported.period), imported.late) == (str(list_date)[:7], bool(late))
    verified = main(["periods", "verify", "--all", "--database-url", url])
    out, _ = capsys.readouterr()
    assert verified == 0, "\n".join(line for line in out.splitlines() if '"ok": false' in line)
