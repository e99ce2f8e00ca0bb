"""A period close killed with SIGKILL at any moment leaves the database as if it had never started
or, killed after its commit, with the whole list published: never half a list.

The federation (benchmarks.generate: 10,000 players, 5,000 games rated in 2026-12) makes
``ratingdb periods close`` of 2026-12 take a second or two, the interpreter's start included.
A copy of the database is closed uninterrupted first, watched from the database: the reference
list and where its phases fall. Then the command is started again and again on the working
database and killed at points spread over its phases (fixed seed): interpreter start, load,
compute, write and, on SQLite, the overwrite of the database file (its journal hot: the
commit), after the commit. Each point is a moment the database shows (the process started, its
transaction began, its writing began, the journal became hot, its transaction ended) plus a
random share of that phase's length in the reference, so every kill lands in the phase it is
aimed at however loaded the machine (a delay from the command's start drifted: most kills
aimed at the write landed after the commit, and few in the overwrite). The kills aimed at the
interpreter's start kill ``python -m ratingdb``; the others kill the same close forked from a
warm process (tests/support/forks.py), which spares each 0.6-0.8 s of interpreter start
and imports, the phases of a forked close aimed at as a forked reference close showed them
(a forked close must publish the reference list too). The database is checked after each
kill. One built database serves every kill: a kill before the commit leaves
it unchanged; a kill that lands after the commit is followed by a restore from the pristine
copy. Finally the close runs to completion and must publish the reference list.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from benchmarks.generate import build
from ratingdb.db import (
    is_sqlite,
    make_engine,
    make_read_only_engine,
    make_sessionmaker,
    read_only_session,
)
from ratingdb.models import (
    ListEntryRow,
    PeriodRow,
    PlayerCalculationsRow,
    PlayerStatusRow,
    RatingListRow,
)
from ratingdb.rules import Category, Period
from ratingdb.services.close import close_period
from ratingdb.services.published.lists import published_list
from tests.databases import PostgreSQLDatabases
from tests.reliability import paused_close
from tests.support.forks import Forked, ForkServer, Running
from tests.support.forks import shared as shared_forks

# Slow: 24 closes of a 10,000-player federation killed and checked, on each database.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CATEGORY = Category.FIDE_STANDARD
PERIOD = Period(2026, 12)
PLAYERS = 10_000
GAMES = 5_000
KILLS = 24
SEED = 20261201
TIMEOUT = 120
#: How many kills are aimed at each phase of the close (SQLite: three of the write's at the
#: overwrite of the database file, a phase PostgreSQL does not show).
AIM = {"startup": 3, "load": 5, "compute": 5, "write": 9, "after the commit": 2}
SQLITE_AIM = {"startup": 3, "load": 5, "compute": 5, "write": 6, "overwrite": 3,
              "after the commit": 2}  # fmt: skip
#: Where a kill aimed at a phase counts from: the moment the database shows (see Timeline).
ANCHORS = {"startup": "started", "load": "opened", "compute": "opened", "write": "writing",
           "overwrite": "overwriting", "after the commit": "committed"}  # fmt: skip
#: A kill lands at most this share into its phase (the phase may be shorter than the
#: reference's).
LATEST = 0.9
#: A close that has written more than this (its journal) has begun writing its rows; the claim
#: writes one page.
WRITING_BYTES = 64 * 1024
#: SQLite's lock bytes (os_unix.c): a writer holds RESERVED; EXCLUSIVE (the write lock on the
#: SHARED range) once it overwrites pages of the database file: a cache spill, or the commit.
PENDING_BYTE = 0x40000000
RESERVED_BYTE = PENDING_BYTE + 1
SHARED_FIRST = PENDING_BYTE + 2
TABLES = {
    "periods": PeriodRow,
    "rating_lists": RatingListRow,
    "list_entries": ListEntryRow,
    "player_status": PlayerStatusRow,
    "player_calculations": PlayerCalculationsRow,
}


# --- the database and its copies -------------------------------------------------------------


def build_federation(url: str) -> None:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine).begin() as session:
            build(session, players=PLAYERS, games=GAMES)
    finally:
        engine.dispose()


def sqlite_path(url: str) -> Path:
    database = make_url(url).database
    assert database, url
    return Path(database)


def journal_of(url: str) -> Path:
    return Path(f"{sqlite_path(url)}-journal")


def sqlite_locks(path: Path, pid: int) -> list[tuple[str, int, int]]:
    """The POSIX locks ``pid`` holds on the file (/proc/locks): mode, first byte, last byte."""
    inode = path.stat().st_ino
    found = []
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields or len(fields) < 8 or fields[1] != "POSIX":
            continue  # a waiter, or not a POSIX lock
        mode, owner, file, start, end = fields[3:8]
        if int(owner) == pid and int(file.rsplit(":", 1)[1]) == inode:
            found.append((mode, int(start), sys.maxsize if end == "EOF" else int(end)))
    return found


def written(pid: int) -> int:
    """The bytes the process has written so far (/proc/PID/io); 0 once it has gone."""
    try:
        io = Path(f"/proc/{pid}/io").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0
    return next(int(line.split()[1]) for line in io.splitlines() if line.startswith("wchar:"))


def hot_journal(url: str) -> bool:
    """Whether the rollback journal is hot should the writer die now: SQLite writes the
    journal's magic number (its first byte becomes non-zero) when it syncs the journal, just
    before it overwrites pages of the database file (a cache spill, or the commit). Until then
    the database file is untouched and the journal is ignored."""
    try:
        with journal_of(url).open("rb") as journal:
            return journal.read(1) not in (b"", b"\0")
    except FileNotFoundError:
        return False


@dataclass(frozen=True, slots=True)
class Seen:
    """The close as the database shows it: ``outside`` its transaction (not begun, or ended),
    transaction ``open`` (claimed: load or compute), or ``writing`` its rows; and whether its
    connection is in a transaction at all (PostgreSQL: SQLAlchemy's first look at a new
    connection is one, and so is a statement that names none of the close's tables)."""

    label: str
    stage: str
    in_transaction: bool
    #: SQLite: the database file is being overwritten (a kill now leaves a hot journal).
    overwriting: bool = False


class Databases:
    """Copies of the test's database: files on SQLite, template databases on PostgreSQL (a
    template must have no connection when it is copied: every engine here is disposed first)."""

    def __init__(self, url: str, admin: Engine | None, directory: Path) -> None:
        self.url = url
        self.admin = admin
        self.directory = directory
        self.copies: list[str] = []

    @property
    def sqlite(self) -> bool:
        return self.admin is None

    def copy(self, source: str, suffix: str) -> str:
        if self.admin is None:
            assert not journal_of(source).exists(), "copying a SQLite file with a hot journal"
            target = self.directory / f"{suffix}.sqlite3"
            shutil.copyfile(sqlite_path(source), target)
            return f"sqlite:///{target}"
        name = f"{make_url(source).database}_{suffix}"
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{make_url(source).database}"')
        url = make_url(source).set(database=name).render_as_string(hide_password=False)
        self.copies.append(url)
        return url

    def restore(self, target: str, source: str) -> None:
        """Make ``target`` the same as ``source`` again."""
        if self.admin is None:
            journal_of(target).unlink(missing_ok=True)
            shutil.copyfile(sqlite_path(source), sqlite_path(target))
            return
        name, template = make_url(target).database, make_url(source).database
        self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')

    def _execute(self, statement: str) -> None:
        assert self.admin is not None
        with self.admin.connect() as connection:
            connection.exec_driver_sql(statement)

    # --- the close's server process (PostgreSQL) or lock (SQLite) --------------------------

    def backends(self, tag: str) -> list[tuple[str | None, str, bool]]:
        """The PostgreSQL backends of the close started with ``tag``: state, query, in a
        transaction."""
        assert self.admin is not None
        with self.admin.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT state, query, xact_start IS NOT NULL FROM pg_stat_activity "
                    "WHERE application_name = :tag"
                ),
                {"tag": tag},
            )
            return [(state, query, in_transaction) for state, query, in_transaction in rows]

    def where_is(self, url: str, tag: str, pid: int) -> Seen:
        """What the database shows of the close (started with ``tag``, process ``pid``) at this
        instant. SQLite: the close's locks on the file (a stale journal left by an earlier kill
        says nothing) and how much it has written; PostgreSQL: its backend."""
        if self.admin is None:
            locks = sqlite_locks(sqlite_path(url), pid)
            if not any(start <= RESERVED_BYTE <= end for mode, start, end in locks):
                return Seen("no lock (not begun, or committed)", "outside", False)
            if any(mode == "WRITE" and start <= SHARED_FIRST <= end for mode, start, end in locks):
                if hot_journal(url):
                    label = "exclusive lock: the database file is being written"
                    return Seen(label, "writing", True, overwriting=True)
                return Seen("exclusive lock: syncing the journal", "writing", True)
            if written(pid) > WRITING_BYTES:
                return Seen("reserved lock: writing the journal", "writing", True)
            return Seen("reserved lock: load or compute", "open", True)
        backends = self.backends(tag)
        if not backends:
            return Seen("not connected", "outside", False)
        state, query, in_transaction = backends[0]
        if not in_transaction:
            return Seen(f"{state}: no transaction", "outside", False)
        if not any(name in query for name in (*TABLES, "players", "games", "pg_advisory")):
            # SQLAlchemy's first look at a new connection (version, schema, settings).
            return Seen("connecting", "outside", True)
        words = query.replace('"', "").split() or ["?"]
        shown = {"COPY": 2, "INSERT": 3}.get(words[0], 1)
        stage = "writing" if words[0] in ("COPY", "INSERT", "COMMIT") else "open"
        return Seen(f"{state}: {' '.join(words[:shown])}", stage, True)

    def wait_for(self, anchor: str, url: str, tag: str, process: Running) -> float:
        """When the close (just started) reached ``anchor`` (see Timeline: ``opened`` its
        transaction, began ``writing``, began ``overwriting`` the database file, ``committed``:
        its transaction ended after its writing), or its process ended."""
        deadline = time.perf_counter() + TIMEOUT
        wrote = False
        while process.poll() is None:
            seen = self.where_is(url, tag, process.pid)
            wrote = wrote or seen.stage == "writing"
            if anchor == "opened" and seen.stage != "outside":
                break
            if anchor == "writing" and wrote:
                break
            if anchor == "overwriting" and seen.overwriting:
                break
            if anchor == "committed" and wrote and not seen.in_transaction:
                break
            assert time.perf_counter() < deadline, f"the close never {anchor}"
            pause(seen)
        return time.perf_counter()

    def wait_until_gone(self, tag: str, timeout: float = 30.0) -> float:
        """Wait until the killed close's backend has gone (the server ends it, and rolls its
        transaction back, when it sees the client's connection closed)."""
        if self.admin is None:
            return 0.0
        started = time.perf_counter()
        while True:
            backends = self.backends(tag)
            waited = time.perf_counter() - started
            if not backends:
                return waited
            if waited > timeout:
                raise AssertionError(f"the killed close's backend is still there: {backends}")
            time.sleep(0.02)


