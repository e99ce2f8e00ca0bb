"""``/health``: ok only when the database answers and is at the latest schema revision, with the
replay lag of that database when it is a PostgreSQL standby (a streaming replica).

The database is the one the API reads (``RATINGDB_READ_DATABASE_URL``), the only one it uses: an
API reading a replica stays healthy while the primary is down, and says how far behind it is."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.schemas import HealthDownOut, HealthOut, ReplicaOut
from ratingdb.services import published as svc

router = APIRouter(tags=["health"])
logger = logging.getLogger("ratingdb.api")

NO_STORE = {"Cache-Control": "no-store"}


@router.get(
    "/health",
    response_model=HealthOut,
    responses={503: {"model": HealthDownOut, "description": "Unreachable or not migrated"}},
)
async def health(request: Request, read: ReaderDep) -> JSONResponse:
    expected: str | None = request.app.state.expected_revision
    try:
        revision, standby = await read(svc.schema_state)
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
    if standby is None:  # a primary or SQLite: no "replica" at all, not even null
        body = HealthOut(status="ok", revision=revision)
    else:
        replica = ReplicaOut(in_recovery=True, lag_seconds=standby.lag_seconds)
        body = HealthOut(status="ok", revision=revision, replica=replica)
    return JSONResponse(body.model_dump(mode="json", exclude_unset=True), headers=NO_STORE)


def _down(detail: str, revision: str | None, expected: str | None) -> JSONResponse:
    body = HealthDownOut(
        status="unavailable", detail=detail, revision=revision, expected_revision=expected
    )
    return JSONResponse(body.model_dump(mode="json"), status_code=503, headers=NO_STORE)
