"""The Publication pages (officers): each category's next period with its state and mode, the
preview of a period's list (who changes, largest gains and losses, first ratings, K changes, the
tournaments included, the rule version) and its "Approve and publish" form (CSRF-checked, as
every form). Refusals are shown on the preview, computed again, with their reasons."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response

from ratingdb.backoffice.pages import _page
from ratingdb.backoffice.publication_api import approval_categories
from ratingdb.backoffice.security import context, form_fields, signed_in
from ratingdb.errors import InputError
from ratingdb.rules.messages import Message
from ratingdb.services import publication as service
from ratingdb.services.accounts import Principal
from ratingdb.services.publication import AlreadyPublished, ListChanged, PublicationConflict
from ratingdb.services.submissions import described

Fields = Annotated[dict[str, str], Depends(form_fields)]
Caller = Annotated[Principal, Depends(signed_in)]
#: "Who changes" lists at most this many players on the page (the JSON API has them all).
CHANGES_SHOWN = 1000


def publication_page(request: Request, caller: Caller) -> Response:
    found = context(request)
    with found.sessions.begin() as session:
        rows = service.next_periods(
            session, found.clock().date(), approval_categories(request, session)
        )
    return _page(request, "publication.html", rows=rows)


def _preview_page(
    request: Request,
    caller: Principal,
    category: str,
    period: str,
    *,
    status: int = 200,
    error: str | Message | None = None,
    reasons: list[Message] | None = None,
) -> Response:
    found = context(request)
    try:
        with found.sessions.begin() as session:
            wanted = service.parse_category(category)
            shown = service.preview(
                session, wanted, service.parse_period(wanted, period), now=found.clock(),
                viewer=caller.username, approval=approval_categories(request, session),
            )  # fmt: skip
    except AlreadyPublished as published:
        return _page(request, "publication_preview.html", status=status, preview=None,
                     category=category, period=period, published=published.text,
                     error=error, reasons=reasons or [])  # fmt: skip
    except InputError as bad:
        return _page(request, "publication_preview.html", status=422 if status == 200 else status,
                     preview=None, category=category, period=period, published=None,
                     error=described(bad), reasons=[])  # fmt: skip
    return _page(request, "publication_preview.html", status=status, preview=shown,
                 category=category, period=period, published=None, error=error,
                 reasons=reasons or [], changes_shown=CHANGES_SHOWN)  # fmt: skip


def preview_page(request: Request, category: str, period: str, caller: Caller) -> Response:
    return _preview_page(request, caller, category, period)


def approve(
    request: Request, category: str, period: str, caller: Caller, fields: Fields
) -> Response:
    found = context(request)
    try:
        with found.sessions.begin() as session:
            wanted = service.parse_category(category)
            chosen = service.parse_period(wanted, period)
            service.approve(
                session, wanted, chosen, fields.get("digest", ""), now=found.clock(),
                user=caller.username, approval=approval_categories(request, session),
            )  # fmt: skip
    except ListChanged as changed:
        return _preview_page(request, caller, category, period, status=409,
                             error=changed.text, reasons=changed.explained)  # fmt: skip
    except PublicationConflict as conflict:
        return _preview_page(request, caller, category, period, status=409,
                             error=conflict.text, reasons=conflict.explained)  # fmt: skip
    except InputError as bad:
        return _preview_page(request, caller, category, period, status=422,
                             error=described(bad))  # fmt: skip
    return RedirectResponse(f"/publication/{wanted.value}/{chosen}", status_code=303)


def register(router: APIRouter) -> None:
    """The pages' routes (each one also a line of ``policy.POLICY``); not in the OpenAPI."""
    for method, path, endpoint in (
        ("GET", "/publication", publication_page),
        ("GET", "/publication/{category}/{period}", preview_page),
        ("POST", "/publication/{category}/{period}/approve", approve),
    ):
        router.add_api_route(path, endpoint, methods=[method], include_in_schema=False)
