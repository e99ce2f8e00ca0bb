"""Engines and sessions.

Write sessions come from :func:`make_sessionmaker`; the caller owns the transaction
(``with factory.begin() as session: ...``). Read sessions (the API) come from
:func:`read_only_session` on an engine made by :func:`make_read_only_engine`, which the database
itself keeps from writing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import Session, UOWTransaction, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

#: How long a SQLite writer waits for another writer's lock before failing.
SQLITE_BUSY_TIMEOUT_MS = 30_000

# Marks engines made by make_read_only_engine, so that read_only_session cannot be handed the
# write engine by mistake.
_READ_ONLY_OPTION = "ratingdb_read_only"


class ReadOnlySessionError(RuntimeError):
    """Something tried to write through a read-only session."""


def is_sqlite(url: str | URL) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(url: str | URL, *, sqlite_immediate: bool = True, **kwargs: Any) -> Engine:
    """An engine for ``url``.

    SQLite gets foreign keys ON, a 30 s busy timeout and SQLAlchemy's documented pysqlite fix
    (sqlite3's own transaction handling off, BEGIN emitted by SQLAlchemy), without which
    transactions around DDL and SAVEPOINTs do not work. Write engines begin with
    ``BEGIN IMMEDIATE``: a transaction takes the write lock first (waiting up to the busy
    timeout), so two writers never both read a state and then fail to upgrade their lock, e.g.
    two closes of one period: the second waits, then sees the period published.
    PostgreSQL gets a plain engine.
    """
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine, "BEGIN IMMEDIATE" if sqlite_immediate else "BEGIN")
    return engine


def _configure_sqlite(engine: Engine, begin: str) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, connection_record: ConnectionPoolEntry) -> None:
        # Stop pysqlite from emitting BEGIN itself (it does so late, and never before DDL or
        # SAVEPOINT); the "begin" hook below emits it instead.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        if connection.get_execution_options().get("isolation_level") == "AUTOCOMMIT":
            return
        connection.exec_driver_sql(begin)


def make_sessionmaker(bind: Engine | Connection) -> sessionmaker[Session]:
    """Write sessions. Objects stay usable after commit (the caller often reports on them).

    Bound to a connection already in a transaction (what holds the database for a caller that
    must see everything undone afterwards: the tests' transaction, rolled back after each test),
    a session works inside a SAVEPOINT of it: its commit releases the SAVEPOINT and its rollback
    returns to it, never ending the transaction it was given."""
    return sessionmaker(bind=bind, expire_on_commit=False, join_transaction_mode="create_savepoint")


class ReadSession(Session):
    """A session for reading only: it refuses to flush, and its engine refuses to write.

    A distinct type, so that code which needs to write cannot be given one by mistake.
    """


@event.listens_for(ReadSession, "before_flush")
def _refuse_flush(session: Session, flush_context: UOWTransaction, instances: object) -> None:
    raise ReadOnlySessionError(
        "this session is read-only: nothing can be added, changed or deleted"
    )


def make_read_only_engine(url: str | URL, **kwargs: Any) -> Engine:
    """An engine whose connections cannot write.

    PostgreSQL: each connection is made read-only once, when it is opened (``SET SESSION
    CHARACTERISTICS AS TRANSACTION READ ONLY``: every transaction on it is read-only, the
    implicit one of a statement in autocommit included), and runs in autocommit unless
    ``isolation_level`` says otherwise: a request's read is then its statements and nothing
    else, where a transaction adds a ``BEGIN`` and a ``ROLLBACK`` round trip to each request
    (half of a cached list page's). Published rows are immutable and read by their list's id,
    so statements of one request need no common snapshot; pass ``isolation_level="REPEATABLE
    READ"`` for reads that do. SQLite: every connection sets ``PRAGMA query_only``, so any
    statement that writes is refused. (Not a ``mode=ro`` file: after a writer was killed
    mid-commit, the first reader must roll its hot journal back, which a read-only file handle
    cannot do — the API would stay unable to read until some writer came along.)
    """
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and (parsed.database or "") in ("", ":memory:"):
        raise ValueError("a read-only SQLite database must be a file, not an in-memory database")
    execution_options = {**kwargs.pop("execution_options", {}), _READ_ONLY_OPTION: True}
    if parsed.get_backend_name() == "postgresql":
        kwargs.setdefault("isolation_level", "AUTOCOMMIT")
    engine = make_engine(
        parsed, sqlite_immediate=False, execution_options=execution_options, **kwargs
    )
    _keep_connections_from_writing(engine)
    return engine


#: What makes a new connection read-only, by database.
_READ_ONLY_CONNECTION = {
    "sqlite": "PRAGMA query_only = ON",
    "postgresql": "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
}


def _keep_connections_from_writing(engine: Engine) -> None:
    statement = _READ_ONLY_CONNECTION.get(engine.dialect.name)
    if statement is None:
        raise ValueError(f"ratingdb reads SQLite and PostgreSQL, not {engine.dialect.name}")

    @event.listens_for(engine, "connect")
    def _read_only_connection(
        dbapi_connection: Any, connection_record: ConnectionPoolEntry
    ) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(statement)
        finally:
            cursor.close()
        if engine.dialect.name == "sqlite":
            dbapi_connection.set_authorizer(read_only_authorizer)
        else:
            dbapi_connection.commit()  # outside autocommit, the SET opened a transaction


#: What a read-only SQLite connection may prepare (``read_only_authorizer``): reading tables
#: and calling functions, and transactions, which write nothing on their own. Everything else
#: is refused when the statement is prepared: every write, schema change and temporary table,
#: and ATTACH and DETACH (ATTACH of a name that is no file creates one).
_READ_ACTIONS = frozenset(
    {
        sqlite3.SQLITE_SELECT,
        sqlite3.SQLITE_READ,
        sqlite3.SQLITE_FUNCTION,
        sqlite3.SQLITE_RECURSIVE,
        sqlite3.SQLITE_TRANSACTION,
        sqlite3.SQLITE_SAVEPOINT,
    }
)
#: Pragmas a reader may run, without a value or with a table or index name: they only report.
#: (SQLAlchemy reads ``read_uncommitted`` for the isolation level, and the table_info family
#: when it inspects the schema.)
_READ_PRAGMAS = frozenset(
    {
        "read_uncommitted", "query_only", "busy_timeout", "foreign_keys", "user_version",
        "schema_version", "data_version", "journal_mode", "page_size", "page_count",
        "encoding", "table_info", "table_xinfo", "table_list", "index_list", "index_info",
        "index_xinfo", "foreign_key_list", "database_list", "compile_options",
    }
)  # fmt: skip
#: Pragmas a reader may set: they change how this connection waits or reads, never the file.
#: ``query_only`` only back on.
_SETTABLE_PRAGMAS = {
    "busy_timeout": None,
    "foreign_keys": None,
    "read_uncommitted": None,
    "query_only": frozenset({"1", "on", "true", "yes"}),
}
#: Pragmas whose argument names a table or index rather than setting a value.
_NAMED_PRAGMAS = frozenset(
    {"table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
     "foreign_key_list"}
)  # fmt: skip


def read_only_authorizer(
    action: int, arg1: str | None, arg2: str | None, database: str | None, source: str | None
) -> int:
    """SQLite's authorizer of read connections (``Connection.set_authorizer``): a second
    lock after ``PRAGMA query_only``, which a statement could otherwise turn off, and which
    does not stop ATTACH. Called for each action of a statement as it is prepared; rolling a
    killed writer's hot journal back is the pager's work, not a statement, and still happens.
    """
    if action in _READ_ACTIONS:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA and arg1 is not None:
        name = arg1.lower()
        if name in _READ_PRAGMAS and (arg2 is None or name in _NAMED_PRAGMAS):
            return sqlite3.SQLITE_OK
        if name in _SETTABLE_PRAGMAS and arg2 is not None:
            allowed = _SETTABLE_PRAGMAS[name]
            if allowed is None or arg2.strip().strip("'\"").lower() in allowed:
                return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def make_read_only_async_engine(url: str | URL, **kwargs: Any) -> AsyncEngine:
    """The asyncio twin of :func:`make_read_only_engine` for PostgreSQL (psycopg's async
    connection): the same read-only connections in autocommit, for reads run on the event loop
    (``AsyncSession.run_sync``) instead of in threads."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise ValueError("an asyncio read engine is for PostgreSQL only")
    execution_options = {**kwargs.pop("execution_options", {}), _READ_ONLY_OPTION: True}
    kwargs.setdefault("isolation_level", "AUTOCOMMIT")
    engine = create_async_engine(parsed, execution_options=execution_options, **kwargs)

    _keep_connections_from_writing(engine.sync_engine)
    return engine


@contextmanager
def read_only_session(engine: Engine) -> Iterator[ReadSession]:
    """A read session on ``engine`` (from :func:`make_read_only_engine`) for one request; its
    transaction, if any, is always rolled back."""
    if not engine.get_execution_options().get(_READ_ONLY_OPTION):
        raise ValueError("read_only_session needs an engine made by make_read_only_engine")
    with ReadSession(bind=engine, autoflush=False) as session:
        try:
            yield session
        finally:
            session.rollback()
