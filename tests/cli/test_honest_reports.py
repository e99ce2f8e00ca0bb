"""Honest reports (issue 11): a close of a published period reports that list, a dry run never
prints the id of a row it did not write, and the audit log names a person (``--actor``, else
``RATINGDB_ACTOR``, else the operating system user), never a process id.

The federation: Anna (1001), Bob (1002) and Gus (1003) on the fide-standard list of 2026-08;
one games CSV in 2026-09 (Anna beats Bob), so the 2026-09 close publishes 3 entries.
"""

from __future__ import annotations

import json
import pwd
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import forks
from tests.support.cli import run_cli as cli
from tests.support.rolled_back import RolledBack
from tests.support.sql import query

LIST = (
    "player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,k_factor\n"
    '1001,"Anna, A",FRA,F,1990,,1850,60,1850,20\n'
    '1002,"Bob, B",FRA,M,1985,,1920,60,1920,20\n'
    '1003,"Gus, G",FRA,M,1980,,1780,60,1780,20\n'
)
GAMES = (
    "tournament,start_date,end_date,round,white_id,black_id,result\n"
    "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
)
CORRECTED = GAMES.replace("1-0", "0-1")
CLOSE = ("periods", "close", "--category", "fide-standard", "--period", "2026-09")


def ok(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> Any:
    code, out, err = cli(capsys, *args, url=url)
    assert code == 0, err
    return json.loads(out)


def counts(database: RolledBack) -> tuple[int, ...]:
    return tuple(
        database.rows(f"SELECT count(*) FROM {table}")[0][0]
        for table in ("corrections", "rating_lists", "games", "audit_log", "players")
    )


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, content in (("list", LIST), ("games", GAMES), ("corrected", CORRECTED)):
        out[name] = tmp_path / f"{name}.csv"
        out[name].write_text(content, encoding="utf-8")
    return out


def load_files(url: str, files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    ok(capsys, url, "lists", "import", str(files["list"]), "--category", "fide-standard",
       "--period", "2026-08", "--actor", "loader")  # fmt: skip
    ok(capsys, url, "tournaments", "import", str(files["games"]), "--category",
       "fide-standard", "--actor", "loader")  # fmt: skip


@pytest.fixture
def loaded(
    database: RolledBack, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> RolledBack:
    load_files(database.url, files, capsys)
    return database


# --- periods close on a published period ---------------------------------------------------


def test_closing_a_published_period_reports_that_list(
    loaded: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    database = loaded
    url = database.url
    first = ok(capsys, url, *CLOSE)
    assert first["state"] == "published"
    stored = query(database, "SELECT id, entry_count, rule_version, revision "
                             "FROM rating_lists WHERE list_date = '2026-09-01'")  # fmt: skip
    assert len(stored) == 1
    list_id, entries, rule_version, revision = stored[0]
    assert (entries, revision) == (3, 1)  # Anna, Bob and Gus (who did not play)
    assert (first["list_id"], first["entries"], first["rule_version"]) == (
        list_id, 3, rule_version,
    )  # fmt: skip
    before = counts(database)

    code, out, err = cli(capsys, *CLOSE, url=url)
    assert code == 0
    again = json.loads(out)
    assert "fide-standard 2026-09 is already published" in err
    assert again["state"] == "already-published"
    assert (again["list_id"], again["entries"], again["rule_version"], again["revision"]) == (
        list_id, 3, rule_version, 1,
    )  # fmt: skip
    # Counts only a computation knows are null, never a made-up zero.
    assert again["games"] is None
    assert again["first_ratings"] is None
    assert counts(database) == before


def test_closing_an_imported_period_reports_the_imported_list(
    loaded: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    database = loaded
    url = database.url
    ((list_id, rule_version),) = query(
        database, "SELECT id, rule_version FROM rating_lists WHERE list_date = '2026-08-01'"
    )
    again = ok(capsys, url, "periods", "close", "--category", "fide-standard", "--period",
               "2026-08")  # fmt: skip
    assert again["state"] == "already-published"
    assert (again["list_id"], again["entries"], again["rule_version"]) == (list_id, 3, rule_version)


# --- dry runs ------------------------------------------------------------------------------


def test_dry_runs_print_no_id_of_a_row_they_did_not_write(
    loaded: RolledBack, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    database = loaded
    url = database.url
    before = counts(database)
    code, out, err = cli(capsys, *CLOSE, "--dry-run", url=url)
    assert code == 0, err
    dry = json.loads(out)
    assert dry["state"] == "dry-run"
    assert dry["list_id"] is None
    assert dry["revision"] is None
    assert "dry run: nothing was written" in err
    assert counts(database) == before

    ok(capsys, url, *CLOSE)
    before = counts(database)
    ((tournament_id,),) = query(database, "SELECT tournament_id FROM tournaments")
    commands = [
        ("games", "correct", "--tournament", tournament_id, "--round", "1", "--white", "1001",
         "--black", "1002", "--result", "0-1", "--reason", "scoresheet", "--dry-run"),
        ("players", "merge", "1001", "1003", "--reason", "one person",
         "--override", "another sex and birth year, merged all the same", "--dry-run"),
        ("tournaments", "import", str(files["corrected"]), "--replace", tournament_id,
         "--reason", "scoresheet", "--dry-run"),
    ]  # fmt: skip
    for command in commands:
        code, out, err = cli(capsys, *command, url=url)
        assert code == 0, (command, err)
        document = json.loads(out)
        assert document["dry_run"] is True
        assert document["correction_id"] is None, command
        assert "dry run: nothing was written" in err
        assert counts(database) == before, command
    # The correction would have changed the published list: the dry run still says how.
    assert [r["to_revision"] for r in document["revisions"]] == [2]


# --- the audit log's actor -----------------------------------------------------------------


def actors(where: RolledBack | str) -> list[tuple[str, str]]:
    return [
        (action, actor)
        for action, actor in query(where, "SELECT action, actor FROM audit_log ORDER BY id")
    ]


def test_the_audit_log_names_the_actor_given(
    database: RolledBack,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--actor first, then RATINGDB_ACTOR, then the operating system user (LOGNAME here)."""
    url = database.url
    monkeypatch.setenv("LOGNAME", "olga")
    monkeypatch.setenv("RATINGDB_ACTOR", "Ravi Rating Officer")
    ok(capsys, url, "lists", "import", str(files["list"]), "--category", "fide-standard",
       "--period", "2026-08", "--actor", "Ada Arbiter")  # fmt: skip
    ok(capsys, url, "tournaments", "import", str(files["games"]), "--category", "fide-standard")
    monkeypatch.delenv("RATINGDB_ACTOR")
    ok(capsys, url, *CLOSE)
    ((tournament_id,),) = query(database, "SELECT tournament_id FROM tournaments")
    ok(capsys, url, "games", "correct", "--tournament", tournament_id, "--round", "1",
       "--white", "1001", "--black", "1002", "--result", "1/2-1/2", "--reason", "scoresheet",
       "--actor", "Ada Arbiter")  # fmt: skip
    ok(capsys, url, "tournaments", "import", str(files["corrected"]), "--replace", tournament_id,
       "--reason", "second scoresheet", "--actor", "Bea")  # fmt: skip
    ok(capsys, url, "players", "merge", "1001", "1003", "--reason", "one person",
       "--override", "another sex and birth year, merged all the same")  # fmt: skip
    assert actors(database) == [
        ("list-import", "Ada Arbiter"),
        ("tournament-import", "Ravi Rating Officer"),
        ("close", "olga"),
        ("correction", "Ada Arbiter"),
        ("correction", "Bea"),
        ("merge", "olga"),
    ]


def test_an_actor_that_cannot_be_found_or_used_is_refused(
    database: RolledBack,
    files: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = database.url
    before = counts(database)
    load = ("lists", "import", str(files["list"]), "--category", "fide-standard", "--period",
            "2026-08")  # fmt: skip
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME", "RATINGDB_ACTOR"):
        monkeypatch.delenv(variable, raising=False)

    def no_entry(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    code, _, err = cli(capsys, *load, url=url)
    assert code == 2
    assert "cannot tell who runs this command" in err
    assert "give --actor NAME or set RATINGDB_ACTOR" in err
    for bad, said in (("   ", "the name of a person is needed"),
                      ("x" * 101, "at most 100 characters"),
                      ("Ada\nArbiter", "control characters")):  # fmt: skip
        code, _, err = cli(capsys, *load, "--actor", bad, url=url)
        assert code == 2
        assert err.startswith(f"ratingdb lists: --actor: {said}"), err
    assert counts(database) == before


@pytest.mark.processes
def test_the_scheduled_close_records_its_actor(
    database_url: str, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m jobs``: ``--actor`` as given; without it, the OS user, marked as the
    scheduler's. (A process of its own: a database of its own.)"""
    url = database_url
    load_files(url, files, capsys)
    base = ["--database-url", url]
    env = {"PATH": "/usr/bin:/bin", "LOGNAME": "cron-user", "PYTHONPATH": ":".join(sys.path)}
    done = forks.run(
        [*base, "run", "close-periods", "--now", "2026-09-01T00:30:00+00:00"],
        module="jobs", env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    done = forks.run(
        [*base, "--actor", "Ola Operator", "run", "close-periods", "--now",
         "2026-10-01T00:30:00+00:00"],
        module="jobs", env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    closes = [actor for action, actor in actors(url) if action == "close"]
    assert closes == ["cron-user (scheduler)", "Ola Operator"]
