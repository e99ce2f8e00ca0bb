"""The checks every back-office request goes through.

- :func:`guard`, a dependency of the whole app: finds the route in the policy table (not
  there: 403), finds who is calling (web pages: the session cookie only; the JSON API: the
  bearer token only, so a browser's cookie never authorizes an API call), answers 303 to the
  sign-in page (web) or 401 (API) when nobody valid is, 403 when the role or the token's scope
  may not, 303 to the account page while an admin-chosen password waits to be changed, and
  checks the CSRF token of every form POST. It reads who is calling without the write lock,
  writes their last use only once a minute, and tells the audit log the request's channel
  and credential (``ratingdb.origin``).
- :class:`SecurityHeaders`: CSP, no framing, no sniffing, no referrer outside, no caching.
- Cookies: HttpOnly, SameSite=Strict, path /, Secure over HTTPS or with ``--secure-cookies``.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qsl

from fastapi import HTTPException, Request, Response
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ratingdb import origin
from ratingdb.backoffice import policy, uploads
from ratingdb.enums import AuditChannel
from ratingdb.i18n import N_
from ratingdb.services import accounts, sign_in
from ratingdb.services.accounts import Principal

SESSION_COOKIE = "ratingdb_session"
#: A browser the user signed in from (``services.sign_in``): sent to the sign-in form only.
DEVICE_COOKIE = "ratingdb_device"
DEVICE_COOKIE_PATH = "/login"
#: Before sign-in there is no session: the sign-in form's CSRF token is a random value that
#: the form and this cookie both carry (a cross-site page can read neither nor set the cookie).
LOGIN_CSRF_COOKIE = "ratingdb_login_csrf"
CSRF_FIELD = "csrf_token"
MAX_FORM_BYTES = 64 * 1024
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

HEADERS = {
    "content-security-policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'; "
    "base-uri 'none'; object-src 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cache-control": "no-store",
}


@dataclass(frozen=True, slots=True)
class Context:
    """What the app's checks need: the write sessions, sessions that read without taking
    SQLite's write lock, the clock, the cookie setting."""

    sessions: sessionmaker[Session]
    clock: Callable[[], datetime]
    secure_cookies: bool
    reads: sessionmaker[Session]


class SignInRequired(Exception):
    """A web page asked for without a valid session: answered 303 to /login."""


class PasswordChangeRequired(Exception):
    """A page asked for by a session whose password an admin chose: 303 to /account."""


def context(request: Request) -> Context:
    found: Context = request.app.state.backoffice
    return found


def secure(request: Request) -> bool:
    return context(request).secure_cookies or request.url.scheme == "https"


def set_cookie(
    request: Request,
    response: Response,
    name: str,
    value: str,
    *,
    path: str = "/",
    max_age: int | None = None,
) -> None:
    response.set_cookie(
        name, value, path=path, max_age=max_age, httponly=True, samesite="strict",
        secure=secure(request),
    )  # fmt: skip


def delete_cookie(request: Request, response: Response, name: str, path: str = "/") -> None:
    response.delete_cookie(
        name, path=path, httponly=True, samesite="strict", secure=secure(request)
    )


def new_login_csrf() -> str:
    return secrets.token_urlsafe(32)


def address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


