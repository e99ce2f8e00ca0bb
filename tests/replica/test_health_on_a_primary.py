"""``/health`` on a database that is no standby (a PostgreSQL primary, SQLite): no ``replica``
block at all, the body as before replicas existed; on a standby, see
test_streaming_replica.py."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from ratingdb.api import create_app
from ratingdb.config import Settings
from ratingdb.db import head_revision


def test_no_replica_block_on_a_primary_or_sqlite(database_url: str) -> None:
    if database_url.startswith("postgresql"):
        engine = create_engine(database_url)
        try:
            with engine.connect() as connection:
                assert connection.exec_driver_sql("SELECT pg_is_in_recovery()").scalar() is False
        finally:
            engine.dispose()
    with TestClient(create_app(Settings(database_url, database_url))) as client:
        response = client.get("/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "revision": head_revision()}
    assert response.headers["cache-control"] == "no-store"
