"""Two ends a command line user meets (issue 29, item 5).

``ratingdb serve`` or ``ratingdb backoffice`` without a database says so, names it, says how to
make one and exits 1 before it listens: a SQLite file that does not exist (and none is created:
the README's promise, only ``db upgrade`` creates a database), a PostgreSQL database that does
not exist, a database never set up (an empty SQLite file, as the ``serve`` of before made). The
back office, a writer, also refuses a database at an older schema, as every command does.

A listing whose reader goes away (``| head -1``) ends quietly: no traceback on stderr, no
"Exception ignored" at exit, exit 1 (``ratingdb.output``), whether it was writing many lines
when the pipe closed or had a few buffered for the exit; ``python -m jobs`` too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import make_url

from ratingdb.cli import main
from ratingdb.db import downgrade, head_revision
from tests.databases import PostgreSQLDatabases
from tests.support import forks
from tests.support.factories import BASELINE, games_csv, list_csv

pytestmark = pytest.mark.processes

UPGRADE = "run `ratingdb db upgrade`"
SERVERS = ["serve", "backoffice"]


def refused(command: str, url: str) -> str:
    """``ratingdb COMMAND`` on ``url``: exit 1 and one line on stderr, no traceback; the line."""
    done = forks.run([command, "--database-url", url, "--port", "0"], timeout=120)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"ratingdb {command}: "), done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def shown(url: str) -> str:
    """The database as the messages name it: the SQLite file, the URL without password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return str(parsed.database)
    return parsed.render_as_string(hide_password=True)


@pytest.mark.parametrize("command", SERVERS)
def test_a_server_on_a_missing_sqlite_file_says_so_and_creates_nothing(
    tmp_path: Path, command: str
) -> None:
    missing = tmp_path / "nothing-here.sqlite3"
    line = refused(command, f"sqlite:///{missing}")
    assert line == (
        f"ratingdb {command}: there is no database at {missing}: {UPGRADE} to create it "
        "(`ratingdb demo` creates one holding the sample federation), or give the right "
        "--database-url\n"
    )
    assert not missing.exists()


@pytest.mark.parametrize("command", SERVERS)
def test_a_server_on_a_database_never_set_up_says_so(empty_database_url: str, command: str) -> None:
    """An empty SQLite file (what ``serve`` left before), an empty PostgreSQL database."""
    path = make_url(empty_database_url).database
    sqlite = empty_database_url.startswith("sqlite")
    if sqlite:
        Path(str(path)).touch()
    line = refused(command, empty_database_url)
    where = shown(empty_database_url)
    assert line == f"ratingdb {command}: the database at {where} is not set up: {UPGRADE}\n"
    if sqlite:
        assert Path(str(path)).stat().st_size == 0  # nothing written into it either


@pytest.mark.parametrize("command", SERVERS)
def test_a_server_on_a_postgresql_database_that_does_not_exist_says_so(
    postgresql_databases: PostgreSQLDatabases, command: str
) -> None:
    name = postgresql_databases.new_name("absent")
    url = postgresql_databases.url(name)
    line = refused(command, url)
    assert line.startswith(f"ratingdb {command}: cannot reach the database at {shown(url)} ("), line
    assert f'database "{name}" does not exist' in line  # the server's own words, quoted
    assert line.endswith(
        "(a database not created yet: create it, e.g. with PostgreSQL's createdb, then "
        f"{UPGRADE})\n"
    )


def test_the_back_office_refuses_an_older_schema(database_url: str) -> None:
    """A writer, as every command and the scheduler. (``serve`` starts on it: /health answers
    503 until a replica has replayed the migration, tests/cli/test_operational_failures.py.)"""
    downgrade(database_url, "0003")
    line = refused("backoffice", database_url)
    assert line == (
        f"ratingdb backoffice: the database at {shown(database_url)} is at schema revision "
        f"0003, this ratingdb needs {head_revision()}: {UPGRADE}\n"
    )


# --- a reader that goes away -----------------------------------------------------------------


def environment_as_a_user_has_it() -> dict[str, str]:
    """Without PYTHONUNBUFFERED (the test run may set it): stdout to a pipe is then buffered,
    and a short output is only written when the command flushes it, or at exit."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def with_reader_gone(argv: list[str]) -> tuple[int, str]:
    """Run ``python ARGV`` with its stdout a pipe whose only reader is closed before the
    command writes a byte (it is still importing): every write fails with EPIPE. Its exit
    status and stderr."""
    with subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=environment_as_a_user_has_it()) as process:  # fmt: skip
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.close()
        errors = process.stderr.read().decode()
        return process.wait(timeout=120), errors


@pytest.fixture
def small_history(database_url: str, tmp_path: Path) -> str:
    """The baseline list of 2026-08 and one tournament rated in 2026-09: a few lines of output
    for each listing."""
    baseline = tmp_path / "baseline.csv"
    baseline.write_text(BASELINE, encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text(games_csv('"Autumn Open",2026-08-03,2026-08-05,1,1001,1002,1-0'))
    for argv in (
        ["lists", "import", str(baseline), "--category", "fide-standard", "--period", "2026-08"],
        ["tournaments", "import", str(games), "--category", "fide-standard"],
    ):
        assert main([*argv, "--database-url", database_url, "--actor", "test"]) == 0
    return database_url


@pytest.mark.parametrize(
    "argv",
    [["periods", "status"], ["lists", "list"], ["tournaments", "list"], ["players", "search", "a"]],
    ids=" ".join,
)
def test_a_short_listing_whose_reader_went_away_ends_quietly(
    small_history: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main([*argv, "--database-url", small_history]) == 0
    assert capsys.readouterr().out.count("\n") >= 1  # it has something to write
    code, errors = with_reader_gone(["-m", "ratingdb", *argv, "--database-url", small_history])
    assert (code, errors) == (1, "")


def test_the_jobs_list_whose_reader_went_away_ends_quietly() -> None:
    code, errors = with_reader_gone(["-m", "jobs", "list"])
    assert code == 1
    assert "BrokenPipe" not in errors, errors
    assert "Exception ignored" not in errors, errors


def test_a_listing_piped_into_head_ends_quietly(database_url: str, tmp_path: Path) -> None:
    """20,000 entries (about 1 MB of CSV, past any pipe's buffer): ``head -1`` reads the header
    and leaves while the export is still writing; it stops without a word on stderr."""
    assert main(["db", "upgrade", "--database-url", database_url]) == 0
    rows = [f'{100000 + i},"Player, Number {i}",FRA,M,1990,,{1400 + i % 1000},0,,20'
            for i in range(20_000)]  # fmt: skip
    listed = tmp_path / "list.csv"
    listed.write_text(list_csv(*rows), encoding="utf-8")
    assert main(["lists", "import", str(listed), "--category", "fide-standard", "--period",
                 "2026-11", "--database-url", database_url, "--actor", "test"]) == 0  # fmt: skip
    errors = tmp_path / "stderr.txt"
    command = (
        f"'{sys.executable}' -m ratingdb lists export --category fide-standard --period 2026-11 "
        f"--format csv --database-url '{database_url}' 2>'{errors}' | head -1"
    )
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], capture_output=True,
                          text=True, timeout=300, env=environment_as_a_user_has_it())  # fmt: skip
    assert done.stdout.startswith("player_id,")
    assert done.stdout.count("\n") == 1
    assert errors.read_text() == ""
    assert done.returncode == 1  # the export could not deliver all of it (pipefail)
