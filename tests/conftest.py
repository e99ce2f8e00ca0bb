"""Database fixtures: every database test runs on SQLite and on PostgreSQL.

The databases are built by the migrations (never ``create_all``), once per session (per
pytest-xdist worker) into a template (tests/databases.py). A test that takes ``database`` (or
``session``) runs in a transaction on a database its worker keeps, rolled back after it
(tests/support/rolled_back.py); a test that needs connections of its own takes
``database_url`` (or ``engine``, ``own_session``): a copy of the template, a SQLite file in
``tmp_path`` or a PostgreSQL database created for the test and dropped after it. PostgreSQL
databases are named under ``RATINGDB_TEST_DB_PREFIX`` (default ``ratingdb_t_``) and dropped even
when a test fails.

PostgreSQL is reached at ``RATINGDB_TEST_POSTGRESQL_URL`` (default: the local ``test`` database).
If it cannot be reached the PostgreSQL tests fail; set ``RATINGDB_TEST_SKIP_POSTGRESQL=1`` to
skip them instead (a machine without PostgreSQL).
"""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Generator, Iterable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from ratingdb.config import normalize_database_url
from ratingdb.db import make_engine, make_sessionmaker
from tests.databases import (
    PREFIX_VARIABLE,
    SQLITE_FILE,
    PostgreSQLDatabases,
    copy_sqlite,
    database_prefix,
    migrated_sqlite_file,
    worker_stem,
)
from tests.support import rolled_back
from tests.support.forks import FORK_EVENT