def pause(seen: Seen) -> None:
    """Between two looks at the close: 20 ms while its process has not connected (the
    interpreter starting, a second or more; on PostgreSQL each look is a query, which costs the
    server and this process the CPU the close needs), none while SQLite syncs the journal (the
    overwrite of the database file, milliseconds long, comes next), 2 ms otherwise."""
    if seen.label == "exclusive lock: syncing the journal":
        return
    time.sleep(0.02 if seen.label == "not connected" else 0.002)


@pytest.fixture
def databases(
    database_url: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Databases]:
    """The test's database with the federation built in it, and the means to copy it."""
    admin = None if is_sqlite(database_url) else request.getfixturevalue("postgresql_admin")
    found = Databases(database_url, admin, tmp_path)
    build_federation(database_url)
    try:
        yield found
    finally:
        if admin is not None:
            # Named under the worker's stem: dropped with its next batch (tests/databases.py).
            worker: PostgreSQLDatabases = request.getfixturevalue("postgresql_databases")
            for url in found.copies:
                worker.drop_soon(url)
            found.copies.clear()


# --- the close command -----------------------------------------------------------------------


def new_tag() -> str:
    """The application_name the close's PostgreSQL connection carries (PGAPPNAME)."""
    return f"ratingdb-reliability-{secrets.token_hex(4)}"


