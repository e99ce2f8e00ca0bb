"""The list pages: ``/lists/{category}/{period}`` (a whole list, filtered and paged, with its
revisions), ``/lists/{category}/{period}/tournaments`` (the tournaments the list rated) and
``/top/{category}`` (top lists on the latest list); the archive, diffs and feed are in
``routes.archive``.

Pages for people: an unknown list answers the HTML 404 page, a filter the page does not know
the HTML page with status 422 naming it; the lists themselves are paged and ranked in the
database (services.published.ranked_entries), never read whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final
from urllib.parse import urlencode

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from ratingdb.api.caches import ListLookups
from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.i18n import Reader, reader_of
from ratingdb.api.routes.lists import (
    CACHE_CONTROL,
    CACHE_CONTROL_LATEST,
    caches_of,
    etag_matches,
    etag_of,
)
from ratingdb.api.routes.pages import MOVERS_SHOWN, page_headers, page_response
from ratingdb.db import ReadSession
from ratingdb.formats.fide_list import XML_TAGS
from ratingdb.rules import Category, Period
from ratingdb.services import published as svc
from ratingdb.services.published.export import EXPORT_FORMATS
from ratingdb.services.published.lists import (
    AGE_GROUPS,
    SORTS,
    EntryFilter,
    ListSummary,
    RankedEntry,
    active_players,
    ranked_entries,
)
from ratingdb.services.published.movers import movers

router = APIRouter(include_in_schema=False)

#: Entries per page of a list.
LIST_PAGE_SIZE = 100
#: Entries of each top list.
TOP_SIZE = 10
MAX_QUERY = 100
MAX_PAGE = 1_000_000
MAX_REVISION = 2_147_483_647
TITLES: Final = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
SEXES: Final = ("M", "F")
_PERIOD = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
_FEDERATION = re.compile(r"[A-Za-z]{3}")
#: The top lists of ``/top/{category}``: their filter.
TOP_LISTS: Final = (
    ("open", EntryFilter()),
    ("women", EntryFilter(sex="F")),
    ("juniors", EntryFilter(age="juniors")),
    ("girls", EntryFilter(age="girls")),
)


class BadQuery(ValueError):
    """A query parameter the page does not take (the message names it)."""


def _category(text: str) -> Category | None:
    try:
        return Category(text)
    except ValueError:
        return None


def _period(text: str) -> Period | None:
    if _PERIOD.fullmatch(text) is None:
        return None
    try:
        return Period.parse(text)
    except ValueError:
        return None


def _number(
    reader: Reader, query: Mapping[str, str], name: str, high: int, default: int | None
) -> int | None:
    text = query.get(name, "").strip()
    if not text:
        return default
    if text.isascii() and text.isdigit() and len(text) < 12 and 1 <= int(text) <= high:
        return int(text)
    raise BadQuery(
        reader.gettext("%(name)s: a whole number from 1 to %(high)s, not %(text)s.")
        % {"name": name, "high": reader.number(high), "text": repr(text[:20])}
    )


def read_filter(reader: Reader, query: Mapping[str, str]) -> EntryFilter:
    """The filters of the address; BadQuery names the first one the page does not know."""

    def choice(name: str, allowed: tuple[str, ...], upper: bool) -> str | None:
        text = query.get(name, "").strip()
        text = text.upper() if upper else text
        if not text:
            return None
        if text in allowed:
            return text
        raise BadQuery(
            reader.gettext("%(name)s: one of %(allowed)s, not %(text)s.")
            % {"name": name, "allowed": ", ".join(allowed), "text": repr(text[:20])}
        )

    federation = query.get("federation", "").strip()
    if federation and _FEDERATION.fullmatch(federation) is None:
        raise BadQuery(
            reader.gettext("federation: a three-letter code such as FRA, not %(text)s.")
            % {"text": repr(federation[:20])}
        )
    search = "".join(ch for ch in query.get("q", "") if ch.isprintable()).strip()[:MAX_QUERY]
    return EntryFilter(
        federation=federation.upper() or None,
        sex=choice("sex", SEXES, upper=True),
        title=choice("title", TITLES, upper=True),
        age=choice("age", AGE_GROUPS, upper=False),
        search=search or None,
    )


def _sort(reader: Reader, query: Mapping[str, str]) -> str:
    """The order of a list page (SORTS; default by rating); BadQuery names another."""
    text = query.get("sort", "").strip()
    if not text:
        return "rating"
    if text in SORTS:
        return text
    raise BadQuery(
        reader.gettext("%(name)s: one of %(allowed)s, not %(text)s.")
        % {"name": "sort", "allowed": ", ".join(SORTS), "text": repr(text[:20])}
    )


def _not_found(request: Request, message: str) -> HTMLResponse:
    return page_response(request, "not_found.html", {"message": message}, status_code=404)


def _bad_query(request: Request, message: str) -> HTMLResponse:
    return page_response(request, "bad_request.html", {"message": message}, status_code=422)


def _no_list(reader: Reader, category: str, period: str) -> str:
    return reader.gettext("There is no published list %(category)s %(period)s.") % {
        "category": category[:40],
        "period": period[:20],
    }


def download_path(summary: ListSummary, file_format: str, revision: int | None) -> str:
    path = f"/v1/lists/{summary.category.value}/{summary.period}/download?format={file_format}"
    return path if revision is None else f"{path}&revision={revision}"


def downloads_of(summary: ListSummary, revision: int | None) -> list[tuple[str, str]]:
    """(format, link) of each download the list has (FIDE XML holds FIDE categories only)."""
    formats = [f for f in EXPORT_FORMATS if f != "fide-xml" or summary.category in XML_TAGS]
    return [(f, download_path(summary, f, revision)) for f in formats]


def list_page_etag(summary: ListSummary, reader: Reader, request: Request, size: int) -> str:
    """What an HTML list page is made of: the revision as the JSON page's ETag names it (its
    list id, number and digest, and how many revisions the list has: the page lists them),
    the reader's language, the address as sent (the filters, the page and ``lang``; the
    page's own links, its form and the language switch repeat the query) and the page size."""
    return etag_of(
        "list-page", summary.list_id, summary.revision, summary.digest, summary.revisions,
        reader.language, request.url.path, request.url.query, size,
    )  # fmt: skip


