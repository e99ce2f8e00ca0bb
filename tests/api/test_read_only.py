"""Read-only at three levels. 1: no write routes (test_errors.py: every route is GET, every write
method 405). 2 and 3, here: the request's session refuses to flush, and the database itself
refuses a statement that writes (a read-only transaction on PostgreSQL, ``PRAGMA query_only``
on SQLite), proved through the very reader every route uses (``ReaderDep``), on both
databases."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select, text, update
from sqlalchemy.exc import DBAPIError

from ratingdb.api import create_app
from ratingdb.api.dependencies import ReaderDep
from ratingdb.config import Settings
from ratingdb.db import ReadOnlySessionError, ReadSession, make_engine
from ratingdb.models import PeriodRow, PlayerRow
from tests.api import scenario
from tests.api.conftest import make_client
from tests.databases import copy_sqlite


def add_write_attempts(app: FastAPI) -> None:
    """Routes a test adds to try writing through the request session (never in the app)."""

    def insert_player(session: ReadSession) -> dict[str, Any]:
        try:
            session.execute(insert(PlayerRow), [{"player_id": "9", "name": "Intruder"}])
        except DBAPIError as error:
            return {"refused": True, "error": str(error.orig)}
        return {"refused": False, "error": None}

    def update_periods(session: ReadSession) -> dict[str, Any]:
        try:
            session.execute(update(PeriodRow).values(state="open"))
        except DBAPIError as error:
            return {"refused": True, "error": str(error.orig)}
        return {"refused": False, "error": None}

    def flush_player(session: ReadSession) -> dict[str, Any]:
        session.add(PlayerRow(player_id="9", name="Intruder"))
        try:
            session.flush()
        except ReadOnlySessionError as error:
            return {"refused": True, "error": str(error)}
        return {"refused": False, "error": None}

    @app.get("/_test/insert")
    async def try_insert(read: ReaderDep) -> dict[str, Any]:
        return await read(insert_player)

    @app.get("/_test/update")
    async def try_update(read: ReaderDep) -> dict[str, Any]:
        return await read(update_periods)

    @app.get("/_test/flush")
    async def try_flush(read: ReaderDep) -> dict[str, Any]:
        return await read(flush_player)


def test_a_write_through_the_request_session_fails(database_url: str, tmp_path: Path) -> None:
    scenario.build(database_url, tmp_path)
    client = make_client(database_url)
    add_write_attempts(client.app)  # type: ignore[arg-type]
    with client:
        for attempt in ("insert", "update"):
            body = client.get(f"/_test/{attempt}").json()
            assert body["refused"] is True, attempt
            # SQLite: the authorizer refuses the statement as it is prepared.
            expected = "not authorized" if database_url.startswith("sqlite") else "read-only"
            assert expected in body["error"].lower(), body
        body = client.get("/_test/flush").json()
        assert body == {
            "refused": True,
            "error": "this session is read-only: nothing can be added, changed or deleted",
        }
        assert client.get("/health").json()["status"] == "ok"
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            assert connection.scalar(select(func.count()).select_from(PlayerRow)) == 8
            states = connection.scalars(select(PeriodRow.state)).all()
            assert set(states) == {"published"}
    finally:
        engine.dispose()


def test_the_app_reads_the_read_database_url(database_url: str, tmp_path: Path) -> None:
    """RATINGDB_READ_DATABASE_URL (a replica): the app never opens the main URL."""

    scenario.build(database_url, tmp_path)
    nowhere = f"sqlite:///{tmp_path / 'absent' / 'main.sqlite3'}"
    settings = Settings(database_url=nowhere, read_database_url=database_url)
    with TestClient(create_app(settings)) as client:
        assert client.get("/health").json()["status"] == "ok"
        assert client.get("/v1/lists/fide-standard/2026-11").json()["total"] == 7


def test_the_request_session_cannot_attach_or_turn_query_only_off(
    tmp_path: Path, sqlite_template: Path
) -> None:
    """SQLite (these are SQLite's statements; on PostgreSQL the read-only role stands, see
    test_compose.py): through the reader every route uses, ATTACH and ``PRAGMA query_only =
    OFF`` are refused, and no file is created."""
    url = copy_sqlite(sqlite_template, tmp_path, "api.sqlite3")
    other = tmp_path / "other.sqlite3"
    statements = {
        "attach": f"ATTACH DATABASE '{other}' AS other",
        "query_only_off": "PRAGMA query_only = OFF",
        "write_after": "DELETE FROM players",
    }
    client = make_client(url)
    app: FastAPI = client.app  # type: ignore[assignment]

    def run(statement: str) -> Callable[[ReadSession], dict[str, Any]]:
        def attempt(session: ReadSession) -> dict[str, Any]:
            try:
                session.execute(text(statement))
            except DBAPIError as error:
                return {"refused": True, "error": str(error.orig)}
            return {"refused": False, "error": None}

        return attempt

    for name, statement in statements.items():

        async def route(read: ReaderDep, statement: str = statement) -> dict[str, Any]:
            return await read(run(statement))

        app.add_api_route(f"/_test/{name}", route)
    with client:
        for name in statements:
            assert client.get(f"/_test/{name}").json() == {
                "refused": True,
                "error": "not authorized",
            }, name
    assert not other.exists()
