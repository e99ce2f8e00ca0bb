"""How many uploads the back office checks at once, on SQLite and PostgreSQL: one per user (a
second gets 429), ``backoffice_upload_concurrency`` in the process (one more gets 503), both
with Retry-After and a message, refused before the file is read and with nothing stored; the
slots shared by every upload route (submissions, corrections, the API and the pages), and
freed however an upload ends. Uploads are held inside the service's check by an event the
test sets, never by a sleep.

Uploads held at once are requests in flight on several threads, each in a transaction of its
own: those tests have a database of their own (``database_url``, the back office and its users
on it); uploads one after another run in the test's rolled-back transaction (``database``)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response
from sqlalchemy import Engine, create_engine, text

from ratingdb.backoffice import uploads
from ratingdb.backoffice.app import create_app
from ratingdb.config import Settings
from ratingdb.services import submissions
from ratingdb.services.submissions import MAX_UPLOAD_BYTES
from tests.backoffice.conftest import Accounts, Clock, accounts_on
from tests.backoffice.test_submissions import SMALL_TRF
from tests.support.rolled_back import RolledBack

#: Long enough for anything to happen on a loaded machine; reached only when a test fails.
PATIENCE = 30
HELD = "held.trf"
UPLOAD = "/admin/v1/submissions?category=fide-standard&filename="


class Gate:
    """Holds every check of a file named ``held.trf`` inside the service until released."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self._entered = 0
        self._condition = threading.Condition()

    def wrap(self, check: Callable[..., Any]) -> Callable[..., Any]:
        def held_check(session: Any, path: Path, filename: str, *args: Any) -> Any:
            if filename == HELD:
                with self._condition:
                    self._entered += 1
                    self._condition.notify_all()
                assert self.released.wait(PATIENCE), "the test never released the upload"
            return check(session, path, filename, *args)

        return held_check

    def wait_entered(self, count: int) -> None:
        with self._condition:
            assert self._condition.wait_for(lambda: self._entered >= count, PATIENCE), (
                f"{count} uploads never reached the check"
            )


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    gate = Gate()
    monkeypatch.setattr(submissions, "check", gate.wrap(submissions.check))
    yield gate
    gate.released.set()  # a failed test must not leave threads waiting


def settings(url: str) -> Settings:
    return Settings(database_url=url, backoffice_upload_concurrency=2)


@pytest.fixture
def app(database_url: str, clock: Clock) -> FastAPI:
    return create_app(settings(database_url), clock=clock)


@pytest.fixture
def users(engine: Engine, clock: Clock) -> Accounts:
    return accounts_on(engine, clock)


@pytest.fixture
def one_at_a_time(database: RolledBack, clock: Clock) -> Iterator[tuple[TestClient, str]]:
    """The back office in the test's rolled-back transaction, and arbiter1's token: for
    uploads sent one after another."""
    users = Accounts(database.sessions, clock, database.url)
    users.add("arbiter1", "arbiter")
    token = users.token("arbiter1")
    app = create_app(settings(database.url), clock=clock, sessions=database.sessions)
    with TestClient(app, follow_redirects=False) as client:
        yield client, token


@pytest.fixture
def tokens(users: Accounts) -> dict[str, str]:
    for name, role in (("arbiter1", "arbiter"), ("arbiter2", "arbiter"),
                       ("arbiter3", "arbiter"), ("officer1", "officer")):  # fmt: skip
        users.add(name, role)
    return {name: users.token(name) for name in ("arbiter1", "arbiter2", "arbiter3", "officer1")}


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(max_workers=4) as pool:
        yield pool


def upload(client: TestClient, token: str, filename: str = "open.trf",
           content: bytes = SMALL_TRF) -> Response:  # fmt: skip
    return client.post(UPLOAD + filename, content=content,
                       headers={"Authorization": f"Bearer {token}",
                                "Content-Type": "text/plain"})  # fmt: skip


def submitted(where: RolledBack | str) -> int:
    """The submissions stored: in the test's transaction, or in the database at a URL."""
    if isinstance(where, RolledBack):
        return int(where.rows("SELECT count(*) FROM submissions")[0][0])
    engine = create_engine(where)
    try:
        with engine.connect() as connection:
            return int(connection.execute(text("SELECT count(*) FROM submissions")).scalar_one())
    finally:
        engine.dispose()