async def form_fields(request: Request) -> dict[str, str]:
    """The fields of an ``application/x-www-form-urlencoded`` body (the pages' forms), read
    once per request (a multipart upload form's text fields on ``policy.UPLOADS`` routes).
    Repeated fields: the first counts."""
    cached: dict[str, str] | None = getattr(request.state, "form", None)
    if cached is not None:
        return cached
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind == "multipart/form-data" and _route_key(request) in policy.UPLOADS:
        received = await uploads.multipart(request)
        texts = {name: values[0] for name, values in received.fields.items()}
        request.state.form = texts
        return texts
    if kind != "application/x-www-form-urlencoded":
        raise HTTPException(415, "expected a form (application/x-www-form-urlencoded)")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_FORM_BYTES:
        raise HTTPException(413, "form too large")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise HTTPException(413, "form too large")
    try:
        pairs = parse_qsl(body.decode(), keep_blank_values=True, max_num_fields=50)
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, "unreadable form") from None
    fields: dict[str, str] = {}
    for name, value in pairs:
        fields.setdefault(name, value)
    request.state.form = fields
    return fields


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def _resolve(request: Request, api: bool) -> Principal | None:
    """Who is calling, through the one channel the route accepts; read without the write lock
    (a page view must not wait for a close), their last use written only when due."""
    found = context(request)
    now = found.clock()
    with found.reads.begin() as session:
        if api:
            token = _bearer(request)
            principal = None if token is None else accounts.authenticate_token(session, token, now)
        else:
            session_id = request.cookies.get(SESSION_COOKIE)
            principal = (
                None if session_id is None else sign_in.session_principal(session, session_id, now)
            )
    if principal is not None and (
        principal.touched_at is None or now - principal.touched_at >= accounts.TOUCH_EVERY
    ):
        with found.sessions.begin() as session:
            sign_in.touch(session, principal, now)
    return principal


def _route_key(request: Request) -> tuple[str, str | None]:
    return request.method, _route_path(request)


def _route_path(request: Request) -> str | None:
    route: BaseRoute | None = request.scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else None


async def guard(request: Request) -> Principal | None:
    """Run before every route (an app-wide dependency); see the module's docstring."""
    path = _route_path(request)
    rule = None if path is None else policy.allowed(request.method, path)
    if path is None or rule is None:
        raise HTTPException(403, N_("this route is not in the back office's access policy"))
    api = path == policy.API_PREFIX or path.startswith(policy.API_PREFIX + "/")
    principal = await run_in_threadpool(_resolve, request, api)
    if rule != policy.PUBLIC:
        if principal is None:
            if api:
                raise HTTPException(
                    401, "valid credentials required", headers={"WWW-Authenticate": "Bearer"}
                )
            raise SignInRequired
        if principal.role not in rule:
            raise HTTPException(403, N_("your role may not do this"))
        needed = policy.scope_needed(request.method, path)
        if api and not policy.scope_allows(principal.scope, needed):
            raise HTTPException(
                403, f"this token's scope ({principal.scope}) does not allow this: it needs "
                f"{needed}; issue a token with that scope",
            )  # fmt: skip
        if (
            not api
            and principal.must_change_password
            and (request.method, path) not in policy.PASSWORD_CHANGE_ROUTES
        ):
            raise PasswordChangeRequired
    origin.set_current(
        origin.Origin(
            AuditChannel.API if api else AuditChannel.WEB,
            None if principal is None else principal.credential[: origin.CREDENTIAL_LENGTH],
        )
    )
    if not api and request.method not in SAFE_METHODS:
        fields = await form_fields(request)
        presented = fields.get(CSRF_FIELD)
        if rule == policy.PUBLIC:
            expected = request.cookies.get(LOGIN_CSRF_COOKIE)
            ok = (
                expected is not None
                and presented is not None
                and hmac.compare_digest(expected.encode(), presented.encode())
            )
        else:
            ok = principal is not None and sign_in.csrf_matches(principal, presented)
        if not ok:
            raise HTTPException(
                403, N_("missing or wrong CSRF token: reload the page and try again")
            )
    request.state.principal = principal
    return principal


def signed_in(request: Request) -> Principal:
    """The caller of a route the guard let through (only for non-public routes)."""
    principal: Principal | None = getattr(request.state, "principal", None)
    if principal is None:
        raise HTTPException(403, N_("this route is not in the back office's access policy"))
    return principal


class SecurityHeaders:
    """The headers every response carries (HSTS too when cookies are Secure)."""

    def __init__(self, app: ASGIApp, *, hsts: bool) -> None:
        self.app = app
        self.hsts = hsts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers[name] = value
                if self.hsts or scope.get("scheme") == "https":
                    headers["strict-transport-security"] = "max-age=31536000"
            await send(message)

        await self.app(scope, receive, send_with_headers)
