"""The read side on a streaming replica, for real: a scratch PostgreSQL primary and a standby
made from it by pg_basebackup (docker/replica-primary.sh and docker/replica-bootstrap.sh, as
docker-compose.yml's ``replica`` profile runs them), each its own cluster on its own port.

The federation's commands write to the primary; ``ratingdb serve`` reads the standby
(RATINGDB_READ_DATABASE_URL) as the read-only role of docker/read-only-role.sql, replicated from
the primary. A list closed on the primary shows through the API once the standby has replayed
it; ``/health`` says how far behind the standby is; and with the primary stopped the API keeps
serving lists, histories and ``/health`` from the standby: the read API needs no other database.

The numbers are those of tests/api/scenario.py (worked by hand in its docstring): the 2026-08
baseline, tournament A, and the 2026-09 close.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from sqlalchemy.exc import OperationalError

from ratingdb.api import create_app
from ratingdb.config import DATABASE_URL_VARIABLE, READ_DATABASE_URL_VARIABLE, Settings
from ratingdb.db import head_revision
from tests.api.scenario import FIDE_BASELINE, SEPTEMBER, A
from tests.databases import free_port
from tests.replica import clusters
from tests.replica.clusters import Cluster
from tests.support import forks
from tests.support.server import running_server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
READER, READER_PASSWORD = "ratingdb_reader", "scratch-reader"


@pytest.fixture
def primary() -> Iterator[Cluster]:
    """A scratch primary (stopped and removed at the end, whatever happens)."""
    reason = clusters.why_not()
    if reason is not None:
        pytest.skip(f"no scratch PostgreSQL clusters on this machine: {reason}")
    folder = clusters.scratch_folder("ratingdb-primary-")
    cluster = Cluster(folder, free_port())
    try:
        clusters.start_primary(folder, cluster.port)
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture
def replica(primary: Cluster) -> Iterator[Cluster]:
    """A streaming replica of ``primary``, hot standby (stopped and removed at the end)."""
    folder = clusters.scratch_folder("ratingdb-replica-")
    cluster = Cluster(folder, free_port())
    try:
        clusters.start_replica(primary, folder, cluster.port)
        yield cluster
    finally:
        cluster.remove()


def ratingdb(*args: str, url: str, folder: Path) -> None:
    """A ratingdb command, as an operator types it, against ``url``."""
    done = forks.run([*args, "--database-url", url], cwd=folder, timeout=300)
    assert done.returncode == 0, (args, done.stdout, done.stderr)


def reader_role(primary: Cluster) -> None:
    """docker/read-only-role.sql on the primary, run by psql as compose's ``roles`` runs it."""
    clusters.as_postgres(
        ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-v", f"reader={READER}",
         "-v", f"reader_password={READER_PASSWORD}",
         "-f", str(ROOT / "docker" / "read-only-role.sql")],
        {"PGHOST": "127.0.0.1", "PGPORT": str(primary.port), "PGUSER": clusters.SUPERUSER,
         "PGPASSWORD": clusters.SUPERUSER_PASSWORD, "PGDATABASE": clusters.DATABASE},
    )  # fmt: skip


@contextmanager
def _serving(primary: Cluster, replica: Cluster, tmp_path: Path) -> Iterator[str]:
    """``ratingdb serve`` with RATINGDB_DATABASE_URL on the primary and
    RATINGDB_READ_DATABASE_URL on the replica, both as the read-only role; no page cache, so
    that every list page is read from the database. Its base URL."""
    env = {
        **os.environ,
        DATABASE_URL_VARIABLE: primary.url(READER, READER_PASSWORD),
        READ_DATABASE_URL_VARIABLE: replica.url(READER, READER_PASSWORD),
    }
    with running_server(
        "serve", ["--page-cache-mb", "0", "--no-access-log"], env=env,
        log=tmp_path / "serve.log",
    ) as base:  # fmt: skip
        yield base


def get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def rows(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (e["player_id"], e["rating"], e["previous_rating"], e["change"], e["games"], e["k_factor"])
        for e in body["entries"]
    ]


