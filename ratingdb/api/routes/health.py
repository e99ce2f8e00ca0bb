"""``/health``: ok only when the database answers and is at the latest schema revision."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.schemas import HealthDownOut, HealthOut
from ratingdb.services import published as svc

router = APIRouter(tags=["health"])
logger = logging.getLogger("ratingdb.api")

NO_STORE = {"Cache-Control": "no-store"}


@router.get(
    "/health",
    response_model=HealthOut,
    responses={503: {"model": HealthDownOut, "description": "Unreachable or not migrated"}},
)
async def health(request: Request, response: Response, read: ReaderDep) -> HealthOut | JSONResponse:
    response.headers.update(NO_STORE)
    expected: str | None = request.app.state.expected_revision
    try:
        revision = await read(svc.schema_revision)
    except DBAPIError as error:
        logger.error("health: the database cannot be read", exc_info=error)
        return _down("the database cannot be reached", None, expected)
    if revision is None or revision != expected:
        return _down(
            f"the database is at revision {revision}, expected {expected} "
            "(run: ratingdb db upgrade)",
            revision,
            expected,
        )
    return HealthOut(status="ok", revision=revision)


def _down(detail: str, revision: str | None, expected: str | None) -> JSONResponse:
    body = HealthDownOut(
        status="unavailable", detail=detail, revision=revision, expected_revision=expected
    )
    return JSONResponse(body.model_dump(mode="json"), status_code=503, headers=NO_STORE)
