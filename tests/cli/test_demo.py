"""``ratingdb demo``: the bundled sample federation loaded, every period due closed by the
scheduler's job, the addresses printed; run as a newcomer would, in an empty folder, on SQLite
(the default file) and on PostgreSQL; then once with the server, reading a player's history
through the API."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from ratingdb.db import head_revision
from ratingdb.sample_data import folder, load_manifest
from ratingdb.sample_data.generate import generate
from ratingdb.services import passwords
from tests.databases import free_port
from tests.support import forks
from tests.support.sql import query

ROOT = Path(__file__).resolve().parents[2]
#: The day the shipped data was made for: every period up to the December 2026 list is due
#: (its closing date is 2026-11-28).
NOW = "2026-11-30T12:00:00+00:00"
SHOWCASE = "79000001"
CATEGORIES = ("fide-standard", "fide-rapid", "fide-blitz", "ffe-rapid")


def demo(cwd: Path, *args: str, env: dict[str, str] | None = None) -> forks.Finished:
    environment = {k: v for k, v in os.environ.items() if k != "RATINGDB_DATABASE_URL"}
    return forks.run(["demo", *args], cwd=cwd, env=environment | (env or {}))


def check_loaded_and_closed(url: str) -> None:
    # 24 files: the six rapid opens count twice (FIDE and national rapid lists).
    assert query(url, "SELECT count(*) FROM tournaments") == [(30,)]
    assert query(url, "SELECT count(*) FROM tournaments WHERE group_id IS NOT NULL") == [(12,)]
    lists = query(
        url,
        "SELECT category, min(list_date), max(list_date), count(*) FROM rating_lists "
        "GROUP BY category ORDER BY category",
    )
    assert [(c, str(lo), str(hi), n) for c, lo, hi, n in lists] == [
        (category, "2026-06-01", "2026-12-01", 7) for category in sorted(CATEGORIES)
    ]
    assert query(url, "SELECT count(*) FROM periods WHERE state <> 'published'") == [(0,)]
    # Every tournament was rated on the list after it (none late), the players created once.
    assert query(url, "SELECT count(*) FROM tournaments WHERE late") == [(0,)]
    players = query(url, "SELECT count(*), count(fide_id), count(national_id) FROM players")[0]
    assert players[0] >= 180
    assert players[1] == 150
    # The showcase player is on every list of every category.
    assert query(
        url,
        f"SELECT count(*) FROM list_entries WHERE player_id = '{SHOWCASE}'",
    ) == [(28,)]
    # Players known only by a national id got first ratings on the national rapid list.
    first_ratings = query(
        url,
        "SELECT count(*) FROM list_entries e JOIN rating_lists l ON l.id = e.list_id "
        "WHERE l.category = 'ffe-rapid' AND l.list_date = '2026-12-01' "
        "AND e.player_id LIKE '9%'",
    )
    assert first_ratings[0][0] > 0


@pytest.mark.slow  # the whole demo: a federation built and closed month by month
def test_demo_on_sqlite_in_an_empty_folder(tmp_path: Path) -> None:
    done = demo(tmp_path, "--no-serve", "--now", NOW)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"demo: database: sqlite:///ratingdb.sqlite3 (schema {head_revision()})"
    assert lines[1] == (
        "demo: loaded the sample federation (RUR): 4 lists of 2026-06, 24 files making 30 "
        f"tournaments, {lines[1].split()[-2]} games"
    )
    assert lines[2] == (
        "demo: closed 24 periods: fide-standard 2026-07..2026-12; fide-rapid 2026-07..2026-12; "
        "fide-blitz 2026-07..2026-12; ffe-rapid 2026-07..2026-12"
    )
    assert "demo: API: http://127.0.0.1:8000/v1/" in done.stdout
    assert "demo: web page: http://127.0.0.1:8000/" in done.stdout
    url = f"sqlite:///{tmp_path / 'ratingdb.sqlite3'}"
    check_loaded_and_closed(url)
    # Demo accounts, one of each role, their passwords printed (issue 28 item 9).
    printed = re.findall(r"(\w+) \((\w+)\) with password '([^']+)'", done.stdout)
    assert [(name, role) for name, role, _ in printed] == [
        ("arbiter1", "arbiter"), ("officer1", "officer"), ("admin1", "admin"),
    ]  # fmt: skip
    stored = dict(query(url, "SELECT username, password_hash FROM users"))
    assert all(passwords.verify(stored[name], word) for name, _, word in printed)
    # Again: nothing loaded twice, nothing left to close, no account made nor printed.
    again = demo(tmp_path, "--no-serve", "--now", NOW)
    assert again.returncode == 0, again.stderr
    assert "the sample federation (RUR) is already loaded" in again.stdout
    assert "no period to close" in again.stdout
    assert "with password" not in again.stdout
    assert query(url, "SELECT count(*) FROM users") == [(3,)]
    check_loaded_and_closed(url)


@pytest.mark.slow  # the whole demo
def test_demo_with_a_database_url(empty_database_url: str, tmp_path: Path) -> None:
    """An empty database elsewhere (PostgreSQL, or a SQLite file): nothing in the folder."""
    work = tmp_path / "work"
    work.mkdir()
    done = demo(work, "--no-serve", "--now", NOW, "--database-url", empty_database_url)
    assert done.returncode == 0, done.stderr
    assert "closed 24 periods" in done.stdout
    assert list(work.iterdir()) == []
    check_loaded_and_closed(empty_database_url)


@pytest.mark.slow  # the whole demo
def test_demo_honours_the_publication_mode(tmp_path: Path) -> None:
    """A category published with approval: its first due list is computed and waits; its
    later ones are not closed; the other categories are published as always."""
    done = demo(tmp_path, "--no-serve", "--now", NOW,
                env={"RATINGDB_PUBLICATION_APPROVAL": "fide-standard"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (
        "demo: closed 18 periods: fide-rapid 2026-07..2026-12; fide-blitz 2026-07..2026-12; "
        "ffe-rapid 2026-07..2026-12"
    ) in done.stdout
    assert (
        "demo: awaiting-approval (approve in the back office): fide-standard 2026-07" in done.stdout
    )
    url = f"sqlite:///{tmp_path / 'ratingdb.sqlite3'}"
    assert query(url, "SELECT list_date, state FROM periods WHERE category = 'fide-standard' "
                 "AND state <> 'published'")[0][1] == "awaiting-approval"  # fmt: skip
    assert query(url, "SELECT max(list_date) FROM rating_lists WHERE category = "
                 "'fide-standard'")[0][0] in ("2026-06-01", date(2026, 6, 1))  # fmt: skip


@pytest.mark.slow  # the whole demo, then a refusal
def test_demo_refuses_a_database_with_other_data(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    baseline = tmp_path / "list.csv"
    baseline.write_text(
        "player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,"
        'k_factor\n1001,"Anna, A",FRA,F,1990,,1850,60,1850,20\n',
        encoding="utf-8",
    )
    for command in (
        ["db", "upgrade"],
        ["lists", "import", str(baseline), "--category", "fide-standard", "--period", "2026-06"],
    ):
        load = forks.run([*command, "--database-url", url])
        assert load.returncode == 0, load.stderr
    done = demo(tmp_path, "--no-serve", "--database-url", url)
    assert done.returncode == 2
    assert "--database-url: the database already holds 1 lists and 0 tournaments" in done.stderr
    assert query(url, "SELECT count(*) FROM tournaments") == [(0,)]


def test_the_sample_data_is_what_the_generator_makes(tmp_path: Path) -> None:
    """The shipped files are the generator's output (regenerate them after a change)."""
    generate(tmp_path)
    shipped = Path(str(folder()))
    made = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    manifest = load_manifest()
    listed = {item.file for item in manifest.lists} | {t.file for t in manifest.tournaments}
    assert {str(p) for p in made} == listed | {"manifest.json"}
    for relative in made:
        assert (tmp_path / relative).read_bytes() == (shipped / relative).read_bytes(), relative
    assert manifest.showcase_player == SHOWCASE
    assert str(manifest.anchor) == "2026-11"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    pytest.importorskip("ratingdb.api.server", reason="the API is not in this tree yet")
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if k != "RATINGDB_DATABASE_URL"}
    log = (tmp_path / "demo.log").open("w", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "ratingdb", "demo", "--port", str(port), "--now", NOW],
        cwd=tmp_path,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                output = (tmp_path / "demo.log").read_text(encoding="utf-8")
                pytest.fail(f"ratingdb demo stopped ({process.returncode}):\n{output}")
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=2) as answer:
                    if json.loads(answer.read())["status"] == "ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("ratingdb demo did not answer /health within 120 s")
            time.sleep(0.3)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.mark.slow  # the whole demo, served
def test_demo_serves_a_players_history(served: str) -> None:
    url = f"{served}/v1/players/{SHOWCASE}/history?category=fide-standard"
    with urllib.request.urlopen(url, timeout=10) as answer:
        history = json.loads(answer.read())
    points = history["points"]
    assert [p["period"] for p in points] == [f"2026-{m:02d}" for m in range(6, 13)]
    assert points[0]["change"] is None  # the imported starting list
    assert all(p["games"] > 0 for p in points[1:])  # an open and a club event every month
    for before, after in itertools.pairwise(points):
        assert after["rating"] == before["rating"] + after["change"]
