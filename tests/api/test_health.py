"""``/health``: ok with the revision only when the database answers and is at the latest
schema; otherwise 503 with what is wrong."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import make_url

from ratingdb.db import alembic_config, head_revision, make_engine, upgrade
from tests.api.conftest import make_client


def test_ok_at_the_latest_revision(client: TestClient) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "revision": head_revision()}
    assert response.headers["cache-control"] == "no-store"


def create_empty(url: str) -> None:
    """The database exists (SQLite: the file) but holds no schema."""
    engine = make_engine(url)
    try:
        with engine.connect():
            pass
    finally:
        engine.dispose()


def test_503_before_the_migrations(empty_database_url: str) -> None:
    create_empty(empty_database_url)
    with make_client(empty_database_url) as client:
        response = client.get("/health")
    assert response.status_code == 503
    assert response.headers["cache-control"] == "no-store"
    assert response.json() == {
        "status": "unavailable",
        "detail": f"the database is at revision None, expected {head_revision()} "
        "(run: ratingdb db upgrade)",
        "revision": None,
        "expected_revision": head_revision(),
    }


def test_503_at_an_older_revision(empty_database_url: str) -> None:
    script = ScriptDirectory.from_config(alembic_config())
    first = script.get_base()
    assert first is not None
    upgrade(empty_database_url, first)
    with make_client(empty_database_url) as client:
        body = client.get("/health").json()
    if first == head_revision():  # a single revision: nothing older to be at
        assert body["status"] == "ok"
        return
    assert body["status"] == "unavailable"
    assert body["revision"] == first


def test_503_when_the_database_cannot_be_reached(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "ratingdb.sqlite3"  # a folder that does not exist
    with make_client(f"sqlite:///{missing}") as client:
        response = client.get("/health")
        assert response.status_code == 503
        assert response.json()["detail"] == "the database cannot be reached"
        # Any other route: 503 with a JSON detail, the cause logged but not shown.
        other = client.get("/v1/lists")
        assert other.status_code == 503
        assert other.json() == {"detail": "the database is unavailable; try again later"}


def test_503_when_postgresql_is_down() -> None:
    url = "postgresql+psycopg://nobody@127.0.0.1:9/ratingdb?connect_timeout=2"
    with make_client(url) as client:
        response = client.get("/health")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"


def test_a_lost_connection_is_replaced_without_a_failed_request(
    scenario_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Connections are not pinged before use: when the database drops them (a restart), the
    next request's read finds its connection dead and is run again on a new one."""
    if make_url(scenario_url).get_backend_name() != "postgresql":
        pytest.skip("SQLite has no server to drop connections")
    with make_client(scenario_url) as client:
        assert client.get("/v1/lists").status_code == 200  # a pooled connection now exists
        admin = make_engine(scenario_url)
        try:
            with admin.connect() as connection:
                dropped = connection.exec_driver_sql(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                ).scalar()
        finally:
            admin.dispose()
        assert (dropped or 0) >= 1
        with caplog.at_level(logging.WARNING, logger="ratingdb.api"):
            for path in ("/v1/lists", "/health", "/v1/lists/fide-standard/2026-10"):
                assert client.get(path).status_code == 200, path
        assert "a database connection was lost; reading again" in caplog.text
