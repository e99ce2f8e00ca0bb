"""The back office's web pages: sign-in, sign-out, home, user management (admins).

Plain HTML forms, no JavaScript. Every POST carries the CSRF token (checked by the guard);
every change answers with a redirect (so reloading a page never repeats it), except a new
token, shown once on its own page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ratingdb.backoffice import policy
from ratingdb.backoffice.security import (
    CSRF_FIELD,
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
from ratingdb.enums import Role
from ratingdb.errors import InputError
from ratingdb.services import accounts
from ratingdb.services.accounts import Principal, UnknownUserError

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=HERE / "templates")

WRONG_CREDENTIALS = "wrong user name or password"
THROTTLED = "too many failed attempts: try again in 15 minutes"

Fields = Annotated[dict[str, str], Depends(form_fields)]
Caller = Annotated[Principal, Depends(signed_in)]


def _page(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    principal = getattr(request.state, "principal", None)
    response: HTMLResponse = templates.TemplateResponse(
        request,
        name,
        {"principal": principal, "csrf_field": CSRF_FIELD, **values},
        status_code=status,
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
        outcome = accounts.sign_in(
            session,
            fields.get("username", ""),
            fields.get("password", ""),
            address(request),
            found.clock(),
            previous_session_id=request.cookies.get(SESSION_COOKIE),
        )
    if outcome.session_id is None:
        response: Response = _page(
            request,
            "login.html",
            status=429 if outcome.throttled else 401,
            csrf_token=fields.get(CSRF_FIELD, ""),
            error=THROTTLED if outcome.throttled else WRONG_CREDENTIALS,
        )
        delete_cookie(request, response, SESSION_COOKIE)
        return response
    response = RedirectResponse("/", status_code=303)
    set_cookie(request, response, SESSION_COOKIE, outcome.session_id)
    delete_cookie(request, response, LOGIN_CSRF_COOKIE)
    return response


def logout(request: Request, caller: Caller) -> Response:
    found = context(request)
    session_id = request.cookies.get(SESSION_COOKIE)
    if session_id is not None:
        with found.sessions.begin() as session:
            accounts.sign_out(session, session_id)
    response = RedirectResponse("/login", status_code=303)
    delete_cookie(request, response, SESSION_COOKIE)
    return response


def home(request: Request, caller: Caller) -> HTMLResponse:
    links = [
        (path, label)
        for path, label in (
            ("/submissions/new", "Send a tournament file"),
            ("/submissions", "Submissions"),
            ("/audit", "Audit log"),
            ("/users", "Users and API tokens"),
            # Corrections (issue 14)
            ("/corrections", "Corrections"),
        )
        if caller.role in _roles_of("GET", path)
    ]
    # Publication (issue 14)
    publication = ("/publication", "Publication: preview and approve the next lists")
    if caller.role in _roles_of("GET", publication[0]):
        links.append(publication)
    return _page(request, "home.html", links=links)


def _roles_of(method: str, path: str) -> frozenset[str]:
    rule = policy.allowed(method, path)
    return frozenset() if rule is None or rule == policy.PUBLIC else rule


def _users_page(request: Request, status: int = 200, error: str | None = None) -> HTMLResponse:
    found = context(request)
    with found.sessions.begin() as session:
        users = accounts.list_users(session)
    return _page(request, "users.html", status=status, users=users, roles=list(Role),
                 error=error)  # fmt: skip


def users_page(request: Request, caller: Caller) -> HTMLResponse:
    return _users_page(request)


def add_user(request: Request, caller: Caller, fields: Fields) -> Response:
    username = fields.get("username", "").strip()
    password = fields.get("password", "")
    if password != fields.get("password_again", ""):
        return _users_page(request, 422, "password: the two passwords differ")
    found = context(request)
    try:
        with found.sessions.begin() as session:
            accounts.add_user(session, username, fields.get("role", ""), password,
                              actor=caller.username, now=found.clock())  # fmt: skip
    except InputError as error:
        return _users_page(request, 422, str(error))
    return RedirectResponse("/users", status_code=303)


def disable_user(request: Request, username: str, caller: Caller) -> Response:
    if username == caller.username:
        return _users_page(request, 422, "you cannot disable yourself")
    found = context(request)
    try:
        with found.sessions.begin() as session:
            accounts.disable_user(session, username, actor=caller.username, now=found.clock())
    except UnknownUserError as error:
        return _users_page(request, 404, str(error))
    return RedirectResponse("/users", status_code=303)


def issue_token(request: Request, username: str, caller: Caller, fields: Fields) -> Response:
    found = context(request)
    days_text = fields.get("days", "") or str(accounts.DEFAULT_TOKEN_DAYS)
    try:
        if not days_text.isdigit():
            raise InputError(f"must be a whole number, got {days_text!r}", field="days")
        with found.sessions.begin() as session:
            issued = accounts.issue_token(
                session, username, fields.get("label", "") or accounts.DEFAULT_TOKEN_LABEL,
                int(days_text), actor=caller.username, now=found.clock(),
            )  # fmt: skip
    except UnknownUserError as error:
        return _users_page(request, 404, str(error))
    except InputError as error:
        return _users_page(request, 422, str(error))
    return _page(request, "token.html", username=username, issued=issued)


def revoke_tokens(request: Request, username: str, caller: Caller, fields: Fields) -> Response:
    found = context(request)
    label = fields.get("label", "") or None
    try:
        with found.sessions.begin() as session:
            accounts.revoke_tokens(session, username, label, actor=caller.username,
                                   now=found.clock())  # fmt: skip
    except UnknownUserError as error:
        return _users_page(request, 404, str(error))
    return RedirectResponse("/users", status_code=303)


def register(app: FastAPI) -> None:
    """The pages' routes (each one also a line of ``policy.POLICY``); not in the OpenAPI."""
    for method, path, endpoint in (
        ("GET", "/style.css", stylesheet),
        ("GET", "/login", login_page),
        ("POST", "/login", login),
        ("POST", "/logout", logout),
        ("GET", "/", home),
        ("GET", "/users", users_page),
        ("POST", "/users", add_user),
        ("POST", "/users/{username}/disable", disable_user),
        ("POST", "/users/{username}/tokens", issue_token),
        ("POST", "/users/{username}/tokens/revoke", revoke_tokens),
    ):
        app.add_api_route(path, endpoint, methods=[method], include_in_schema=False)
