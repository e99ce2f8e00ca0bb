"""Database fixtures: every database test runs on SQLite and on PostgreSQL.

Each test gets its own database built by the migrations (never ``create_all``): a SQLite file in
``tmp_path``, or a PostgreSQL database created for the test and dropped after it.

PostgreSQL is reached at ``RATINGDB_TEST_POSTGRESQL_URL`` (default: the local ``test`` database).
If it cannot be reached the PostgreSQL tests fail; set ``RATINGDB_TEST_SKIP_POSTGRESQL=1`` to
skip them instead (a machine without PostgreSQL).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from ratingdb.config import normalize_database_url
from ratingdb.db import make_engine, make_sessionmaker, upgrade

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


def _sqlite_database(tmp_path: Path, *, migrated: bool = True) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'ratingdb.sqlite3'}"
    if migrated:
        upgrade(url)
    yield url


def _postgresql_database(admin: Engine, *, migrated: bool = True) -> Iterator[str]:
    name = f"ratingdb_t_{secrets.token_hex(6)}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        url = admin.url.set(database=name).render_as_string(hide_password=False)
        if migrated:
            upgrade(url)
        yield url
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh database at the latest migration, on each database in turn."""
    if request.param == "sqlite":
        yield from _sqlite_database(tmp_path)
    else:
        yield from _postgresql_database(request.getfixturevalue("postgresql_admin"))


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database (no schema yet), on each database in turn."""
    if request.param == "sqlite":
        yield from _sqlite_database(tmp_path, migrated=False)
    else:
        admin = request.getfixturevalue("postgresql_admin")
        yield from _postgresql_database(admin, migrated=False)


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    """A write session on the migrated database; whatever the test leaves uncommitted is
    rolled back."""
    with make_sessionmaker(engine)() as session:
        yield session
