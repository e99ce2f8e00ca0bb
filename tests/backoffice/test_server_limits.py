"""What one connection may cost ``ratingdb backoffice``, and whom it believes about the client's
address. Real sockets against a real ``backoffice`` process: request heads bounded (431), slow
heads and dripped bodies answered 408, idle connections closed, connections beyond the limit
answered 503 at once; X-Forwarded-For believed only from the trusted proxies (the address the
sign-in throttling counts, checked in ``sign_in_attempts`` on both databases)."""

from __future__ import annotations

import os
import re
import select
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from sqlalchemy import create_engine, text

from ratingdb.cli import build_parser, main
from ratingdb.cli.common import settings
from ratingdb.db import make_engine, make_sessionmaker, upgrade
from ratingdb.services import accounts
from tests.api.test_limits import read_until_closed, request, status
from tests.backoffice.conftest import LOGIN_CSRF_INPUT
from tests.support.server import running_server

#: The short timeouts the server under test runs with (seconds).
KEEP_ALIVE = 1
HEAD_TIMEOUT = 2
BODY_TIMEOUT = 2
FIELDS = 20
#: Long enough for any of those to have fired on a loaded machine.
PATIENCE = 20
PASSWORD = "a long enough password 1"


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("RATINGDB_")}


@contextmanager
def backoffice(database_url: str, folder: Path, *options: str) -> Iterator[int]:
    """``ratingdb backoffice OPTIONS`` on ``database_url`` until the block ends; its port."""
    arguments = ["--database-url", database_url, *options]
    log = folder / "backoffice.log"
    with running_server("backoffice", arguments, env=clean_env(), log=log, ready="/login") as base:
        port = urlsplit(base).port
        assert port is not None
        yield port


def arbiter_token(database_url: str) -> str:
    """An arbiter ``arbiter1`` added to the database; their API token."""
    engine = make_engine(database_url)
    now = datetime.now(UTC)
    try:
        with make_sessionmaker(engine).begin() as session:
            accounts.add_user(
                session, "arbiter1", "arbiter", PASSWORD, by=None, actor="test", now=now
            )
        with make_sessionmaker(engine).begin() as session:
            issued = accounts.issue_token(
                session, "arbiter1", "test", 1, "submit", by=None, actor="test", now=now
            )
            return issued.token
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("backoffice-limits")


@pytest.fixture(scope="module")
def served(folder: Path) -> Iterator[tuple[int, str]]:
    """A back office with short timeouts on a SQLite database (the protocol does not touch
    the database); its port and an arbiter's token."""
    url = f"sqlite:///{folder / 'ratingdb.sqlite3'}"
    upgrade(url)
    token = arbiter_token(url)
    options = ("--timeout-keep-alive", str(KEEP_ALIVE), "--timeout-request-head",
               str(HEAD_TIMEOUT), "--timeout-request-body", str(BODY_TIMEOUT),
               "--limit-request-fields", str(FIELDS))  # fmt: skip
    with backoffice(url, folder, *options) as port:
        yield port, token


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)


def drip_until_answered(sock: socket.socket, byte: bytes) -> bytes:
    """Send ``byte`` every 0.2 s (the connection never idle) until the server answers; what
    it answered (empty if it closed without a word)."""
    deadline = time.monotonic() + PATIENCE
    try:
        while time.monotonic() < deadline:
            sock.sendall(byte)
            readable, _, _ = select.select([sock], [], [], 0.2)
            if readable:
                return read_until_closed(sock)
    except (BrokenPipeError, ConnectionResetError):
        return b""
    raise AssertionError("the server kept the connection open")


@pytest.mark.processes
def test_a_head_over_the_limits_gets_431(served: tuple[int, str]) -> None:
    port, _ = served
    with connect(port) as sock:
        sock.sendall(request("/login", "X-Big: " + "a" * 20_000))
        assert status(read_until_closed(sock)) == 431
    with connect(port) as sock:  # Host and Connection are two of the fields
        sock.sendall(request("/login", *(f"X-{i}: {i}" for i in range(FIELDS - 1))))
        assert status(read_until_closed(sock)) == 431
    with connect(port) as sock:
        sock.sendall(request("/login", *(f"X-{i}: {i}" for i in range(FIELDS - 2))))
        assert status(read_until_closed(sock)) == 200


