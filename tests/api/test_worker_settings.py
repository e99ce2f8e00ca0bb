"""``ratingdb serve --workers N``: every serve setting reaches the worker processes.

The workers are other processes, built by uvicorn from a configuration it hands them; the
settings reach them through the environment (``Settings.environment``). Each setting is
proved by what a worker does, never by a worker saying what it was given: the page cache off
(a renamed player shows at once), the request-head limits (431 at the configured size and
field count), the head and keep-alive timeouts (a 408 and a close, well before the defaults),
the thread count (no worker grows more read threads than that), the access log (none), the
address, the public base URL (the feed's links, whatever the Host header says), and the
database read.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.api import scenario
from tests.databases import free_port
from tests.support.server import START_TIMEOUT

#: 127.0.0.2 is a loopback address too, but not the default one: a server found there was told.
HOST = "127.0.0.2"
LIST = "/v1/lists/fide-standard/2026-11"
KEEP_ALIVE = 1  # default 5, given through RATINGDB_SERVE_TIMEOUT_KEEP_ALIVE
HEAD_TIMEOUT = 2  # default 10
HEAD_LIMIT = 2048  # default 16384
FIELDS_LIMIT = 6  # default 100
THREADS = 1  # default 4
PUBLIC_BASE_URL = "https://ratings.example.org"  # default: none, given through its variable
WORKERS = 2
#: Connections per probe: with two workers taking connections as they come, each is all but
#: certain to get some.
TRIES = 6


def status(answer: bytes) -> int:
    match = re.match(rb"HTTP/1\.1 (\d{3}) ", answer)
    assert match, answer[:200]
    return int(match.group(1))


def exchange(port: int, head: bytes, patience: float = 20) -> tuple[bytes, float]:
    """Send ``head``, read until the server closes; what came back and how long it took."""
    started = time.monotonic()
    with socket.create_connection((HOST, port), timeout=patience) as sock:
        if head:
            sock.sendall(head)
        received = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
    return received, time.monotonic() - started


def request(path: str, *headers: str) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: test", *headers, "Connection: close", "", ""]
    return "\r\n".join(lines).encode()


def get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=20) as answer:
        body: bytes = answer.read()
        return body


def workers_of(pid: int) -> list[int]:
    """The worker processes uvicorn spawned (its resource tracker, if any, is not one)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [
        int(child)
        for child in children
        if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
    ]


def thread_count(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


@pytest.fixture
def served(database_url: str, tmp_path: Path) -> Iterator[tuple[int, int, Path, str]]:
    """``ratingdb serve --workers 2`` on the scenario with a non-default value of each serve
    setting (the keep-alive timeout from its variable, the others from their options); its
    port, pid, log file and database."""
    scenario.build(database_url, tmp_path)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGDB_")}
    env |= {"RATINGDB_SERVE_TIMEOUT_KEEP_ALIVE": str(KEEP_ALIVE),
            "RATINGDB_PUBLIC_BASE_URL": f"{PUBLIC_BASE_URL}/"}  # fmt: skip
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "ratingdb", "serve", "--database-url", database_url,
             "--host", HOST, "--port", str(port), "--workers", str(WORKERS),
             "--threads", str(THREADS), "--page-cache-mb", "0", "--no-access-log",
             "--limit-request-head", str(HEAD_LIMIT),
             "--limit-request-fields", str(FIELDS_LIMIT),
             "--timeout-request-head", str(HEAD_TIMEOUT)],
            stdout=output, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while log.read_text().count("Application startup complete") < WORKERS:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        yield port, process.pid, log, database_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.mark.processes
