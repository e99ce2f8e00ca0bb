"""Every route of the back office, with every role and without credentials, through the web
session and through a bearer token: 2xx (or the page's own redirect) when the role may,
303 to /login (pages) or 401 (API) without valid credentials, 403 when the role may not.

The expected access below is written out here, apart from ratingdb.backoffice.policy; a route
added to the app without a line here fails ``test_every_route_is_walked``.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from ratingdb.backoffice.app import route_keys
from ratingdb.cli import main
from ratingdb.enums import Role
from ratingdb.models import AuditRow, GameRow, SubmissionRow, TournamentRow, UserRow
from ratingdb.rules import Category, Period
from ratingdb.services import (
    correction_requests,
    passwords,
    player_records,
    publication,
    submissions,
)
from ratingdb.services.accounts import Principal
from ratingdb.services.correction_requests import CorrectionRequest
from ratingdb.services.submissions import Upload
from tests.backoffice.conftest import PASSWORD, ROLES, Accounts, login_csrf
from tests.support import factories
from tests.support.files import TRF_HEADER as HEADER
from tests.support.files import trf_player as player
from tests.support.rolled_back import RolledBack, sessions_for

EVERYONE = "everyone"
SIGNED_IN = frozenset(ROLES)
ADMIN = frozenset({"admin"})
OFFICER = frozenset({"officer"})
UPLOADERS = frozenset({"arbiter", "officer"})
AUDITORS = frozenset({"officer", "admin"})
#: What the password routes set (an admin's reset, or the user's own change).
NEW_PASSWORD = "a different long password"
#: Changing one's own password: restored afterwards, so the walk can sign in again.
OWN_PASSWORD_ROUTES = frozenset({"/account/password", "/admin/v1/me/password"})
#: A small valid TRF (two players, two games) for the submission routes.
TRF = (
    HEADER
    + player(1, "Alpha, Ann", ["   2 w 1", "   2 b ="], fide_id="1000001")
    + "\n"
    + player(2, "Beta, Bob", ["   1 b 0", "   1 w ="], fide_id="1000002")
    + "\n"
).encode()

#: (method, path) -> (who may, the answer when they do).
EXPECTED: dict[tuple[str, str], tuple[str | frozenset[str], int]] = {
    ("GET", "/login"): (EVERYONE, 200),
    ("POST", "/login"): (EVERYONE, 303),
    ("GET", "/style.css"): (EVERYONE, 200),
    # Prometheus' scrape: counts only (docs/operations.md, "Metrics and logs").
    ("GET", "/metrics"): (EVERYONE, 200),
    ("POST", "/logout"): (SIGNED_IN, 303),
    ("GET", "/"): (SIGNED_IN, 200),
    ("GET", "/account"): (SIGNED_IN, 200),
    ("POST", "/account/password"): (SIGNED_IN, 303),
    ("POST", "/account/tokens"): (SIGNED_IN, 200),
    ("POST", "/account/tokens/revoke"): (SIGNED_IN, 200),
    ("GET", "/users"): (ADMIN, 200),
    ("POST", "/users"): (ADMIN, 303),
    ("POST", "/users/{username}/disable"): (ADMIN, 303),
    ("POST", "/users/{username}/enable"): (ADMIN, 303),
    ("POST", "/users/{username}/approve"): (ADMIN, 303),
    ("POST", "/users/{username}/password"): (ADMIN, 303),
    ("POST", "/users/{username}/tokens/revoke"): (ADMIN, 303),
    ("GET", "/submissions"): (UPLOADERS, 200),
    ("GET", "/submissions/new"): (UPLOADERS, 200),
    ("POST", "/submissions"): (UPLOADERS, 303),
    ("GET", "/submissions/{submission_id}"): (UPLOADERS, 200),
    ("POST", "/submissions/{submission_id}/accept"): (OFFICER, 303),
    ("POST", "/submissions/{submission_id}/reject"): (OFFICER, 303),
    ("GET", "/audit"): (AUDITORS, 200),
    ("GET", "/players/unregistered.csv"): (OFFICER, 200),
    # Title norms and the title watch (issue 28 item 1): officers, read only.
    ("GET", "/norms"): (OFFICER, 200),
    ("GET", "/norms/tournaments/{tournament_id}"): (OFFICER, 200),
    ("GET", "/norms/tournaments/{tournament_id}/certificates/{player_id}/{title}"): (OFFICER, 200),
    ("GET", "/titles/watch"): (OFFICER, 200),
    # Tournaments (issue 28 item 4): officers, read only (Walk Open for {tournament_id}).
    ("GET", "/tournaments"): (OFFICER, 200),
    ("GET", "/tournaments/{tournament_id}"): (OFFICER, 200),
    # Players (issue 28 item 2): officers browse them and edit a record.
    ("GET", "/players"): (OFFICER, 200),
    ("GET", "/players/{player_id}"): (OFFICER, 200),
    ("POST", "/players/{player_id}"): (OFFICER, 303),
    ("GET", "/admin/v1/openapi.json"): (SIGNED_IN, 200),
    ("GET", "/admin/v1/me"): (SIGNED_IN, 200),
    ("POST", "/admin/v1/me/password"): (SIGNED_IN, 200),
    ("POST", "/admin/v1/me/tokens"): (SIGNED_IN, 201),
    ("GET", "/admin/v1/users"): (ADMIN, 200),
    ("POST", "/admin/v1/users"): (ADMIN, 201),
    ("POST", "/admin/v1/users/{username}/disable"): (ADMIN, 200),
    ("POST", "/admin/v1/users/{username}/enable"): (ADMIN, 200),
    ("POST", "/admin/v1/users/{username}/approve"): (ADMIN, 200),
    ("POST", "/admin/v1/users/{username}/password"): (ADMIN, 200),
    ("POST", "/admin/v1/users/{username}/tokens/revoke"): (ADMIN, 200),
    ("POST", "/admin/v1/submissions"): (UPLOADERS, 201),
    ("GET", "/admin/v1/submissions"): (UPLOADERS, 200),
    ("GET", "/admin/v1/submissions/{submission_id}"): (UPLOADERS, 200),
    ("POST", "/admin/v1/submissions/{submission_id}/accept"): (OFFICER, 200),
    ("POST", "/admin/v1/submissions/{submission_id}/reject"): (OFFICER, 200),
    ("GET", "/admin/v1/audit"): (AUDITORS, 200),
    ("GET", "/admin/v1/players"): (OFFICER, 200),
    ("GET", "/admin/v1/players/{player_id}"): (OFFICER, 200),
    ("POST", "/admin/v1/players/{player_id}"): (OFFICER, 200),
    # --- Corrections (issue 14): officers only; the forms answer with the impact page's
    # address, the API with a dry run's impact (200) ---
    ("GET", "/corrections"): (OFFICER, 200),
    ("GET", "/corrections/game"): (OFFICER, 200),
    ("POST", "/corrections/game"): (OFFICER, 303),
    ("GET", "/corrections/tournament"): (OFFICER, 200),
    ("POST", "/corrections/tournament"): (OFFICER, 303),
    ("GET", "/corrections/merge"): (OFFICER, 200),
    ("POST", "/corrections/merge"): (OFFICER, 303),
    ("GET", "/corrections/list"): (OFFICER, 200),
    ("POST", "/corrections/list"): (OFFICER, 303),
    ("GET", "/corrections/withdraw"): (OFFICER, 200),
    ("POST", "/corrections/withdraw"): (OFFICER, 303),
    ("GET", "/corrections/previews/{preview_id}"): (OFFICER, 200),
    ("POST", "/corrections/previews/{preview_id}/confirm"): (OFFICER, 303),
    ("POST", "/corrections/previews/{preview_id}/discard"): (OFFICER, 303),
    ("POST", "/admin/v1/corrections/game"): (OFFICER, 200),
    ("POST", "/admin/v1/corrections/tournament/{tournament_id}"): (OFFICER, 200),
    ("POST", "/admin/v1/corrections/merge"): (OFFICER, 200),
    ("POST", "/admin/v1/corrections/list"): (OFFICER, 200),
    # Publication (issue 14): officers only.
    ("GET", "/publication"): (OFFICER, 200),
    ("GET", "/publication/{category}/{period}"): (OFFICER, 200),
    ("POST", "/publication/{category}/{period}/approve"): (OFFICER, 303),
    ("GET", "/admin/v1/periods/{category}/{period}/preview"): (OFFICER, 200),
    ("POST", "/admin/v1/periods/{category}/{period}/approve"): (OFFICER, 200),
    # Publication modes (issue 28 item 6): admins only.
    ("GET", "/settings/publication"): (ADMIN, 200),
    ("POST", "/settings/publication/{category}"): (ADMIN, 303),
    ("GET", "/admin/v1/publication/modes"): (ADMIN, 200),
    ("POST", "/admin/v1/publication/modes/{category}"): (ADMIN, 200),
}

#: Publication routes: the period each walks, in categories nothing else of the walk writes to
#: (no list there: each approval publishes an empty list of its own category, once, by the
#: officer).
PUBLICATION_TARGETS = {
    "/publication/{category}/{period}": "ffe-rapid/2026-12",
    "/publication/{category}/{period}/approve": "fide-rapid/2026-12",
    "/admin/v1/periods/{category}/{period}/preview": "ffe-rapid/2026-12",
    "/admin/v1/periods/{category}/{period}/approve": "fide-blitz/2026-12",
}

SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-store",
}

_names = itertools.count(1)


def test_every_route_is_walked(app: FastAPI) -> None:
    assert sorted(route_keys(app)) == sorted(EXPECTED)


def _state(sessions: sessionmaker[Session]) -> tuple[int, int, int, int]:
    """Audit entries of requests (the test's own set-up is recorded as actor "test"), disabled
    users, submissions and decided submissions: what a refused request must not change."""
    counted = select(func.count()).select_from(AuditRow).where(AuditRow.actor != "test")
    disabled = select(func.count()).where(UserRow.disabled)
    submissions = select(func.count()).select_from(SubmissionRow)
    decided = select(func.count()).where(SubmissionRow.state != "submitted")
    with sessions() as session:  # one statement: the walk asks it twice per request
        audited, off, submitted, done = session.execute(
            select(*(q.scalar_subquery() for q in (counted, disabled, submissions, decided)))
        ).one()
    return audited, off, submitted, done


def _submission(sessions: sessionmaker[Session], clock: Any) -> str:
    """A new submission of arbiter1 (whom the walk signs in as the arbiter), its audit entry
    recorded as the test's own set-up."""
    with sessions.begin() as session:
        arbiter = session.scalars(select(UserRow).where(UserRow.username == "arbiter1")).one()
        caller = Principal(arbiter.id, "test", Role.ARBITER, "api")
        # A different file each time (the same file is imported only once).
        content = TRF.replace(b"Test Open", f"Walk {next(_names)}".encode())
        upload = Upload(content, "walk.trf", ["fide-standard"])
        answer = submissions.submit(session, upload, caller, clock())
    return str(answer["submission_id"])


def _previewed_digest(sessions: sessionmaker[Session], clock: Any, url: str) -> str:
    """The digest of a preview of the period in ``url`` (.../{category}/{period}/approve),
    shown to the test's own user: what an approval names (once the period is published, any
    digest: only roles that may not approve call it then)."""
    category, period = url.split("/")[-3:-1]
    try:
        with sessions.begin() as session:
            shown = publication.preview(session, Category(category), Period.parse(period),
                                        now=clock(), viewer="test", approval=())  # fmt: skip
    except publication.AlreadyPublished:
        # The officer's call published it; the roles after it are refused before any check.
        return "0" * 64
    return shown.digest


def _target(users: Accounts, path: str) -> str:
    """The URL of a route: a fresh target user for {username}, a fresh submission of
    arbiter1 for {submission_id}."""
    target = f"target-{next(_names)}"
    if "{username}" in path:
        users.add(target, "arbiter")
        with users.sessions.begin() as session:
            row = session.scalars(select(UserRow).where(UserRow.username == target)).one()
            if path.endswith("/enable"):
                row.disabled = True
            if path.endswith("/users/{username}/approve"):
                # Created by another admin than the walk's (walker stands for them).
                walker = session.scalars(select(UserRow).where(UserRow.username == "walker"))
                row.awaiting_approval_from_other_than = walker.one().id
    url = path.replace("{username}", target)
    if path in PUBLICATION_TARGETS:
        url = url.replace("{category}/{period}", PUBLICATION_TARGETS[path])
    # A mode change: fide-standard, which no publication route of the walk targets.
    url = url.replace("{category}", "fide-standard")
    if "{submission_id}" in path:
        url = url.replace("{submission_id}", _submission(users.sessions, users.clock))
    if path.startswith(
        (
            "/corrections",
            "/admin/v1/corrections",
            "/norms/",
            "/tournaments/",
            "/players/",
            "/admin/v1/players/",
        )
    ):
        url = _correction_target(users, url)
    # Anna's GM norm check in Walk Open (not a norm: its draft certificate all the same).
    url = url.replace("{player_id}/{title}", "1001/GM")
    # Gus's record (a player of the walk's list that no correction of the walk changes).
    url = url.replace("{player_id}", "1003")
    if path == "/titles/watch":
        url += "?period=2026-08"
    return url


def _call(
    client: TestClient,
    users: Accounts,
    method: str,
    path: str,
    url: str,
    *,
    cookie: tuple[str, str] | None,
    token: str | None,
    signing_in: str,
) -> Response:
    """One request with realistic inputs: a fresh target user for {username}, the session's
    CSRF token on forms, valid bodies."""
    client.cookies.clear()
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    if method == "GET":
        if cookie is not None:
            client.cookies.set("ratingdb_session", cookie[0])
        return client.get(url, headers=headers)
    if path.startswith(("/corrections", "/admin/v1/corrections")) and method == "POST":
        return _correction_call(client, users, path, url, cookie=cookie, headers=headers)
    if path.startswith("/admin/v1"):
        body: dict[str, Any] = {}
        if path == "/admin/v1/users":
            body = {"username": f"new-{next(_names)}", "role": "arbiter", "password": PASSWORD}
        elif path.endswith("/tokens"):
            body = {"label": "walk", "days": 7, "scope": "read"}
        elif path == "/admin/v1/me/password":
            body = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
        elif path.endswith("/password"):
            body = {"password": NEW_PASSWORD}
        elif path.endswith("/reject"):
            body = {"reason": "walk"}
        elif path.endswith("/approve") and "/users/" not in path:
            body = {"digest": _previewed_digest(users.sessions, users.clock, url)}
        elif path.startswith("/admin/v1/publication/modes/"):
            body = {"mode": "approval", "reason": "walk"}
        elif path.startswith("/admin/v1/players/"):
            body = _player_edit(users, url)
        if cookie is not None:
            client.cookies.set("ratingdb_session", cookie[0])
        if path == "/admin/v1/submissions":
            return client.post(f"{url}?category=fide-standard", content=TRF, headers=headers)
        return client.post(url, json=body, headers=headers)
    form: dict[str, str] = {}
    if path == "/login":
        form = {"csrf_token": login_csrf(client), "username": signing_in, "password": PASSWORD}
    elif cookie is not None:
        form = {"csrf_token": cookie[1]}
    if path == "/users":
        form |= {"username": f"new-{next(_names)}", "role": "arbiter", "password": PASSWORD,
                 "password_again": PASSWORD}  # fmt: skip
    elif path.endswith("/tokens"):
        form |= {"label": "walk", "days": "7", "scope": "submit"}
    elif path == "/account/password":
        form |= {"current_password": PASSWORD, "new_password": NEW_PASSWORD,
                 "new_password_again": NEW_PASSWORD}  # fmt: skip
    elif path.endswith("/password"):
        form |= {"password": NEW_PASSWORD}
    elif path.endswith("/reject"):
        form |= {"reason": "walk"}
    elif path.endswith("/approve") and "/users/" not in path:
        form |= {"digest": _previewed_digest(users.sessions, users.clock, url)}
    elif path.startswith("/settings/publication/"):
        form |= {"mode": "approval", "reason": "walk"}
    elif path.startswith("/players/"):
        form |= {k: str(v) for k, v in _player_edit(users, url).items()}
    if cookie is not None:
        client.cookies.set("ratingdb_session", cookie[0])
    if path == "/submissions":
        form |= {"category": "fide-standard"}
        return client.post(url, data=form, files={"file": ("walk.trf", TRF)}, headers=headers)
    return client.post(url, data=form, headers=headers)


def _player_edit(users: Accounts, url: str) -> dict[str, str]:
    """A valid edit of the player in ``url``: their record's version now, a new name."""
    with users.sessions() as session:
        version = player_records.record(session, url.rsplit("/", 1)[1]).version
    return {"version": version, "name": f"Gus, walk {next(_names)}", "reason": "walk"}


# --- Corrections (issue 14): a small federation to correct, fresh previews of officer1 ---

#: Walk Open (2026-08-10..12, period 2026-09, open): Anna-Bob, then Dan-Anna; Gus and Dan
#: never met (a merge may make them one).
WALK_GAMES = ("Walk Open,2026-08-10,2026-08-12,1,1001,1002,{result}",
              "Walk Open,2026-08-10,2026-08-12,2,1004,1001,0-1")  # fmt: skip


def _correction_data(users: Accounts) -> dict[str, str]:
    """The list of 2026-08 imported, Walk Open imported (once per database: found there
    afterwards); the tournament's id. Through the command line, as the test's own set-up
    (audit actor "test")."""
    with users.sessions() as session:
        found = session.scalars(
            select(TournamentRow.tournament_id).where(TournamentRow.name == "Walk Open")
        ).one_or_none()
    if found is not None:
        return {"tournament": found}
    url = users.url
    with tempfile.TemporaryDirectory(prefix="ratingdb-walk-") as name:
        folder = Path(name)
        listed = factories.list_csv(factories.ANNA, factories.BOB, factories.GUS, factories.DAN)
        (folder / "list.csv").write_text(listed, encoding="utf-8")
        games = factories.games_csv(WALK_GAMES[0].format(result="1-0"), WALK_GAMES[1])
        (folder / "walk.csv").write_text(games, encoding="utf-8")
        commands = (
            ["lists", "import", str(folder / "list.csv"), "--period", "2026-08"],
            ["tournaments", "import", str(folder / "walk.csv")],
        )
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            for command in commands:
                extra = ["--category", "fide-standard", "--actor", "test", "--database-url", url]
                assert main([*command, *extra], sessions=sessions_for(url)) == 0, command
    return {"tournament": json.loads(out.getvalue().splitlines()[-1])["tournament_id"]}


def _other_result(sessions: sessionmaker[Session]) -> str:
    """A result Anna-Bob does not have now (a confirmed correction changes it)."""
    with sessions() as session:
        now = session.scalars(
            select(GameRow.result).where(GameRow.white_id == "1001", GameRow.black_id == "1002",
                                         GameRow.superseded_by.is_(None))
        ).one()  # fmt: skip
    return "0-1" if now != "0-1" else "1-0"


def _game_fields(users: Accounts) -> dict[str, str]:
    data = _correction_data(users)
    return {"tournament": data["tournament"], "round": "1", "white": "1001", "black": "1002",
            "result": _other_result(users.sessions), "reason": "walk"}  # fmt: skip


def _correction_target(users: Accounts, url: str) -> str:
    """{tournament_id}: Walk Open; {preview_id}: a fresh preview of officer1 (its digest kept
    for the confirm form)."""
    data = _correction_data(users)
    url = url.replace("{tournament_id}", data["tournament"])
    if "{preview_id}" in url:
        fields = _game_fields(users)
        with users.sessions.begin() as session:
            officer = session.scalars(select(UserRow).where(UserRow.username == "officer1")).one()
            caller = Principal(officer.id, "officer1", Role.OFFICER, "web")
            wanted = CorrectionRequest("game", {k: v for k, v in fields.items() if k != "reason"})
            number = correction_requests.preview(session, wanted, "walk", caller, users.clock())
            digest = correction_requests.show_preview(session, number, caller, users.clock())
        url = url.replace("{preview_id}", str(number))
        _digests[url] = digest["impact_digest"]
    return url


_digests: dict[str, str] = {}


def _correction_call(
    client: TestClient,
    users: Accounts,
    path: str,
    url: str,
    *,
    cookie: tuple[str, str] | None,
    headers: dict[str, str],
) -> Response:
    """A correction's POST with valid inputs: the forms preview, the API runs dry."""
    if cookie is not None:
        client.cookies.set("ratingdb_session", cookie[0])
    corrected_games = factories.games_csv(
        WALK_GAMES[0].format(result=_other_result(users.sessions)), WALK_GAMES[1]
    ).encode()
    corrected_list = factories.list_csv(
        factories.ANNA.replace("1850", "1860"), factories.BOB, factories.GUS, factories.DAN
    ).encode()
    if path.startswith("/admin/v1"):
        if path == "/admin/v1/corrections/game":
            return client.post(f"{url}?dry_run=true", json=_game_fields(users), headers=headers)
        if path == "/admin/v1/corrections/merge":
            # Gus (1980) and Dan (1975): another birth year, merged all the same (issue 28).
            body = {"keep": "1003", "drop": "1004", "reason": "walk", "dry_run": True,
                    "override": "walk"}  # fmt: skip
            return client.post(url, json=body, headers=headers)
        if path == "/admin/v1/corrections/list":
            query = "?category=fide-standard&period=2026-08&reason=walk&dry_run=true"
            return client.post(url + query, content=corrected_list, headers=headers)
        return client.post(f"{url}?reason=walk&dry_run=true&filename=walk.csv",
                           content=corrected_games, headers=headers)  # fmt: skip
    form = {} if cookie is None else {"csrf_token": cookie[1]}
    if path == "/corrections/game":
        return client.post(url, data=form | _game_fields(users), headers=headers)
    if path == "/corrections/merge":
        form |= {"keep": "1003", "drop": "1004", "reason": "walk", "override_ticked": "on",
                 "override": "walk"}  # fmt: skip
        return client.post(url, data=form, headers=headers)
    if path == "/corrections/tournament":
        form |= {"tournament": _correction_data(users)["tournament"], "reason": "walk"}
        return client.post(url, data=form, files={"file": ("walk.csv", corrected_games)},
                           headers=headers)  # fmt: skip
    if path == "/corrections/withdraw":  # Walk Open withdrawn: its impact shown, not applied
        form |= {"tournament": _correction_data(users)["tournament"], "reason": "walk"}
        return client.post(url, data=form, headers=headers)
    if path == "/corrections/list":
        form |= {"category": "fide-standard", "period": "2026-08", "reason": "walk"}
        return client.post(url, data=form, files={"file": ("list.csv", corrected_list)},
                           headers=headers)  # fmt: skip
    if path.endswith("/confirm"):
        form |= {"impact_digest": _digests[url]}
    return client.post(url, data=form, headers=headers)


def _check_denied(response: Response, api: bool, signed_in: bool, where: str) -> None:
    if signed_in:
        assert response.status_code == 403, where
    elif api:
        assert response.status_code == 401, where
        assert response.headers["www-authenticate"] == "Bearer", where
    else:
        assert response.status_code == 303, where
        assert response.headers["location"] == "/login", where


def _restore_passwords(sessions: sessionmaker[Session]) -> None:
    """Every user's password back to PASSWORD (after the walk changed one's own)."""
    with sessions.begin() as session:
        hashed = passwords.hash_password(PASSWORD)
        for row in session.scalars(select(UserRow)):
            row.password_hash = hashed


def test_every_route_with_every_role(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    for name in ROLES:
        users.add(f"{name}1", name)
    users.add("walker", "arbiter")
    for (method, path), (who, status) in EXPECTED.items():
        api = path.startswith("/admin/v1")
        # (caller, role or None, cookie, token): each role through its own channel, through
        # the other channel (which must not count), and nobody.
        callers: list[tuple[str, str | None, tuple[str, str] | None, str | None]] = [
            ("nobody", None, None, None),
            ("nobody with a made-up token", None, None, "x" * 43),
        ]
        for each in ROLES:
            its_cookie = users.session(f"{each}1")
            its_token = users.token(f"{each}1", label=f"walk-{next(_names)}")
            if api:
                callers.append((f"{each} token", each, None, its_token))
                callers.append((f"{each} cookie on the API", None, its_cookie, None))
            else:
                callers.append((f"{each} session", each, its_cookie, None))
                callers.append((f"{each} token on a page", None, None, its_token))
        for label, role, cookie, token in callers:
            where = f"{method} {path} as {label}"
            url = _target(users, path)
            before = _state(database.sessions)
            response = _call(client, users, method, path, url, cookie=cookie, token=token,
                             signing_in=role + "1" if role else "walker")  # fmt: skip
            if path in OWN_PASSWORD_ROUTES:
                _restore_passwords(database.sessions)
            for name, value in SECURITY_HEADERS.items():
                assert response.headers.get(name) == value, where
            assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
            may = who == EVERYONE or (role is not None and role in who)
            if may:
                assert response.status_code == status, (where, response.text[:300])
                continue
            _check_denied(response, api, role is not None, where)
            # Refused: nothing done, nothing recorded.
            assert _state(database.sessions) == before, where


@pytest.mark.parametrize("path", ["/extra", "/admin/v1/extra"])
def test_a_route_missing_from_the_policy_is_refused(
    app: FastAPI, client: TestClient, users: Accounts, path: str
) -> None:
    """Deny by default: a route added without its policy line answers 403, even to an admin."""

    def extra() -> dict[str, str]:
        return {"secret": "yes"}

    app.add_api_route(path, extra, methods=["GET"])
    users.add("root", "admin")
    session_id, _ = users.session("root")
    client.cookies.set("ratingdb_session", session_id)
    response = client.get(path, headers={"Authorization": f"Bearer {users.token('root')}"})
    assert response.status_code == 403
    assert "secret" not in response.text
