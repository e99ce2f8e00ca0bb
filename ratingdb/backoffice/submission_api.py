"""The JSON API of submissions and the audit log (``Authorization: Bearer TOKEN``).

Bad input 422 ``{"detail": "FILE, line N, column C, field F: what is wrong"}`` with nothing
stored; a submission the caller may not see 404 (as one that does not exist, so ids cannot be
probed); accepting or rejecting one already decided 409; a body over the limit 413.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from ratingdb.backoffice import policy, uploads
from ratingdb.backoffice.api import TAGS, Caller, body_of, documented
from ratingdb.backoffice.security import context
from ratingdb.errors import InputError
from ratingdb.services import audit
from ratingdb.services import submissions as service
from ratingdb.services.submissions import SubmissionConflict, SubmissionNotFound, Upload

Result = TypeVar("Result")
MAX_AUDIT_ENTRIES = 1000


def answered(work: Callable[[], Result]) -> Result:
    """Run ``work``; the service's refusals as HTTP answers."""
    try:
        return work()
    except SubmissionNotFound as error:
        raise HTTPException(404, error.message) from None
    except SubmissionConflict as error:
        raise HTTPException(409, str(error)) from None
    except InputError as error:
        raise HTTPException(422, service.describe(error)) from None


class Reject(BaseModel):
    reason: str


UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "the file itself (any Content-Type), or multipart/form-data with a "
        "`file` field",
        "content": {
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {"file": {"type": "string", "format": "binary"}},
                    "required": ["file"],
                }
            },
        },
    }
}


async def upload(
    request: Request,
    caller: Caller,
    category: Annotated[list[str], Query()] = [],  # noqa: B006 (FastAPI copies it)
    period: str | None = None,
    format: str | None = None,
    filename: str | None = None,
    accept: bool = False,
) -> JSONResponse:
    """Check a TRF or games CSV and keep it as a submission; ``accept=true`` (an officer):
    accept it at once."""
    if accept and caller.role != policy.OFFICER:
        raise HTTPException(403, "only an officer may accept a submission")
    found = context(request)
    with uploads.slot(request, caller):  # read and checked in one of the process's slots
        content, filename = await uploads.api_file(request, filename)
        given = Upload(content, filename, category, period, format)

        def work() -> dict[str, Any]:
            with found.sessions.begin() as session:
                return service.submit(session, given, caller, found.clock(), accept=accept)

        document = await run_in_threadpool(answered, work)
    return JSONResponse(document, status_code=201)


def list_submissions(
    request: Request, caller: Caller, state: str | None = None
) -> list[dict[str, Any]]:
    """Newest first; an arbiter's own only."""
    with context(request).reads.begin() as session:
        return answered(lambda: service.list_submissions(session, caller, state))


def show_submission(request: Request, submission_id: str, caller: Caller) -> dict[str, Any]:
    """One submission with its check report."""
    with context(request).reads.begin() as session:
        return answered(lambda: service.show_submission(session, submission_id, caller))


def accept_submission(
    request: Request, submission_id: str, caller: Caller, late_reason: str | None = None
) -> dict[str, Any]:
    """Store it as ``ratingdb tournaments import`` does; ``late_reason`` (query): why a
    tournament reported after FIDE's third list is rated anyway."""
    found = context(request)

    def work() -> dict[str, Any]:
        with found.sessions.begin() as session:
            return service.accept_submission(
                session, submission_id, caller, found.clock(), late_reason
            )

    return answered(work)


def reject_submission(
    request: Request,
    submission_id: str,
    caller: Caller,
    body: Annotated[Reject, body_of(Reject)],
) -> dict[str, Any]:
    """Refuse it with a reason the submitter reads."""
    found = context(request)

    def work() -> dict[str, Any]:
        with found.sessions.begin() as session:
            return service.reject_submission(session, submission_id, caller, body.reason,
                                             found.clock())  # fmt: skip

    return answered(work)


def audit_log(
    request: Request,
    caller: Caller,
    limit: Annotated[int, Query(ge=1, le=MAX_AUDIT_ENTRIES)] = 100,
    action: str | None = None,
) -> list[dict[str, Any]]:
    """The latest entries, newest first; ``actor`` is the user name behind each."""
    with context(request).reads.begin() as session:
        return audit.entries(session, limit=limit, action=action)


def register(router: APIRouter) -> None:
    """The routes (each one also a line of ``policy.POLICY``)."""
    router.post("/admin/v1/submissions", status_code=201, tags=TAGS, openapi_extra=UPLOAD_BODY)(
        upload
    )
    router.get("/admin/v1/submissions", tags=TAGS)(list_submissions)
    router.get("/admin/v1/submissions/{submission_id}", tags=TAGS)(show_submission)
    router.post("/admin/v1/submissions/{submission_id}/accept", tags=TAGS)(accept_submission)
    router.post(
        "/admin/v1/submissions/{submission_id}/reject", tags=TAGS, openapi_extra=documented(Reject)
    )(reject_submission)
    router.get("/admin/v1/audit", tags=TAGS)(audit_log)
