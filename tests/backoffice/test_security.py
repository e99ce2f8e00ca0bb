"""The back office's security measures, each on its own, on SQLite and PostgreSQL."""

from __future__ import annotations

import logging

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from ratingdb.api.app import create_app as create_public_app
from ratingdb.backoffice.app import create_app, route_keys
from ratingdb.backoffice.policy import check_policy_covers
from ratingdb.config import Settings
from ratingdb.models import AuditRow, Base, UserRow, WebSessionRow
from ratingdb.services import accounts, passwords, sign_in
from tests.backoffice.conftest import PASSWORD, Accounts, Clock, login_csrf
from tests.support.rolled_back import RolledBack

WRONG = "wrong user name or password"


def _sign_in(client: TestClient, username: str, password: str = PASSWORD) -> int:
    token = login_csrf(client)
    response = client.post(
        "/login", data={"csrf_token": token, "username": username, "password": password}
    )
    return response.status_code


def _user_count(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(UserRow)) or 0


def test_sign_in_sets_a_strict_http_only_cookie_and_signs_out(
    client: TestClient, users: Accounts
) -> None:
    users.add("alice", "admin")
    token = login_csrf(client)
    response = client.post(
        "/login", data={"csrf_token": token, "username": "alice", "password": PASSWORD}
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/"
    cookie = next(
        value
        for value in response.headers.get_list("set-cookie")
        if value.startswith("ratingdb_session=")
    )
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    assert "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP, no --secure-cookies
    home = client.get("/")
    assert home.status_code == 200
    assert "alice" in home.text
    assert "admin" in home.text
    assert 'href="/users"' in home.text
    form_token = home.text.split('name="csrf_token" value="')[1].split('"')[0]
    assert client.post("/logout", data={"csrf_token": form_token}).status_code == 303
    assert client.get("/").status_code == 303


@pytest.mark.parametrize("secure_setting", [True, False])
def test_cookies_are_secure_over_https_or_when_told(
    database: RolledBack, clock: Clock, users: Accounts, secure_setting: bool
) -> None:
    """--secure-cookies (behind a proxy ending TLS) or an HTTPS request: Secure and HSTS."""
    app = create_app(
        Settings(database_url=database.url),
        clock=clock,
        secure_cookies=secure_setting,
        sessions=database.sessions,
    )
    users.add("alice", "admin")
    base = "http://testserver" if secure_setting else "https://testserver"
    with TestClient(app, base_url=base, follow_redirects=False) as client:
        page = client.get("/login")
        assert "Secure" in page.headers["set-cookie"]
        assert page.headers["strict-transport-security"].startswith("max-age=")
        if not secure_setting:  # over HTTPS the client sends the Secure cookie back
            token = login_csrf(client)
            signed = client.post(
                "/login", data={"csrf_token": token, "username": "alice", "password": PASSWORD}
            )
            assert signed.status_code == 303
            session_cookie = next(
                value
                for value in signed.headers.get_list("set-cookie")
                if value.startswith("ratingdb_session=")
            )
            assert "Secure" in session_cookie


def test_an_arbiter_sees_no_admin_link(client: TestClient, users: Accounts) -> None:
    users.add("arnold", "arbiter")
    assert _sign_in(client, "arnold") == 303
    home = client.get("/")
    assert "arnold" in home.text
    assert "arbiter" in home.text
    assert "/users" not in home.text
    assert client.get("/users").status_code == 403


def test_a_form_without_its_csrf_token_or_with_another_sessions_is_refused(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    users.add("alice", "admin")
    users.add("bob", "admin")
    alice, _ = users.session("alice")
    _, bobs_token = users.session("bob")
    new_user = {"username": "mallory", "role": "admin", "password": PASSWORD,
                "password_again": PASSWORD}  # fmt: skip
    before = _user_count(database.sessions)
    client.cookies.set("ratingdb_session", alice)
    assert client.post("/users", data=new_user).status_code == 403
    assert client.post("/users", data=new_user | {"csrf_token": ""}).status_code == 403
    assert client.post("/users", data=new_user | {"csrf_token": bobs_token}).status_code == 403
    assert client.post("/logout", data={"csrf_token": bobs_token}).status_code == 403
    assert _user_count(database.sessions) == before
    # Still signed in: the refused sign-out did nothing.
    assert client.get("/").status_code == 200


def test_the_sign_in_form_needs_its_csrf_token(client: TestClient, users: Accounts) -> None:
    users.add("alice", "admin")
    credentials = {"username": "alice", "password": PASSWORD}
    assert client.post("/login", data=credentials).status_code == 403
    login_csrf(client)  # the cookie is set, but the form does not carry it
    assert client.post("/login", data=credentials).status_code == 403
    assert client.post("/login", data=credentials | {"csrf_token": "forged"}).status_code == 403
    assert "ratingdb_session" not in client.cookies


def test_wrong_password_and_unknown_user_get_the_same_answer(
    client: TestClient, users: Accounts
) -> None:
    users.add("alice", "admin")
    answers = []
    for username, password in (("alice", "not the password!"), ("nobody", PASSWORD)):
        token = login_csrf(client)
        response = client.post(
            "/login", data={"csrf_token": token, "username": username, "password": password}
        )
        assert response.status_code == 401
        assert WRONG in response.text
        answers.append(response.text.replace(token, "TOKEN"))
    assert answers[0] == answers[1]


def test_a_disabled_user_cannot_sign_in_nor_use_a_session_or_token(
    client: TestClient, users: Accounts, database: RolledBack, clock: Clock
) -> None:
    users.add("carol", "officer")
    session_id, _ = users.session("carol")
    token = users.token("carol")
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get("/admin/v1/me", headers=bearer).json()["username"] == "carol"
    with database.sessions.begin() as session:
        accounts.disable_user(session, "carol", by=None, actor="test", now=clock())
    response = client.get("/admin/v1/me", headers=bearer)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    client.cookies.set("ratingdb_session", session_id)
    assert client.get("/").status_code == 303
    client.cookies.clear()
    assert _sign_in(client, "carol") == 401


def test_revoked_expired_and_unknown_tokens_get_401(
    client: TestClient, users: Accounts, database: RolledBack, clock: Clock
) -> None:
    users.add("dave", "arbiter")
    kept = users.token("dave", days=10, label="kept")
    revoked = users.token("dave", days=10, label="old")
    with database.sessions.begin() as session:
        assert accounts.revoke_tokens(session, "dave", "old", actor="test", now=clock()) == 1

    def status(token: str, scheme: str = "Bearer") -> int:
        return client.get(
            "/admin/v1/me", headers={"Authorization": f"{scheme} {token}"}
        ).status_code

    assert status(kept) == 200
    assert status(revoked) == 401
    assert status(kept[:-1] + ("A" if kept[-1] != "A" else "B")) == 401
    assert status(kept, scheme="Basic") == 401
    clock.advance(days=10, seconds=1)
    assert status(kept) == 401


def _signed_in_session(client: TestClient, username: str) -> str:
    """Sign in through the page; the new session id from its Set-Cookie."""
    token = login_csrf(client)
    response = client.post(
        "/login", data={"csrf_token": token, "username": username, "password": PASSWORD}
    )
    assert response.status_code == 303
    cookie = next(
        value
        for value in response.headers.get_list("set-cookie")
        if value.startswith("ratingdb_session=")
    )
    return cookie.split(";")[0].split("=", 1)[1]


def _page_status(client: TestClient, session_id: str) -> int:
    client.cookies.clear()
    client.cookies.set("ratingdb_session", session_id)
    return client.get("/").status_code


def test_the_session_id_changes_at_sign_in(client: TestClient, users: Accounts) -> None:
    """A session id planted before sign-in (fixation) or held from an earlier sign-in is
    never the one signed in, and no longer works afterwards."""
    users.add("alice", "admin")
    earlier, _ = users.session("alice")
    client.cookies.set("ratingdb_session", earlier)
    now = _signed_in_session(client, "alice")
    assert now != earlier
    assert _page_status(client, now) == 200
    assert _page_status(client, earlier) == 303
    client.cookies.clear()
    client.cookies.set("ratingdb_session", "planted-by-an-attacker")
    assert _signed_in_session(client, "alice") not in ("planted-by-an-attacker", now)


def test_sessions_expire_after_30_minutes_idle_and_12_hours_in_all(
    client: TestClient, users: Accounts, clock: Clock
) -> None:
    users.add("alice", "admin")
    idle, _ = users.session("alice")
    busy, _ = users.session("alice")
    client.cookies.set("ratingdb_session", busy)
    for _ in range(35):  # 11 h 40 min of a request every 20 minutes
        clock.advance(minutes=20)
        assert client.get("/").status_code == 200
    clock.advance(minutes=20)  # 12 h after sign-in
    assert client.get("/").status_code == 303
    client.cookies.set("ratingdb_session", idle)
    assert client.get("/").status_code == 303
    fresh, _ = users.session("alice")
    client.cookies.set("ratingdb_session", fresh)
    clock.advance(minutes=29)
    assert client.get("/").status_code == 200
    clock.advance(minutes=30)
    assert client.get("/").status_code == 303


def _attempt(
    sessions: sessionmaker[Session], clock: Clock, username: str, password: str, address: str
) -> str:
    with sessions.begin() as session:
        outcome = sign_in.sign_in(session, username, password, address, clock())
    if outcome.session_id is not None:
        return "signed in"
    return "refused" if outcome.throttled else "wrong"


@pytest.fixture
def everything_logged(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Everything logged, the SQL and its parameters included. Set up before the test's
    database (a fixture listed before it): a connection decides when it opens whether it logs
    its SQL, and the rolled-back transaction's connection is opened with ``database``."""
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.INFO, logger="sqlalchemy.engine")
    return caplog


def test_no_password_nor_token_in_clear_in_any_table_or_log(
    everything_logged: pytest.LogCaptureFixture,
    client: TestClient,
    users: Accounts,
    database: RolledBack,
) -> None:
    """Dump every row of every table; log everything, the SQL and its parameters included."""
    secrets: list[str] = []
    admin_password = "admin password 1234"
    users.add("root", "admin", admin_password)
    secrets.append(admin_password)
    assert _sign_in(client, "root", admin_password) == 303
    session_id = client.cookies.get("ratingdb_session")
    assert session_id is not None
    secrets.append(session_id)
    home = client.get("/users")
    csrf = home.text.split('name="csrf_token" value="')[1].split('"')[0]
    secrets.append(csrf)
    new_password = "the officer's password"
    secrets.append(new_password)
    form = {"csrf_token": csrf, "username": "olga", "role": "officer", "password": new_password}
    added = client.post("/users", data=form | {"password_again": new_password})
    assert added.status_code == 303
    with database.sessions.begin() as session:  # the second admin's approval
        accounts.approve_by_operator(session, "olga", actor="test", now=users.clock())
    client.cookies.clear()
    assert _sign_in(client, "olga", new_password) == 303
    olga_csrf = client.get("/account").text.split('name="csrf_token" value="')[1].split('"')[0]
    own_password = "olga's very own passphrase"
    secrets.append(own_password)
    changed = client.post("/account/password", data={
        "csrf_token": olga_csrf, "current_password": new_password, "new_password": own_password,
        "new_password_again": own_password})  # fmt: skip
    assert changed.status_code == 303
    issued = client.post("/account/tokens", data={"csrf_token": olga_csrf, "label": "pairing"})
    token = issued.text.split('<code class="token">')[1].split("<")[0]
    secrets.append(token)
    assert (
        client.get("/admin/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    )
    api_token = client.post(
        "/admin/v1/me/tokens", json={"label": "api", "scope": "submit"},
        headers={"Authorization": f"Bearer {users.token('olga')}"},
    ).json()["token"]  # fmt: skip
    secrets.append(api_token)
    assert _sign_in(client, "olga", "a wrong password for olga") == 401
    secrets.append("a wrong password for olga")

    dump = "\n".join(
        repr(row)
        for table in Base.metadata.sorted_tables
        for row in database.connection.execute(table.select())
    )
    assert "olga" in dump  # the dump does see the tables
    logs = everything_logged.text
    assert "INSERT INTO users" in logs  # the SQL log is on
    for secret in secrets:
        assert secret not in dump, secret
        assert secret not in logs, secret
    with database.sessions() as session:
        hashes = session.scalars(select(UserRow.password_hash)).all()
    assert hashes
    assert all(value.startswith("$argon2id$") for value in hashes)


def test_a_password_hashed_with_old_parameters_is_rehashed_at_sign_in(
    database: RolledBack, users: Accounts, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    users.add("alice", "admin")  # cheap parameters (the fixture's)
    with database.sessions() as session:
        old = session.scalars(select(UserRow.password_hash)).one()
    assert "m=1024,t=1,p=1" in old
    monkeypatch.setattr(passwords, "_hasher", PasswordHasher(time_cost=2, memory_cost=2048,
                                                             parallelism=1))  # fmt: skip
    assert _attempt(database.sessions, clock, "alice", PASSWORD, "192.0.2.5") == "signed in"
    with database.sessions() as session:
        new = session.scalars(select(UserRow.password_hash)).one()
    assert new.startswith("$argon2id$")
    assert "m=2048,t=2,p=1" in new
    assert _attempt(database.sessions, clock, "alice", PASSWORD, "192.0.2.5") == "signed in"


def test_the_api_manages_users_and_records_the_actor(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    users.add("root", "admin")
    bearer = {"Authorization": f"Bearer {users.token('root')}"}
    erin = {"username": "erin", "role": "arbiter", "password": PASSWORD}
    created = client.post("/admin/v1/users", headers=bearer, json=erin)
    assert created.status_code == 201
    frank = {"username": "frank", "role": "arbiter", "password": "short"}
    short = client.post("/admin/v1/users", headers=bearer, json=frank)
    assert short.status_code == 422
    assert "password" in short.json()["detail"]
    frank |= {"role": "root", "password": PASSWORD}
    bad_role = client.post("/admin/v1/users", headers=bearer, json=frank)
    assert bad_role.status_code == 422
    assert client.post("/admin/v1/users/nobody/disable", headers=bearer).status_code == 404
    listed = client.get("/admin/v1/users", headers=bearer).json()
    assert [user["username"] for user in listed] == ["erin", "root"]
    assert "password_hash" not in str(listed)
    with database.sessions() as session:
        actors = session.execute(
            select(AuditRow.action, AuditRow.actor).where(AuditRow.actor != "test")
        ).all()
    assert [tuple(row) for row in actors] == [("user-add", "root")]


def test_openapi_is_served_to_signed_in_callers_only(client: TestClient, users: Accounts) -> None:
    users.add("arnold", "arbiter")
    assert client.get("/admin/v1/openapi.json").status_code == 401
    for path in ("/openapi.json", "/docs", "/redoc"):
        assert client.get(path).status_code == 404
    schema = client.get(
        "/admin/v1/openapi.json", headers={"Authorization": f"Bearer {users.token('arnold')}"}
    ).json()
    assert "/admin/v1/me" in schema["paths"]
    assert "/login" not in schema["paths"]


def test_the_public_app_serves_none_of_the_back_office(database_url: str) -> None:
    public = create_public_app(Settings(database_url=database_url))
    paths = {getattr(route, "path", "") for route in public.routes}
    assert not {path for path in paths if path.startswith(("/admin", "/login", "/users"))}
    with TestClient(public) as client:
        assert client.get("/admin/v1/me").status_code == 404
        assert client.get("/login").status_code == 404


def test_the_app_refuses_to_start_with_a_route_outside_the_policy(app: FastAPI) -> None:
    check_policy_covers(route_keys(app))
    with pytest.raises(RuntimeError, match="missing from the back-office policy"):
        check_policy_covers([*route_keys(app), ("GET", "/extra")])
    with pytest.raises(RuntimeError, match="without a route"):
        check_policy_covers(route_keys(app)[1:])


def test_sessions_are_not_kept_longer_than_needed(
    database: RolledBack, users: Accounts, clock: Clock
) -> None:
    """Signing in clears expired sessions; signing out deletes its own."""
    users.add("alice", "admin")
    users.session("alice")
    clock.advance(hours=1)
    second, _ = users.session("alice")
    third, _ = users.session("alice")
    assert _session_count(database.sessions) == 2
    with database.sessions.begin() as session:
        principal = sign_in.session_principal(session, second, clock())
        assert principal is not None
        sign_in.sign_out(session, second, principal, clock())
    assert _session_count(database.sessions) == 1
    with database.sessions.begin() as session:
        assert sign_in.session_principal(session, third, clock()) is not None


def _session_count(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(WebSessionRow)) or 0


def test_api_bodies_are_read_only_after_the_credentials_are_checked(
    client: TestClient, users: Accounts
) -> None:
    """A malformed or huge body from a caller without the right gets 401 or 403, never 422
    or 413: nothing about the body is looked at before the credentials."""
    users.add("arnold", "arbiter")
    users.add("root", "admin")
    json_type = {"content-type": "application/json"}
    arbiter = {"Authorization": f"Bearer {users.token('arnold')}"} | json_type
    admin = {"Authorization": f"Bearer {users.token('root')}"} | json_type
    for body in (b"not json", b"[" * 100_000):
        assert client.post("/admin/v1/users", content=body, headers=json_type).status_code == 401
        assert client.post("/admin/v1/users", content=body, headers=arbiter).status_code == 403
    assert client.post("/admin/v1/users", content=b"not json", headers=admin).status_code == 422
    assert client.post("/admin/v1/users", content=b"[" * 100_000, headers=admin).status_code == 413
    missing = client.post("/admin/v1/users", json={"username": "x"}, headers=admin)
    assert missing.status_code == 422
    assert {error["loc"][-1] for error in missing.json()["detail"]} == {"role", "password"}


def test_user_management_pages(client: TestClient, users: Accounts, database: RolledBack) -> None:
    """An admin's forms: refusals are shown and store nothing; a token is shown once."""
    users.add("root", "admin")
    session_id, csrf = users.session("root")
    client.cookies.set("ratingdb_session", session_id)
    form = {"csrf_token": csrf, "username": "olga", "role": "officer", "password": PASSWORD}
    differ = client.post("/users", data=form | {"password_again": PASSWORD + "!"})
    assert differ.status_code == 422
    assert "the two passwords differ" in differ.text
    short = client.post("/users", data=form | {"password": "short", "password_again": "short"})
    assert short.status_code == 422
    assert "at least 12 characters" in short.text
    assert _user_count(database.sessions) == 1
    assert client.post("/users", data=form | {"password_again": PASSWORD}).status_code == 303
    itself = client.post("/users/root/disable", data={"csrf_token": csrf})
    assert itself.status_code == 403
    assert "you cannot disable yourself" in itself.text
    # Tokens: an admin mints no token for anybody else; their own, from their account page.
    assert client.post(
        "/users/olga/tokens", data={"csrf_token": csrf, "label": "x"}
    ).status_code in (404, 405)
    issued = client.post("/account/tokens", data={"csrf_token": csrf, "label": "club"})
    assert issued.status_code == 200
    token = issued.text.split('<code class="token">')[1].split("<")[0]
    me = client.get("/admin/v1/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert (me["username"], me["role"], me["token"]["label"]) == ("root", "admin", "club")
    assert me["token"]["scope"] == "submit"  # read and send files, unless chosen
    listing = client.get("/users").text
    assert "olga" in listing
    assert "club" in listing
    assert token not in listing
    revoke = {"csrf_token": csrf, "label": ""}
    assert client.post("/users/root/tokens/revoke", data=revoke).status_code == 303
    assert (
        client.get("/admin/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    )
