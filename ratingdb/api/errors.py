"""Errors as the contract writes them: JSON ``{"detail": "..."}`` for 404, 405, 422 and 503,
with a detail a person can act on (the 422 names the parameter at fault); outside ``/v1`` a
path that does not exist answers an HTML page."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

from ratingdb.api.routes import pages
from ratingdb.errors import InputError
from ratingdb.services.published import NotFound

logger = logging.getLogger("ratingdb.api")

#: The only methods the API answers (docs/api.md §5).
ALLOWED_METHODS = "GET, HEAD"

_LOCATIONS = {"query": "query parameter", "path": "path parameter", "header": "header"}


def describe(error: Mapping[str, Any]) -> str:
    """One validation error as ``query parameter limit: Input should be ...``."""
    location: Sequence[Any] = error.get("loc", ())
    where = str(location[0]) if location else "request"
    name = ".".join(str(part) for part in location[1:]) or where
    message = "is required" if error.get("type") == "missing" else str(error.get("msg", ""))
    return f"{_LOCATIONS.get(where, where)} {name}: {message}"


def is_api_path(path: str) -> bool:
    """The JSON API's paths (``/v1/...``): everything else is for people, and a path that does
    not exist there answers the HTML 404 page in the reader's language."""
    return path == "/v1" or path.startswith("/v1/")


async def _validation_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, RequestValidationError):
        raise exc
    detail = "; ".join(describe(error) for error in exc.errors()) or "invalid request"
    return JSONResponse({"detail": detail}, status_code=422)


async def _http_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, StarletteHTTPException):
        raise exc
    headers = dict(exc.headers or {})
    detail: Any = exc.detail
    if exc.status_code == 405:
        headers["Allow"] = ALLOWED_METHODS
        detail = f"{request.method} is not allowed: the API is read-only ({ALLOWED_METHODS} only)"
    elif exc.status_code == 404 and detail == "Not Found":
        if not is_api_path(request.url.path):
            return pages.not_found_page(request)
        detail = f"nothing at {request.url.path}"
    if exc.status_code in (204, 304) or exc.status_code < 200:
        return Response(status_code=exc.status_code, headers=headers)
    return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=headers)


async def _not_found(request: Request, exc: Exception) -> Response:
    return JSONResponse({"detail": str(exc)}, status_code=404)


async def _input_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"detail": str(exc)}, status_code=422)


async def _database_unavailable(request: Request, exc: Exception) -> Response:
    # Logged with its traceback (it names the database); the client learns only that it failed.
    logger.error("database unavailable on %s", request.url.path, exc_info=exc)
    return JSONResponse(
        {"detail": "the database is unavailable; try again later"},
        status_code=503,
        headers={"Retry-After": "30"},
    )


async def _server_error(request: Request, exc: Exception) -> Response:
    # Starlette logs and re-raises the exception after this response: nothing is swallowed.
    # Its answer is sent from outside the app's middleware (app.NoSniff), so it says nosniff.
    return JSONResponse(
        {"detail": "internal server error"},
        status_code=500,
        headers={"X-Content-Type-Options": "nosniff"},
    )


def install(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(NotFound, _not_found)
    app.add_exception_handler(InputError, _input_error)
    app.add_exception_handler(OperationalError, _database_unavailable)
    app.add_exception_handler(Exception, _server_error)