@pytest.mark.processes
def test_idle_connections_are_closed(served: tuple[int, str]) -> None:
    port, _ = served
    with connect(port) as sock:  # never sends
        assert read_until_closed(sock) == b""
    with connect(port) as sock:  # kept alive after an answer, then idle
        sock.sendall(b"GET /login HTTP/1.1\r\nHost: test\r\n\r\n")
        answer = read_until_closed(sock)
    assert status(answer) == 200
    assert answer.count(b"HTTP/1.1 ") == 1


@pytest.mark.processes
def test_a_head_sent_byte_by_byte_gets_408(served: tuple[int, str]) -> None:
    port, _ = served
    with connect(port) as sock:
        sock.sendall(b"GET /login HTTP/1.1\r\nHost: test\r\nX-Slow: ")
        answer = drip_until_answered(sock, b"a")
    assert status(answer) == 408


@pytest.mark.processes
def test_an_upload_dripped_byte_by_byte_gets_408_and_frees_its_slot(
    served: tuple[int, str],
) -> None:
    """The body of a signed-in upload, never complete: 408 once the body timeout passes,
    though a byte comes every 0.2 s; the user's upload slot is free again after it."""
    port, token = served
    head = (
        f"POST /admin/v1/submissions?category=fide-standard HTTP/1.1\r\nHost: test\r\n"
        f"Authorization: Bearer {token}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: 1000000\r\n\r\n012 Slow Open\n"
    ).encode()
    with connect(port) as sock:
        sock.sendall(head)
        answer = drip_until_answered(sock, b"x")
    assert status(answer) == 408
    assert b"Request body not complete in time." in answer
    # The next upload of the same user is checked (422: not a TRF), not refused as a second
    # one at once (429), once the first's task has seen the disconnection.
    deadline = time.monotonic() + PATIENCE
    while True:
        answered = httpx.post(
            f"http://127.0.0.1:{port}/admin/v1/submissions?category=fide-standard",
            content=b"not a TRF\n", timeout=PATIENCE,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "text/plain"},
        )  # fmt: skip
        if answered.status_code != 429 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert answered.status_code == 422, answered.text


@pytest.mark.processes
def test_a_form_dripped_byte_by_byte_gets_408_and_no_error_logged(
    served: tuple[int, str], folder: Path
) -> None:
    """The sign-in form's body, never complete: 408; the app reads the end of the body as the
    client gone, and answers it (to nobody) without an error in the log."""
    port, _ = served
    head = (b"POST /login HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-"
            b"urlencoded\r\nContent-Length: 60000\r\n\r\nusername=")  # fmt: skip
    with connect(port) as sock:
        sock.sendall(head)
        answer = drip_until_answered(sock, b"a")
    assert status(answer) == 408
    log = folder / "backoffice.log"
    deadline = time.monotonic() + PATIENCE
    while "Request body not complete in" not in log.read_text():
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    # The app's task ends once it reads the disconnection; a request after it is answered.
    with connect(port) as sock:
        sock.sendall(request("/login"))
        assert status(read_until_closed(sock)) == 200
    assert "Traceback" not in log.read_text()


@pytest.mark.processes
def test_connections_beyond_the_limit_get_503_at_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ratingdb.sqlite3'}"
    upgrade(url)
    options = ("--limit-connections", "2", "--timeout-keep-alive", "300")
    with backoffice(url, tmp_path, *options) as port, ExitStack() as held:
        # Two connections kept alive, each answered once (so the server holds both).
        first, second = (held.enter_context(connect(port)) for _ in range(2))
        for sock in (first, second):
            sock.sendall(b"GET /login HTTP/1.1\r\nHost: test\r\n\r\n")
            assert status(sock.recv(65536)) == 200
        with connect(port) as third:  # refused before it sends anything
            answer = read_until_closed(third)
        assert status(answer) == 503
        assert re.search(rb"\r\nretry-after: \d+\r\n", answer.lower())
        first.close()
        deadline = time.monotonic() + PATIENCE
        while True:  # once the server has seen the first one go, a new one is served
            with connect(port) as sock:
                sock.sendall(request("/login"))
                code = status(read_until_closed(sock))
            if code != 503 or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert code == 200


