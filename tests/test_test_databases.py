"""The test databases themselves (tests/databases.py): named under the prefix, cloned from the
migrated template, and swept per worker without touching anyone else's."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from ratingdb.db import current_revision, head_revision
from tests.databases import (
    DEFAULT_PREFIX,
    PREFIX_VARIABLE,
    PostgreSQLDatabases,
    database_prefix,
)


def names(admin: Engine, start: str) -> set[str]:
    with admin.connect() as connection:
        found = connection.execute(
            text("SELECT datname FROM pg_database WHERE starts_with(datname, :start)"),
            {"start": start},
        ).scalars()
        return set(found)


def test_the_prefix_defaults_and_is_checked() -> None:
    assert database_prefix(None) == DEFAULT_PREFIX == "ratingdb_t_"
    assert database_prefix("ci_7_") == "ci_7_"
    for bad in ("", "Ratingdb", "rating-db_", 'a"; DROP', "7_starts_with_a_digit", "x" * 21):
        with pytest.raises(ValueError, match=PREFIX_VARIABLE):
            database_prefix(bad)


def test_a_database_url_is_a_copy_of_its_own_at_the_latest_revision(
    database_url: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    assert current_revision(database_url) == head_revision()
    name = make_url(database_url).database
    assert name is not None
    if database_url.startswith("sqlite"):
        assert Path(name).parent == tmp_path
        return
    databases: PostgreSQLDatabases = request.getfixturevalue("postgresql_databases")
    assert name.startswith(databases.stem)
    assert name != databases.template()


def test_the_sweep_drops_its_own_stem_and_nothing_else(
    postgresql_admin: Engine, postgresql_databases: PostgreSQLDatabases
) -> None:
    """Worker gw1's sweep leaves gw10's databases alone: a stem ends with ``_``."""
    base = f"{postgresql_databases.stem}sweep_"  # inside this session's own stem
    gw1 = PostgreSQLDatabases(postgresql_admin, f"{base}gw1_")
    gw10 = PostgreSQLDatabases(postgresql_admin, f"{base}gw10_")
    try:
        mine = make_url(gw1.create("left", migrated=False)).database
        theirs = make_url(gw10.create("left", migrated=False)).database
        assert gw1.sweep() == [mine]
        assert names(postgresql_admin, base) == {theirs}
    finally:
        gw1.sweep()
        gw10.sweep()
    assert names(postgresql_admin, base) == set()


def test_a_database_dropped_soon_is_gone_once_closed(
    postgresql_admin: Engine, postgresql_databases: PostgreSQLDatabases
) -> None:
    base = f"{postgresql_databases.stem}soon_"
    databases = PostgreSQLDatabases(postgresql_admin, base)
    try:
        urls = [databases.create("x", migrated=False) for _ in range(3)]
        for url in urls:
            databases.drop_soon(url)
        databases.close()
        assert names(postgresql_admin, base) == set()
    finally:
        databases.sweep()