def test_the_api_reads_the_replica_and_outlives_the_primary(
    primary: Cluster, replica: Cluster, tmp_path: Path
) -> None:
    url = primary.url()
    # Replicated, not copied by the base backup: everything from here is written afterwards.
    ratingdb("db", "upgrade", url=url, folder=tmp_path)
    reader_role(primary)
    (tmp_path / "fide.csv").write_text(FIDE_BASELINE, encoding="utf-8")
    (tmp_path / "A.csv").write_text(A, encoding="utf-8")
    ratingdb("lists", "import", "fide.csv", "--category", "fide-standard", "--period", "2026-08",
             url=url, folder=tmp_path)  # fmt: skip
    ratingdb("tournaments", "import", "A.csv", "--category", "fide-standard",
             url=url, folder=tmp_path)  # fmt: skip
    assert replica.scalar("SELECT pg_is_in_recovery()") is True
    clusters.wait_for_replay(primary, replica)
    # Compose runs the primary's side at every start: again, nothing changes.
    clusters.prepare_primary(primary)
    hba = (primary.data / "pg_hba.conf").read_text().splitlines()
    assert hba.count(f"host replication {clusters.REPLICATOR} all scram-sha-256") == 1
    assert primary.scalar(
        "SELECT active FROM pg_replication_slots WHERE slot_name = :slot",
        parameters={"slot": clusters.SLOT},
    )

    # The primary's own /health: no replica block, a standby attached or not.
    with TestClient(create_app(Settings(url, url))) as client:
        assert client.get("/health").json() == {"status": "ok", "revision": head_revision()}

    with _serving(primary, replica, tmp_path) as base:
        status, body = get(f"{base}/v1/lists/fide-standard/2026-09")
        assert status == 404, body  # not closed yet
        closing = time.monotonic()
        ratingdb("periods", "close", "--category", "fide-standard", "--period", "2026-09",
                 url=url, folder=tmp_path)  # fmt: skip
        clusters.wait_for_replay(primary, replica)
        status, body = get(f"{base}/v1/lists/fide-standard/2026-09")
        assert status == 200, body
        assert rows(body) == SEPTEMBER

        status, health = get(f"{base}/health")
        assert status == 200
        assert health["status"] == "ok"
        assert health["revision"] == head_revision()
        assert health["replica"]["in_recovery"] is True
        assert health["replica"]["lag_seconds"] == 0  # all replayed (waited for above)

        # Replay paused: the standby receives the next write but does not apply it, so its
        # lag is the age of the last transaction it applied: committed before the pause, at
        # least the second slept here ago, and not before the close began.
        replica.scalar("SELECT pg_wal_replay_pause()::text")
        # A pause is a request: replay stops at its next record. Wait until it has, so that
        # the write below is received and not applied.
        deadline = time.monotonic() + 30
        while replica.scalar("SELECT pg_get_wal_replay_pause_state()") != "paused":
            assert time.monotonic() < deadline, "replay did not pause"
            time.sleep(0.05)
        time.sleep(1.0)
        # A transaction that writes, committed (its WAL reaches the standby, which holds it).
        primary.scalar(
            "WITH probe AS (SELECT pg_logical_emit_message(true, 'ratingdb', 'lag probe') AS at) "
            "SELECT at::text FROM probe"
        )
        clusters.wait_for_receipt(primary, replica)
        status, health = get(f"{base}/health")
        since_closing = time.monotonic() - closing
        assert status == 200
        lag = health["replica"]["lag_seconds"]
        assert isinstance(lag, float)
        assert 1.0 <= lag <= since_closing
        replica.scalar("SELECT pg_wal_replay_resume()::text")
        clusters.wait_for_replay(primary, replica)
        assert get(f"{base}/health")[1]["replica"]["lag_seconds"] == 0

        # The primary goes away: the API keeps serving from the replica.
        primary.stop("fast")
        with pytest.raises(OperationalError):
            create_engine(primary.url()).connect().close()
        status, health = get(f"{base}/health")
        assert status == 200, health
        assert health["replica"]["in_recovery"] is True
        assert isinstance(health["replica"]["lag_seconds"], float)
        assert health["replica"]["lag_seconds"] >= 0
        status, body = get(f"{base}/v1/lists/fide-standard/2026-09?limit=3&offset=2")
        assert status == 200, body
        assert rows(body) == SEPTEMBER[2:5]
        status, body = get(f"{base}/v1/players/1001/history?category=fide-standard")
        assert status == 200, body
        assert [(p["period"], p["rating"], p["change"]) for p in body["points"]] == [
            ("2026-08", 1850, None),
            ("2026-09", 1862, 12),
        ]
        status, body = get(f"{base}/v1/lists")
        assert status == 200
        assert [(x["category"], x["period"]) for x in body["lists"]] == [
            ("fide-standard", "2026-09"),
            ("fide-standard", "2026-08"),
        ]

        # The replica restarts with the primary still down: its script finds the copy, makes
        # none (pg_basebackup could not), and starts it; the API reads on new connections.
        replica.stop("fast")
        clusters.bootstrap_replica(primary, replica)
        status, body = get(f"{base}/v1/players/1002/history?category=fide-standard")
        assert status == 200, body
        assert [(p["period"], p["rating"]) for p in body["points"]] == [
            ("2026-08", 1920),
            ("2026-09", 1914),
        ]
        assert get(f"{base}/health")[0] == 200
