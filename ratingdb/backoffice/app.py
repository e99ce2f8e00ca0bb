"""``create_app(settings)``: the back office's web pages and JSON API.

It writes through ``settings.database_url`` (the public app reads through a read-only one).
Every route goes through ``security.guard`` (an app-wide dependency) and is listed in
``policy.POLICY``; the app does not start otherwise. OpenAPI is served to signed-in callers
only, at /admin/v1/openapi.json; no documentation pages (they would need outside scripts).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import cache

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.routing import BaseRoute

from ratingdb import defaults
from ratingdb.backoffice import (
    api,
    correction_api,
    correction_pages,
    i18n,
    norm_pages,
    pages,
    player_pages,
    policy,
    publication_api,
    publication_modes,
    publication_pages,
    submission_api,
    submission_pages,
    tournament_pages,
    uploads,
)
from ratingdb.backoffice.security import (
    Context,
    PasswordChangeRequired,
    SecurityHeaders,
    SignInRequired,
    guard,
)
from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.errors import InputError
from ratingdb.i18n import N_
from ratingdb.observability import http as http_metrics
from ratingdb.observability import metrics
from ratingdb.services.accounts import NotAllowed, UnknownUserError
from ratingdb.services.passwords import HashingBusy

#: Seconds a client is asked to wait when the database or the password checks are busy.
RETRY_AFTER_BUSY = 5

DEFAULT_HOST = defaults.BACKOFFICE_HOST
DEFAULT_PORT = defaults.BACKOFFICE_PORT


def _utc_now() -> datetime:
    return datetime.now(UTC)


def route_keys(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every route the app serves."""
    return [
        (method, route.path)
        for route in app.routes
        if isinstance(route, APIRoute)
        for method in sorted(route.methods or ())
    ]


@cache
def _routes() -> tuple[BaseRoute, ...]:
    """Every route of the back office but /metrics (whose registry is the app's), each behind
    ``guard``. Built once per process: FastAPI works out each endpoint's parameters as it adds
    the route (about 50 ms for the back office's 80), and a route holds nothing of its app
    (what an app serves with is in ``app.state``), so every app of a process serves the same
    routes (the tests make hundreds of apps)."""
    router = APIRouter(dependencies=[Depends(guard)])
    pages.register(router)
    submission_pages.register(router)
    api.register(router)
    submission_api.register(router)
    # Corrections (issue 14)
    correction_pages.register(router)
    correction_api.register(router)
    # Publication (issue 14)
    publication_pages.register(router)
    norm_pages.register(router)
    tournament_pages.register(router)
    # Players (issue 28 item 2): after pages', whose /players/unregistered.csv comes first.
    player_pages.register(router)
    publication_api.register(router)
    publication_modes.register(router)
    return tuple(router.routes)


def create_app(
    settings: Settings,
    *,
    secure_cookies: bool | None = None,
    clock: Callable[[], datetime] = _utc_now,
    sessions: sessionmaker[Session] | None = None,
) -> FastAPI:
    """``secure_cookies`` (default: ``settings.backoffice_secure_cookies``): mark cookies Secure
    (and send HSTS) even when the request reached the app over plain HTTP, as behind a proxy
    that ends TLS. ``clock`` (tests) tells the time
    sessions and tokens are checked against. ``sessions`` (tests): every session the app opens,
    instead of engines on ``settings.database_url`` (a caller that holds the database: the
    tests' rolled-back transaction); the caller disposes of them."""
    if secure_cookies is None:
        secure_cookies = settings.backoffice_secure_cookies
    engines: list[Engine] = []
    if sessions is None:
        engine = make_engine(settings.database_url, pool_pre_ping=True)
        # Who is calling is read without SQLite's write lock (BEGIN, not BEGIN IMMEDIATE), so
        # that a page view does not wait for a writer; PostgreSQL's reads never wait for
        # writers.
        reader = (
            make_engine(settings.database_url, sqlite_immediate=False, pool_pre_ping=True)
            if engine.dialect.name == "sqlite"
            else engine
        )
        engines = [engine, reader]
        sessions, reads = make_sessionmaker(engine), make_sessionmaker(reader)
    else:
        reads = sessions

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            for made in engines:
                made.dispose()

    app = FastAPI(
        title="ratingdb back office",
        description="Accounts, submissions, corrections, publication and the audit log. "
        "`Authorization: Bearer TOKEN` (`ratingdb users token`).",
        lifespan=lifespan,
        dependencies=[Depends(guard)],
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        # Starlette answers /path/ with a 307 to http://<the Host header>/path, before any
        # guard runs: a client would be sent wherever the Host header said. /path/ is a 404.
        redirect_slashes=False,
    )
    app.state.site_name = settings.federation_name or "ratingdb"
    app.state.backoffice = Context(sessions, clock, secure_cookies, reads)
    # Publication: the categories whose lists wait for an officer's approval.
    app.state.publication_approval = settings.publication_approval
    # A player's public page, linked from their record.
    app.state.public_base_url = settings.public_base_url
    # Uploads read and checked at once (``uploads.slot``).
    app.state.upload_slots = uploads.UploadSlots(settings.backoffice_upload_concurrency)
    # /metrics: requests, the closes and cascades this process ran (approvals, corrections).
    registry = metrics.app_registry(work=True) if settings.metrics else None
    if registry is not None:
        metrics.listen_to_services()
    http_metrics.add_route(app, registry)
    app.router.routes.extend(_routes())
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(SignInRequired, _to_login)
    app.add_exception_handler(PasswordChangeRequired, _to_account)
    app.add_exception_handler(InputError, _input_error)
    app.add_exception_handler(HashingBusy, _busy)
    app.add_exception_handler(OperationalError, _database_busy)
    app.add_exception_handler(PoolTimeout, _busy)
    app.add_exception_handler(ClientDisconnect, _client_gone)
    app.add_middleware(SecurityHeaders, hsts=secure_cookies)
    app.add_middleware(uploads.ClosingForms)
    # A language the address chose (?lang=) is kept by the redirects answering its forms.
    app.add_middleware(i18n.KeepLanguage)
    if registry is not None:
        http_metrics.install(app, registry)
    policy.check_policy_covers(route_keys(app))
    return app


