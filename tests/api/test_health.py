"""``/health``: ok with the revision only when the database answers and is at the latest
schema; otherwise 503 with what is wrong."""

from __future__ import annotations

from pathlib import Path

from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient

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