def close_arguments(url: str) -> list[str]:
    return ["periods", "close", "--category", CATEGORY.value, "--period", str(PERIOD),
            "--database-url", url]  # fmt: skip


def start_close(
    url: str, tag: str, module: str = "ratingdb", env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """``python -m ratingdb periods close`` (or ``module``'s, with ``env`` added to the
    environment): a new interpreter."""
    return subprocess.Popen(
        [sys.executable, "-m", module, *close_arguments(url)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {}), "PGAPPNAME": tag},
    )


#: A close started as a command or forked.
Started = subprocess.Popen[str] | Forked


def stop(process: Started) -> None:
    """The cleanup of every started close: killed if it still runs, always reaped."""
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=TIMEOUT)


def run_close(url: str) -> dict[str, Any]:
    """The close command run to completion: its JSON line."""
    process = start_close(url, new_tag())
    try:
        out, err = process.communicate(timeout=TIMEOUT)
    finally:
        stop(process)
    assert process.returncode == 0, err
    outcome: dict[str, Any] = json.loads(out.splitlines()[-1])
    assert outcome["state"] == "published", outcome
    return outcome


# --- what the database holds -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The period's row, its lists, and the rows of every table a close writes."""

    period: tuple[Any, ...]
    lists: int
    rows: dict[str, int]

    @property
    def state(self) -> str:
        return str(self.period[0])


