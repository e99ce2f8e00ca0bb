"""``ratingdb serve``: uvicorn in its own process, answering over real HTTP."""

from __future__ import annotations

import json
import urllib.request

import pytest

from ratingdb.cli import build_parser, main
from ratingdb.db import head_revision


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


def test_serve_options() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.database_url) == ("127.0.0.1", 8000, None)
    args = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "9000", "--database-url", "sqlite:///x.db"]
    )
    assert (args.host, args.port, args.database_url) == ("0.0.0.0", 9000, "sqlite:///x.db")


def test_serve_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port: must be 0..65535, got 70000" in capsys.readouterr().err
