"""The web pages: server-rendered HTML (Jinja2, autoescaped), no JavaScript, no build step.

``/`` searches players and shows the latest lists; ``/players/{player_id}`` shows, per category,
a step chart of the rating history and the game-by-game calculation of each period.

The player page is fixed by the lists of every category (their generations, as a player's
history: ``routes.players``), the reader's language and the address, and by the names and
federations of the players table, which a list import may update: it is kept in the page cache
under an ETag naming those (:func:`player_page_etag`), for the page cache's time like a list
page. Its ranks come from each latest list's rank table (``services.published.RankTable``,
kept as long as a page: ``ratingdb.api.caches.Builds``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ratingdb.api.caches import Builds
from ratingdb.api.chart import step_chart
from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.game_rows import game_rows, games_head
from ratingdb.api.i18n import Reader, reader_of
from ratingdb.api.reasons import INITIAL_METHODS, reason_words
from ratingdb.api.routes.lists import etag_matches, etag_of
from ratingdb.api.routes.players import (
    CACHE_CONTROL_HISTORY,
    Generations,
    kept_by_generations,
)
from ratingdb.api.site import site_of
from ratingdb.db import ReadSession
from ratingdb.rules import Category
from ratingdb.services import published as svc
from ratingdb.services.interim import Interim, interim_ratings
from ratingdb.services.published.movers import movers

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
SEARCH_PAGE_SIZE = 50
TOP_OF_LIST = 10
#: Players of each kind of movers on the home page and the list pages.
MOVERS_SHOWN = 5
MAX_QUERY = 100
#: The player page's history shows this many lists, the earlier ones folded (<details>).
RECENT_LISTS = 12
#: The calculations before the latest are folded each on its own; when there are more than
#: this many, they are grouped by year, each year folded too.
EARLIER_UNGROUPED = 12

#: The pages load nothing but their own stylesheet, and run no script at all.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def _reader(context: Context) -> Reader:
    reader = context["reader"]
    if not isinstance(reader, Reader):
        raise TypeError("a page is rendered with its reader (pages._page)")
    return reader


@pass_context
def _gettext(context: Context, message: str) -> str:
    return _reader(context).gettext(message)


#: (language, message) -> the message as a page shows it without variables: a ten-year player
#: page asks for the same few labels thousands of times (a third of its template's time).
_SHOWN: dict[tuple[str, str], Markup] = {}


@pass_context
def _kept_gettext(context: Context, message: str, **variables: Any) -> str:
    """``_()`` and ``{% trans %}`` as jinja2's newstyle gettext makes them (the translation,
    made Markup, then formatted with ``variables``, even none: ``%%`` becomes ``%``), each
    message's form without variables kept once made: the catalogues never change while the
    process runs."""
    reader = _reader(context)
    if variables:
        return Markup(reader.gettext(message)) % variables
    key = (reader.language, message)
    shown = _SHOWN.get(key)
    if shown is None:
        shown = _SHOWN[key] = Markup(reader.gettext(message)) % {}
    return shown


@pass_context
def _pgettext(context: Context, message_context: str, message: str) -> str:
    return _reader(context).pgettext(message_context, message)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, n: int) -> str:
    return _reader(context).ngettext(singular, plural, n)


def _environment() -> Environment:
    """Templates in the reader's language: ``_()`` and ``{% trans %}`` read the page's
    ``reader`` (one shared environment, so nothing per-request is installed on it), and the
    number and date filters write the reader's way."""
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=_gettext, ngettext=_ngettext, pgettext=_pgettext, newstyle=True
    )
    environment.globals["gettext"] = _kept_gettext
    environment.globals["games_head"] = pass_context(
        lambda context: games_head(
            lambda message, **values: _kept_gettext(context, message, **values)
        )
    )
    environment.globals["game_rows"] = pass_context(
        lambda context, games: game_rows(
            games,
            _reader(context),
            lambda message, **values: _kept_gettext(context, message, **values),
        )
    )
    environment.filters["signed"] = pass_context(
        lambda context, value, places=0: _reader(context).signed(value, places)
    )
    environment.filters["decimal"] = pass_context(
        lambda context, value, places=2, grouping=True: _reader(context).decimal(
            value, places, grouping
        )
    )
    environment.filters["number"] = pass_context(
        lambda context, value: _reader(context).number(value)
    )
    environment.filters["date"] = pass_context(lambda context, day: _reader(context).date(day))
    environment.filters["category"] = pass_context(
        lambda context, value: _reader(context).category(value)
    )
    environment.filters["link"] = pass_context(lambda context, path: _reader(context).link(path))
    # A stored reason or method in the reader's language (an unknown one as stored).
    environment.filters["reason"] = pass_context(
        lambda context, value: reason_words(
            value, _reader(context).gettext, _reader(context).category
        )
    )
    environment.filters["method"] = pass_context(
        lambda context, value: (
            _reader(context).gettext(INITIAL_METHODS[value]) if value in INITIAL_METHODS else value
        )
    )
    environment.filters["dash"] = lambda value: "\u2013" if value is None else value
    return environment


