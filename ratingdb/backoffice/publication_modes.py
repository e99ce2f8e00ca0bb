"""Each category's publication mode, set by an admin (issue 28 item 6): a page listing the
modes with a form per category (CSRF-checked, a reason required), and the same in the JSON API.
The modes are stored in the database (services.publication.modes), so that the scheduler and
every back office read the same at each use; the server's setting can only add approval."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel

from ratingdb.backoffice.api import TAGS, body_of, documented
from ratingdb.backoffice.pages import _page
from ratingdb.backoffice.publication_api import configured_approval
from ratingdb.backoffice.security import context, form_fields, signed_in
from ratingdb.errors import InputError
from ratingdb.rules.messages import Message
from ratingdb.services import publication as service
from ratingdb.services.accounts import Principal
from ratingdb.services.submissions import describe, described

Fields = Annotated[dict[str, str], Depends(form_fields)]
Caller = Annotated[Principal, Depends(signed_in)]


class ModeChange(BaseModel):
    """A category's new mode (``automatic`` or ``approval``) and why."""

    mode: str
    reason: str


def _modes(request: Request) -> list[service.CategoryMode]:
    with context(request).reads.begin() as session:  # reads: no write lock
        return service.category_modes(session, configured_approval(request))


def _modes_page(
    request: Request, status: int = 200, error: str | Message | None = None
) -> Response:
    return _page(request, "publication_modes.html", status=status, modes=_modes(request),
                 choices=service.MODES, error=error)  # fmt: skip


def modes_page(request: Request, caller: Caller) -> Response:
    return _modes_page(request)


def _change(
    request: Request, caller: Principal, category: str, mode: str, reason: str
) -> service.CategoryMode:
    found = context(request)
    with found.sessions.begin() as session:
        return service.set_mode(
            session, category, mode, reason, actor=caller.username, now=found.clock(),
            configured=configured_approval(request),
        )  # fmt: skip


def change_mode(request: Request, category: str, caller: Caller, fields: Fields) -> Response:
    try:
        _change(request, caller, category, fields.get("mode", ""), fields.get("reason", ""))
    except InputError as error:
        return _modes_page(request, 422, described(error))
    return RedirectResponse("/settings/publication", status_code=303)


def _as_json(mode: service.CategoryMode) -> dict[str, Any]:
    return {
        "category": mode.category.value,
        "mode": mode.mode,
        "source": mode.source,
        "changed_at": None if mode.changed_at is None else mode.changed_at.isoformat(),
        "changed_by": mode.changed_by,
        "reason": mode.reason,
    }


def list_modes(request: Request, caller: Caller) -> dict[str, Any]:
    """Every category's mode, where it comes from (``configuration``, ``database``,
    ``default``) and the last change an admin made."""
    return {"modes": [_as_json(mode) for mode in _modes(request)]}


def set_mode(
    request: Request,
    category: str,
    caller: Caller,
    body: Annotated[ModeChange, body_of(ModeChange)],
) -> dict[str, Any]:
    """Set a category's mode (admins; audited). 422 naming the field: an unknown category or
    mode, no reason, or ``automatic`` for a category the server's setting puts under
    approval."""
    try:
        return _as_json(_change(request, caller, category, body.mode, body.reason))
    except InputError as error:
        raise HTTPException(422, describe(error)) from None


def register(router: APIRouter) -> None:
    """The routes (each one also a line of ``policy.POLICY``)."""
    router.add_api_route(
        "/settings/publication", modes_page, methods=["GET"], include_in_schema=False
    )
    router.add_api_route("/settings/publication/{category}", change_mode, methods=["POST"],
                         include_in_schema=False)  # fmt: skip
    router.get("/admin/v1/publication/modes", tags=TAGS)(list_modes)
    router.post(
        "/admin/v1/publication/modes/{category}", tags=TAGS, openapi_extra=documented(ModeChange)
    )(set_mode)