def snapshot(url: str) -> Snapshot:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            period = session.execute(
                select(
                    PeriodRow.state,
                    PeriodRow.claimed_by,
                    PeriodRow.claimed_at,
                    PeriodRow.published_at,
                ).where(
                    PeriodRow.category == CATEGORY.value,
                    PeriodRow.list_date == PERIOD.list_date,
                )
            ).one()
            lists = session.scalar(
                select(func.count())
                .select_from(RatingListRow)
                .where(
                    RatingListRow.category == CATEGORY.value,
                    RatingListRow.list_date == PERIOD.list_date,
                )
            )
            rows = {
                name: int(session.scalar(select(func.count()).select_from(model)) or 0)
                for name, model in TABLES.items()
            }
            return Snapshot(tuple(period), int(lists or 0), rows)
    finally:
        engine.dispose()


def quick_check(url: str) -> None:
    if not is_sqlite(url):
        return
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA quick_check").scalars().all() == ["ok"]
    finally:
        engine.dispose()


@dataclass(frozen=True, slots=True)
class Published:
    """A published list of 2026-12 as ``lists export`` gives it, and what the close wrote with
    it."""

    entries: tuple[tuple[Any, ...], ...]
    entry_count: int
    digest: str | None
    statuses: int
    #: Its calculations (a game from each player's side) and the rows that hold them (one a
    #: player who played).
    calculations: int
    calculation_rows: int


def published(url: str) -> Published:
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            exported = published_list(session, CATEGORY, PERIOD)
            entries = tuple(
                sorted(
                    (
                        e.player_id,
                        e.rating,
                        e.previous_rating,
                        e.change,
                        e.games,
                        e.k_factor,
                        e.rated_games,
                        e.peak_rating,
                    )
                    for e in exported.entries
                )
            )
            rating_list = session.scalars(
                select(RatingListRow).where(
                    RatingListRow.category == CATEGORY.value,
                    RatingListRow.list_date == PERIOD.list_date,
                )
            ).one()

            def rows_of(model: Any) -> int:
                count = session.scalar(
                    select(func.count()).select_from(model).where(model.list_id == rating_list.id)
                )
                return int(count or 0)

            return Published(
                entries,
                rating_list.entry_count,
                rating_list.digest,
                rows_of(PlayerStatusRow),
                int(
                    session.scalar(
                        select(func.coalesce(func.sum(PlayerCalculationsRow.games), 0)).where(
                            PlayerCalculationsRow.list_id == rating_list.id
                        )
                    )
                    or 0
                ),
                rows_of(PlayerCalculationsRow),
            )
    finally:
        engine.dispose()


