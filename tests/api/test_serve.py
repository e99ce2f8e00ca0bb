"""``ratingdb serve``: uvicorn in its own process, answering over real HTTP."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from ratingdb.api import create_app
from ratingdb.api.app import DEFAULT_THREADS
from ratingdb.api.server import listening_socket
from ratingdb.cli import build_parser, main
from ratingdb.cli.common import settings
from ratingdb.config import DEFAULT_DATABASE_URL, READ_DATABASE_URL_VARIABLE, Settings
from ratingdb.db import head_revision
from tests.support.server import START_TIMEOUT, running_server


@pytest.mark.processes
def test_serve_answers_over_http(server: str) -> None:
    with urllib.request.urlopen(f"{server}/health", timeout=5) as response:
        assert json.load(response) == {"status": "ok", "revision": head_revision()}
    request = urllib.request.Request(f"{server}/v1/lists/fide-standard/2026-11", method="HEAD")
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 200
        assert response.headers["ETag"]
        assert response.read() == b""
    with urllib.request.urlopen(f"{server}/players/1001", timeout=5) as response:
        assert response.headers["Content-Type"] == "text/html; charset=utf-8"


@pytest.fixture
def no_settings_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("RATINGDB_"):
            monkeypatch.delenv(name)


def serve_settings(*options: str) -> Settings:
    return settings(build_parser().parse_args(["serve", *options]))


@pytest.mark.usefixtures("no_settings_variables")
def test_serve_options() -> None:
    config = serve_settings()
    assert (config.serve_host, config.serve_port, config.database_url) == (
        "127.0.0.1", 8000, DEFAULT_DATABASE_URL,
    )  # fmt: skip
    config = serve_settings(
        "--host", "0.0.0.0", "--port", "9000", "--database-url", "sqlite:///x.db"
    )
    assert (config.serve_host, config.serve_port, config.database_url) == (
        "0.0.0.0", 9000, "sqlite:///x.db",
    )  # fmt: skip


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port: must be 0..65535, got 70000" in capsys.readouterr().err


@pytest.mark.usefixtures("no_settings_variables")
def test_serve_worker_options(capsys: pytest.CaptureFixture[str]) -> None:
    config = serve_settings()
    assert (config.serve_workers, config.serve_access_log) == (1, True)
    config = serve_settings("--workers", "2", "--no-access-log")
    assert (config.serve_workers, config.serve_access_log) == (2, False)
    assert main(["serve", "--workers", "0"]) == 2
    assert "--workers: must be 1..64, got 0" in capsys.readouterr().err
    assert serve_settings().serve_threads == DEFAULT_THREADS
    assert serve_settings("--threads", "16").serve_threads == 16
    assert main(["serve", "--threads", "0"]) == 2
    assert "--threads: must be 1..256, got 0" in capsys.readouterr().err
    with pytest.raises(ValueError, match="threads must be at least 1"):
        create_app(Settings("sqlite:///never.sqlite3", "sqlite:///never.sqlite3"), threads=0)


def test_the_workers_socket_is_tcp_so_answers_are_not_delayed() -> None:
    """The socket ``serve --workers N`` shares says it is TCP, so asyncio turns Nagle's
    algorithm off on each connection it accepts (a keep-alive answer written in two parts
    would otherwise wait for the client's delayed acknowledgement, about 40 ms)."""
    listening = listening_socket("127.0.0.1", 0)
    accepted: list[int] = []

    async def exchange() -> None:
        def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            accepted.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(connected, sock=listening)
        port = listening.getsockname()[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await reader.read()
        writer.close()
        server.close()
        await server.wait_closed()

    try:
        assert listening.proto == socket.IPPROTO_TCP
        asyncio.run(exchange())
    finally:
        listening.close()
    assert accepted == [1]


@pytest.mark.slow  # two worker processes started and stopped
def test_serve_with_two_workers_answers(scenario_url: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    log = tmp_path / "serve.log"
    arguments = ["--workers", "2", "--threads", "3", "--database-url", scenario_url]
    with running_server("serve", arguments, env=env, log=log) as base:
        url = f"{base}/v1/lists/fide-standard/2026-11?revision=1"
        with urllib.request.urlopen(url, timeout=5) as answer:
            assert json.load(answer)["total"] == 7
        # One worker answering does not mean the other has started (on a loaded machine it
        # was still starting when the server was stopped): wait for both, then stop.
        deadline = time.monotonic() + START_TIMEOUT
        while log.read_text().count("Application startup complete") < 2:
            if time.monotonic() > deadline:
                break  # the assertion below says what the log shows
            time.sleep(0.2)
    assert log.read_text().count("Application startup complete") == 2
