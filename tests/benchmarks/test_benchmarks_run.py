"""The benchmark scripts run at a small size, so they never rot. Figures are not asserted:
speed is measured by the scripts themselves (benchmarks/README.md), never by a timed test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import forks

# Slow: the benchmark scripts build and close thousands of players.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def test_core_period_benchmark_runs_and_ends_with_a_json_line() -> None:
    done = forks.run_benchmark("core_period.py", "--players", "2000", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["players"] == 2000
    assert figures["games_per_player"] == 2
    assert figures["players_per_s"] > 0


def test_close_period_benchmark_runs_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    done = forks.run_benchmark(
        "close_period.py", "--players", "1500", "--games", "800", "--database-url", url,
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["backend"] == "sqlite"
    assert figures["players"] == 1500
    assert figures["games"] == 800
    assert figures["total_s"] > 0
    assert figures["baseline_s"] > 0
    # The close against loading and rating alone, measured in the same run.
    assert figures["load_rate_s"] > 0
    # (Both times are printed to the millisecond: at this size a few tens of milliseconds.)
    ratio = figures["total_s"] / figures["load_rate_s"]
    assert figures["ratio_to_load_rate"] == pytest.approx(ratio, rel=0.05)
    assert figures["server_cpu_s"] is None  # SQLite: no server process


def test_publication_preview_benchmark_runs_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    done = forks.run_benchmark(
        "publication_preview.py", "--players", "1500", "--games", "800", "--database-url", url,
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert (figures["players"], figures["games"]) == (1500, 800)
    assert figures["entries"] > 0
    assert figures["preview_s"] > 0
    assert figures["approve_s"] > 0


def test_startup_benchmark_runs_and_ends_with_a_json_line() -> None:
    done = forks.run_benchmark("startup.py", "--runs", "1", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["runs"] == 1
    assert set(figures["median_s"]) >= {"ratingdb --help", "ratingdb calc FILE"}
    assert figures["target_s"] == 0.3


def test_interim_page_benchmark_runs_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'bench.sqlite3'}"
    done = forks.run_benchmark(
        "interim_page.py", "--players", "300", "--months", "1", "--samples", "2", "--repeat",
        "1", "--database-url", url, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert (figures["backend"], figures["players"], figures["samples"]) == ("sqlite", 300, 2)
    modes = ("with_interim", "without_interim", "interim_json", "interim_only", "interim_none",
             "cached")  # fmt: skip
    for mode in modes:
        assert figures[mode]["requests"] == 2, mode


def test_protocol_cost_benchmark_runs_and_ends_with_a_json_line() -> None:
    done = forks.run_benchmark(
        "protocol_cost.py", "--rounds", "1", "--clients", "2", "--duration", "0.2",
        "--warmup", "0.05", "--sizes", "100", cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(figures["rounds"]) == {"limited 100", "h11 100", "httptools 100"}
    for name, rounds in figures["rounds"].items():
        assert len(rounds) == 1, name
        assert rounds[0]["rps"] > 0, name
        assert rounds[0]["cpu_ms"] > 0, name  # Linux: the server's /proc is read
