"""The JSON API of publication (``Authorization: Bearer TOKEN``, officers): the list a close of
a period would publish now, and its approval (contract, "Back office").

Bad input 422 naming the field; a period already published, a category published
automatically before its cut-off, or a list that is no longer the one previewed 409
``{"detail": "...", "reasons": ["..."]}`` (and ``"digest"``: the list computed now).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.orm import Session

from ratingdb.backoffice.api import TAGS, Caller, body_of, documented
from ratingdb.backoffice.security import context
from ratingdb.errors import InputError
from ratingdb.rules import Category
from ratingdb.services import publication as service
from ratingdb.services.publication import ListChanged, PublicationConflict
from ratingdb.services.submissions import describe

Result = TypeVar("Result")


class Approve(BaseModel):
    """The digest of the previewed list (``digest`` in the preview's answer)."""

    digest: str


def configured_approval(request: Request) -> tuple[Category, ...]:
    """The categories the server's setting puts under approval
    (``Settings.publication_approval``); the database may add others."""
    categories: tuple[Category, ...] = request.app.state.publication_approval
    return categories


def approval_categories(request: Request, session: Session) -> tuple[Category, ...]:
    """The categories published with approval now: the setting's and those an admin chose
    (read at each request: a change reaches every process at once)."""
    return service.approval_categories(session, configured_approval(request))


def conflict_body(error: PublicationConflict) -> dict[str, Any]:
    body: dict[str, Any] = {"detail": error.message, "reasons": error.reasons}
    if isinstance(error, ListChanged):
        body["digest"] = error.digest
    return body


def answered(work: Callable[[], Result]) -> Result | JSONResponse:
    """Run ``work``; the service's refusals as HTTP answers."""
    try:
        return work()
    except PublicationConflict as error:
        return JSONResponse(conflict_body(error), status_code=409)
    except InputError as error:
        raise HTTPException(422, describe(error)) from None


def preview_period(
    request: Request, category: str, period: str, caller: Caller
) -> dict[str, Any] | JSONResponse:
    """The list a close now would publish (the dry run): entries, games, who changes (largest
    gains and losses, first ratings, K changes), the tournaments included, the rule version,
    the period's state and publication mode, and the digest to approve it with."""
    found = context(request)

    def work() -> dict[str, Any]:
        with found.sessions.begin() as session:
            wanted = service.parse_category(category)
            shown = service.preview(
                session, wanted, service.parse_period(wanted, period), now=found.clock(),
                viewer=caller.username, approval=approval_categories(request, session),
            )  # fmt: skip
        return shown.as_json()

    return answered(work)


def approve_period(
    request: Request,
    category: str,
    period: str,
    caller: Caller,
    body: Annotated[Approve, body_of(Approve)],
) -> dict[str, Any] | JSONResponse:
    """Publish the previewed list (``state: published``), or, before the cut-off of a category
    published with approval, approve it for the scheduled close (``state: approved``). 409
    with the reasons when the list a close computes now is not the one previewed."""
    found = context(request)

    def work() -> dict[str, Any]:
        with found.sessions.begin() as session:
            wanted = service.parse_category(category)
            done = service.approve(
                session, wanted, service.parse_period(wanted, period), body.digest,
                now=found.clock(), user=caller.username,
                approval=approval_categories(request, session),
            )  # fmt: skip
        return done.as_json()

    return answered(work)


def register(router: APIRouter) -> None:
    """The routes (each one also a line of ``policy.POLICY``)."""
    # response_model=None: a refusal is answered as a JSONResponse of its own (409).
    router.get("/admin/v1/periods/{category}/{period}/preview", tags=TAGS, response_model=None)(
        preview_period
    )
    router.post(
        "/admin/v1/periods/{category}/{period}/approve", tags=TAGS, response_model=None,
        openapi_extra=documented(Approve),
    )(approve_period)  # fmt: skip
