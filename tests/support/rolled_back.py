"""Tests in a transaction rolled back after them, on a database their worker keeps.

A worker keeps one migrated database of each kind (a SQLite file, a PostgreSQL clone) and one
engine on it (``WorkerDatabase``). A test that takes the ``database`` fixture gets a connection
in a transaction on it (``RolledBack``); every session of the test works inside a SAVEPOINT of
that transaction (``ratingdb.db.make_sessionmaker``), and the transaction is rolled back after
the test. Nothing is copied or cloned for the test, and the worker's one engine compiles each
statement once for all its tests. The commands (``run_cli(..., url=database.url)``:
``ratingdb.cli.main(sessions=...)``) and the back office (``create_app(sessions=...)``) run in
that transaction.

A transaction cannot hold what opens a connection of its own: a process, a server, a second
connection racing the first, the public API's read-only engine. Such a test takes
``database_url`` (a database of its own, cloned). While a test holds the worker's database, any
other connection to it is refused (``refuse_other_connections``): a test that opened one by
mistake fails, instead of reading an empty database and passing.

PostgreSQL's sequences are not transactional: the values the migrations left are put back
before each test, so that ids start where they start in a fresh clone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, event, text
from sqlalchemy.engine import Connection, Dialect, make_url
from sqlalchemy.orm import Session, sessionmaker

from ratingdb.db import make_engine, make_sessionmaker


@dataclass(frozen=True)
class RolledBack:
    """A test's hold on its worker's database: the URL (what commands are told, and name in
    their messages), the connection in its transaction, and sessions inside it."""

    url: str
    connection: Connection
    sessions: sessionmaker[Session]

    def rows(self, sql: str, **parameters: Any) -> list[tuple[Any, ...]]:
        """The rows of ``sql`` as the test's transaction sees them."""
        return [tuple(row) for row in self.connection.execute(text(sql), parameters)]


#: The hold of the test running in this process, while it runs.
_held: list[RolledBack] = []
#: The worker's databases, by what a connection to each names (file or database name).
_targets: dict[str, WorkerDatabase] = {}


def held_for(url: str) -> RolledBack | None:
    """The running test's hold if ``url`` is its database, else None: what a helper given a
    URL (``run_cli``, ``tests.support.sql``) goes through instead of a connection of its own."""
    return _held[-1] if _held and _held[-1].url == url else None


def sessions_for(url: str) -> sessionmaker[Session] | None:
    """The sessions of the running test's hold if ``url`` is its database, else None."""
    held = held_for(url)
    return None if held is None else held.sessions


def _target(url: str) -> str:
    parsed = make_url(url)
    return f"{parsed.get_backend_name()}:{parsed.database}"


class WorkerDatabase:
    """One migrated database a worker keeps for its rolled-back tests, and its engine."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sequences = self._sequence_values()
        _targets[_target(url)] = self

    def _sequence_values(self) -> str | None:
        """A statement putting PostgreSQL's sequences back where the migrations left them."""
        if self.engine.dialect.name != "postgresql":
            return None
        with self.engine.connect() as connection:
            found = connection.execute(
                text("SELECT schemaname, sequencename, last_value FROM pg_sequences")
            ).all()
        calls = [
            f'setval(\'"{schema}"."{name}"\', {last or 1}, {"true" if last else "false"})'
            for schema, name, last in found
        ]
        return f"SELECT {', '.join(calls)}" if calls else None

    @contextmanager
    def transaction(self) -> Iterator[RolledBack]:
        with self.engine.connect() as connection:
            outer = connection.begin()
            if self._sequences is not None:
                connection.exec_driver_sql(self._sequences)
            held = RolledBack(self.url, connection, make_sessionmaker(connection))
            _held.append(held)
            try:
                yield held
            finally:
                _held.remove(held)
                if outer.is_active:
                    outer.rollback()

    def dispose(self) -> None:
        _targets.pop(_target(self.url), None)
        self.engine.dispose()


def _connection_target(dialect: Dialect, cargs: Any, cparams: dict[str, Any]) -> str:
    if dialect.name == "sqlite":
        database = cargs[0] if cargs else cparams.get("database")
    else:
        database = cparams.get("dbname")
    return f"{dialect.name}:{database}"


def refuse_other_connections(
    dialect: Dialect, record: Any, cargs: Any, cparams: dict[str, Any]
) -> None:
    """``do_connect`` of every engine: while a test holds its worker's database, nothing may
    open another connection to it, not even the worker's engine (the test's connection was
    taken before the hold): it would not see the transaction's rows, and would wait on its
    locks."""
    if not _held:
        return
    if _connection_target(dialect, cargs, cparams) in _targets:
        raise RuntimeError(
            "this test runs in a transaction rolled back after it (the database fixture), and "
            "something opened a connection of its own to that database, which would not see "
            "the transaction's rows: give the test a database of its own (database_url), or "
            "run what connected through database.sessions (run_cli, create_app(sessions=))"
        )


def install() -> None:
    if not event.contains(Engine, "do_connect", refuse_other_connections):
        event.listen(Engine, "do_connect", refuse_other_connections)
