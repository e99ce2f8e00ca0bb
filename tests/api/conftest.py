"""Fixtures of the API tests.

The scenario database (tests/api/scenario.py) is built once per database kind for the whole
session and only ever read: the app cannot write (that is what test_read_only.py proves), so
sharing it between tests is safe and keeps the API tests fast. Tests that need another state
(an empty or unmigrated database) use the per-test fixtures of tests/conftest.py.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.config import READ_DATABASE_URL_VARIABLE, Settings
from tests.api import scenario
from tests.databases import PostgreSQLDatabases
from tests.support.server import running_server


class ScenarioDatabases:
    """The scenario databases of this worker, each built the first time a test asks for it
    (through the commands) and kept for the session: by database kind ("sqlite",
    "postgresql") and state (``corrected``: after the scenario's correction, every closed list
    has a revision 2). Tests only read them."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        self._tmp_path_factory = tmp_path_factory
        self._urls: dict[tuple[str, bool], str] = {}

    def url(self, request: pytest.FixtureRequest, kind: str, *, corrected: bool) -> str:
        """The database of ``kind`` in that state (``request``: the asking fixture's, to reach
        the worker's PostgreSQL databases)."""
        key = (kind, corrected)
        if key not in self._urls:
            self._urls[key] = self._build(request, kind, corrected=corrected)
        return self._urls[key]

    def _build(self, request: pytest.FixtureRequest, kind: str, *, corrected: bool) -> str:
        name = "corrected" if corrected else "scenario"
        folder = self._tmp_path_factory.mktemp(f"{name}-{kind}")
        if kind == "sqlite":
            url = f"sqlite:///{folder / 'ratingdb.sqlite3'}"
        elif kind == "postgresql":
            databases: PostgreSQLDatabases = request.getfixturevalue("postgresql_databases")
            url = databases.create(name, migrated=False)  # the scenario runs `db upgrade` itself
        else:
            raise ValueError(f"no database kind {kind!r}")
        scenario.build(url, folder)
        if corrected:
            scenario.correct(url)
        return url


@pytest.fixture(scope="session")
def scenario_databases(tmp_path_factory: pytest.TempPathFactory) -> ScenarioDatabases:
    """The worker's scenario databases (PostgreSQL's are dropped with the worker's other
    databases at the end of the session: ``postgresql_databases``)."""
    return ScenarioDatabases(tmp_path_factory)


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def scenario_url(request: pytest.FixtureRequest, scenario_databases: ScenarioDatabases) -> str:
    """The scenario, built through the commands, on each database in turn."""
    return scenario_databases.url(request, request.param, corrected=False)


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def corrected_url(request: pytest.FixtureRequest, scenario_databases: ScenarioDatabases) -> str:
    """The scenario after one correction (``ratingdb games correct``, scenario.correct): its
    three closed lists have a revision 2, on each database in turn."""
    return scenario_databases.url(request, request.param, corrected=True)


@pytest.fixture(scope="session")
def corrected_client(corrected_url: str) -> Iterator[TestClient]:
    with make_client(corrected_url) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def app(scenario_url: str) -> FastAPI:
    return create_app(Settings(database_url=scenario_url, read_database_url=scenario_url))


@pytest.fixture(scope="session")
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def make_client(url: str) -> TestClient:
    """A client of an app reading ``url`` (enter it to run the app's lifespan)."""
    return TestClient(create_app(Settings(database_url=url, read_database_url=url)))


@pytest.fixture(scope="module")
def server(scenario_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ratingdb serve`` on a free port, reading the scenario; its base URL. One per module
    (and database) on each worker: the tests only read, and the server cannot write."""
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with running_server("serve", ["--database-url", scenario_url], env=env, log=log) as base:
        yield base


@pytest.fixture(scope="session")
def corrected_server(corrected_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ratingdb serve`` on a free port, reading the corrected scenario (every closed list
    has a revision 2); its base URL. One server for the session: it only reads."""
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    log = tmp_path_factory.mktemp("corrected-serve") / "serve.log"
    with running_server("serve", ["--database-url", corrected_url], env=env, log=log) as base:
        yield base
