"""``/v1/lists``, ``/v1/lists/{category}/{period}`` and its ``/diff``: published lists and
their revisions.

A published revision never changes (a correction publishes a new revision; revision 1, the
original list, stays), so a page of a list is identified by the revision's list id and digest
and by the query: that is its ETag, and a client holding it gets 304 without the entries being
read. Without ``?revision=`` the page is the latest revision, which a correction can replace:
its ETag then changes, and it is cached for a shorter time.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response

from ratingdb.api.caches import ListLookups, PageCache
from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.params import (
    DEFAULT_LIMIT,
    MAX_REVISION,
    CategoryPath,
    CategoryQuery,
    FederationQuery,
    LimitQuery,
    OffsetQuery,
    PeriodPath,
    RevisionQuery,
    SearchQuery,
    federation_of,
    period_of,
    search_of,
)
from ratingdb.api.routes import LOOKUP, READ
from ratingdb.api.schemas import DiffOut, ListOut, ListPageOut, ListsOut
from ratingdb.db import ReadSession
from ratingdb.rules import Category, Period
from ratingdb.services import published as svc
from ratingdb.services.published.lists import EntryFilter, ranked_entries

router = APIRouter(prefix="/v1/lists", tags=["lists"])

#: Clients and caches may keep a page of a given revision for an hour, then revalidate with
#: If-None-Match (cheap: one query). Not longer, because names and federations come from the
#: players table, which a later list import may update.
CACHE_CONTROL = "public, max-age=3600"
#: The latest revision (no ``?revision=``) may be replaced by a correction's new revision.
CACHE_CONTROL_LATEST = "public, max-age=300"


@router.get("", response_model=ListsOut, responses=READ)
async def lists(read: ReaderDep, category: CategoryQuery = None) -> ListsOut:
    """Published lists (the latest revision of each, with how many it has), newest first."""
    found = await read(lambda session: svc.published_lists(session, category))
    return ListsOut(lists=[ListOut.of(summary) for summary in found])


def etag_of(*parts: object) -> str:
    key = "\n".join("" if part is None else str(part) for part in parts)
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def list_etag(
    summary: svc.ListSummary,
    federation: str | None,
    search: str | None,
    limit: int,
    offset: int,
    sort: str = "rating",
) -> str:
    """The revision (its list id, number and digest), how many revisions the list has (the page
    says it: a correction changes the pages of the earlier revisions too) and the query (the
    order only when not by rating: the tags of those pages stay what they were)."""
    order = () if sort == "rating" else (f"sort={sort}",)
    return etag_of(
        summary.list_id, summary.revision, summary.digest, summary.revisions,
        federation, search, limit, offset, *order,
    )  # fmt: skip


SortQuery = Annotated[
    Literal["rating", "change", "games"],
    Query(
        description="the order of the page: rating (the list's order), change or games, each "
        "descending (ties in list order; a first rating after every change)"
    ),
]


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
async def list_page(
    request: Request,
    read: ReaderDep,
    category: CategoryPath,
    period: PeriodPath,
    federation: FederationQuery = None,
    q: SearchQuery = None,
    limit: LimitQuery = DEFAULT_LIMIT,
    offset: OffsetQuery = 0,
    revision: RevisionQuery = None,
    sort: SortQuery = "rating",
) -> Response:
    """One published list as in List JSON: by rating descending, then player_id (``sort``:
    by change or by games played instead); ``total``
    counts the entries matching ``federation`` and ``q``. The latest revision unless
    ``revision`` is given (404 when the list has no such revision); each entry gives its
    ``original_rating``, the rating on revision 1. A page once rendered is kept by its ETag,
    which revision is the latest for a second (``ratingdb.api.caches``)."""
    wanted_federation = federation_of(federation)
    search = search_of(q)
    wanted = period_of(period)
    if_none_match = request.headers.get("if-none-match")
    cache = CACHE_CONTROL_LATEST if revision is None else CACHE_CONTROL
    pages, lookups = caches_of(request)
    lookup = (category, wanted, revision)

    def cached(summary: svc.ListSummary) -> Response | None:
        """The answer without reading the entries: 304, or the page already rendered."""
        etag = list_etag(summary, wanted_federation, search, limit, offset, sort)
        if etag_matches(if_none_match, etag):
            return Response(status_code=304, headers={"ETag": etag, "Cache-Control": cache})
        body = pages.get(etag)
        if body is None:
            return None
        return Response(body, media_type="application/json",
                        headers={"ETag": etag, "Cache-Control": cache})  # fmt: skip

    known = lookups.get(lookup)
    if known is not None and (served := cached(known)) is not None:
        return served  # no database, no thread

    def page(session: ReadSession) -> Response:
        summary = known
        if summary is None:
            summary = svc.find_list(session, category, wanted, revision)
            lookups.put(lookup, summary)  # not again when known: it would outlive its second
        if (served := cached(summary)) is not None:
            return served
        entries: tuple[svc.ComparedEntry, ...]
        if sort == "rating":
            total, entries = svc.list_entries(
                session, summary, federation=wanted_federation, search=search, limit=limit,
                offset=offset,
            )  # fmt: skip
        else:
            wanted_entries = EntryFilter(federation=wanted_federation, search=search)
            total, ranked = ranked_entries(
                session, summary, wanted_entries, limit=limit, offset=offset, sort=sort
            )
            entries = tuple(r.entry for r in ranked)
        body = ListPageOut.of(summary, total, limit, offset, entries).model_dump_json().encode()
        etag = list_etag(summary, wanted_federation, search, limit, offset, sort)
        pages.put(etag, body)
        return Response(body, media_type="application/json",
                        headers={"ETag": etag, "Cache-Control": cache})  # fmt: skip

    return await read(page)


def caches_of(
    request: Request,
) -> tuple[PageCache, ListLookups[tuple[Category, Period, int | None], svc.ListSummary]]:
    """The app's rendered list pages and list lookups (``create_app``)."""
    pages, lookups = request.app.state.list_pages, request.app.state.list_lookups
    if not isinstance(pages, PageCache) or not isinstance(lookups, ListLookups):
        raise TypeError("the app has no list caches (build it with create_app)")
    return pages, lookups


