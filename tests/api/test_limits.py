"""What one connection may cost ``ratingdb serve``: request heads bounded in bytes and fields
(431), idle connections and slow heads closed; and whom it believes about the client's address
(X-Forwarded-For only from ``--trusted-proxies``). Real sockets against a real ``serve``
subprocess; the protocol does not touch the database, so one (SQLite) suffices. The same
protocol serves the back office: tests/backoffice/test_server_limits.py (its body timeout
and connection limit too)."""

from __future__ import annotations

import os
import re
import select
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from ratingdb.cli import build_parser, main
from ratingdb.cli.common import settings
from ratingdb.config import READ_DATABASE_URL_VARIABLE
from ratingdb.db import upgrade
from tests.databases import free_port
from tests.support.server import START_TIMEOUT

#: The short timeouts the server under test runs with (seconds).
KEEP_ALIVE = 1
HEAD_TIMEOUT = 2
#: Long enough for any of those to have fired on a loaded machine.
PATIENCE = 20


@dataclass(frozen=True)
class Served:
    port: int
    pid: int


@contextmanager
def serving(folder: Path, *options: str, access_log: bool = False) -> Iterator[Served]:
    """``ratingdb serve`` with ``options`` on a migrated SQLite database in ``folder`` (its
    output in ``folder / "serve.log"``), until the block ends."""
    url = f"sqlite:///{folder / 'ratingdb.sqlite3'}"
    upgrade(url)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    log_path = folder / "serve.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "ratingdb", "serve", "--port", str(port), "--database-url", url,
             *([] if access_log else ["--no-access-log"]), *options],
            stdout=log, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert process.poll() is None, log_path.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.1)
        yield Served(port, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=15)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    options = ("--timeout-keep-alive", str(KEEP_ALIVE), "--timeout-request-head", str(HEAD_TIMEOUT))
    with serving(tmp_path_factory.mktemp("limits"), *options) as server:
        yield server


