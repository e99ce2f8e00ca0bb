"""Engines and sessions: SQLite's connection set-up, transactions, read-only sessions."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, insert, inspect, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from ratingdb.db import (
    ReadOnlySessionError,
    ReadSession,
    make_engine,
    make_read_only_engine,
    read_only_session,
)
from ratingdb.enums import PeriodState
from ratingdb.models import PeriodRow, PlayerRow
from tests.databases import copy_sqlite
from tests.db.sample_rows import Graph, build_graph


@pytest.fixture
def read_engine(database_url: str) -> Iterator[Engine]:
    engine = make_read_only_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def committed_graph(own_session: Session) -> Graph:
    """``graph`` on the test's own database, for a read-only engine of its own to read."""
    return build_graph(own_session)


def test_sqlite_connections_enforce_foreign_keys_and_wait_for_locks(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'pragmas.sqlite3'}")
    try:
        with engine.connect() as connection:
            assert connection.scalar(text("PRAGMA foreign_keys")) == 1
            assert connection.scalar(text("PRAGMA busy_timeout")) == 30_000
    finally:
        engine.dispose()


def test_sqlite_rolls_back_ddl(tmp_path: Path) -> None:
    """With the BEGIN hook, SQLite DDL is transactional (a failed migration leaves nothing)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'ddl.sqlite3'}")
    try:
        with engine.connect() as connection:
            with connection.begin() as transaction:
                connection.exec_driver_sql("CREATE TABLE t (x INTEGER)")
                transaction.rollback()
            tables = connection.exec_driver_sql("SELECT name FROM sqlite_master").all()
            assert tables == []
    finally:
        engine.dispose()


def test_savepoint_rolls_back_only_its_part(session: Session) -> None:
    with session.begin():
        session.add(PlayerRow(player_id="1", name="Kept"))
        with session.begin_nested() as savepoint:
            session.add(PlayerRow(player_id="2", name="Dropped"))
            session.flush()
            savepoint.rollback()
    assert session.scalars(select(PlayerRow.player_id)).all() == ["1"]


def test_read_only_session_reads(read_engine: Engine, committed_graph: Graph) -> None:
    with read_only_session(read_engine) as session:
        assert isinstance(session, ReadSession)
        assert session.scalar(select(func.count()).select_from(PlayerRow)) == 2


def test_read_only_session_refuses_orm_writes(read_engine: Engine) -> None:
    with read_only_session(read_engine) as session:
        session.add(PlayerRow(player_id="1", name="Nobody"))
        with pytest.raises(ReadOnlySessionError):
            session.flush()


def test_read_only_database_refuses_statements(read_engine: Engine, committed_graph: Graph) -> None:
    """Past the session too: the database itself refuses (read-only transaction on PostgreSQL;
    on SQLite the authorizer, when the statement is prepared, before query_only would)."""
    with read_only_session(read_engine) as session, pytest.raises(DBAPIError) as raised:
        session.execute(insert(PlayerRow), [{"player_id": "3", "name": "Nobody"}])
    expected = "not authorized" if read_engine.dialect.name == "sqlite" else "read-only"
    assert expected in str(raised.value.orig).lower()
    with read_only_session(read_engine) as session:
        period = session.scalars(select(PeriodRow)).one()
        period.state = PeriodState.OPEN
        with pytest.raises(ReadOnlySessionError):
            session.flush()


def test_read_only_session_needs_a_read_only_engine(engine: Engine) -> None:
    with pytest.raises(ValueError, match="make_read_only_engine"), read_only_session(engine):
        pass


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_read_only_sqlite_needs_a_file(url: str) -> None:
    with pytest.raises(ValueError, match="must be a file"):
        make_read_only_engine(url)


def test_write_session_sees_committed_period(session: Session) -> None:
    with session.begin():
        session.add(
            PeriodRow(
                category="ffe-rapid", list_date=date(2027, 2, 1), closing_date=date(2027, 1, 29)
            )
        )
    period = session.scalars(select(PeriodRow)).one()
    assert period.state == "open"  # the server default


@pytest.mark.parametrize(
    "statement",
    [
        "PRAGMA query_only = OFF",
        "PRAGMA query_only = 0",
        "PRAGMA journal_mode = DELETE",
        "PRAGMA writable_schema = ON",
        "PRAGMA user_version = 7",
        "PRAGMA optimize",
        "REINDEX",
        "ANALYZE",
        "CREATE TEMP TABLE scratch (x INTEGER)",
        "CREATE TABLE scratch (x INTEGER)",
        "DELETE FROM players",
        "DETACH DATABASE main",
    ],
)
def test_read_only_sqlite_refuses_what_query_only_could_let_through(
    tmp_path: Path, statement: str, sqlite_template: Path
) -> None:
    """The authorizer refuses, when they are prepared, the statements that could turn
    query_only off, write, change the file or its schema."""
    url = copy_sqlite(sqlite_template, tmp_path, "read.sqlite3")
    engine = make_read_only_engine(url)
    try:
        with read_only_session(engine) as session, pytest.raises(DBAPIError) as raised:
            session.execute(text(statement))
        assert "not authorized" in str(raised.value.orig)
        with read_only_session(engine) as session:  # and the connection is still read-only
            assert session.execute(text("PRAGMA query_only")).scalar() == 1
            assert session.execute(text("PRAGMA user_version")).scalar() == 0
    finally:
        engine.dispose()


def test_read_only_sqlite_refuses_attach(tmp_path: Path, sqlite_template: Path) -> None:
    """ATTACH (of a name that is no file: it would create one) is refused, and no file
    appears."""
    url = copy_sqlite(sqlite_template, tmp_path, "read.sqlite3")
    other = tmp_path / "other.sqlite3"
    engine = make_read_only_engine(url)
    try:
        with read_only_session(engine) as session, pytest.raises(DBAPIError) as raised:
            session.execute(text(f"ATTACH DATABASE '{other}' AS other"))
        assert "not authorized" in str(raised.value.orig)
    finally:
        engine.dispose()
    assert not other.exists()


def test_read_only_sqlite_still_reads_and_sets_its_own_connection(
    tmp_path: Path, sqlite_template: Path
) -> None:
    """What a reader needs passes: selects (joins, CTEs, functions), transactions, the
    pragmas SQLAlchemy and ratingdb run, schema inspection."""
    url = copy_sqlite(sqlite_template, tmp_path, "read.sqlite3")
    engine = make_read_only_engine(url)
    try:
        with read_only_session(engine) as session:
            assert session.scalar(select(func.count()).select_from(PlayerRow)) == 0
            cte = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3)"
            assert session.execute(text(f"{cte} SELECT sum(i) FROM n")).scalar() == 6
            for pragma in ("busy_timeout = 1000", "foreign_keys = ON", "query_only = ON",
                           "read_uncommitted", "table_info(players)"):  # fmt: skip
                session.execute(text(f"PRAGMA {pragma}"))
        assert "players" in inspect(engine).get_table_names()
    finally:
        engine.dispose()
