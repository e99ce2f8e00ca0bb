"""The history of the lists: ``/lists`` (the archive of every published list and its
revisions) and ``/lists/{category}/{period}/diff`` (who changed between two revisions, and
why); the feed of publications and revisions is ``routes.feeds``. Pages for people, as
``routes.listings``: an unknown list answers the HTML 404 page, a bad parameter 422.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.i18n import reader_of
from ratingdb.api.routes.listings import (
    MAX_PAGE,
    MAX_REVISION,
    BadQuery,
    _bad_query,
    _category,
    _no_list,
    _not_found,
    _number,
    _page_links,
    _period,
)
from ratingdb.api.routes.pages import page_response
from ratingdb.db import ReadSession
from ratingdb.rules import Category, Period
from ratingdb.services import published as svc
from ratingdb.services.published.lists import ListSummary, list_archive

router = APIRouter(include_in_schema=False)


#: Players per page of a diff.
DIFF_PAGE_SIZE = 100


def _diff_order(change: Mapping[str, Any]) -> tuple[int, int, str]:
    """As a list reads: by the rating on the revision compared to (then on the other one),
    highest first, then by player id."""
    after, before = change["to"], change["from"]
    rating = after["rating"] if after is not None else before["rating"]
    return (-rating, 0 if after is not None else 1, change["player_id"])


@router.get("/lists/{category}/{period}/diff", response_class=HTMLResponse)
async def diff_page(request: Request, read: ReaderDep, category: str, period: str) -> HTMLResponse:
    """Who changed between two revisions of a list (``?from=A&to=B``; by default from the
    original list to the latest revision): from and to ratings, games and K, and the
    corrections that published the revisions in between, with their reasons. The page of
    ``/v1/lists/{category}/{period}/diff`` and ``ratingdb lists diff``."""
    reader = reader_of(request)
    wanted_category, wanted_period = _category(category), _period(period)
    if wanted_category is None or wanted_period is None:
        return _not_found(request, _no_list(reader, category, period))
    query = request.query_params
    try:
        from_revision = _number(reader, query, "from", MAX_REVISION, None)
        to_revision = _number(reader, query, "to", MAX_REVISION, None)
        page = _number(reader, query, "page", MAX_PAGE, 1) or 1
    except BadQuery as error:
        return _bad_query(request, str(error))
    size = DIFF_PAGE_SIZE

    def render(session: ReadSession) -> HTMLResponse:
        try:
            latest = svc.find_list(session, wanted_category, wanted_period)
        except svc.NotFound:
            return _not_found(request, _no_list(reader, wanted_category.value, str(wanted_period)))
        for revision in (from_revision, to_revision):
            if revision is not None and revision > latest.revisions:  # revisions are 1..N
                message = reader.gettext(
                    "The %(category)s list of %(period)s has no revision %(revision)s."
                ) % {"category": reader.category(wanted_category), "period": wanted_period,
                     "revision": revision}  # fmt: skip
                return _not_found(request, message)
        before = svc.find_list(session, wanted_category, wanted_period, from_revision or 1)
        after = (
            latest
            if to_revision is None
            else svc.find_list(session, wanted_category, wanted_period, to_revision)
        )
        document = svc.list_diff(session, before, after)
        changes = sorted(document["changes"], key=_diff_order)
        pages = max(1, -(-len(changes) // size))
        names = svc.tournament_names(
            session, sorted({c["tournament_id"] for c in document["corrections"]} - {None})
        )
        # Without the actor: a public page names no back-office account (the page says "a
        # rating officer").
        corrections = [
            {**{k: v for k, v in c.items() if k != "actor"},
             "created_at": datetime.fromisoformat(c["created_at"]),
             "tournament_name": names.get(c["tournament_id"])}
            for c in document["corrections"]
        ]  # fmt: skip
        return page_response(
            request,
            "diff.html",
            {
                "reader": reader,
                "before": before,
                "after": after,
                "corrections": corrections,
                "changes": changes[(page - 1) * size : page * size],
                "total": len(changes),
                "page": page,
                "pages": pages,
                "links": _page_links(query, page, pages),
            },
        )

    return await read(render)


@router.get("/lists", response_class=HTMLResponse)
async def archive_page(request: Request, read: ReaderDep) -> HTMLResponse:
    """Every published list per category, newest first, with its revisions."""

    def render(session: ReadSession) -> HTMLResponse:
        by_list: dict[tuple[Category, Period], list[ListSummary]] = {}
        for summary in sorted(list_archive(session), key=lambda s: s.revision):
            by_list.setdefault((summary.category, summary.period), []).append(summary)
        categories = [
            (
                category,
                sorted(
                    (revisions for (c, _), revisions in by_list.items() if c is category),
                    key=lambda revisions: revisions[0].period.index,
                    reverse=True,
                ),
            )
            for category in Category
        ]
        return page_response(
            request,
            "lists.html",
            {"categories": [(c, lists) for c, lists in categories if lists]},
        )

    return await read(render)