def test_every_serve_setting_reaches_the_workers(served: tuple[int, int, Path, str]) -> None:
    port, pid, log, database_url = served
    workers = workers_of(pid)
    assert len(workers) == WORKERS, workers
    started = {worker: thread_count(worker) for worker in workers}  # before any request

    # The address: the one given, not the default.
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()

    # The page cache off: a renamed player shows at once, whichever worker answers and however
    # often it served the page before (a cached page would keep the old name for 300 s).
    pages = [get(port, LIST) for _ in range(TRIES)]
    old = re.search(rb'"name":"([^"]+)"', pages[0])
    assert old is not None, pages[0][:300]
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            changed = connection.execute(
                text("UPDATE players SET name = 'Renamed, Player' WHERE name = :old"),
                {"old": old.group(1).decode()},
            ).rowcount
    finally:
        engine.dispose()
    assert changed == 1
    for _ in range(TRIES):
        page = get(port, LIST)
        assert b'"Renamed, Player"' in page
        assert old.group(0) not in page

    # The request-head limits: 431 at the configured size and field count, not at 16 kB and
    # 100 fields; just under them, an answer.
    filler = "X-Fill: " + "a" * HEAD_LIMIT
    for _ in range(TRIES):
        assert status(exchange(port, request("/health", filler))[0]) == 431
        assert status(exchange(port, request("/health", "X-Fill: " + "a" * 1500))[0]) == 200
        many = [f"X-{i}: {i}" for i in range(FIELDS_LIMIT - 1)]  # with Host and Connection
        assert status(exchange(port, request("/health", *many))[0]) == 431
        assert status(exchange(port, request("/health", *many[:-2]))[0]) == 200

    # The timeouts: an incomplete head gets 408 after HEAD_TIMEOUT (not 10 s); a connection
    # that sends nothing is closed after KEEP_ALIVE (not 5 s), without an answer.
    for _ in range(3):
        answer, took = exchange(port, b"GET /health HTTP/1.1\r\nHost: test\r\n")
        assert status(answer) == 408
        assert HEAD_TIMEOUT - 0.5 <= took < 8, took
        answer, took = exchange(port, b"")
        assert answer == b""
        assert KEEP_ALIVE - 0.5 <= took < 4, took

    # The public base URL: the feed links there, whatever Host the request names.
    feed = b"GET /feeds/lists.atom HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
    for _ in range(TRIES):
        answer, _took = exchange(port, feed)
        assert status(answer) == 200
        assert b'href="' + PUBLIC_BASE_URL.encode() + b"/lists/fide-standard/2026-11" in answer
        assert b"evil.example" not in answer
    assert f"links of the feed built from {PUBLIC_BASE_URL}\n" in log.read_text()

    # No access log: uvicorn logs no request line.
    assert '"GET ' not in log.read_text()

    # The threads: concurrent reads make no worker run more than THREADS threads besides those
    # it started with. On SQLite only: there the reads run on those threads, while on
    # PostgreSQL they run on the event loop, and the driver's own threads would count too.
    if not database_url.startswith("sqlite"):
        return
    errors: list[BaseException] = []

    def read_pages() -> None:
        try:
            for _ in range(5):
                get(port, LIST)
        except BaseException as error:  # reported by the test, not lost in the thread
            errors.append(error)

    clients = [threading.Thread(target=read_pages) for _ in range(12)]
    for client in clients:
        client.start()
    peak = dict(started)
    while any(client.is_alive() for client in clients):
        for worker in workers:
            peak[worker] = max(peak[worker], thread_count(worker))
        time.sleep(0.005)
    for client in clients:
        client.join()
    assert errors == []
    assert all(peak[worker] <= started[worker] + THREADS for worker in workers), (started, peak)


def test_workers_have_time_to_answer_the_health_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn replaces a worker that does not answer its ping in time: 5 s by default, which a
    worker still importing the app on a busy host missed again and again (the server never came
    up). Each worker gets 30 s."""
    from ratingdb.api.server import worker_config

    for name in [n for n in os.environ if n.startswith("RATINGDB_")]:
        monkeypatch.delenv(name)
    assert worker_config().timeout_worker_healthcheck == 30
