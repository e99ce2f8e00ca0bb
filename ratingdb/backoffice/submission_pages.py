"""The pages of submissions (upload form, list, detail with its check report, accept and reject
for officers) and of the audit log. Plain forms with their CSRF token; the upload form is
multipart/form-data (``policy.UPLOADS``), every other one urlencoded."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from ratingdb.backoffice import policy, uploads
from ratingdb.backoffice.pages import _page
from ratingdb.backoffice.security import context, form_fields, signed_in
from ratingdb.enums import SubmissionState
from ratingdb.errors import InputError
from ratingdb.i18n import N_
from ratingdb.rules import Category
from ratingdb.rules.messages import Message
from ratingdb.services import audit, audit_words
from ratingdb.services import submissions as service
from ratingdb.services.accounts import Principal
from ratingdb.services.submissions import SubmissionConflict, SubmissionNotFound, Upload
from ratingdb.services.tournaments import FORMATS

Fields = Annotated[dict[str, str], Depends(form_fields)]
Caller = Annotated[Principal, Depends(signed_in)]
AUDIT_PAGE_ENTRIES = 200


def submissions_page(request: Request, caller: Caller, state: str | None = None) -> Response:
    chosen = state or None
    try:
        with context(request).reads.begin() as session:
            rows = service.list_submissions(session, caller, chosen)
    except InputError as error:
        return _page(request, "submissions.html", status=422, rows=[],
                     states=list(SubmissionState), state=None,
                     error=service.described(error))  # fmt: skip
    return _page(request, "submissions.html", rows=rows, states=list(SubmissionState),
                 state=chosen, error=None)  # fmt: skip


def _upload_form(request: Request, status: int = 200, error: str | Message | None = None,
                 values: dict[str, Any] | None = None) -> HTMLResponse:  # fmt: skip
    return _page(request, "submission_new.html", status=status, error=error,
                 categories=[c.value for c in Category], formats=FORMATS,
                 values=values or {"categories": []})  # fmt: skip


def new_submission_page(request: Request, caller: Caller) -> HTMLResponse:
    return _upload_form(request)


async def upload(request: Request, caller: Caller, fields: Fields) -> Response:
    """The file is read and checked in one of the process's upload slots; none free: the form
    again, 429 or 503 with Retry-After."""
    try:
        with uploads.slot(request, caller):
            return await _upload(request, caller, fields)
    except uploads.Busy as busy:
        answer = _upload_form(request, busy.status_code, busy.text)
        answer.headers.update(busy.headers or {})
        return answer


async def _upload(request: Request, caller: Principal, fields: dict[str, str]) -> Response:
    received = await uploads.multipart(request) if uploads.is_multipart(request) else None
    categories = [] if received is None else received.fields.get("category", [])
    values = {"categories": categories, "period": fields.get("period", ""),
              "format": fields.get("format", "")}  # fmt: skip
    sent = await uploads.form_file(request)
    if sent is None:
        return _upload_form(
            request, 422, Message(N_("field file: choose the file to send")), values
        )
    given = Upload(sent[0], sent[1], categories, fields.get("period") or None,
                   fields.get("format") or None)  # fmt: skip
    accept = fields.get("accept") == "yes"
    if accept and caller.role != policy.OFFICER:
        raise HTTPException(403, N_("only an officer may accept a submission"))
    found = context(request)

    def work() -> int:
        with found.sessions.begin() as session:
            answer = service.submit(session, given, caller, found.clock(), accept=accept)
        return int(answer["submission_id"])

    try:
        submission_id = await run_in_threadpool(work)
    except SubmissionConflict as error:
        return _upload_form(request, 409, error.text, values)
    except InputError as error:
        return _upload_form(request, 422, service.described(error), values)
    return RedirectResponse(f"/submissions/{submission_id}", status_code=303)


def _detail(request: Request, caller: Principal, submission_id: str, status: int = 200,
            error: str | Message | None = None) -> Response:  # fmt: skip
    try:
        with context(request).reads.begin() as session:
            shown = service.show_submission(session, submission_id, caller)
    except SubmissionNotFound as error_404:
        return _page(request, "not_found.html", status=404, error=error_404.text)
    return _page(request, "submission.html", status=status, item=shown, error=error)


def submission_page(request: Request, submission_id: str, caller: Caller) -> Response:
    return _detail(request, caller, submission_id)


def accept(request: Request, submission_id: str, caller: Caller, fields: Fields) -> Response:
    found = context(request)
    try:
        with found.sessions.begin() as session:
            service.accept_submission(
                session, submission_id, caller, found.clock(), fields.get("late_reason")
            )
    except SubmissionNotFound:
        return _detail(request, caller, submission_id)
    except SubmissionConflict as error:
        return _detail(request, caller, submission_id, 409, error.text)
    return RedirectResponse(f"/submissions/{submission_id}", status_code=303)


def reject(request: Request, submission_id: str, caller: Caller, fields: Fields) -> Response:
    found = context(request)
    try:
        with found.sessions.begin() as session:
            service.reject_submission(session, submission_id, caller, fields.get("reason", ""),
                                      found.clock())  # fmt: skip
    except SubmissionNotFound:
        return _detail(request, caller, submission_id)
    except SubmissionConflict as error:
        return _detail(request, caller, submission_id, 409, error.text)
    except InputError as error:
        return _detail(request, caller, submission_id, 422, service.described(error))
    return RedirectResponse(f"/submissions/{submission_id}", status_code=303)


def _day(text: str, field: str) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InputError(Message(N_("must be a date YYYY-MM-DD, got %(given)s"),
                                 {"given": repr(text)}), field=field) from None  # fmt: skip


def audit_page(
    request: Request,
    caller: Caller,
    action: str = "",
    actor: str = "",
    since: str = "",
    until: str = "",
) -> Response:
    """The latest entries, filtered by action, actor and a range of days (both included)."""
    filters = {"action": action, "actor": actor, "since": since, "until": until}
    try:
        first, last = _day(since, "since"), _day(until, "until")
    except InputError as error:
        return _page(request, "audit.html", status=422, entries=[], filters=filters,
                     error=service.described(error), limit=AUDIT_PAGE_ENTRIES)  # fmt: skip
    with context(request).reads.begin() as session:
        entries = audit.entries(
            session,
            limit=AUDIT_PAGE_ENTRIES,
            action=action or None,
            actor=actor or None,
            since=None if first is None else datetime.combine(first, time(), UTC),
            until=None if last is None else datetime.combine(last + timedelta(days=1), time(), UTC),
        )
    shown = [
        {**e, "what": audit_words.action_words(e["action"]),
         "words": audit_words.entry_words(e["counts"], e["details"])}
        for e in entries
    ]  # fmt: skip
    return _page(request, "audit.html", entries=shown, filters=filters, error=None,
                 limit=AUDIT_PAGE_ENTRIES)  # fmt: skip


def register(router: APIRouter) -> None:
    """The pages' routes (each one also a line of ``policy.POLICY``); not in the OpenAPI."""
    for method, path, endpoint in (
        ("GET", "/submissions", submissions_page),
        ("GET", "/submissions/new", new_submission_page),
        ("POST", "/submissions", upload),
        ("GET", "/submissions/{submission_id}", submission_page),
        ("POST", "/submissions/{submission_id}/accept", accept),
        ("POST", "/submissions/{submission_id}/reject", reject),
        ("GET", "/audit", audit_page),
    ):
        router.add_api_route(path, endpoint, methods=[method], include_in_schema=False)