#: What a refused or missing page says at the top, by status (pages only: the JSON API keeps
#: FastAPI's {"detail": ...}).
_PAGE_REFUSALS = {403: N_("Not allowed"), 404: N_("Not found"), 405: N_("Not allowed")}
#: Starlette's own refusals, shown (translated) on the refusal page.
_STARLETTE_DETAILS = (N_("Not Found"), N_("Method Not Allowed"))
#: What programs read (the JSON API, Prometheus): their refusals stay JSON.
_MACHINE_PATHS = ("/admin/v1", "/metrics")


async def _http_error(request: Request, error: Exception) -> Response:
    """A page the role may not open (403), or that does not exist (404), as an HTML page
    saying why, with the back office's header; what programs read (_MACHINE_PATHS) and every
    other status as FastAPI answers them."""
    if not isinstance(error, StarletteHTTPException):
        raise error
    heading = _PAGE_REFUSALS.get(error.status_code)
    if heading is None or request.url.path.startswith(_MACHINE_PATHS):
        return await http_exception_handler(request, error)
    response = pages._page(request, "refused.html", status=error.status_code, heading=heading,
                           error=str(error.detail))  # fmt: skip
    if error.headers:
        response.headers.update(error.headers)
    return response


async def _to_login(request: Request, error: Exception) -> Response:
    return RedirectResponse("/login", status_code=303)


async def _to_account(request: Request, error: Exception) -> Response:
    return RedirectResponse("/account", status_code=303)


async def _client_gone(request: Request, error: Exception) -> Response:
    """The client went before its whole body came (or the server's body timeout ended it, and
    has answered 408 and logged it): the answer goes nowhere, but it is an answer, not an
    error of the app's."""
    return JSONResponse({"detail": "the connection ended before the whole body came"}, 400)


async def _input_error(request: Request, error: Exception) -> Response:
    if isinstance(error, UnknownUserError):
        status = 404
    elif isinstance(error, NotAllowed):
        status = 403
    else:
        status = 422
    return JSONResponse({"detail": str(error)}, status_code=status)


async def _busy(request: Request, error: Exception) -> Response:
    """Too many at once (password checks, database connections): come back shortly."""
    return JSONResponse(
        {"detail": f"the back office is busy: try again in {RETRY_AFTER_BUSY} seconds"},
        status_code=503,
        headers={"Retry-After": str(RETRY_AFTER_BUSY)},
    )


async def _database_busy(request: Request, error: Exception) -> Response:
    """A writer holds the database (SQLite's lock, PostgreSQL's lock timeout): 503 with
    Retry-After; any other operational failure is not ours to hide."""
    if not _locked(error):
        raise error
    return await _busy(request, error)


def _locked(error: BaseException) -> bool:
    orig = getattr(error, "orig", None)
    if isinstance(orig, sqlite3.OperationalError):
        return "locked" in str(orig) or "busy" in str(orig)
    sqlstate = getattr(orig, "sqlstate", None)
    # 55P03 lock_not_available (lock_timeout), 57014 query_canceled (statement_timeout)
    return sqlstate in ("55P03", "57014")
