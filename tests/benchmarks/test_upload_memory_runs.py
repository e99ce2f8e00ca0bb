"""benchmarks/upload_memory.py runs at a small size, so that it never rots. Figures are not
asserted (benchmarks/README.md records them), only that each is there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import forks

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_upload_memory_benchmark_runs_and_ends_with_a_json_line() -> None:
    done = forks.run_benchmark("upload_memory.py", "--mb", "0.2", "--concurrent", "2", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert (figures["mb"], figures["concurrent"]) == (0.2, 2)
    assert {"parse", "service", "http_raw", "http_multipart"} <= set(figures)
    for name in ("http_raw", "http_multipart"):
        assert len(figures[name]["statuses"]) == 2
        assert set(figures[name]["statuses"]) <= {201, 503}, figures[name]
