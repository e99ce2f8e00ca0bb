"""``create_app(settings)``: the back office's web pages and JSON API.

It writes through ``settings.database_url`` (the public app reads through a read-only one).
Every route goes through ``security.guard`` (an app-wide dependency) and is listed in
``policy.POLICY``; the app does not start otherwise. OpenAPI is served to signed-in callers
only, at /admin/v1/openapi.json; no documentation pages (they would need outside scripts).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.routing import APIRoute

from ratingdb import defaults
from ratingdb.backoffice import (
    api,
    correction_api,
    correction_pages,
    pages,
    policy,
    publication_api,
    publication_pages,
    submission_api,
    submission_pages,
)
from ratingdb.backoffice.security import Context, SecurityHeaders, SignInRequired, guard
from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.errors import InputError
from ratingdb.services.accounts import UnknownUserError

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


def create_app(
    settings: Settings,
    *,
    secure_cookies: bool | None = None,
    clock: Callable[[], datetime] = _utc_now,
) -> FastAPI:
    """``secure_cookies`` (default: ``settings.backoffice_secure_cookies``): mark cookies Secure
    (and send HSTS) even when the request reached the app over plain HTTP, as behind a proxy
    that ends TLS. ``clock`` (tests) tells the time
    sessions and tokens are checked against."""
    if secure_cookies is None:
        secure_cookies = settings.backoffice_secure_cookies
    engine = make_engine(settings.database_url, pool_pre_ping=True)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            engine.dispose()

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
    app.state.backoffice = Context(make_sessionmaker(engine), clock, secure_cookies)
    # Publication: the categories whose lists wait for an officer's approval.
    app.state.publication_approval = settings.publication_approval
    pages.register(app)
    submission_pages.register(app)
    api.register(app)
    submission_api.register(app)
    # Corrections (issue 14)
    correction_pages.register(app)
    correction_api.register(app)
    # Publication (issue 14)
    publication_pages.register(app)
    publication_api.register(app)
    app.add_exception_handler(SignInRequired, _to_login)
    app.add_exception_handler(InputError, _input_error)
    app.add_middleware(SecurityHeaders, hsts=secure_cookies)
    policy.check_policy_covers(route_keys(app))
    return app


async def _to_login(request: Request, error: Exception) -> Response:
    return RedirectResponse("/login", status_code=303)


async def _input_error(request: Request, error: Exception) -> Response:
    status = 404 if isinstance(error, UnknownUserError) else 422
    return JSONResponse({"detail": str(error)}, status_code=status)
