"""benchmarks/api_load.py runs at a small size on SQLite, so it never rots. Figures are not
asserted beyond their presence and shape: speed is measured by the script itself
(benchmarks/README.md), never by a timed test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import forks

# Slow: the load benchmark serves and measures for several seconds (short measurements, each
# as many requests as the machine can make: all the CPU it can get), the pages in a second run.
pytestmark = pytest.mark.slow
ENDPOINTS = {"health", "list", "history", "calculation"}
FIGURES = {"rps", "p50_ms", "p95_ms", "p99_ms", "requests", "errors"}


def run(tmp_path: Path, *options: str) -> dict[str, object]:
    url = f"sqlite:///{tmp_path / 'api.sqlite3'}"
    done = forks.run_benchmark(
        "api_load.py", "--players", "2000", "--games", "1000", "--database-url", url,
        "--duration", "0.1", "--warmup", "0.05", *options, cwd=tmp_path, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert any(line.startswith("endpoint") for line in lines), done.stdout  # the table
    figures: dict[str, object] = json.loads(lines[-1])
    return figures


def test_api_load_benchmark_runs_on_sqlite(tmp_path: Path) -> None:
    # Two client counts, the targets' (50) and one more: every measurement is a tenth of a
    # second of all the CPU the machine has (each client goes on until one of its answers
    # counts), the script's default three levels add nothing here.
    figures = run(tmp_path, "--concurrency", "1,50")
    assert (figures["players"], figures["games"], figures["backend"]) == (2000, 1000, "sqlite")
    assert figures["concurrency"] == [1, 50]
    endpoints = figures["endpoints"]
    assert isinstance(endpoints, dict)
    assert set(endpoints) == ENDPOINTS
    for name, by_clients in endpoints.items():
        assert set(by_clients) == {"1", "50"}, name
        for clients, row in by_clients.items():
            assert set(row) >= FIGURES, (name, clients)
            assert row["errors"] == 0, (name, clients, row)
            assert row["requests"] > 0, (name, clients, row)
            assert row["p50_ms"] <= row["p95_ms"] <= row["p99_ms"]
            assert ("ratio" in row) == (name != "health")
            assert row["server_cpu_ms"] > 0, (name, clients, row)  # Linux: /proc is read
    targets = figures["targets"]
    assert isinstance(targets, dict)
    assert set(targets) == {"list", "history"}
    assert {"p99_ms", "ratio", "p99_met", "ratio_met"} <= set(targets["list"])

    # --reuse keeps the database it finds; two workers answer as one; --endpoints measures
    # the web pages (health always first), and the HTML list page has its target at 50 (every
    # client counts at least one answer, however busy the machine: no longer window needed).
    pages_asked = "player-page,list-page,player-page-hot"
    again = run(tmp_path, "--reuse", "--concurrency", "50", "--workers", "2",
                "--no-access-log", "--endpoints", pages_asked)  # fmt: skip
    assert again["reused"] is True
    assert (again["workers"], again["access_log"], again["concurrency"]) == (2, False, [50])
    assert again["entries"] == figures["entries"]
    assert again["endpoints_measured"] == ["health", "player-page", "list-page", "player-page-hot"]
    pages = again["endpoints"]
    assert isinstance(pages, dict)
    assert set(pages) == {"health", "player-page", "list-page", "player-page-hot"}
    for name in ("player-page", "list-page", "player-page-hot"):
        row = pages[name]["50"]
        assert row["errors"] == 0, (name, row)  # every page answered 200
        assert row["requests"] > 0, (name, row)
    targets = again["targets"]
    assert isinstance(targets, dict)
    assert set(targets) == {"list-page"}
    assert set(targets["list-page"]) == {"p99_ms", "ratio", "p99_met"}

    # The same app under plain uvicorn (benchmarks/plain_serve.py), as the protocol's
    # comparison runs it: each plain protocol answers every request.
    for http in ("h11", "httptools"):
        plain = run(tmp_path, "--reuse", "--concurrency", "10", "--endpoints", "list",
                    "--http", http)  # fmt: skip
        assert plain["http"] == http
        for name in ("health", "list"):
            row = plain["endpoints"][name]["10"]  # type: ignore[index]
            assert row["errors"] == 0, (http, name, row)
            assert row["requests"] > 0, (http, name, row)
