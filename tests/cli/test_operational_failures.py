"""Operational failures (issue 11): one line on stderr saying what went wrong and what to do,
exit 1, no traceback; ``--debug`` or ``RATINGDB_DEBUG=1`` shows the traceback instead.

Each case is produced for real (a database never migrated, a closed port, a file of garbage, a
read-only database, a backend killed in the middle of a close), on SQLite and PostgreSQL where
both apply.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text

import ratingdb.repositories.list_storage.changes as close_module
from ratingdb.cli import main
from ratingdb.db import downgrade
from ratingdb.db.bulk import bulk_insert_rows
from ratingdb.db.migrate import head_revision
from ratingdb.failures import OperationalFailure, require_database_to_serve
from tests.support import forks
from tests.support.rolled_back import RolledBack

UPGRADE = "run `ratingdb db upgrade`"
LIST = (
    "player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,k_factor\n"
    '1001,"Anna, A",FRA,F,1990,,1850,60,1850,20\n'
    '1002,"Bob, B",FRA,M,1985,,1920,60,1920,20\n'
)
GAMES = (
    "tournament,start_date,end_date,round,white_id,black_id,result\n"
    "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
)


def fails(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the command, expect exit 1 and exactly one line on stderr; return that line."""
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 1, (out, err)
    assert out == ""
    assert err.endswith("\n"), err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def list_file(tmp_path: Path) -> Path:
    path = tmp_path / "list.csv"
    path.write_text(LIST, encoding="utf-8")
    return path


def import_list(path: Path, url: str) -> list[str]:
    return ["lists", "import", str(path), "--category", "fide-standard", "--period", "2026-08",
            "--database-url", url]  # fmt: skip


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once the probe is closed


# --- database not migrated ---------------------------------------------------------------


