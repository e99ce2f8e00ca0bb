"""The back office's web pages: sign-in, sign-out, home, your account (password, API tokens),
user management (admins).

Plain HTML forms, no JavaScript. Every POST carries the CSRF token (checked by the guard);
every change answers with a redirect (so reloading a page never repeats it), except a new
token, shown once on its own page.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session

from ratingdb.backoffice import policy
from ratingdb.backoffice.i18n import environment, gettext, reader_of
from ratingdb.backoffice.security import (
    CSRF_FIELD,
    DEVICE_COOKIE,
    DEVICE_COOKIE_PATH,
    LOGIN_CSRF_COOKIE,
    SESSION_COOKIE,
    address,
    context,
    delete_cookie,
    form_fields,
    new_login_csrf,
    set_cookie,
    signed_in,
)
from ratingdb.enums import Role, TokenScope
from ratingdb.errors import InputError
from ratingdb.formats.unregistered_csv import write_unregistered_csv
from ratingdb.i18n import N_
from ratingdb.rules.messages import Message as Text
from ratingdb.services import accounts, sign_in
from ratingdb.services.accounts import NotAllowed, Principal, UnknownUserError
from ratingdb.services.unregistered import unregistered_players

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(env=environment(HERE / "templates"))

WRONG_CREDENTIALS = N_("wrong user name or password")
AWAITING_APPROVAL = N_("your account awaits another admin's approval: ask an admin")
PASSWORDS_DIFFER = N_("%(field)s: the two passwords differ")
DEVICE_MAX_AGE = int(sign_in.DEVICE_LIFETIME.total_seconds())


Fields = Annotated[dict[str, str], Depends(form_fields)]
Caller = Annotated[Principal, Depends(signed_in)]


#: Every page's header and title: the federation's name (RATINGDB_FEDERATION_NAME, else
#: "ratingdb"), as on the public site.
BACK_OFFICE_NAME = N_("%(name)s back office")


def _page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    """``name`` rendered in the reader's language (``i18n``), with who is signed in."""
    principal = getattr(request.state, "principal", None)
    reader = reader_of(request)
    back_office = reader.gettext(BACK_OFFICE_NAME) % {"name": request.app.state.site_name}
    response: HTMLResponse = templates.TemplateResponse(
        request,
        name,
        {
            "principal": principal,
            "csrf_field": CSRF_FIELD,
            "reader": reader,
            "back_office": back_office,
            **values,
        },
        status_code=status,
        headers={"Content-Language": reader.language, "Vary": "Accept-Language"},
    )
    return response


def stylesheet() -> FileResponse:
    return FileResponse(HERE / "static" / "backoffice.css", media_type="text/css")


def login_page(request: Request) -> HTMLResponse:
    token = new_login_csrf()
    response = _page(request, "login.html", csrf_token=token, error=None)
    set_cookie(request, response, LOGIN_CSRF_COOKIE, token)
    return response


def login(request: Request, fields: Fields) -> Response:
    found = context(request)
    with found.sessions.begin() as session:
        outcome = sign_in.sign_in(
            session,
            fields.get("username", ""),
            fields.get("password", ""),
            address(request),
            found.clock(),
            previous_session_id=request.cookies.get(SESSION_COOKIE),
            device_id=request.cookies.get(DEVICE_COOKIE),
        )
    if outcome.session_id is None:
        headers: dict[str, str] = {}
        if outcome.retry_after is not None:
            seconds = max(1, math.ceil(outcome.retry_after.total_seconds()))
            status = 429
            error = gettext(request, N_("too many failed attempts: try again in %(seconds)s "
                                        "seconds"), seconds=seconds)  # fmt: skip
            headers["Retry-After"] = str(seconds)
        elif outcome.awaiting_approval:
            status, error = 403, gettext(request, AWAITING_APPROVAL)
        else:
            status, error = 401, gettext(request, WRONG_CREDENTIALS)
        response: Response = _page(
            request, "login.html", status=status, csrf_token=fields.get(CSRF_FIELD, ""),
            error=error,
        )  # fmt: skip
        response.headers.update(headers)
        delete_cookie(request, response, SESSION_COOKIE)
        return response
    response = RedirectResponse("/", status_code=303)
    set_cookie(request, response, SESSION_COOKIE, outcome.session_id)
    if outcome.device_id is not None:
        set_cookie(request, response, DEVICE_COOKIE, outcome.device_id, path=DEVICE_COOKIE_PATH,
                   max_age=DEVICE_MAX_AGE)  # fmt: skip
    delete_cookie(request, response, LOGIN_CSRF_COOKIE)
    return response