def connect(served: Served) -> socket.socket:
    return socket.create_connection(("127.0.0.1", served.port), timeout=PATIENCE)


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (a reset after its answer counts as a
    close); fails if it keeps the connection open longer than PATIENCE."""
    received = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk


def status(answer: bytes) -> int:
    match = re.match(rb"HTTP/1\.1 (\d{3}) ", answer)
    assert match, answer[:200]
    return int(match.group(1))


def request(path: str, *headers: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: test", *headers, "Connection: close", "", ""]
    return "\r\n".join(lines).encode()


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.processes
def test_a_head_over_the_limit_gets_431_and_one_under_it_is_answered(served: Served) -> None:
    with connect(served) as sock:
        sock.sendall(request("/health", "X-Big: " + "a" * 20_000))
        answer = read_until_closed(sock)
    assert status(answer) == 431
    assert b"\r\nx-content-type-options: nosniff\r\n" in answer.lower()
    with connect(served) as sock:
        sock.sendall(request("/health", "X-Big: " + "a" * 16_000))  # head under 16 kB
        assert status(read_until_closed(sock)) == 200


@pytest.mark.processes
def test_more_than_100_header_fields_get_431(served: Served) -> None:
    # Host and Connection are two of them.
    with connect(served) as sock:
        sock.sendall(request("/health", *(f"X-{i}: {i}" for i in range(99))))
        assert status(read_until_closed(sock)) == 431
    with connect(served) as sock:
        sock.sendall(request("/health", *(f"X-{i}: {i}" for i in range(98))))
        assert status(read_until_closed(sock)) == 200


@pytest.mark.processes
def test_a_100_mb_header_is_refused_without_the_server_holding_it(served: Served) -> None:
    before = rss_kb(served.pid)
    chunk = b"a" * (1024 * 1024)
    sent = 0
    answer = b""
    with connect(served) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\nX-Huge: ")
        try:
            while sent < 100 * len(chunk):
                sock.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server closed after its answer: what it has not read, it dropped
        answer = read_until_closed(sock)
    grown_mb = (rss_kb(served.pid) - before) / 1024
    assert grown_mb < 10, f"the server grew by {grown_mb:.0f} MB"
    if answer:  # the answer can be lost to the reset of a client still sending
        assert status(answer) == 431
    with connect(served) as sock:  # and it still serves
        sock.sendall(request("/health"))
        assert status(read_until_closed(sock)) in (200, 503)


@pytest.mark.processes
def test_a_connection_that_never_sends_is_closed(served: Served) -> None:
    with connect(served) as sock:
        assert read_until_closed(sock) == b""


@pytest.mark.processes
def test_an_idle_keep_alive_connection_is_closed(served: Served) -> None:
    with connect(served) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\n\r\n")
        answer = read_until_closed(sock)  # the answer, then the close after KEEP_ALIVE
    assert status(answer) in (200, 503)
    assert answer.count(b"HTTP/1.1 ") == 1


@pytest.mark.processes
def test_a_head_sent_byte_by_byte_is_closed_with_408(served: Served) -> None:
    """Slowloris: each byte well within the keep-alive timeout, the head never complete."""
    answer = b""
    with connect(served) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: test\r\nX-Slow: ")
        deadline = time.monotonic() + PATIENCE
        try:
            while time.monotonic() < deadline:
                sock.sendall(b"a")
                readable, _, _ = select.select([sock], [], [], 0.2)
                if readable:
                    answer = read_until_closed(sock)
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert time.monotonic() < deadline, "the slow head was kept open"
    assert status(answer) == 408


def test_limit_options(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("RATINGDB_"):
            monkeypatch.delenv(name)
    config = settings(build_parser().parse_args(["serve"]))
    assert (
        config.serve_limit_request_head, config.serve_limit_request_fields,
        config.serve_timeout_request_head, config.serve_timeout_keep_alive,
    ) == (16384, 100, 10, 5)  # fmt: skip
    for option, bad, message in (
        ("--limit-request-head", "100", "must be 1024..1048576, got 100"),
        ("--limit-request-fields", "0", "must be 1..10000, got 0"),
        ("--timeout-request-head", "0", "must be 1..3600, got 0"),
        ("--timeout-keep-alive", "-1", "must be 1..3600, got -1"),
        ("--timeout-request-body", "3601", "must be 1..3600, got 3601"),
        ("--trusted-proxies", "10.0.0.0/33",
         "not an IP address or network (CIDR): '10.0.0.0/33'"),
    ):  # fmt: skip
        assert main(["serve", option, bad]) == 2, option
        assert f"{option}: {message}" in capsys.readouterr().err
    assert (config.serve_timeout_request_body, config.serve_trusted_proxies) == (60, "")


@pytest.mark.processes
def test_the_limits_reach_every_worker(tmp_path: Path) -> None:
    """``--workers N``: the worker processes get the limits with the rest of the configuration."""
    with serving(tmp_path, "--workers", "2", "--limit-request-fields", "5") as served:
        for _ in range(4):  # whichever worker accepts
            with connect(served) as sock:
                sock.sendall(request("/health", *(f"X-{i}: {i}" for i in range(4))))
                assert status(read_until_closed(sock)) == 431


def client_addresses(log: Path) -> list[str]:
    """The client address of each request in the access log (``ADDRESS:PORT - "GET ..."``)."""
    return re.findall(r"INFO: +([0-9a-f.:]+):\d+ - \"GET /health", log.read_text())


@pytest.mark.processes
def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    forwarded = "X-Forwarded-For: 203.0.113.9"
    for folder, options, seen in (
        (tmp_path / "default", (), "127.0.0.1"),
        (tmp_path / "trusted", ("--trusted-proxies", "127.0.0.1"), "203.0.113.9"),
    ):
        folder.mkdir()
        with serving(folder, *options, access_log=True) as served:
            with connect(served) as sock:
                sock.sendall(request("/health", forwarded))
                assert status(read_until_closed(sock)) in (200, 503)
            log = folder / "serve.log"
            deadline = time.monotonic() + PATIENCE
            while len(client_addresses(log)) < 2:  # the start-up probe, then ours
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        assert client_addresses(log)[-1] == seen, log.read_text()


def test_the_workers_get_the_body_timeout_and_the_trusted_proxies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ratingdb.api.server import worker_config

    monkeypatch.setenv("RATINGDB_SERVE_TIMEOUT_REQUEST_BODY", "7")
    monkeypatch.delenv("RATINGDB_SERVE_TRUSTED_PROXIES", raising=False)
    config = worker_config()
    assert (config.limits.body_timeout, config.proxy_headers) == (7, False)
    monkeypatch.setenv("RATINGDB_SERVE_TRUSTED_PROXIES", "10.1.2.3,192.168.0.0/16")
    config = worker_config()
    assert config.proxy_headers is True
    assert config.forwarded_allow_ips == "10.1.2.3,192.168.0.0/16"