def sign_in_addresses(database_url: str) -> list[str]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT address FROM sign_in_attempts ORDER BY id"))
            return [row[0] for row in rows]
    finally:
        engine.dispose()


def failed_sign_in(port: int, *headers: tuple[str, str]) -> None:
    """A sign-in with a wrong password, through the form (its CSRF token and cookie)."""
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=PATIENCE) as client:
        page = client.get("/login")
        found = LOGIN_CSRF_INPUT.search(page.text)
        assert found is not None
        answer = client.post(
            "/login", headers=dict(headers),
            data={"username": "nobody", "password": "wrong", "csrf_token": found.group(1)},
        )  # fmt: skip
        assert answer.status_code == 401, answer.text


@pytest.mark.processes
def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(
    database_url: str, tmp_path: Path
) -> None:
    """By default the socket's peer is the client, whatever X-Forwarded-For says; with
    127.0.0.1 trusted, the address it forwards is the one sign-in throttling counts."""
    forwarded = ("X-Forwarded-For", "203.0.113.9")
    with backoffice(database_url, tmp_path) as port:
        failed_sign_in(port, forwarded)
    assert sign_in_addresses(database_url) == ["127.0.0.1"]
    with backoffice(database_url, tmp_path, "--trusted-proxies", "10.0.0.0/8, 127.0.0.1") as port:
        failed_sign_in(port, forwarded)
    assert sign_in_addresses(database_url) == ["127.0.0.1", "203.0.113.9"]


def test_backoffice_limit_options(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in list(os.environ):
        if name.startswith("RATINGDB_"):
            monkeypatch.delenv(name)
    config = settings(build_parser().parse_args(["backoffice"]))
    assert (
        config.backoffice_limit_request_head, config.backoffice_limit_request_fields,
        config.backoffice_timeout_request_head, config.backoffice_timeout_keep_alive,
        config.backoffice_timeout_request_body, config.backoffice_limit_connections,
        config.backoffice_upload_concurrency, config.backoffice_trusted_proxies,
    ) == (16384, 100, 10, 5, 60, 64, 2, "")  # fmt: skip
    given = settings(build_parser().parse_args(
        ["backoffice", "--trusted-proxies", " 192.168.1.7/24 ,::1,127.0.0.1"]))  # fmt: skip
    assert given.backoffice_trusted_proxies == "192.168.1.0/24,::1,127.0.0.1"
    for option, bad, message in (
        ("--limit-request-head", "100", "must be 1024..1048576, got 100"),
        ("--limit-request-fields", "0", "must be 1..10000, got 0"),
        ("--timeout-request-head", "0", "must be 1..3600, got 0"),
        ("--timeout-keep-alive", "-1", "must be 1..3600, got -1"),
        ("--timeout-request-body", "0", "must be 1..3600, got 0"),
        ("--limit-connections", "0", "must be 1..100000, got 0"),
        ("--upload-concurrency", "65", "must be 1..64, got 65"),
        ("--trusted-proxies", "proxy.example",
         "not an IP address or network (CIDR): 'proxy.example'"),
        ("--trusted-proxies", "127.0.0.1,,10.0.0.1",
         "an address is missing in '127.0.0.1,,10.0.0.1' (separate them by commas)"),
    ):  # fmt: skip
        assert main(["backoffice", option, bad]) == 2, option
        assert f"ratingdb backoffice: {option}: {message}\n" == capsys.readouterr().err
    monkeypatch.setenv("RATINGDB_BACKOFFICE_TRUSTED_PROXIES", "10.0.0.300")
    assert main(["backoffice"]) == 1
    assert (
        "RATINGDB_BACKOFFICE_TRUSTED_PROXIES: not an IP address or network (CIDR): "
        "'10.0.0.300'" in capsys.readouterr().err
    )