POSTGRESQL_URL_VARIABLE = "RATINGDB_TEST_POSTGRESQL_URL"
SKIP_POSTGRESQL_VARIABLE = "RATINGDB_TEST_SKIP_POSTGRESQL"
DEFAULT_POSTGRESQL_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture(scope="session")
def postgresql_admin() -> Iterator[Engine]:
    """An AUTOCOMMIT engine on the server's ``test`` database, to create and drop databases."""
    if os.environ.get(SKIP_POSTGRESQL_VARIABLE) == "1":
        pytest.skip(f"PostgreSQL tests skipped ({SKIP_POSTGRESQL_VARIABLE}=1)")
    url = normalize_database_url(os.environ.get(POSTGRESQL_URL_VARIABLE, DEFAULT_POSTGRESQL_URL))
    engine = create_engine(url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except OperationalError as error:
        engine.dispose()
        shown = make_url(url).render_as_string(hide_password=True)
        pytest.fail(
            f"PostgreSQL is not reachable at {shown}: {error.orig}\n"
            f"Start it, point {POSTGRESQL_URL_VARIABLE} at a server, "
            f"or set {SKIP_POSTGRESQL_VARIABLE}=1 to skip the PostgreSQL tests.",
            pytrace=False,
        )
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def postgresql_databases(postgresql_admin: Engine) -> Iterator[PostgreSQLDatabases]:
    """This worker's PostgreSQL databases (tests/databases.py): named under
    ``RATINGDB_TEST_DB_PREFIX``, cloned from one migrated template, and whatever is left of
    them dropped at the end of the session."""
    try:
        prefix = database_prefix(os.environ.get(PREFIX_VARIABLE))
    except ValueError as error:
        pytest.fail(str(error), pytrace=False)
    databases = PostgreSQLDatabases(postgresql_admin, worker_stem(prefix))
    try:
        yield databases
    finally:
        try:
            databases.close()
        finally:
            databases.sweep()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the latest migration, made once per session (per xdist worker)."""
    return migrated_sqlite_file(tmp_path_factory.mktemp("template"))


def _postgresql_database(request: pytest.FixtureRequest, *, migrated: bool) -> Iterator[str]:
    databases: PostgreSQLDatabases = request.getfixturevalue("postgresql_databases")
    url = databases.create("db", migrated=migrated)
    try:
        yield url
    finally:
        databases.drop_soon(url)  # in the background, while the next test runs


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh database at the latest migration, on each database in turn (a copy
    of the session's migrated template: a file copy, or ``CREATE DATABASE ... TEMPLATE``)."""
    if request.param == "sqlite":
        yield copy_sqlite(request.getfixturevalue("sqlite_template"), tmp_path)
    else:
        yield from _postgresql_database(request, migrated=True)


@pytest.fixture(scope="session")
def worker_sqlite(
    sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[rolled_back.WorkerDatabase]:
    """The worker's SQLite database for the rolled-back tests (tests/support/rolled_back.py)."""
    held = rolled_back.WorkerDatabase(
        copy_sqlite(sqlite_template, tmp_path_factory.mktemp("rolled_back"))
    )
    yield held
    held.dispose()


@pytest.fixture(scope="session")
def worker_postgresql(
    postgresql_databases: PostgreSQLDatabases,
) -> Iterator[rolled_back.WorkerDatabase]:
    """The worker's PostgreSQL database for the rolled-back tests (dropped with the others)."""
    held = rolled_back.WorkerDatabase(postgresql_databases.create("held", migrated=True))
    yield held
    held.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[rolled_back.RolledBack]:
    """The worker's database at the latest migration, on each database in turn, in a
    transaction rolled back after the test (tests/support/rolled_back.py): for tests whose
    every statement goes through ``database.sessions`` (the commands through ``run_cli``, the
    back office through ``create_app(sessions=...)``); a test that needs connections of its
    own takes ``database_url``."""
    worker: rolled_back.WorkerDatabase = request.getfixturevalue(f"worker_{request.param}")
    with worker.transaction() as held:
        yield held


@pytest.fixture
def another_database_url(
    database_url: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[str]:
    """A second fresh database at the latest migration, on the same kind of database as
    ``database_url`` (to export from one and import into the other)."""
    if database_url.startswith("sqlite"):
        folder = tmp_path / "another"
        folder.mkdir()
        yield copy_sqlite(request.getfixturevalue("sqlite_template"), folder)
    else:
        yield from _postgresql_database(request, migrated=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database (no schema yet), on each database in turn."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / SQLITE_FILE}"
    else:
        yield from _postgresql_database(request, migrated=False)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def session(database: rolled_back.RolledBack) -> Iterator[Session]:
    """A write session on the worker's database in the test's rolled-back transaction
    (``database``): its commits stay in that transaction, whose other sessions (commands run
    with ``url=database.url``) see them."""
    with database.sessions() as session:
        yield session


@pytest.fixture
def own_session(engine: Engine) -> Iterator[Session]:
    """A write session on a database of the test's own (``database_url``), for tests that
    also need connections of their own to it; whatever the test leaves uncommitted is
    rolled back."""
    with make_sessionmaker(engine)() as session:
        yield session


def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark ``postgresql`` every test that runs on PostgreSQL (a fixture parametrized to
    ``"postgresql"``, or the server itself), so that ``-m "not postgresql"`` is the SQLite tier
    (scripts/test --quick)."""
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec is not None else ()
    fixtures = getattr(item, "fixturenames", ())
    if "postgresql" in params or {"postgresql_admin", "postgresql_databases"} & set(fixtures):
        item.add_marker(pytest.mark.postgresql)


#: The test running in this process, while it runs (for the audit hook below).
_running: list[pytest.Item] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    _running.append(item)
    try:
        return (yield)
    finally:
        _running.remove(item)


def _refuse_unmarked_processes(event: str, args: tuple[object, ...]) -> None:
    """A test that starts a process must be marked ``processes`` (or ``slow``): the quick
    tier (scripts/test --quick) leaves those out, and promises to start none. A process
    forked from the worker's warm interpreter (tests/support/forks.py) counts as one."""
    if event not in ("subprocess.Popen", FORK_EVENT) or not _running:
        return
    item = _running[-1]
    if item.get_closest_marker("processes") is None and item.get_closest_marker("slow") is None:
        raise RuntimeError(
            f"{item.nodeid} starts a process ({args[1]!r}) but is not marked processes (or "
            "slow): mark it, the quick tier leaves those out"
        )


sys.addaudithook(_refuse_unmarked_processes)


#: The collector's thresholds while the tests run (Python's default: 700, 10, 10).
GC_THRESHOLDS = (20_000, 50, 100)


def pytest_collection_finish(session: pytest.Session) -> None:
    """A worker holds a large heap that lives as long as it does (the packages imported, the
    collected tests, then the session's fixtures), and Python's collector walks all of it at
    every full collection: 7 s of ~55 s of CPU in the API and back-office tests, which allocate
    many short-lived objects. What collection built is frozen out of the collector's reach
    (``gc.freeze``: it is never freed before the worker ends) and collections are made rarer:
    those tests' CPU falls by about a fifth (56-61 s against 42-46 s, alternated on one host).
    Cyclic garbage is still collected, less often.

    The rolled-back tests' guard is installed (tests/support/rolled_back.py)."""
    rolled_back.install()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


#: Each slow test's last measured seconds (setup, call and teardown), by node id: the order the
#: slow tests start in, longest first. Written by ``scripts/test --record-durations`` (a run
#: that also records: the tests it ran are updated, the others kept), kept in git; a slow test
#: not recorded yet starts first of all.
DURATIONS = Path(__file__).with_name("durations.json")


def recorded_durations() -> dict[str, float]:
    if not DURATIONS.exists():
        return {}
    found: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    return found


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        action="store_true",
        help="write the slow tests' durations of this run to tests/durations.json",
    )


@pytest.hookimpl(trylast=True)  # after pytest has grouped the tests by their fixtures
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The order pytest-xdist hands the tests out in: the tests marked ``slow`` first, the
    longest as last recorded (DURATIONS) first of all, so that they start at once instead of
    ending the run alone on one worker; then those that start processes, then the other
    PostgreSQL tests, then the rest (in-process, SQLite or no database): the run ends with its
    shortest tests, which even out the workers. Within each group pytest's order stands: it
    keeps the tests of a parametrized session fixture (the API's scenario, on SQLite or
    PostgreSQL) together, and a worker that switched back and forth would build it again each
    time."""
    durations = recorded_durations()

    def order(item: pytest.Item) -> tuple[int, float]:
        if item.get_closest_marker("slow") is not None:
            return 0, -durations.get(item.nodeid, float("inf"))
        if item.get_closest_marker("processes") is not None:
            return 1, 0.0
        return (2 if item.get_closest_marker("postgresql") is not None else 3), 0.0

    items.sort(key=order)


class DurationRecorder:
    """``--record-durations``: the seconds of each slow test (its reports summed: setup, call,
    teardown), written to DURATIONS at the end of the run (on pytest-xdist's controller, which
    receives every worker's reports, each with its test's markers among its keywords)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if "slow" in report.keywords:
            self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration

    @pytest.hookimpl
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if hasattr(session.config, "workerinput"):  # a worker: the controller writes
            return
        # Merged into what was recorded (a partial run updates its own tests only).
        merged = recorded_durations() | {n: round(s, 1) for n, s in self.seconds.items()}
        DURATIONS.write_text(json.dumps(dict(sorted(merged.items())), indent=1) + "\n",
                             encoding="utf-8")  # fmt: skip


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--record-durations"):
        config.pluginmanager.register(DurationRecorder(), "ratingdb-duration-recorder")


#: The pure tiers: the rules core and the file formats, tested without a database.
PURE_TIERS = ("rules", "formats")
DATABASE_FIXTURES = frozenset(
    {"database", "database_url", "empty_database_url", "engine", "session", "own_session",
     "sqlite_template",
     "postgresql_admin", "postgresql_databases", "worker_sqlite", "worker_postgresql"}
)  # fmt: skip


def database_fixtures_in_pure_tier(path: Path, fixtures: Iterable[str]) -> set[str]:
    """The database fixtures a test under tests/rules/ or tests/formats/ uses (none allowed:
    a test needing a database belongs to a database tier, e.g. tests/services/)."""
    tier = path.relative_to(Path(__file__).parent).parts[0]
    return set(DATABASE_FIXTURES & set(fixtures)) if tier in PURE_TIERS else set()


@pytest.hookimpl(tryfirst=True)  # before its fixtures are set up
def pytest_runtest_setup(item: pytest.Item) -> None:
    used = database_fixtures_in_pure_tier(item.path, getattr(item, "fixturenames", ()))
    if used:
        pytest.fail(
            f"{item.nodeid} uses {', '.join(sorted(used))}: tests/rules/ and tests/formats/ "
            "are the tiers without a database; move it to a database tier (tests/services/)",
            pytrace=False,
        )
