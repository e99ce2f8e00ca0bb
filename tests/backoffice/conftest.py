"""Back-office fixtures: a clock the test moves, cheap argon2id parameters (the hashes are still
argon2id; the cost is not what is tested), the app and its users."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from ratingdb.backoffice.app import create_app
from ratingdb.config import Settings
from ratingdb.db import make_sessionmaker
from ratingdb.services import accounts, passwords, sign_in
from tests.support.rolled_back import RolledBack

PASSWORD = "correct horse battery staple"
ROLES = ("arbiter", "officer", "admin")
#: The sign-in form's token (a signed-in browser's page also has the sign-out form's).
LOGIN_CSRF_INPUT = re.compile(
    r'action="/login"[^>]*>\s*<input type="hidden" name="csrf_token" value="([^"]+)"'
)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture(autouse=True)
def cheap_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        passwords, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    )
    monkeypatch.setattr(passwords, "_DUMMY_HASH", None)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(database: RolledBack, clock: Clock) -> FastAPI:
    """The back office in the test's rolled-back transaction (tests/support/rolled_back.py).
    A test that needs a database of its own (a second connection, a server, a process)
    overrides ``app`` and ``users`` with ``app_on`` and ``accounts_on`` on ``database_url``."""
    return create_app(Settings(database_url=database.url), clock=clock, sessions=database.sessions)


def app_on(url: str, clock: Clock) -> FastAPI:
    """The back office on the database at ``url``, with engines of its own."""
    return create_app(Settings(database_url=url), clock=clock)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, follow_redirects=False) as client:
        yield client


@dataclass
class Accounts:
    """Add users, sign them in and issue tokens through the service, at the app's clock."""

    sessions: sessionmaker[Session]
    clock: Clock
    #: The database's URL (what commands are given).
    url: str

    def add(self, username: str, role: str, password: str = PASSWORD) -> None:
        with self.sessions.begin() as session:
            accounts.add_user(
                session, username, role, password, by=None, actor="test", now=self.clock()
            )

    def session(self, username: str, address: str = "192.0.2.1") -> tuple[str, str]:
        """(session id, CSRF token) of a new sign-in."""
        with self.sessions.begin() as session:
            signed = sign_in.sign_in(session, username, PASSWORD, address, self.clock())
        assert signed.session_id is not None
        assert signed.principal is not None
        assert signed.principal.csrf_token is not None
        return signed.session_id, signed.principal.csrf_token

    def token(self, username: str, days: int = 30, label: str = "test", scope: str = "full") -> str:
        """A token issued as the command line issues it (the operator's path)."""
        with self.sessions.begin() as session:
            issued = accounts.issue_token(
                session, username, label, days, scope, by=None, actor="test", now=self.clock()
            )
        return issued.token


@pytest.fixture
def users(database: RolledBack, clock: Clock) -> Accounts:
    return Accounts(database.sessions, clock, database.url)


def accounts_on(engine: Engine, clock: Clock) -> Accounts:
    """Accounts on a database of the test's own (``engine``)."""
    url = engine.url.render_as_string(hide_password=False)
    return Accounts(make_sessionmaker(engine), clock, url)


def login_csrf(client: TestClient) -> str:
    """GET /login: the form's CSRF token (its cookie is now in the client)."""
    page = client.get("/login")
    assert page.status_code == 200
    found = LOGIN_CSRF_INPUT.search(page.text)
    assert found is not None
    return found.group(1)


# A test that needs connections of its own to its database (the public API's read-only
# engines, two requests racing) has it to itself (``database_url``), with the back office, a
# client of it and accounts on it.


@pytest.fixture
def own_app(database_url: str, clock: Clock) -> FastAPI:
    return app_on(database_url, clock)


@pytest.fixture
def own_client(own_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(own_app, follow_redirects=False) as client:
        yield client


@pytest.fixture
def own_users(engine: Engine, clock: Clock) -> Accounts:
    return accounts_on(engine, clock)
