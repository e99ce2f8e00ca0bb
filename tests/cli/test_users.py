"""``ratingdb users add|list|disable|token|revoke-token``: exit codes, output, what is stored
and the audit entries, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select

from ratingdb.models import AuditRow, UserRow
from ratingdb.services import accounts, passwords, sign_in
from tests.support import forks
from tests.support.cli import run_cli
from tests.support.rolled_back import RolledBack

PASSWORD = "a long enough password"


@pytest.fixture(autouse=True)
def cheap_hashing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        passwords, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    )
    monkeypatch.setattr(passwords, "_DUMMY_HASH", None)


def run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    url: str,
    *argv: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    """``ratingdb users ARGV`` with ``stdin`` typed in (``monkeypatch``: kept for the callers)."""
    return run_cli(capsys, "users", *argv, url=url, stdin=stdin)


def add(monkeypatch: Any, capsys: Any, url: str, name: str, role: str = "admin") -> None:
    assert run(monkeypatch, capsys, url, "add", name, "--role", role, "--password-stdin",
               stdin=PASSWORD + "\n")[0] == 0  # fmt: skip


def audit_entries(database: RolledBack) -> list[tuple[str, str, dict[str, Any]]]:
    with database.sessions() as session:
        rows = session.scalars(select(AuditRow).order_by(AuditRow.id)).all()
        return [(row.action, row.actor, row.details) for row in rows]


def test_add_list_disable(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    database: RolledBack,
) -> None:
    monkeypatch.setenv("RATINGDB_ACTOR", "Claire Officer")
    code, out, _ = run(monkeypatch, capsys, database.url, "add", "alice", "--role", "admin",
                       "--password-stdin", stdin=PASSWORD + "\n")  # fmt: skip
    assert code == 0
    assert json.loads(out) == {"username": "alice", "role": "admin"}
    add(monkeypatch, capsys, database.url, "bob", "arbiter")
    code, out, _ = run(monkeypatch, capsys, database.url, "list")
    assert code == 0
    listed = [json.loads(line) for line in out.splitlines()]
    assert [(u["username"], u["role"], u["disabled"]) for u in listed] == [
        ("alice", "admin", False),
        ("bob", "arbiter", False),
    ]
    assert "argon2" not in out
    assert PASSWORD not in out
    code, out, _ = run(monkeypatch, capsys, database.url, "disable", "bob")
    assert code == 0
    assert json.loads(out) == {"username": "bob", "disabled": True}
    with database.sessions() as session:
        stored = {row.username: row for row in session.scalars(select(UserRow))}
        assert stored["bob"].disabled
        assert not stored["alice"].disabled
        assert stored["alice"].password_hash.startswith("$argon2id$")
        assert sign_in.sign_in(session, "bob", PASSWORD, "192.0.2.1",
                                datetime.now(UTC)).session_id is None  # fmt: skip
    actor = "Claire Officer"  # RATINGDB_ACTOR: the person, never a process
    assert audit_entries(database) == [
        ("user-add", actor, {"username": "alice", "role": "admin", "awaiting_approval": False}),
        ("user-add", actor, {"username": "bob", "role": "arbiter", "awaiting_approval": False}),
        ("user-disable", actor, {"username": "bob"}),
    ]


def test_the_password_prompt_is_asked_twice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], database: RolledBack
) -> None:
    answers = iter([PASSWORD, PASSWORD + "x"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    code, _, err = run(monkeypatch, capsys, database.url, "add", "alice", "--role", "admin")
    assert code == 2
    assert "password: the two passwords differ" in err
    answers = iter([PASSWORD, PASSWORD])
    code, _, _ = run(monkeypatch, capsys, database.url, "add", "alice", "--role", "admin")
    assert code == 0


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["add", "alice", "--role", "root", "--password-stdin"], PASSWORD, "invalid choice"),
        (["add", "alice", "--role", "admin", "--password-stdin"], "short pass", "at least 12"),
        (["add", "alicealice12", "--role", "admin", "--password-stdin"], "AliceAlice12",
         "must not be the user name"),
        (["add", "Alice Smith", "--role", "admin", "--password-stdin"], PASSWORD, "USERNAME"),
        (["add", "taken", "--role", "admin", "--password-stdin"], PASSWORD, "already exists"),
        (["disable", "nobody"], "", "no user 'nobody'"),
        (["token", "nobody"], "", "no user 'nobody'"),
        (["revoke-token", "nobody"], "", "no user 'nobody'"),
        (["token", "taken", "--days", "0"], "", "--days"),
        (["token", "taken", "--days", "400"], "", "--days"),
        (["token", "taken", "--label", ""], "", "--label"),
        (["token", "taken", "--scope", "admin"], "", "invalid choice"),
        (["add", "weak", "--role", "admin", "--password-stdin"], "password1234",
         "too easy to guess"),
        (["enable", "taken"], "", "is not disabled"),
        (["approve", "taken"], "", "awaits no approval"),
        (["reset-password", "taken", "--password-stdin"], "qwertyuiop12", "too easy"),
        (["reset-password", "nobody", "--password-stdin"], PASSWORD, "no user 'nobody'"),
    ],
)  # fmt: skip
def test_refusals_exit_2_and_store_nothing(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    database: RolledBack,
    argv: list[str],
    stdin: str,
    message: str,
) -> None:
    add(monkeypatch, capsys, database.url, "taken")
    before = audit_entries(database)
    code, out, err = run(monkeypatch, capsys, database.url, *argv, stdin=stdin + "\n")
    assert code == 2
    assert message in err
    assert out == ""
    assert audit_entries(database) == before


def test_token_and_revoke(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    database: RolledBack,
) -> None:
    add(monkeypatch, capsys, database.url, "club", "arbiter")
    started = datetime.now(UTC)
    code, out, _ = run(monkeypatch, capsys, database.url, "token", "club", "--label", "pairing",
                       "--days", "30")  # fmt: skip
    assert code == 0
    issued = json.loads(out)
    assert set(issued) == {"token", "expires"}
    expires = datetime.fromisoformat(issued["expires"])
    assert started + timedelta(days=30) <= expires <= datetime.now(UTC) + timedelta(days=30)
    code, out, _ = run(monkeypatch, capsys, database.url, "token", "club", "--label", "other")
    other = json.loads(out)["token"]
    code, out, _ = run(monkeypatch, capsys, database.url, "list")
    assert issued["token"] not in out
    assert [t["label"] for t in json.loads(out)["tokens"]] == ["pairing", "other"]
    now = datetime.now(UTC)
    with database.sessions.begin() as session:
        principal = accounts.authenticate_token(session, issued["token"], now)
        assert principal is not None
        assert (principal.username, principal.role) == ("club", "arbiter")
    code, out, _ = run(monkeypatch, capsys, database.url, "revoke-token", "club", "--label",
                       "pairing")  # fmt: skip
    assert code == 0
    assert json.loads(out) == {"username": "club", "label": "pairing", "revoked": 1}
    with database.sessions.begin() as session:
        assert accounts.authenticate_token(session, issued["token"], now) is None
        assert accounts.authenticate_token(session, other, now) is not None
    code, out, _ = run(monkeypatch, capsys, database.url, "revoke-token", "club")
    assert json.loads(out)["revoked"] == 1
    with database.sessions.begin() as session:
        assert accounts.authenticate_token(session, other, now) is None
    actions = [(action, details.get("label")) for action, _, details in audit_entries(database)]
    assert actions == [
        ("user-add", None),
        ("token-issue", "pairing"),
        ("token-issue", "other"),
        ("token-revoke", "pairing"),
        ("token-revoke", None),
    ]
    assert issued["token"] not in str(audit_entries(database))


@pytest.mark.processes
def test_the_console_script_reads_the_password_from_stdin(database_url: str) -> None:
    """The installed command, end to end: users add then list."""
    environment = {**os.environ, "RATINGDB_DATABASE_URL": database_url}
    added = forks.run(
        ["users", "add", "eve", "--role", "officer", "--password-stdin"],
        stdin=PASSWORD + "\n",
        env=environment,
    )
    assert added.returncode == 0, added.stderr
    listed = forks.run(["users", "list"], env=environment)
    assert json.loads(listed.stdout)["username"] == "eve"


def test_enable_approve_reset_and_scoped_tokens(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    database: RolledBack,
) -> None:
    """The operator's commands: a token's scope (submit unless chosen), re-enabling, a reset
    that forces a new password at the next sign-in, and the approval of an account an admin
    created in the back office."""
    add(monkeypatch, capsys, database.url, "club", "officer")
    code, out, _ = run(monkeypatch, capsys, database.url, "token", "club", "--label", "p")
    default = json.loads(out)["token"]
    code, out, _ = run(monkeypatch, capsys, database.url, "token", "club", "--label", "r",
                       "--scope", "read")  # fmt: skip
    read = json.loads(out)["token"]
    now = datetime.now(UTC)
    with database.sessions.begin() as session:
        scopes = [accounts.authenticate_token(session, t, now) for t in (default, read)]
        assert [p.scope if p else None for p in scopes] == ["submit", "read"]
    assert run(monkeypatch, capsys, database.url, "disable", "club")[0] == 0
    code, out, _ = run(monkeypatch, capsys, database.url, "enable", "club")
    assert (code, json.loads(out)) == (0, {"username": "club", "disabled": False})
    new = "the reset password 2026"
    code, out, _ = run(monkeypatch, capsys, database.url, "reset-password", "club",
                       "--password-stdin", stdin=new + "\n")  # fmt: skip
    assert (code, json.loads(out)) == (0, {"username": "club", "must_change_password": True})
    with database.sessions.begin() as session:
        signed = sign_in.sign_in(session, "club", new, "192.0.2.1", datetime.now(UTC))
        assert signed.principal is not None
        assert signed.principal.must_change_password
        row = session.scalars(select(UserRow).where(UserRow.username == "club")).one()
        row.awaiting_approval_from_other_than = row.id  # as if an admin had reset it
    code, out, _ = run(monkeypatch, capsys, database.url, "approve", "club")
    assert (code, json.loads(out)) == (0, {"username": "club", "awaiting_approval": False})
    actions = [action for action, _, _ in audit_entries(database)]
    assert actions == ["user-add", "token-issue", "token-issue", "user-disable", "user-enable",
                       "password-reset", "sign-in", "user-approve"]  # fmt: skip
