"""benchmarks/history.py, correction.py and storage_designs.py run at a small size, so they never
rot. Figures are not asserted, only their presence and what follows from the build: speed and
size are measured by the scripts themselves (benchmarks/README.md), never by a timed test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.databases import PostgreSQLDatabases
from tests.support import forks

# Slow: each builds months of lists through the real close and serves the API.
pytestmark = pytest.mark.slow


def run(script: str, *options: str, cwd: Path) -> dict[str, object]:
    done = forks.run_benchmark(script, *options, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    figures: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def test_history_then_storage_designs_on_postgresql(
    postgresql_databases: PostgreSQLDatabases, tmp_path: Path
) -> None:
    url = postgresql_databases.create("history", migrated=False)
    try:
        figures = run(
            "history.py", "--players", "600", "--months", "3", "--database-url", url,
            "--duration", "0.2", "--warmup", "0.05", "--clients", "5", cwd=tmp_path,
        )  # fmt: skip
        # The baseline and three closed months; verify recomputes each of them (and checks the
        # baseline's digest) before the one more close.
        assert (figures["lists"], figures["build"]) == (4, "close")
        verified = figures["verify"]
        assert isinstance(verified, dict)
        assert (verified["lists"], verified["failed"]) == (4, 0)
        size = figures["size"]
        assert isinstance(size, dict)
        assert set(size["entry_index_bytes"]) == {"pk_list_entries", "ix_list_entries_list_id"}
        reads = figures["reads"]
        assert isinstance(reads, dict)
        assert set(reads) == {
            "health", "list", "history", "history-cold", "player-page", "player-page-hot",
            "list_uncached",
        }  # fmt: skip
        assert all(row["errors"] == 0 and row["requests"] > 0 for row in reads.values())
        closed = figures["one_more_close"]
        assert isinstance(closed, dict)
        assert closed["period"] == "2027-01"
        assert closed["entries"] > 0

        # The first renders of the longest histories and their pages: every one answered.
        cold = run("cold_history.py", "--database-url", url, "--samples", "4", "--repeat", "1",
                   cwd=tmp_path)  # fmt: skip
        assert cold["points"] == 5  # the baseline, three months and the one more close
        for name in ("history", "page", "history_render", "page_data"):
            row = cold[name]
            assert isinstance(row, dict)
            assert row["requests"] == 4, name

        # Every design answers every read as today's list_entries does (the script exits 1
        # otherwise); the changes hold the baseline's entries and fewer than all the others.
        designs = run("storage_designs.py", "--database-url", url, "--samples", "20",
                      cwd=tmp_path)  # fmt: skip
        assert designs["lists"] == 5
        sizes = designs["sizes"]
        assert isinstance(sizes, dict)
        assert set(sizes) == {"today", "lean", "changes+ranking", "changes+pages"}
        assert sizes["today"]["vs_today"] == 1.0
        share = designs["changed_share"]
        assert isinstance(share, float)
        assert 0.2 < share < 1.0
    finally:
        postgresql_databases.drop(url)


def test_history_copy_build_on_postgresql(
    postgresql_databases: PostgreSQLDatabases, tmp_path: Path
) -> None:
    url = postgresql_databases.create("historycopy", migrated=False)
    try:
        figures = run(
            "history.py", "--players", "500", "--months", "4", "--build", "copy",
            "--database-url", url, "--duration", "0.1", "--warmup", "0.05", "--clients", "2",
            cwd=tmp_path,
        )  # fmt: skip
        assert (figures["lists"], figures["build"], figures["verify"]) == (5, "copy", None)
        tables = figures["tables"]
        assert isinstance(tables, dict)
        # Copied lists carry every entry of the baseline forward (none falls below the floor:
        # a change never takes a rating under it), list_entries only the changes: the
        # baseline's every entry, then about --share (30 %) of them a month; no marker. No
        # games, so no calculations.
        size = figures["size"]
        assert isinstance(size, dict)
        rows = tables["list_entries"]["rows"]
        assert isinstance(rows, int)
        listed = int(size["entries_per_list"])  # every list has the baseline's entries
        assert listed + 4 * 0.2 * listed < rows < listed + 4 * 0.4 * listed
        assert tables["player_calculations"]["rows"] == 0
        # Every list has its chunks, the copied ones too: 3 of 200 entries for each of the 5
        # lists (401 to 600 entries each), sized before the one more close.
        assert 400 < int(size["entries_per_list"]) <= 600
        assert tables["list_chunks"]["rows"] == 3 * 5
        reads = run("list_reads.py", "--database-url", url, "--samples", "2", "--whole", "1",
                    cwd=tmp_path)  # fmt: skip
        entries = reads["entries"]  # the last list's: the one more closed
        assert isinstance(entries, int)
        assert entries > 400
        timed = reads["reads"]
        assert isinstance(timed, dict)
        assert set(timed) == {
            "page_first_10000", "page_anywhere", "rank_world", "ranks_on", "history", "entry_on",
            "ratings_on_100", "federation_page", "export", "digest", "entries_by_player",
            "close_previous_list", "rating_counts",
        }  # fmt: skip
    finally:
        postgresql_databases.drop(url)


def test_correction_benchmark_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'correction.sqlite3'}"
    figures = run("correction.py", "--players", "800", "--back", "3", "--database-url", url,
                  cwd=tmp_path)  # fmt: skip
    # A reversed result moves the winner's rating, which every later list carries forward:
    # one revision per period from the corrected one to the latest.
    assert (figures["back"], figures["revisions"]) == (3, 3)
    game = figures["game"]
    assert isinstance(game, dict)
    assert (game["period"], {game["result"], game["corrected"]}) == ("2026-10", {"1-0", "0-1"})
    assert figures["cascade_peak_rss_mb"] >= figures["start_rss_mb"]  # type: ignore[operator]
    changed = figures["players_changed"]
    assert isinstance(changed, list)
    assert len(changed) == 3
    assert all(count >= 1 for count in changed)
    # The dry run's impact was checked equal to the whole cascade's and the committed one's
    # revisions by the script itself.
    assert {"impact_s", "impact_cpu_s", "whole_cascade_s", "cascade_s"} <= figures.keys()
    # The committed revisions stored what changed: a row per player changed at most, and the
    # calculations of the players recomputed (each named in revised_players).
    grown = figures["grown"]
    assert isinstance(grown, dict)
    assert grown["revised_players"] >= sum(changed)
    assert grown["list_entries"] <= grown["revised_players"]
    assert grown["list_chunks"] >= 3