def test_a_database_never_migrated_says_run_db_upgrade(
    empty_database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = fails(capsys, *import_list(list_file(tmp_path), empty_database_url))
    assert line.startswith("ratingdb lists: ")
    assert UPGRADE in line
    line = fails(capsys, "audit", "--database-url", empty_database_url)
    assert UPGRADE in line


def test_a_missing_sqlite_file_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "absent.sqlite3"
    line = fails(capsys, "periods", "status", "--database-url", f"sqlite:///{path}")
    assert line == (
        f"ratingdb periods: there is no database at {path}: {UPGRADE} to create it "
        "(`ratingdb demo` creates one holding the sample federation), or give the right "
        "--database-url\n"
    )
    assert not path.exists()


def test_an_empty_sqlite_file_is_not_set_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    line = fails(capsys, "audit", "--database-url", f"sqlite:///{path}")
    assert line == f"ratingdb audit: the database at {path} is not set up: {UPGRADE}\n"


def test_a_database_at_an_older_schema_says_run_db_upgrade(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    downgrade(database_url, "0003")
    line = fails(capsys, *import_list(list_file(tmp_path), database_url))
    assert f"is at schema revision 0003, this ratingdb needs {head_revision()}" in line
    assert line.rstrip().endswith(UPGRADE)
    assert main(["db", "upgrade", "--database-url", database_url]) == 0
    assert main(import_list(list_file(tmp_path), database_url)) == 0


def test_the_api_starts_on_an_older_schema_not_on_none(database_url: str) -> None:
    """``ratingdb serve``'s check before it listens (tests/cli/test_quiet_ends.py runs it): a
    replica still replaying a migration is served, and /health answers 503 naming the revision
    (tests/api/test_health.py); a database never set up is refused. The back office's check,
    a writer's, refuses the older schema too."""
    downgrade(database_url, "0003")
    require_database_to_serve(database_url, "--database-url", latest=False)  # no exception
    with pytest.raises(OperationalFailure, match="at schema revision 0003, this ratingdb needs"):
        require_database_to_serve(database_url, "--database-url", latest=True)
    downgrade(database_url, "base")
    with pytest.raises(OperationalFailure, match=r"is not set up: run `ratingdb db upgrade`$"):
        require_database_to_serve(database_url, "--database-url", latest=False)


# --- database unreachable ----------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "nohost.invalid:5432"])
def test_an_unreachable_postgresql_says_so(host: str, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"postgresql://postgres@{host.format(port=closed_port())}/ratingdb"
    line = fails(capsys, "periods", "status", "--database-url", url)
    assert line.startswith("ratingdb periods: cannot reach the database at postgresql+psycopg://")
    assert line.endswith(
        "check that the server is running and that the host, port and database name are right "
        f"(a database not created yet: create it, e.g. with PostgreSQL's createdb, then {UPGRADE})"
        "\n"
    )
    assert ("Connection refused" in line) or ("failed to resolve host" in line), line


# --- read-only SQLite ---------------------------------------------------------------------


def test_a_read_only_sqlite_database_says_so(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite opened read-only (``mode=ro``): the real SQLITE_READONLY a read-only file gives."""
    if not database_url.startswith("sqlite"):
        pytest.skip("a SQLite file; PostgreSQL has no file")
    path = database_url.removeprefix("sqlite:///")
    url = f"sqlite:///file:{path}?mode=ro&uri=true"
    line = fails(capsys, *import_list(list_file(tmp_path), url))
    assert "cannot be written (attempt to write a readonly database)" in line
    assert "the file or its folder is read-only" in line


def _write_protect(target: Path, what: str) -> Callable[[], object]:
    """Take write permission away from ``target``; returns what gives it back. Root writes
    whatever the permission bits say, but not to an immutable file or folder (chattr +i), which
    fails the same way (EPERM/EACCES -> SQLITE_READONLY or SQLITE_CANTOPEN)."""
    if os.geteuid() != 0:
        target.chmod(0o555 if what == "folder" else 0o444)
        return lambda: target.chmod(0o755 if what == "folder" else 0o644)
    chattr = shutil.which("chattr")
    if chattr is None:
        pytest.skip("running as root without chattr: nothing can stop root writing")
    done = subprocess.run([chattr, "+i", str(target)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"running as root and chattr +i is refused here: {done.stderr.strip()}")
    return lambda: subprocess.run([chattr, "-i", str(target)], check=True)


@pytest.mark.processes
@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_sqlite_file_or_folder_without_write_permission_says_so(
    tmp_path: Path, what: str, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    database = folder / "ratingdb.sqlite3"
    url = f"sqlite:///{database}"
    assert main(["db", "upgrade", "--database-url", url]) == 0
    restore = _write_protect(database if what == "file" else folder, what)
    try:
        line = fails(capsys, *import_list(list_file(tmp_path), url))
    finally:
        restore()
    assert "cannot be written" in line or "cannot be opened" in line, line
    assert "Traceback" not in line


# --- corrupted SQLite ----------------------------------------------------------------------


def test_a_file_of_garbage_is_not_a_sqlite_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(bytes(range(256)) * 40)
    line = fails(capsys, "periods", "status", "--database-url", f"sqlite:///{path}")
    assert line == (
        f"ratingdb periods: the database at {path} is not a SQLite database or is damaged "
        "(file is not a database): restore it from a backup, or give the right --database-url\n"
    )


# --- unsupported URL -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mysql://root@localhost/ratingdb", "unsupported database 'mysql'"),
        ("postgresql+psycopg2://u@h/db", "unsupported database 'postgresql+psycopg2'"),
        ("foo://bar", "unsupported database 'foo'"),
        ("nonsense", "not a database URL: 'nonsense'"),
    ],
)
def test_an_unsupported_database_url_says_which_work(
    url: str, said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    line = fails(capsys, "periods", "status", "--database-url", url)
    assert line.startswith(f"ratingdb periods: --database-url: {said}")
    assert "sqlite:///FILE" in line
    assert "postgresql+psycopg://" in line
    monkeypatch.setenv("RATINGDB_DATABASE_URL", url)
    line = fails(capsys, "audit")
    assert line.startswith(f"ratingdb audit: RATINGDB_DATABASE_URL: {said}")


# --- connection lost during a close ------------------------------------------------------


@pytest.fixture
def prepared_url(database_url: str, tmp_path: Path) -> str:
    games = tmp_path / "games.csv"
    games.write_text(GAMES, encoding="utf-8")
    assert main(import_list(list_file(tmp_path), database_url)) == 0
    assert main(["tournaments", "import", str(games), "--category", "fide-standard",
                 "--database-url", database_url]) == 0  # fmt: skip
    return database_url


def september_lists(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(
                connection.execute(
                    text("SELECT count(*) FROM rating_lists WHERE list_date = '2026-09-01'")
                ).scalar_one()
            )
    finally:
        engine.dispose()


def test_a_connection_lost_during_a_close_says_so_and_writes_nothing(
    prepared_url: str,
    postgresql_admin: Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Another connection terminates the close's backend (``pg_terminate_backend``) between
    two of its writes: the driver's own error, then one line and exit 1."""
    if not prepared_url.startswith("postgresql"):
        pytest.skip("a server connection: SQLite has none to lose")
    real = bulk_insert_rows
    calls: list[object] = []

    def terminated(session: Any, table: Any, keys: Sequence[str], rows: Iterable[Any]) -> int:
        calls.append(table)
        if len(calls) == 2:
            pid = session.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
            with postgresql_admin.connect() as other:
                other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        return real(session, table, keys, rows)

    monkeypatch.setattr(close_module, "bulk_insert_rows", terminated)
    line = fails(capsys, "periods", "close", "--category", "fide-standard", "--period", "2026-09",
                 "--database-url", prepared_url)  # fmt: skip
    assert len(calls) == 2
    assert line.startswith("ratingdb periods: the connection to the database at postgresql")
    assert "was lost while the command ran (terminating connection due to administrator" in line
    assert line.rstrip().endswith("check the server, then run the command again")
    assert september_lists(prepared_url) == 0

    monkeypatch.undo()
    assert main(["periods", "close", "--category", "fide-standard", "--period", "2026-09",
                 "--database-url", prepared_url]) == 0  # fmt: skip
    assert september_lists(prepared_url) == 1


# --- --debug, RATINGDB_DEBUG, the console script and python -m jobs ------------------------


def run(*args: str, env: dict[str, str] | None = None) -> forks.Finished:
    """``python -m MODULE ARGS...`` (``args``: ``"-m", MODULE, ...``), a process forked from a
    warm interpreter (tests/support/forks.py)."""
    environ = {k: v for k, v in os.environ.items() if k != "RATINGDB_DEBUG"} | (env or {})
    assert args[0] == "-m", args
    return forks.run(args[2:], module=args[1], env=environ)


@pytest.mark.processes
def test_debug_shows_the_traceback(empty_database_url: str) -> None:
    url = empty_database_url
    plain = run("-m", "ratingdb", "audit", "--database-url", url)
    assert plain.returncode == 1
    assert plain.stderr.count("\n") == 1
    assert UPGRADE in plain.stderr
    assert "Traceback" not in plain.stderr
    for args, env in [
        (("-m", "ratingdb", "--debug", "audit", "--database-url", url), None),
        (("-m", "ratingdb", "audit", "--database-url", url), {"RATINGDB_DEBUG": "1"}),
    ]:
        shown = run(*args, env=env)
        assert shown.returncode == 1
        assert shown.stderr.startswith("Traceback (most recent call last):"), shown.stderr
        assert UPGRADE in shown.stderr.splitlines()[-1]


@pytest.mark.processes
def test_jobs_report_an_operational_failure_in_one_line(empty_database_url: str) -> None:
    url = empty_database_url
    plain = run("-m", "jobs", "--database-url", url, "run", "close-periods")
    assert plain.returncode == 1
    assert plain.stdout == ""
    lines = [line for line in plain.stderr.splitlines() if line.startswith("python -m jobs")]
    assert len(lines) == 1, plain.stderr
    assert UPGRADE in lines[0]
    assert "Traceback" not in plain.stderr
    shown = run("-m", "jobs", "--debug", "--database-url", url, "run", "close-periods")
    assert shown.returncode == 1
    assert "Traceback (most recent call last):" in shown.stderr


def test_bad_input_still_exits_2(database: RolledBack, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["periods", "close", "--category", "nope", "--period", "2026-09",
                 "--database-url", database.url], sessions=database.sessions)  # fmt: skip
    assert code == 2
    assert capsys.readouterr().err.startswith("ratingdb periods: --category: ")
