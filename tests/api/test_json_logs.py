"""``RATINGDB_LOG_FORMAT=json``: the records as JSON lines with ``time``, ``level``, ``logger``
and ``message`` (plus the traceback, and the access log's fields); ``ratingdb serve`` writing
nothing but such lines, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import logging
import os
import sys
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest

from ratingdb.config import READ_DATABASE_URL_VARIABLE
from ratingdb.observability.logs import JsonFormatter
from tests.support.server import running_server

KEYS = {"time", "level", "logger", "message"}


def record(name: str, message: str, *args: object, exc_info: object = None) -> logging.LogRecord:
    return logging.LogRecord(name, logging.WARNING, __file__, 1, message, args, exc_info)  # type: ignore[arg-type]


def test_a_record_is_one_json_line() -> None:
    line = JsonFormatter().format(record("ratingdb.api", "two\nlines: %s", "é"))
    assert "\n" not in line
    shown = json.loads(line)
    assert shown.keys() == KEYS
    assert (shown["level"], shown["logger"], shown["message"]) == (
        "WARNING", "ratingdb.api", "two\nlines: é")  # fmt: skip
    assert datetime.fromisoformat(shown["time"]).utcoffset().total_seconds() == 0  # type: ignore[union-attr]


def test_a_traceback_is_kept() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        shown = json.loads(
            JsonFormatter().format(record("jobs", "failed", exc_info=sys.exc_info()))
        )
    assert shown["message"] == "failed"
    assert shown["exception"].startswith("Traceback")
    assert shown["exception"].endswith("ValueError: boom")


def test_an_access_line_has_its_fields() -> None:
    access = record("uvicorn.access", '%s - "%s %s HTTP/%s" %d',
                    "192.0.2.1:5000", "GET", "/v1/lists?q=x", "1.1", 200)  # fmt: skip
    shown = json.loads(JsonFormatter().format(access))
    assert shown["message"] == '192.0.2.1:5000 - "GET /v1/lists?q=x HTTP/1.1" 200'
    assert {key: shown[key] for key in ("client", "method", "path", "http_version", "status")} == {
        "client": "192.0.2.1:5000", "method": "GET", "path": "/v1/lists?q=x",
        "http_version": "1.1", "status": 200}  # fmt: skip


@pytest.mark.processes
def test_serve_writes_json_lines_only(scenario_url: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    env["RATINGDB_LOG_FORMAT"] = "json"
    log = tmp_path / "serve.log"
    with running_server("serve", ["--database-url", scenario_url], env=env, log=log) as base:
        answer = urllib.request.urlopen(f"{base}/v1/players/1001", timeout=30)
        with answer:
            assert answer.status == 200
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert all(line.keys() >= KEYS for line in lines), lines
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert [(line["method"], line["path"], line["status"]) for line in access][-1] == (
        "GET", "/v1/players/1001", 200)  # fmt: skip
    assert any(line["logger"] == "uvicorn.error" for line in lines)