# --- the reference ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timeline:
    """Where the phases of the reference close fell, in seconds from the command's start, as
    the database showed them while it ran: its transaction began (``opened``), its writing
    began (``writing``), SQLite began overwriting the database file (``overwriting``: None on
    PostgreSQL), its transaction ended after the writing (``committed``), the process exited.
    Load and compute (both inside the transaction before the writing) are told apart by the
    shares the close itself reports (run in this process)."""

    opened: float
    computing: float
    writing: float
    overwriting: float | None
    committed: float
    total: float

    def phases(self) -> dict[str, tuple[float, float]]:
        written = self.committed if self.overwriting is None else self.overwriting
        overwrite = {} if self.overwriting is None else {"overwrite": (written, self.committed)}
        return {
            "startup": (0.0, self.opened),
            "load": (self.opened, self.computing),
            "compute": (self.computing, self.writing),
            "write": (self.writing, written),
            **overwrite,
            "after the commit": (self.committed, self.total),
        }

    def delay(self, phase: str, share: float) -> float:
        """How long after the phase's anchor (ANCHORS) a kill ``share`` into ``phase`` lands."""
        start, end = self.phases()[phase]
        anchors = {"started": 0.0, "opened": self.opened, "writing": self.writing,
                   "overwriting": self.overwriting, "committed": self.committed}  # fmt: skip
        anchor = anchors[ANCHORS[phase]]
        assert anchor is not None, phase
        return start - anchor + share * (end - start)

    def __str__(self) -> str:
        return ", ".join(
            f"{name} {end - start:.2f}s" for name, (start, end) in self.phases().items()
        )


def observed_close(
    databases: Databases, url: str, share: float, start: Callable[[str, str], Started]
) -> tuple[Timeline, dict[str, Any]]:
    """The close command started by ``start`` and run to completion on ``url``, watched from
    the database; ``share`` is loading's share of load and compute (see load_share)."""
    tag = new_tag()
    started = time.perf_counter()
    process = start(url, tag)
    opened = writing = overwriting = committed = None
    try:
        while process.poll() is None:
            seen = databases.where_is(url, tag, process.pid)
            now = time.perf_counter() - started
            if seen.stage != "outside" and opened is None:
                opened = now
            if seen.stage == "writing" and writing is None:
                writing = now
            if seen.overwriting and overwriting is None:
                overwriting = now
            if writing is not None and not seen.in_transaction and committed is None:
                committed = now
            pause(seen)
        out, err = process.communicate(timeout=TIMEOUT)
    finally:
        stop(process)
    total = time.perf_counter() - started
    assert process.returncode == 0, err
    outcome = json.loads(out.splitlines()[-1])
    assert outcome["state"] == "published", outcome
    assert opened is not None, "the close was too quick to be seen"
    assert writing is not None, "the close's writing was too quick to be seen"
    if databases.sqlite and overwriting is None:
        raise OverwriteNotSeen(url)
    committed = total if committed is None else committed
    computing = opened + share * (writing - opened)
    return Timeline(opened, computing, writing, overwriting, committed, total), outcome


class OverwriteNotSeen(Exception):
    """SQLite's overwrite of the database file (milliseconds at the commit) fell between two
    looks of the watcher: the close ran, but where that phase falls is unknown."""


#: How many closes a reference observation may watch before the overwrite is seen in one.
OBSERVATIONS = 5


def reference_close(
    databases: Databases,
    pristine: str,
    suffix: str,
    share: float,
    start: Callable[[str, str], Started],
) -> tuple[str, Timeline, dict[str, Any]]:
    """A copy of ``pristine`` closed by ``start`` and watched (observed_close): its URL, where
    its phases fell and its outcome. On SQLite the watcher can miss the overwrite of the
    database file, a few milliseconds a look may straddle on a busy machine: the close is
    watched again, on a new copy, until that phase is seen (at most OBSERVATIONS closes)."""
    missed = []
    for attempt in range(OBSERVATIONS):
        url = databases.copy(pristine, f"{suffix}{attempt}")
        try:
            line, outcome = observed_close(databases, url, share, start)
        except OverwriteNotSeen:
            missed.append(url)
            print(f"\n[sqlite] {suffix} close {attempt + 1}: the overwrite fell between two looks")
            continue
        return url, line, outcome
    raise AssertionError(f"the overwrite of the database file was never seen: {missed}")


def load_share(url: str) -> float:
    """The share of loading in load + compute, from the close run in this process on ``url``
    (a copy of the pristine database: it is closed as a side effect)."""
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine).begin() as session:
            outcome = close_period(
                session, CATEGORY, PERIOD, now=datetime.now(UTC), closed_by="reliability test"
            )
    finally:
        engine.dispose()
    assert outcome.state == "published", outcome
    return outcome.load_s / (outcome.load_s + outcome.compute_s)


