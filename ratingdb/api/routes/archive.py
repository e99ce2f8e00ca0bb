"""The history of the lists: ``/lists`` (the archive of every published list and its
revisions), ``/lists/{category}/{period}/diff`` (who changed between two revisions, and why)
and ``/feeds/lists.atom`` (publications and revisions). Pages for people, as
``routes.listings``: an unknown list answers the HTML 404 page, a bad parameter 422.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from xml.etree import ElementTree

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.i18n import Reader, reader_of
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


ATOM = "http://www.w3.org/2005/Atom"
FEED_SIZE = 100


def _timestamp(moment: datetime) -> str:
    """RFC 3339, in UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


#: The feed's id and its entries' when no public base URL is set (an Atom id is an absolute
#: IRI, and never the request's Host header).
FEED_URN = "urn:ratingdb:feeds:lists"


def _entry_urn(summary: ListSummary) -> str:
    return f"urn:ratingdb:lists:{summary.category.value}:{summary.period}:{summary.revision}"


@router.get("/feeds/lists.atom")
async def lists_feed(request: Request, read: ReaderDep) -> Response:
    """An Atom feed (RFC 4287) of publications and revisions, newest first: each entry a
    revision of a list, linked to its page. In English (a feed has one language).

    Links and ids are built from ``RATINGDB_PUBLIC_BASE_URL``, never from the request (its
    Host header is the client's to choose: a cache would keep the links it chose). Without
    it the links are relative (a feed reader resolves them against the feed's address) and
    the ids are ``urn:ratingdb:`` names."""
    base: str | None = request.app.state.public_base_url
    revisions = await read(list_archive)
    reader = Reader("en", False, ())
    ElementTree.register_namespace("", ATOM)

    def element(parent: ElementTree.Element, tag: str, text: str | None = None,
                **attributes: str) -> ElementTree.Element:  # fmt: skip
        child = ElementTree.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
        child.text = text
        return child

    site = base or ""  # relative links without a base URL
    feed = ElementTree.Element(f"{{{ATOM}}}feed")
    element(feed, "id", f"{base}/feeds/lists.atom" if base else FEED_URN)
    element(feed, "title", "ratingdb: published rating lists")
    element(feed, "updated", _timestamp(revisions[0].published_at) if revisions
            else _timestamp(datetime(1970, 1, 1, tzinfo=UTC)))  # fmt: skip
    element(feed, "link", rel="self", href=f"{site}/feeds/lists.atom")
    element(feed, "link", rel="alternate", href=f"{site}/lists")
    author = element(feed, "author")
    element(author, "name", "ratingdb")
    for summary in revisions[:FEED_SIZE]:
        name = reader.category(summary.category)
        page = f"{site}/lists/{summary.category.value}/{summary.period}"
        entry = element(feed, "entry")
        if summary.revision == 1:
            title = f"{name} {summary.period}: published"
        else:
            title = f"{name} {summary.period}: revision {summary.revision}"
        element(entry, "id", f"{page}?revision={summary.revision}" if base else _entry_urn(summary))
        element(entry, "title", title)
        element(entry, "updated", _timestamp(summary.published_at))
        element(entry, "published", _timestamp(summary.published_at))
        element(entry, "link", rel="alternate", type="text/html",
                href=f"{page}?revision={summary.revision}")  # fmt: skip
        summary_text = f"{summary.entries} rated players"
        if summary.rule_version is not None:
            summary_text += f", rules {summary.rule_version}"
        if summary.correction_id is not None:
            summary_text += f", after correction {summary.correction_id}"
        element(entry, "summary", summary_text + ".")
    body = ElementTree.tostring(feed, encoding="utf-8", xml_declaration=True)
    return Response(body, media_type="application/atom+xml")
