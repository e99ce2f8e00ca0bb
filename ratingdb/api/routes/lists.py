"""``/v1/lists`` and ``/v1/lists/{category}/{period}``: published lists.

A published list never changes (a correction is a new revision), so a page of a list is
identified by the list's id, revision and digest and by the query: that is its ETag, and a
client holding it gets 304 without the entries being read.
"""

from __future__ import annotations

import hashlib

from fastapi import APIRouter, Request, Response

from ratingdb.api.dependencies import ReadSessionDep
from ratingdb.api.params import (
    DEFAULT_LIMIT,
    CategoryPath,
    CategoryQuery,
    FederationQuery,
    LimitQuery,
    OffsetQuery,
    PeriodPath,
    SearchQuery,
    federation_of,
    period_of,
    search_of,
)
from ratingdb.api.routes import LOOKUP, READ
from ratingdb.api.schemas import ListEntryOut, ListOut, ListPageOut, ListsOut
from ratingdb.services import published as svc

router = APIRouter(prefix="/v1/lists", tags=["lists"])

#: Clients and caches may keep a page for an hour, then revalidate with If-None-Match (cheap:
#: one query). Not longer, because names and federations come from the players table, which a
#: later list import may update.
CACHE_CONTROL = "public, max-age=3600"


@router.get("", response_model=ListsOut, responses=READ)
def lists(session: ReadSessionDep, category: CategoryQuery = None) -> ListsOut:
    """Published lists (the latest revision of each), newest first."""
    return ListsOut(lists=[ListOut.of(s) for s in svc.published_lists(session, category)])


def list_etag(
    summary: svc.ListSummary, federation: str | None, search: str | None, limit: int, offset: int
) -> str:
    key = "\n".join(
        str(part)
        for part in (
            summary.list_id, summary.revision, summary.digest or "",
            federation or "", search or "", limit, offset,
        )
    )  # fmt: skip
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 §13.1.2: weak comparison, a list of tags, or ``*``."""
    if not if_none_match:
        return False
    tags = [tag.strip() for tag in if_none_match.split(",")]
    return any(tag == "*" or tag.removeprefix("W/") == etag for tag in tags)


@router.get(
    "/{category}/{period}",
    response_model=ListPageOut,
    responses={
        **LOOKUP,
        200: {"headers": {"ETag": {"schema": {"type": "string"}}}},
        304: {"description": "Not modified (If-None-Match holds the ETag)"},
    },
)
def list_page(
    request: Request,
    response: Response,
    session: ReadSessionDep,
    category: CategoryPath,
    period: PeriodPath,
    federation: FederationQuery = None,
    q: SearchQuery = None,
    limit: LimitQuery = DEFAULT_LIMIT,
    offset: OffsetQuery = 0,
) -> ListPageOut | Response:
    """One published list as in List JSON: by rating descending, then player_id; ``total``
    counts the entries matching ``federation`` and ``q``."""
    summary = svc.find_list(session, category, period_of(period))
    wanted_federation = federation_of(federation)
    search = search_of(q)
    etag = list_etag(summary, wanted_federation, search, limit, offset)
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL}
    if etag_matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    total, entries = svc.list_entries(
        session, summary, federation=wanted_federation, search=search, limit=limit, offset=offset
    )
    response.headers.update(headers)
    return ListPageOut(
        category=summary.category,
        period=str(summary.period),
        list_date=summary.period.list_date,
        revision=summary.revision,
        rule_version=summary.rule_version,
        published_at=summary.published_at,
        total=total,
        limit=limit,
        offset=offset,
        entries=[ListEntryOut.of(entry) for entry in entries],
    )