def kill_plan(line: Timeline, forked: Timeline, rng: random.Random) -> list[tuple[str, float]]:
    """KILLS kills, AIM (SQLITE_AIM) of them in each phase, in a random order: the phase aimed
    at, and the delay after its anchor (a random share, up to LATEST, of the phase's length in
    the reference: the command's for its start, the forked close's for the rest)."""
    aim = AIM if line.overwriting is None else SQLITE_AIM
    plan = [
        (name, (line if name == "startup" else forked).delay(name, rng.uniform(0.0, LATEST)))
        for name in line.phases()
        for _ in range(aim[name])
    ]
    rng.shuffle(plan)
    assert len(plan) == KILLS
    return plan


# --- the tests -------------------------------------------------------------------------------


@pytest.fixture
def forks() -> ForkServer:
    """This worker's fork server (started once per worker, as for every forked command)."""
    return shared_forks()


def test_a_close_killed_at_any_moment_publishes_all_or_nothing(
    databases: Databases, forks: ForkServer
) -> None:
    work = databases.url
    pristine = databases.copy(work, "pristine")
    before = snapshot(work)
    assert before.state == "open"
    assert before.lists == 0

    def start_forked(url: str, tag: str) -> Forked:
        return forks.start(close_arguments(url), {"PGAPPNAME": tag})

    # The reference: the same database closed without interruption, by the command and by a
    # forked close (whose phases the kills but the interpreter start's are aimed at), and in
    # this process (how load and compute share their time).
    phases_url = databases.copy(pristine, "phases")
    share = load_share(phases_url)
    reference_url, line, outcome = reference_close(
        databases, pristine, "reference", share, start_close
    )
    forked_url, forked_line, _ = reference_close(databases, pristine, "forked", share, start_forked)
    reference = published(reference_url)
    assert reference.entry_count == outcome["entries"] == len(reference.entries)
    assert reference.calculations >= reference.calculation_rows > 0
    assert published(phases_url) == reference, "the close is not deterministic"
    assert published(forked_url) == reference, "a forked close publishes another list"

    rng = random.Random(SEED)
    aimed: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    hot_journals = 0
    mid_write = 0
    longest_wait = 0.0
    kills: list[str] = []
    for aim, delay in kill_plan(line, forked_line, rng):
        tag = new_tag()
        anchor = ANCHORS[aim]
        started = time.perf_counter()
        # A kill aimed at the interpreter's start needs one; the others kill a close forked
        # from a warm process (tests/support/forks.py): the same close, without 0.6-0.8 s
        # of interpreter start and imports each.
        process: Started = (
            start_close(work, tag) if anchor == "started" else start_forked(work, tag)
        )
        try:
            # The interpreter's start varies by a second from one run to the next, the rest
            # with the machine's load: a kill counts from the moment the database shows.
            if anchor != "started":
                started = databases.wait_for(anchor, work, tag, process)
            time.sleep(max(0.0, delay - (time.perf_counter() - started)))
            at_kill = databases.where_is(work, tag, process.pid)
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=TIMEOUT)
        finally:
            stop(process)
        where = at_kill.label
        aimed[aim] += 1
        seen[where] += 1
        mid_write += at_kill.stage == "writing"
        longest_wait = max(longest_wait, databases.wait_until_gone(tag))
        if databases.sqlite and hot_journal(work):
            hot_journals += 1
        assert process.returncode in (0, -signal.SIGKILL), process.stderr

        after = snapshot(work)  # on SQLite, the first connection rolls a hot journal back
        assert not hot_journal(work)
        quick_check(work)
        context = (
            f"killed {delay:.3f}s after it {anchor} (aimed at {aim}, the database showed {where!r})"
        )
        if after.state == "open":
            assert process.returncode == -signal.SIGKILL, context
            assert after == before, context
            outcomes["killed before the commit"] += 1
            kills.append(f"{aim:>16}: {anchor} +{delay:.3f}s: {where}, killed before the commit")
            continue
        # The kill came after the commit (or the close had already ended).
        assert after.state == "published", (context, after)
        assert after.lists == 1, (context, after)
        assert published(work) == reference, context
        landed = (
            "killed after the commit"
            if process.returncode == -signal.SIGKILL
            else "ended before the kill"
        )
        outcomes[landed] += 1
        kills.append(f"{aim:>16}: {anchor} +{delay:.3f}s: {where}, {landed}")
        databases.restore(work, pristine)
        assert snapshot(work) == before

    # And the close, run to the end, publishes the reference list.
    outcome = run_close(work)
    assert outcome["entries"] == reference.entry_count
    assert published(work) == reference
    final = snapshot(work)
    assert final.state == "published"
    assert final.lists == 1
    assert (
        final.rows["player_calculations"]
        == before.rows["player_calculations"] + reference.calculation_rows
    )
    quick_check(work)

    print(
        f"\n[{'sqlite' if databases.sqlite else 'postgresql'}] reference close "
        f"{line.total:.2f}s ({line}), forked {forked_line.total:.2f}s ({forked_line}), "
        f"{len(reference.entries)} entries, "
        f"{reference.calculations} calculations\n"
        f"  kills aimed at: {dict(aimed)}\n  database at the kill: {dict(seen)}\n"
        f"  outcomes: {dict(outcomes)}\n  killed while writing: {mid_write}, "
        f"hot journals rolled back: {hot_journals}, "
        f"longest wait for the killed backend: {longest_wait:.2f}s\n    " + "\n    ".join(kills)
    )
    assert sum(outcomes.values()) == KILLS
    assert outcomes["killed before the commit"] >= KILLS // 2
    assert mid_write >= 1, "no kill landed while the close was writing"


