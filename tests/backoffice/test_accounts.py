"""Accounts as safe as a bank's (issue 25, item 4 and the weak items): tokens issued only to
their owner and bounded by their scope, four eyes on every password an admin chooses, your own
password changed by you, common passwords refused, every audit entry naming its channel and
credential, and page views that do not wait for SQLite's write lock."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session, sessionmaker

from ratingdb.db import engine as engine_module
from ratingdb.errors import InputError
from ratingdb.models import AuditRow, UserRow
from ratingdb.services import accounts, passwords
from ratingdb.services.accounts import NotAllowed
from tests.backoffice.conftest import (
    PASSWORD,
    Accounts,
    Clock,
    accounts_on,
    app_on,
    login_csrf,
)
from tests.backoffice.test_route_roles import TRF
from tests.support.cli import cli_ok
from tests.support.rolled_back import RolledBack

NEW = "a brand new passphrase of mine"


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _sign_in(client: TestClient, username: str, password: str = PASSWORD) -> Any:
    token = login_csrf(client)
    return client.post(
        "/login", data={"csrf_token": token, "username": username, "password": password}
    )


def _csrf(client: TestClient, path: str = "/account") -> str:
    return client.get(path).text.split('name="csrf_token" value="')[1].split('"')[0]


def _audit(sessions: sessionmaker[Session]) -> list[tuple[str, str, str | None, str | None]]:
    with sessions() as session:
        rows = session.execute(
            select(AuditRow.action, AuditRow.actor, AuditRow.channel, AuditRow.credential)
            .where(AuditRow.actor != "test")
            .order_by(AuditRow.id)
        ).all()
    return [tuple(row) for row in rows]  # type: ignore[misc]


# Passwords ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "password",
    ["password1234", "123456789012", "qwertyuiopas", "aaaaaaaaaaaa", "abcabcabcabc",
     " " * 14, "Password1234", "ratingdb1234", "iloveyou2026"],
)  # fmt: skip
def test_common_and_trivial_passwords_are_refused(password: str) -> None:
    with pytest.raises(InputError) as refused:
        passwords.check(password, "alice")
    assert refused.value.field == "password"


@pytest.mark.parametrize(
    "password", [PASSWORD, NEW, "chess federation 7 rooks", "Tr0ub4dor&3-xylophone"]
)
def test_passphrases_are_accepted(password: str) -> None:
    passwords.check(password, "alice")


def test_length_limits_and_the_user_name() -> None:
    with pytest.raises(InputError, match="at least 12"):
        passwords.check("Zq8#kLp2!x", "alice")
    with pytest.raises(InputError, match="at most 1024"):
        passwords.check("x9" * 600, "alice")
    with pytest.raises(InputError, match="user name"):
        passwords.check("alice.martin.officer", "alice.martin.officer")


# Tokens: the owner's, bounded by their scope ---------------------------------------------------


def test_an_admin_cannot_mint_a_token_for_anybody_else(
    client: TestClient, users: Accounts, database: RolledBack, clock: Clock
) -> None:
    users.add("root", "admin")
    users.add("olga", "officer")
    admin = _bearer(users.token("root"))
    for path in ("/admin/v1/users/olga/tokens", "/users/olga/tokens"):
        assert client.post(path, headers=admin, json={"label": "x"}).status_code in (404, 405)
    root = _principal(database.sessions, "root")
    with database.sessions.begin() as session, pytest.raises(NotAllowed):
        accounts.issue_token(session, "olga", "x", 7, "full", by=root, actor="root", now=clock())
    own = client.post("/admin/v1/me/tokens", headers=admin, json={"label": "mine"})
    assert own.status_code == 201
    me = client.get("/admin/v1/me", headers=_bearer(own.json()["token"])).json()
    assert (me["username"], me["token"]["scope"]) == ("root", "submit")


def _principal(sessions: sessionmaker[Session], username: str) -> accounts.Principal:
    with sessions() as session:
        row = session.scalars(select(UserRow).where(UserRow.username == username)).one()
        return accounts.Principal(row.id, row.username, row.role, "web")


def test_a_token_never_does_more_than_its_scope(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    users.add("olga", "officer")
    read, submit, full = (_bearer(users.token("olga", label=s, scope=s))
                          for s in ("read", "submit", "full"))  # fmt: skip
    upload = "/admin/v1/submissions?category=fide-standard"
    assert client.get("/admin/v1/submissions", headers=read).status_code == 200
    refused = client.post(upload, content=TRF, headers=read)
    assert refused.status_code == 403
    assert "scope (read)" in refused.json()["detail"]
    assert "needs submit" in refused.json()["detail"]
    sent = client.post(upload, content=TRF, headers=submit)
    assert sent.status_code == 201
    number = sent.json()["submission_id"]
    accept = f"/admin/v1/submissions/{number}/accept"
    assert client.post(accept, headers=submit).status_code == 403
    # A read or submit token cannot mint itself a bigger one.
    for small in (read, submit):
        minted = client.post("/admin/v1/me/tokens", headers=small, json={"scope": "full"})
        assert minted.status_code == 403
    assert client.post(accept, headers=full).status_code == 200
    channels = {(action, channel, credential.split(" (")[0] if credential else None)
                for action, _, channel, credential in _audit(database.sessions)}  # fmt: skip
    assert ("submission-upload", "api", "token submit") in channels
    assert ("submission-accept", "api", "token full") in channels


# Four eyes --------------------------------------------------------------------------------


def test_an_account_an_admin_creates_waits_for_another_admin(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    """alice cannot become an officer alone: the account she creates signs nobody in until
    bob approves it, and its user must then choose a password alice does not know."""
    users.add("alice", "admin")
    users.add("bob", "admin")
    alice, bob = _bearer(users.token("alice")), _bearer(users.token("bob"))
    body = {"username": "mallory", "role": "officer", "password": PASSWORD}
    created = client.post("/admin/v1/users", headers=alice, json=body)
    assert created.status_code == 201
    assert created.json()["awaiting_approval"] is True
    waiting = _sign_in(client, "mallory")
    assert waiting.status_code == 403
    assert "awaits another admin" in waiting.text
    own = client.post("/admin/v1/users/mallory/approve", headers=alice)
    assert own.status_code == 403
    assert "another admin must approve" in own.json()["detail"]
    assert client.post("/admin/v1/users/mallory/approve", headers=bob).status_code == 200
    assert _sign_in(client, "mallory").status_code == 303
    # Until mallory chooses a password, every page leads to the account page.
    for path in ("/", "/submissions", "/corrections"):
        answer = client.get(path)
        assert (answer.status_code, answer.headers["location"]) == (303, "/account"), path
    csrf = _csrf(client)
    changed = client.post("/account/password", data={
        "csrf_token": csrf, "current_password": PASSWORD, "new_password": NEW,
        "new_password_again": NEW})  # fmt: skip
    assert changed.status_code == 303
    assert client.get("/corrections").status_code == 200
    actions = [(action, actor) for action, actor, _, _ in _audit(database.sessions)]
    assert ("user-add", "alice") in actions
    assert ("user-approve", "bob") in actions
    assert ("password-change", "mallory") in actions
    assert actions.index(("user-approve", "bob")) < actions.index(("password-change", "mallory"))


def test_an_admin_reset_ends_sessions_and_waits_for_another_admin(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    users.add("alice", "admin")
    users.add("bob", "admin")
    users.add("olga", "officer")
    session_id, _ = users.session("olga")
    alice = _bearer(users.token("alice"))
    reset = client.post("/admin/v1/users/olga/password", headers=alice, json={"password": NEW})
    assert reset.status_code == 200
    client.cookies.set("ratingdb_session", session_id)
    assert client.get("/").status_code == 303  # her session ended
    client.cookies.clear()
    assert _sign_in(client, "olga", NEW).status_code == 403  # waits for bob
    itself = client.post("/admin/v1/users/alice/password", headers=alice, json={"password": NEW})
    assert itself.status_code == 403
    weak = client.post("/admin/v1/users/olga/password", headers=alice,
                       json={"password": "password1234"})  # fmt: skip
    assert weak.status_code == 422
    assert (
        client.post("/admin/v1/users/olga/approve", headers=_bearer(users.token("bob"))).status_code
        == 200
    )
    assert _sign_in(client, "olga", NEW).status_code == 303
    assert client.get("/").headers["location"] == "/account"


def test_admins_re_enable_but_never_disable_themselves(client: TestClient, users: Accounts) -> None:
    users.add("alice", "admin")
    users.add("olga", "officer")
    alice = _bearer(users.token("alice"))
    itself = client.post("/admin/v1/users/alice/disable", headers=alice)
    assert itself.status_code == 403
    assert "you cannot disable yourself" in itself.json()["detail"]
    assert client.post("/admin/v1/users/olga/disable", headers=alice).status_code == 200
    assert _sign_in(client, "olga").status_code == 401
    assert client.post("/admin/v1/users/olga/enable", headers=alice).status_code == 200
    assert _sign_in(client, "olga").status_code == 303
    assert client.post("/admin/v1/users/olga/enable", headers=alice).status_code == 422


def test_changing_your_password_needs_the_current_one_and_ends_your_other_sessions(
    client: TestClient, users: Accounts
) -> None:
    users.add("olga", "officer")
    elsewhere, _ = users.session("olga")
    token = users.token("olga")
    wrong = {"current_password": "not my password", "new_password": NEW}
    answer = client.post("/admin/v1/me/password", headers=_bearer(token), json=wrong)
    assert answer.status_code == 422
    assert "current_password" in answer.json()["detail"]
    guessable = {"current_password": PASSWORD, "new_password": "qwerty123456"}
    weak = client.post("/admin/v1/me/password", headers=_bearer(token), json=guessable)
    assert weak.status_code == 422
    assert "new_password" in weak.json()["detail"]
    assert _sign_in(client, "olga").status_code == 303
    here = client.cookies.get("ratingdb_session")
    csrf = _csrf(client)
    changed = client.post("/account/password", data={
        "csrf_token": csrf, "current_password": PASSWORD, "new_password": NEW,
        "new_password_again": NEW})  # fmt: skip
    assert changed.status_code == 303
    assert client.get("/").status_code == 200  # this session goes on
    client.cookies.clear()
    client.cookies.set("ratingdb_session", elsewhere)
    assert client.get("/").status_code == 303  # the other one ended
    client.cookies.clear()
    client.cookies.set("ratingdb_session", here or "")
    assert client.get("/").status_code == 200
    assert client.get("/admin/v1/me", headers=_bearer(token)).status_code == 200  # tokens stay


# The audit log: channel and credential -----------------------------------------------------


def test_every_entry_says_its_channel_and_credential(
    client: TestClient,
    users: Accounts,
    database: RolledBack,
    capsys: pytest.CaptureFixture[str],
) -> None:
    users.add("olga", "officer")
    assert _sign_in(client, "olga").status_code == 303
    client.post("/logout", data={"csrf_token": _csrf(client, "/")})
    token = users.token("olga", label="pairing", scope="submit")
    sent = client.post("/admin/v1/submissions?category=fide-standard", content=TRF,
                       headers=_bearer(token))  # fmt: skip
    assert sent.status_code == 201
    cli_ok(capsys, "users", "disable", "olga", "--actor", "Claire", url=database.url)
    entries = _audit(database.sessions)
    found = {(action, actor, channel): credential for action, actor, channel, credential in entries}
    assert found[("sign-in", "olga", "web")] is None  # the sign-in form: no credential yet
    assert found[("sign-out", "olga", "web")] == "session"
    uploaded = found[("submission-upload", "olga", "api")] or ""
    assert uploaded.startswith("token pairing (#")
    assert uploaded.endswith(", submit)")
    assert (found[("user-disable", "Claire", "cli")] or "").startswith(("os user ", "os uid "))


def test_the_audit_page_shows_the_channel(client: TestClient, users: Accounts) -> None:
    users.add("olga", "officer")
    assert _sign_in(client, "olga").status_code == 303
    page = client.get("/audit").text
    assert "<th>Through</th>" in page
    assert "sign-in" in page
    # In words (issue 28 item 9): what was done, and the details as phrases, no Python dict.
    assert "account created <small>(user-add)</small>" in page
    assert "username: olga; role: officer; awaiting approval: no" in page
    assert "{" not in page.split("<tbody>")[1]


# SQLite: a writer holding the lock ---------------------------------------------------------


@pytest.fixture
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_module, "SQLITE_BUSY_TIMEOUT_MS", 200)


def test_page_views_do_not_wait_for_a_sqlite_writer_and_503_when_they_must(
    short_busy_timeout: None, database_url: str, engine: Engine, clock: Clock
) -> None:
    """A close holding SQLite's write lock: a signed-in page view reads who is calling without
    it (200); one whose session's last use is due to be written waits for the lock, then is
    told to come back (503, Retry-After), never a 500. A writer of its own beside the app's
    engines: on a database of its own (``database_url``), not the rolled-back one."""
    if not database_url.startswith("sqlite"):
        pytest.skip("SQLite's write lock; PostgreSQL's readers never wait for writers")
    users = accounts_on(engine, clock)
    app = app_on(database_url, clock)
    users.add("olga", "officer")
    session_id, _ = users.session("olga")
    writer = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
    with TestClient(app, follow_redirects=False) as client:
        client.cookies.set("ratingdb_session", session_id)
        try:
            writer.execute("BEGIN IMMEDIATE")
            for page in ("/account", "/submissions", "/audit"):  # pages that only read
                assert client.get(page).status_code == 200, page
            clock.advance(minutes=2)  # the session's last use is due to be written
            busy = client.get("/account")
            assert busy.status_code == 503
            assert busy.headers["retry-after"] == "5"
        finally:
            writer.execute("ROLLBACK")
            writer.close()
        assert client.get("/account").status_code == 200