def logout(request: Request, caller: Caller) -> Response:
    found = context(request)
    session_id = request.cookies.get(SESSION_COOKIE)
    if session_id is not None:
        with found.sessions.begin() as session:
            sign_in.sign_out(session, session_id, caller, found.clock())
    response = RedirectResponse("/login", status_code=303)
    delete_cookie(request, response, SESSION_COOKIE)
    return response


def home(request: Request, caller: Caller) -> HTMLResponse:
    links = [
        (path, label)
        for path, label in (
            ("/submissions/new", N_("Send a tournament file")),
            ("/submissions", N_("Submissions")),
            ("/audit", N_("Audit log")),
            ("/users", N_("Users")),
            ("/settings/publication", N_("Publication modes: automatic or with approval")),
            ("/account", N_("Your account: password and API tokens")),
            # Tournaments (issue 28 item 4)
            ("/tournaments", N_("Tournaments: browse, correct a game, withdraw")),
            # Corrections (issue 14)
            ("/corrections", N_("Corrections")),
            # Players (issue 28 item 2)
            ("/players", N_("Players: search them, edit a record")),
            (
                "/players/unregistered.csv",
                N_("Players who need a FIDE id (CSV for FIDE's registration)"),
            ),
            # Titles (issue 28 item 1)
            ("/norms", N_("Title norms: each tournament's norm checks and certificates")),
            ("/titles/watch", N_("Title watch: who reached a title's rating on a list")),
        )
        if caller.role in _roles_of("GET", path)
    ]
    # Publication (issue 14)
    publication = ("/publication", N_("Publication: preview and approve the next lists"))
    if caller.role in _roles_of("GET", publication[0]):
        links.append(publication)
    return _page(request, "home.html", links=links)


def _roles_of(method: str, path: str) -> frozenset[str]:
    rule = policy.allowed(method, path)
    return frozenset() if rule is None or rule == policy.PUBLIC else rule


def _refusal(error: InputError) -> Text:
    """An account form's refusal as ``str(error)`` writes it (``username: no user 'ben'``),
    worded in the officer's language (a service's ``InputError`` names no file)."""
    if not error.field:
        return error.text
    return Text(N_("%(field)s: %(message)s"), {"field": error.field, "message": error.text})


def _users_page(
    request: Request, status: int = 200, error: str | Text | None = None
) -> HTMLResponse:
    with context(request).reads.begin() as session:  # reads: no write lock
        users = accounts.list_users(session)
    return _page(request, "users.html", status=status, users=users, roles=list(Role),
                 error=error)  # fmt: skip


def users_page(request: Request, caller: Caller) -> HTMLResponse:
    return _users_page(request)


def _status(error: InputError) -> int:
    if isinstance(error, UnknownUserError):
        return 404
    return 403 if isinstance(error, NotAllowed) else 422


def _user_change(request: Request, change: Callable[[Session], object]) -> Response:
    """Run an admin's change of an account; the users page again, with the error if any."""
    try:
        with context(request).sessions.begin() as session:
            change(session)
    except InputError as error:
        return _users_page(request, _status(error), _refusal(error))
    return RedirectResponse("/users", status_code=303)


def add_user(request: Request, caller: Caller, fields: Fields) -> Response:
    username = fields.get("username", "").strip()
    password = fields.get("password", "")
    if password != fields.get("password_again", ""):
        return _users_page(request, 422, gettext(request, PASSWORDS_DIFFER, field="password"))
    now = context(request).clock()
    return _user_change(request, lambda session: accounts.add_user(
        session, username, fields.get("role", ""), password, by=caller, actor=caller.username,
        now=now))  # fmt: skip


def disable_user(request: Request, username: str, caller: Caller) -> Response:
    now = context(request).clock()
    return _user_change(request, lambda session: accounts.disable_user(
        session, username, by=caller, actor=caller.username, now=now))  # fmt: skip


def enable_user(request: Request, username: str, caller: Caller) -> Response:
    now = context(request).clock()
    return _user_change(request, lambda session: accounts.enable_user(
        session, username, actor=caller.username, now=now))  # fmt: skip


def approve_user(request: Request, username: str, caller: Caller) -> Response:
    now = context(request).clock()
    return _user_change(
        request, lambda session: accounts.approve_user(session, username, by=caller, now=now)
    )


def reset_password(request: Request, username: str, caller: Caller, fields: Fields) -> Response:
    now = context(request).clock()
    return _user_change(request, lambda session: accounts.reset_password(
        session, username, fields.get("password", ""), by=caller, actor=caller.username,
        now=now))  # fmt: skip


