"""The rolled-back tests' machinery (tests/support/rolled_back.py): what a test writes in its
worker's database is gone for the next test, ids start again where a fresh database's start,
commands and sessions work inside the test's transaction without ending it, and a connection
of its own to the held database is refused."""

from __future__ import annotations

import json

import pytest
from sqlalchemy.exc import IntegrityError

from ratingdb.db import make_engine
from tests.support.cli import run_cli
from tests.support.rolled_back import RolledBack, WorkerDatabase, sessions_for

PASSWORD = "correct horse battery staple"


def add(capsys: pytest.CaptureFixture[str], held: RolledBack, name: str) -> int:
    """``ratingdb users add NAME`` in the test's transaction; the new account's id."""
    code, out, err = run_cli(capsys, "users", "add", name, "--role", "officer",
                             "--password-stdin", url=held.url, stdin=PASSWORD)  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["username"] == name
    (found,) = held.rows("SELECT id FROM users WHERE username = :name", name=name)
    return int(found[0])


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_what_a_test_wrote_is_gone_and_ids_start_again(
    kind: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    worker: WorkerDatabase = request.getfixturevalue(f"worker_{kind}")
    with worker.transaction() as held:
        assert held.rows("SELECT count(*) FROM users") == [(0,)]  # the migrations add none
        assert add(capsys, held, "ann") == 1
        assert add(capsys, held, "bob") == 2  # the command's commit left the test's transaction
        assert held.rows("SELECT count(*) FROM users") == [(2,)]
    with worker.transaction() as held:
        assert held.rows("SELECT count(*) FROM users") == [(0,)]
        assert add(capsys, held, "cyd") == 1  # PostgreSQL's sequence put back


def test_a_session_that_fails_undoes_only_its_own_work(
    database: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    add(capsys, database, "ann")
    code, _, err = run_cli(capsys, "users", "add", "ann", "--role", "admin", "--password-stdin",
                           url=database.url, stdin=PASSWORD)  # fmt: skip
    assert code != 0  # the same name again: refused, rolled back to its savepoint
    assert "ann" in err
    with pytest.raises(IntegrityError), database.sessions.begin() as session:
        session.connection().exec_driver_sql("INSERT INTO users (id) VALUES (NULL)")
    assert database.rows("SELECT username, role FROM users") == [("ann", "officer")]


def test_commands_run_in_the_transaction_of_the_database_they_are_given(
    database: RolledBack,
) -> None:
    assert sessions_for(database.url) is database.sessions
    assert sessions_for(database.url + "_other") is None


def test_a_connection_of_its_own_to_the_held_database_is_refused(database: RolledBack) -> None:
    engine = make_engine(database.url)
    try:
        with pytest.raises(RuntimeError, match="rolled back"):
            engine.connect()
    finally:
        engine.dispose()


def test_another_connection_of_the_workers_own_engine_is_refused(database: RolledBack) -> None:
    """What ratingdb itself might open beside the session's connection (a VACUUM after a
    commit, say) is refused too: it would wait on the test's transaction."""
    with pytest.raises(RuntimeError, match="rolled back"):
        database.connection.engine.connect()