FromRevisionQuery = Annotated[
    int | None,
    Query(
        alias="from",
        ge=1,
        le=MAX_REVISION,
        description="the revision compared from (default: 1, the original list)",
    ),
]
ToRevisionQuery = Annotated[
    int | None,
    Query(
        alias="to",
        ge=1,
        le=MAX_REVISION,
        description="the revision compared to (default: the latest)",
    ),
]


@router.get(
    "/{category}/{period}/diff",
    response_model=DiffOut,
    responses={
        **LOOKUP,
        200: {"headers": {"ETag": {"schema": {"type": "string"}}}},
        304: {"description": "Not modified (If-None-Match holds the ETag)"},
    },
)
async def list_diff(
    request: Request,
    response: Response,
    read: ReaderDep,
    category: CategoryPath,
    period: PeriodPath,
    from_revision: FromRevisionQuery = None,
    to_revision: ToRevisionQuery = None,
) -> DiffOut | Response:
    """Who changed between two revisions of a list (``ratingdb lists diff``): each player whose
    entry differs, from and to, by how much, and the corrections that published the
    revisions in between. 404 when the list or a revision does not exist."""
    wanted = period_of(period)
    if_none_match = request.headers.get("if-none-match")
    cache = CACHE_CONTROL_LATEST if to_revision is None else CACHE_CONTROL

    def difference(session: ReadSession) -> DiffOut | Response:
        first = 1 if from_revision is None else from_revision
        before = svc.find_list(session, category, wanted, first)
        after = svc.find_list(session, category, wanted, to_revision)
        # "diff, officer unnamed": not the tag of the bodies that named the officer, so that
        # no client or cache revalidates one of those and keeps it.
        etag = etag_of(
            "diff, officer unnamed", before.list_id, before.digest, after.list_id, after.digest
        )
        headers = {"ETag": etag, "Cache-Control": cache}
        if etag_matches(if_none_match, etag):
            return Response(status_code=304, headers=headers)
        response.headers.update(headers)
        return DiffOut.of(svc.list_diff(session, before, after))

    return await read(difference)