def tournament_counts_of(request: Request) -> ListLookups[tuple[int, int], int]:
    """How many tournaments each list's period rated, by (original list id, revisions):
    ``create_app``."""
    counts = request.app.state.tournament_counts
    if not isinstance(counts, ListLookups):
        raise TypeError("the app has no tournament counts (build it with create_app)")
    return counts


def _period_tournaments(request: Request, session: ReadSession, summary: ListSummary) -> int:
    """How many tournaments the list rated (those of its period; none for an imported list),
    kept as long as a rendered page (``ratingdb.api.caches``): the period's tournaments
    change only with a correction, which publishes a new revision of the list."""
    if summary.source != "close":
        return 0
    counts = tournament_counts_of(request)
    key = (summary.original_list_id, summary.revisions)
    count = counts.get(key)
    if count is None:
        count = svc.count_period_tournaments(session, summary.category, summary.period)
        counts.put(key, count)
    return count


@router.get("/lists/{category}/{period}", response_class=HTMLResponse)
async def list_page(request: Request, read: ReaderDep, category: str, period: str) -> Response:
    """A whole published list, a page at a time, filtered by federation, sex, title, age
    group and name; ``?revision=N`` shows an earlier revision.

    As the JSON list page (``routes.lists``): a page once rendered is kept in the same page
    cache under its ETag (:func:`list_page_etag`), which revision is the latest for a second,
    so a page already rendered is answered without the database; If-None-Match with the ETag
    gets 304."""
    reader = reader_of(request)
    wanted_category, wanted_period = _category(category), _period(period)
    if wanted_category is None or wanted_period is None:
        return _not_found(request, _no_list(reader, category, period))
    query = request.query_params
    try:
        wanted = read_filter(reader, query)
        page = _number(reader, query, "page", MAX_PAGE, 1) or 1
        revision = _number(reader, query, "revision", MAX_REVISION, None)
        every_player = _number(reader, query, "inactive", 1, None) == 1
        sort = _sort(reader, query)
    except BadQuery as error:
        return _bad_query(request, str(error))
    if not every_player:  # FIDE's rankings: the active players, unless asked for everyone
        wanted = active_players(wanted, wanted_category, wanted_period)
    size = LIST_PAGE_SIZE
    pages_cache, lookups = caches_of(request)
    lookup = (wanted_category, wanted_period, revision)
    if_none_match = request.headers.get("if-none-match")
    cache = CACHE_CONTROL_LATEST if revision is None else CACHE_CONTROL

    def cached(summary: ListSummary) -> Response | None:
        """The answer without reading the entries: 304, or the page already rendered."""
        etag = list_page_etag(summary, reader, request, size)
        headers = {**page_headers(reader), "ETag": etag, "Cache-Control": cache}
        if etag_matches(if_none_match, etag):
            return Response(status_code=304, headers=headers)
        body = pages_cache.get(etag)
        if body is None:
            return None
        return HTMLResponse(body, headers=headers)

    known = lookups.get(lookup)
    if known is not None and (served := cached(known)) is not None:
        return served  # no database, no thread

    def render(session: ReadSession) -> Response:
        try:
            summary = known or svc.find_list(session, wanted_category, wanted_period, revision)
        except svc.NotFound:
            message = _no_list(reader, wanted_category.value, str(wanted_period))
            if revision is not None:
                message = reader.gettext(
                    "The %(category)s list of %(period)s has no revision %(revision)s."
                ) % {"category": reader.category(wanted_category), "period": wanted_period,
                     "revision": revision}  # fmt: skip
            return _not_found(request, message)
        if known is None:
            lookups.put(lookup, summary)  # not again when known: it would outlive its second
        if (served := cached(summary)) is not None:
            return served
        total, entries = ranked_entries(
            session, summary, wanted, limit=size, offset=(page - 1) * size, sort=sort
        )
        moved = movers(session, summary, federation=wanted.federation, limit=MOVERS_SHOWN)
        pages = max(1, -(-total // size))
        etag = list_page_etag(summary, reader, request, size)
        response = page_response(
            request,
            "list.html",
            {
                "reader": reader,
                "summary": summary,
                "entries": entries,
                "total": total,
                "page": page,
                "pages": pages,
                "filters": wanted,
                "every_player": every_player,
                "every_player_link": _toggle_inactive(query, every_player),
                "asked_revision": revision,
                "links": _page_links(query, page, pages),
                "downloads": downloads_of(summary, revision),
                "titles": TITLES,
                "age_groups": AGE_GROUPS,
                "tournaments": _period_tournaments(request, session, summary),
                "sort": sort,
                "sorts": SORTS,
                "movers": moved,
            },
            headers={"ETag": etag, "Cache-Control": cache},
        )
        pages_cache.put(etag, bytes(response.body))
        return response

    return await read(render)


def _toggle_inactive(query: Mapping[str, str], every_player: bool) -> str:
    """The same page's address showing the inactive players too, or the active ones only
    (from the first page: the pages differ)."""
    kept = [(k, v) for k, v in query.items() if k not in ("page", "inactive") and v != ""]
    return "?" + urlencode(kept if every_player else [*kept, ("inactive", "1")])


def _page_links(query: Mapping[str, str], page: int, pages: int) -> dict[str, str | None]:
    """The previous, next, first and last pages' queries, keeping every other parameter."""
    kept = [(k, v) for k, v in query.items() if k != "page" and v != ""]

    def to(number: int) -> str:
        return "?" + urlencode([*kept, ("page", str(number))])

    return {
        "first": to(1) if page > 1 else None,
        "previous": to(min(page - 1, pages)) if page > 1 else None,
        "next": to(page + 1) if page < pages else None,
        "last": to(pages) if page < pages else None,
    }


#: Tournaments per page of a list's tournaments.
TOURNAMENTS_PAGE_SIZE = 100


@router.get("/lists/{category}/{period}/tournaments", response_class=HTMLResponse)
async def tournaments_page(
    request: Request, read: ReaderDep, category: str, period: str
) -> HTMLResponse:
    """The tournaments a published list rated (its period's), by start date, each linked to
    its page, a page of 100 at a time: the list page links here rather than naming them all,
    which a federation's busiest months would make long."""
    reader = reader_of(request)
    wanted_category, wanted_period = _category(category), _period(period)
    if wanted_category is None or wanted_period is None:
        return _not_found(request, _no_list(reader, category, period))
    try:
        page = _number(reader, request.query_params, "page", MAX_PAGE, 1) or 1
    except BadQuery as error:
        return _bad_query(request, str(error))
    size = TOURNAMENTS_PAGE_SIZE

    def render(session: ReadSession) -> HTMLResponse:
        try:
            summary = svc.find_list(session, wanted_category, wanted_period)
        except svc.NotFound:
            return _not_found(request, _no_list(reader, wanted_category.value, str(wanted_period)))
        total = 0
        tournaments: tuple[svc.PeriodTournament, ...] = ()
        if summary.source == "close":
            total, tournaments = svc.period_tournaments(
                session, summary.category, summary.period, limit=size, offset=(page - 1) * size
            )
        pages = max(1, -(-total // size))
        return page_response(
            request,
            "list_tournaments.html",
            {
                "reader": reader,
                "summary": summary,
                "tournaments": tournaments,
                "total": total,
                "page": page,
                "pages": pages,
                "links": _page_links(request.query_params, page, pages),
            },
        )

    return await read(render)


@router.get("/top/{category}", response_class=HTMLResponse)
async def top_page(request: Request, read: ReaderDep, category: str) -> HTMLResponse:
    """The top players of the latest list: open, women, juniors, girls."""
    reader = reader_of(request)
    wanted = _category(category)
    if wanted is None:
        message = reader.gettext("There is no category %(category)s.") % {
            "category": repr(category[:40])
        }
        return _not_found(request, message)

    def render(session: ReadSession) -> HTMLResponse:
        latest = svc.published_lists(session, wanted)
        if not latest:
            message = reader.gettext("%(category)s has no published list yet.") % {
                "category": reader.category(wanted)
            }
            return _not_found(request, message)
        summary = latest[0]
        tops: list[tuple[str, EntryFilter, tuple[RankedEntry, ...]]] = [
            (name, kept, ranked_entries(session, summary, active, limit=TOP_SIZE, offset=0)[1])
            for name, kept in TOP_LISTS
            # Active players, as FIDE's top lists.
            for active in (active_players(kept, summary.category, summary.period),)
        ]
        return page_response(
            request, "top.html", {"reader": reader, "summary": summary, "tops": tops}
        )

    return await read(render)