def revoke_tokens(request: Request, username: str, caller: Caller, fields: Fields) -> Response:
    now = context(request).clock()
    label = fields.get("label", "") or None
    return _user_change(request, lambda session: accounts.revoke_tokens(
        session, username, label, actor=caller.username, now=now))  # fmt: skip


# Your account ----------------------------------------------------------------------------------


def _account_page(
    request: Request,
    caller: Principal,
    status: int = 200,
    error: str | Text | None = None,
    notice: str | None = None,
) -> HTMLResponse:
    with context(request).reads.begin() as session:  # reads: no write lock
        users = accounts.list_users(session)
    tokens: list[dict[str, Any]] = next(
        (u["tokens"] for u in users if u["username"] == caller.username), []
    )
    return _page(
        request, "account.html", status=status, error=error, notice=notice, tokens=tokens,
        scopes=list(TokenScope), default_scope=accounts.DEFAULT_TOKEN_SCOPE,
        default_days=accounts.DEFAULT_TOKEN_DAYS,
    )  # fmt: skip


def account_page(request: Request, caller: Caller) -> HTMLResponse:
    return _account_page(request, caller)


def change_password(request: Request, caller: Caller, fields: Fields) -> Response:
    new = fields.get("new_password", "")
    if new != fields.get("new_password_again", ""):
        differ = gettext(request, PASSWORDS_DIFFER, field="new_password")
        return _account_page(request, caller, 422, differ)
    found = context(request)
    try:
        with found.sessions.begin() as session:
            accounts.change_password(
                session, caller, fields.get("current_password", ""), new, now=found.clock(),
                keep_session_hash=caller.session_hash,
            )  # fmt: skip
    except InputError as error:
        return _account_page(request, caller, _status(error), _refusal(error))
    return RedirectResponse("/", status_code=303)


def issue_token(request: Request, caller: Caller, fields: Fields) -> Response:
    found = context(request)
    days_text = fields.get("days", "") or str(accounts.DEFAULT_TOKEN_DAYS)
    try:
        if not days_text.isdigit():
            raise InputError(Text(N_("must be a whole number, got %(given)s"),
                                  {"given": repr(days_text)}), field="days")  # fmt: skip
        with found.sessions.begin() as session:
            issued = accounts.issue_token(
                session, caller.username, fields.get("label", "") or accounts.DEFAULT_TOKEN_LABEL,
                int(days_text), fields.get("scope", "") or accounts.DEFAULT_TOKEN_SCOPE,
                by=caller, actor=caller.username, now=found.clock(),
            )  # fmt: skip
    except InputError as error:
        return _account_page(request, caller, _status(error), _refusal(error))
    return _page(request, "token.html", issued=issued)


def revoke_own_tokens(request: Request, caller: Caller, fields: Fields) -> Response:
    found = context(request)
    label = fields.get("label", "") or None
    with found.sessions.begin() as session:
        count = accounts.revoke_tokens(session, caller.username, label, actor=caller.username,
                                       now=found.clock())  # fmt: skip
    notice = reader_of(request).ngettext("%(num)s token revoked", "%(num)s tokens revoked", count)
    return _account_page(request, caller, notice=notice % {"num": count})


def unregistered_download(request: Request, caller: Caller) -> Response:
    """``players export-unregistered`` as a download: every FIDE category's tournaments."""
    found = context(request)
    with found.sessions.begin() as session:
        players = unregistered_players(session, [])
    out = io.StringIO()
    write_unregistered_csv(players, out)
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="unregistered-players.csv"'},
    )


def register(router: APIRouter) -> None:
    """The pages' routes (each one also a line of ``policy.POLICY``); not in the OpenAPI."""
    for method, path, endpoint in (
        ("GET", "/style.css", stylesheet),
        ("GET", "/login", login_page),
        ("POST", "/login", login),
        ("POST", "/logout", logout),
        ("GET", "/", home),
        ("GET", "/account", account_page),
        ("POST", "/account/password", change_password),
        ("POST", "/account/tokens", issue_token),
        ("POST", "/account/tokens/revoke", revoke_own_tokens),
        ("GET", "/users", users_page),
        ("POST", "/users", add_user),
        ("POST", "/users/{username}/disable", disable_user),
        ("POST", "/users/{username}/enable", enable_user),
        ("POST", "/users/{username}/approve", approve_user),
        ("POST", "/users/{username}/password", reset_password),
        ("POST", "/users/{username}/tokens/revoke", revoke_tokens),
        ("GET", "/players/unregistered.csv", unregistered_download),
    ):
        router.add_api_route(path, endpoint, methods=[method], include_in_schema=False)