templates = Jinja2Templates(env=_environment())
router = APIRouter(include_in_schema=False)


def page_headers(reader: Reader) -> dict[str, str]:
    """The headers of every page in ``reader``'s language (which depends on Accept-Language:
    say so to caches)."""
    return {**PAGE_HEADERS, "Content-Language": reader.language, "Vary": "Accept-Language"}


def page_response(
    request: Request,
    name: str,
    context: dict[str, Any],
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """A page in the reader's language, with ``headers`` besides :func:`page_headers`."""
    reader = context.setdefault("reader", reader_of(request))
    context.setdefault("site", site_of(request))
    return templates.TemplateResponse(
        request,
        name,
        context,
        status_code=status_code,
        headers={**page_headers(reader), **(headers or {})},
    )


@router.get("/", response_class=HTMLResponse)
async def home(
    request: Request,
    read: ReaderDep,
    q: Annotated[str, Query()] = "",
    offset: Annotated[str, Query()] = "0",
) -> HTMLResponse:
    """The search form and its results, then the latest list of each category. A page for
    people: whatever is typed in the address bar gives a page, never an error."""
    search = "".join(ch for ch in q if ch.isprintable()).strip()[:MAX_QUERY]
    start = int(offset) if offset.isascii() and offset.isdigit() and len(offset) < 10 else 0

    def page(session: ReadSession) -> HTMLResponse:  # rendered on the worker thread too
        total: int = 0
        players: tuple[svc.FoundPlayer, ...] = ()
        if search:
            total, players = svc.search_players(
                session, search=search, limit=SEARCH_PAGE_SIZE, offset=start
            )
        latest = svc.latest_lists(session, TOP_OF_LIST)
        return page_response(
            request,
            "index.html",
            {
                "q": search,
                "total": total,
                "players": players,
                "offset": start,
                "page_size": SEARCH_PAGE_SIZE,
                "categories": list(Category),
                "latest": latest,
                "movers": {
                    summary.list_id: movers(session, summary, limit=MOVERS_SHOWN)
                    for summary, _ in latest
                },
            },
        )

    return await read(page)


def player_page_etag(player_id: str, reader: Reader, request: Request, found: Generations) -> str:
    """The player, the reader's language, the address as sent (``lang``), the generation
    of every category (a publication in a category the player was never in may add them; an
    officer's edit of a record) and the games' (an accepted tournament or a correction may move
    the interim ratings)."""
    parts = [(g.lists, g.last_id, g.records) for g in (found[category] for category in Category)]
    return etag_of(
        "player-page", player_id, reader.language, request.url.path, request.url.query, *parts,
        *found.games,
    )  # fmt: skip


def rank_tables_of(request: Request) -> Builds[int, svc.RankTable]:
    """The latest lists' rank tables by list id (``create_app``)."""
    tables = request.app.state.rank_tables
    if not isinstance(tables, Builds):
        raise TypeError("the app has no rank tables (build it with create_app)")
    return tables


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(request: Request, read: ReaderDep, player_id: str) -> Response:
    """A player's ratings: per category a chart, the history and each period's calculation.
    A page once rendered is kept by its ETag (:func:`player_page_etag`); If-None-Match with
    it gets 304."""
    reader = reader_of(request)
    if not (player_id.isascii() and player_id.isdigit()) or len(player_id) > 20:
        message = reader.gettext("%(id)s is not a player id (digits only).")
        return _not_found(request, message % {"id": repr(player_id)})
    if_none_match = request.headers.get("if-none-match")

    def answer(etag: str, body: bytes) -> Response:
        """The page, or 304 when the client holds it (only once the player is known to
        exist: ``If-None-Match: *`` on an unknown player is still 404)."""
        headers = {**page_headers(reader), "ETag": etag, "Cache-Control": CACHE_CONTROL_HISTORY}
        if etag_matches(if_none_match, etag):
            return Response(status_code=304, headers=headers)
        return HTMLResponse(body, headers=headers)

    def render(session: ReadSession) -> bytes | Response:
        response = _player_page(request, session, player_id, reader)
        return bytes(response.body) if response.status_code == 200 else response

    return await kept_by_generations(
        request,
        read,
        lambda found: player_page_etag(player_id, reader, request, found),
        render,
        answer,
    )


def _player_page(
    request: Request, session: ReadSession, player_id: str, reader: Reader
) -> HTMLResponse:
    try:
        record = svc.player_record(session, player_id)
    except svc.NotFound:
        return _not_found(request, reader.gettext("No player %(id)s.") % {"id": player_id})
    tables = rank_tables_of(request)

    def table_of(list_id: int, since: date) -> svc.RankTable | None:
        return tables.get(list_id, lambda: svc.rank_table(session, list_id, since))

    ranks = svc.latest_ranks(
        session, player_id, tuple(c.category for c in record.categories), table_of
    )
    interims = {
        category: found[player_id]
        for category, found in interim_ratings(session, [player_id]).items()
        if player_id in found
    }
    records = {item.category: item for item in record.categories}
    categories = [
        _category(records.get(category), interims.get(category), category)
        | {"rank": ranks.get(category)}
        for category in Category
        if category in records or category in interims
    ]
    return page_response(
        request,
        "player.html",
        {"player": record.player, "categories": categories, "reader": reader},
    )


def _category(
    item: svc.CategoryRecord | None, interim: Interim | None, category: Category
) -> dict[str, Any]:
    """What the page shows of one category: its published history and calculations, and its
    interim rating (unofficial) when its open period holds games of the player's, shown with
    the published calculations' partials (subtotals and ratings used by period)."""
    history = svc.NO_HISTORY if item is None else item.history
    calculations = () if item is None else item.calculations
    shown = [*calculations, *([] if interim is None else [interim.calculation])]
    periods = history.periods()
    # The history table's rows, newest first: one tuple a list, as its macro unpacks them.
    rows = list(
        zip(
            map(str, periods), history.ratings, history.revisions, history.original_ratings,
            history.changes, history.rule_versions, history.games, history.k_factors,
            strict=True,
        )
    )[::-1]  # fmt: skip
    return {
        "category": category.value,
        "recent_points": rows[:RECENT_LISTS],
        "earlier_points": rows[RECENT_LISTS:],
        "latest": history.point(-1, category) if len(history) else None,
        "chart": step_chart(list(zip(periods, history.ratings, strict=True))),
        "inactive_since": svc.inactive_since(history),
        "calculations": calculations,
        "earlier": _by_year(calculations[1:]),
        "subtotals": {calc.period: svc.tournament_subtotals(calc) for calc in shown},
        "used": {calc.period: svc.ratings_used(calc) for calc in shown},
        "calculated": {str(calc.period) for calc in calculations},
        "interim": interim,
    }


def _by_year(
    calculations: Sequence[svc.PeriodCalculation],
) -> list[tuple[int | None, list[svc.PeriodCalculation]]]:
    """The calculations before the latest, newest first: in one group when they are few, else
    one group per year (each folded on the page: a long history stays a few screens long)."""
    if len(calculations) <= EARLIER_UNGROUPED:
        return [(None, list(calculations))] if calculations else []
    years: dict[int, list[svc.PeriodCalculation]] = {}
    for calc in calculations:
        years.setdefault(calc.period.year, []).append(calc)
    return list(years.items())


def not_found_message(request: Request, message: str) -> HTMLResponse:
    """The HTML 404 page with ``message`` (already in the reader's language)."""
    return page_response(request, "not_found.html", {"message": message}, status_code=404)


_not_found = not_found_message


def not_found_page(request: Request) -> HTMLResponse:
    """The 404 of every path outside the API that does not exist (errors._http_error)."""
    reader = reader_of(request)
    message = reader.gettext("There is no page at %(path)s.") % {"path": request.url.path}
    return page_response(request, "not_found.html", {"message": message, "reader": reader}, 404)