@pytest.mark.slow  # one close, killed once
def test_a_reader_right_after_a_close_killed_mid_write_sees_the_period_open(
    databases: Databases,
) -> None:
    """The read-only API is the first to look after a crash: it must see the period as it was,
    without a writer having to come by first.

    On SQLite a close killed once it has begun overwriting pages of the database file (the
    commit, or a cache spill before it) leaves a hot journal, which the next
    connection must roll back before it reads: a connection opened read-only (``mode=ro``, as
    make_read_only_engine opens it) cannot, and SQLite refuses it (SQLITE_READONLY_ROLLBACK)."""
    work = databases.url
    before = snapshot(work)
    tag = new_tag()
    # A close that stops once its calculations are written (tests/reliability/paused_close.py):
    # a plain one's commit could end between two looks on a fast host.
    paused = databases.directory / "paused"
    process = start_close(
        work, tag, module="tests.reliability.paused_close",
        env={paused_close.SPILL_VARIABLE: "1", paused_close.PAUSED_VARIABLE: str(paused)},
    )  # fmt: skip
    where = "stopped in its transaction, its calculations written"
    try:
        deadline = time.perf_counter() + TIMEOUT
        # Stopped in its transaction, its rows written; on SQLite past the journal's sync (its
        # magic number written): the database file is being overwritten, the journal hot.
        while not (
            paused.exists()
            and (
                not databases.sqlite
                or (where := databases.where_is(work, tag, process.pid).label).endswith(
                    "the database file is being written"
                )
            )
        ):
            assert process.poll() is None, f"the close ended: {process.communicate()}"
            assert time.perf_counter() < deadline
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=TIMEOUT)
    finally:
        stop(process)
    databases.wait_until_gone(tag)
    assert process.returncode == -signal.SIGKILL

    engine = make_read_only_engine(work)
    failure: OperationalError | None = None
    try:
        with read_only_session(engine) as session:
            state = session.scalar(
                select(PeriodRow.state).where(
                    PeriodRow.category == CATEGORY.value,
                    PeriodRow.list_date == PERIOD.list_date,
                )
            )
            lists = session.scalar(
                select(func.count())
                .select_from(RatingListRow)
                .where(RatingListRow.list_date == PERIOD.list_date)
            )
    except OperationalError as error:
        failure = error
    finally:
        engine.dispose()
    if failure is not None:
        pytest.fail(
            f"a read-only reader (make_read_only_engine + read_only_session, as the API reads) "
            f"cannot read the database after a close killed while writing ({where}): "
            f"{failure.orig}",
            pytrace=False,
        )
    assert (state, lists) == ("open", 0)
    assert snapshot(work) == before
    quick_check(work)