def refused(answer: Response, code: int, message: str) -> None:
    assert answer.status_code == code, answer.text
    assert answer.headers["retry-after"] == str(uploads.RETRY_AFTER_SECONDS)
    assert message in answer.text


def hold(pool: ThreadPoolExecutor, client: TestClient, token: str) -> Future[Response]:
    return pool.submit(upload, client, token, HELD)


def test_a_users_second_upload_at_once_gets_429(
    client: TestClient, tokens: dict[str, str], gate: Gate, pool: ThreadPoolExecutor,
    database_url: str,
) -> None:  # fmt: skip
    first = hold(pool, client, tokens["arbiter1"])
    gate.wait_entered(1)
    refused(upload(client, tokens["arbiter1"]), 429, "another upload of yours is being checked")
    assert upload(client, tokens["arbiter2"]).status_code == 201  # someone else: checked
    assert submitted(database_url) == 1
    gate.released.set()
    assert first.result(PATIENCE).status_code == 201
    assert upload(client, tokens["arbiter1"], "again.trf").status_code == 201  # slot freed
    assert submitted(database_url) == 3


def test_an_upload_beyond_the_process_limit_gets_503(
    client: TestClient, tokens: dict[str, str], gate: Gate, pool: ThreadPoolExecutor,
    database_url: str, users: Accounts,
) -> None:  # fmt: skip
    held = [hold(pool, client, tokens[name]) for name in ("arbiter1", "arbiter2")]
    gate.wait_entered(2)
    refused(upload(client, tokens["arbiter3"]), 503, "is checking 2 uploads already")
    # Every upload route takes a slot: a corrected list (API) and the pages' upload form.
    answer = client.post(
        "/admin/v1/corrections/list?category=fide-standard&period=2026-11&reason=typo",
        content=b"player_id,name\n", headers={"Authorization": f"Bearer {tokens['officer1']}"},
    )  # fmt: skip
    refused(answer, 503, "is checking 2 uploads already")
    session_id, csrf = users.session("arbiter3")
    client.cookies.set("ratingdb_session", session_id)
    page = client.post("/submissions", data={"csrf_token": csrf, "category": "fide-standard"},
                       files={"file": ("open.trf", SMALL_TRF)})  # fmt: skip
    refused(page, 503, "is checking 2 uploads already")
    assert re.search(r"<form[^>]+/submissions", page.text)  # the form again, with the message
    client.cookies.clear()
    assert submitted(database_url) == 0
    gate.released.set()
    assert [future.result(PATIENCE).status_code for future in held] == [201, 201]
    assert upload(client, tokens["arbiter3"]).status_code == 201


def test_the_slot_is_freed_however_the_upload_ends(
    one_at_a_time: tuple[TestClient, str], database: RolledBack, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, token = one_at_a_time
    too_large = upload(client, token, content=b"x" * (MAX_UPLOAD_BYTES + 1))
    assert too_large.status_code == 413
    assert upload(client, token, content=b"not a TRF\n").status_code == 422
    form = client.post(UPLOAD, files={"other": ("open.trf", SMALL_TRF)},
                       headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert (form.status_code, form.json()) == (422, {"detail": "field file: the form has no file"})

    def broken(*args: Any) -> Any:
        raise RuntimeError("the check broke")

    monkeypatch.setattr(submissions, "check", broken)
    with TestClient(client.app, raise_server_exceptions=False) as failing:
        assert upload(failing, token).status_code == 500
    monkeypatch.undo()
    assert upload(client, token).status_code == 201  # none of them kept the slot
    assert submitted(database) == 1


def test_the_slots_count_and_refuse() -> None:
    slots = uploads.UploadSlots(2)
    with slots.held(1), slots.held(2):
        assert slots.busy == 2
        with pytest.raises(uploads.Busy) as second, slots.held(1):
            pass  # pragma: no cover
        assert second.value.status_code == 429
        with pytest.raises(uploads.Busy) as third, slots.held(3):
            pass  # pragma: no cover
        assert third.value.status_code == 503
    assert slots.busy == 0
    with pytest.raises(RuntimeError), slots.held(1):
        raise RuntimeError("in the block")
    assert slots.busy == 0
    with pytest.raises(ValueError, match="at least one upload at a time, got 0"):
        uploads.UploadSlots(0)
