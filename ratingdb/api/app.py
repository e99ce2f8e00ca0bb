"""The read-only API and web pages: ``create_app(settings)``.

Read-only at three levels: only GET (and HEAD) routes exist, every other method answers 405;
every request reads through a ``ReadSession`` that refuses to flush; and that session's engine
(``make_read_only_engine`` on ``settings.read_database_url``, a replica if you like) is one the
database itself keeps from writing. The app holds no state of its own: run as many as needed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from anyio import to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ratingdb import defaults
from ratingdb.api import errors
from ratingdb.api.caches import (
    DEFAULT_LOOKUP_SECONDS,
    DEFAULT_TTL_SECONDS,
    Builds,
    ListLookups,
    PageCache,
)
from ratingdb.api.compression import Compression
from ratingdb.api.routes import (
    archive,
    calculator,
    calculator_page,
    catalog,
    docs,
    downloads,
    feeds,
    health,
    listings,
    lists,
    movers,
    pages,
    players,
    site,
    tournament_page,
    tournaments,
)
from ratingdb.api.site import site_from
from ratingdb.config import Settings
from ratingdb.db import head_revision, make_read_only_engine
from ratingdb.db.engine import make_read_only_async_engine
from ratingdb.observability import http as http_metrics
from ratingdb.observability import metrics

STATIC = Path(__file__).resolve().parent / "static"

DESCRIPTION = """\
What ratingdb publishes: rating lists, players' histories, and the game-by-game calculation
behind every published change. Read-only: GET and HEAD only. Errors are JSON
`{"detail": "..."}` (404 unknown, 422 bad parameter, naming it). Periods are `YYYY-MM`, dates ISO,
decimals strings.

A correction publishes a new revision of each list it changes; revision 1, the original list,
stays. Lists, histories and calculations show the latest revision unless `?revision=N` asks for
another, every rating comes with its `original_rating` (revision 1), and
`/v1/lists/{category}/{period}/diff?from=A&to=B` shows who changed, by how much and why.
"""


def _version() -> str:
    try:
        return version("ratingdb")
    except PackageNotFoundError:
        return "0+unknown"


class HeadAsGet:
    """HEAD is GET without the body (RFC 9110 §9.3.2), for every route, pages and static files
    included, without documenting a second operation per path."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)


class NoSniff:
    """``X-Content-Type-Options: nosniff`` on every response that does not say it already: a
    browser never takes a JSON answer, a download or an error for HTML or a script."""

    NAME = b"x-content-type-options"
    HEADER = (NAME, b"nosniff")

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_header(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", ())
                if not any(name.lower() == self.NAME for name, _ in headers):
                    message = {**message, "headers": [*headers, self.HEADER]}
            await send(message)

        await self.app(scope, receive, send_with_header)


#: Threads running requests' reads on SQLite, per process (on PostgreSQL reads run on the
#: event loop: ``dependencies.Reader``). Few on purpose: a request's read is a few short
#: queries, and Python threads take turns on one interpreter lock, so more threads only
#: interleave requests (each then waits behind all the others' turns: a long latency tail)
#: without answering more of them. Requests beyond these wait in a first-come queue. Raise it
#: (``ratingdb serve --threads``) when the database is far away and a read mostly waits on it.
DEFAULT_THREADS = defaults.SERVE_THREADS
#: PostgreSQL connections of the reads run on the event loop, per process (and as many again
#: when all are busy, before a read waits for one).
ASYNC_POOL_SIZE = 10
#: Memory for rendered list pages, per process (``ratingdb serve --page-cache-mb``).
DEFAULT_PAGE_CACHE_BYTES = defaults.SERVE_PAGE_CACHE_MB * 1024 * 1024


def create_app(
    settings: Settings,
    *,
    threads: int | None = None,
    page_cache_bytes: int | None = None,
    lookup_seconds: float = DEFAULT_LOOKUP_SECONDS,
    sitemap_page_size: int = site.SITEMAP_PAGE_SIZE,
) -> FastAPI:
    """The app reading ``settings.read_database_url`` (by default the main database), running
    reads on ``threads`` threads (each with a pooled connection) and keeping up to
    ``page_cache_bytes`` of rendered list pages and player histories and pages (0: none)
    and which revision each list is at (and each category's generation) for
    ``lookup_seconds`` (0: none; ``ratingdb.api.caches``). ``threads`` and
    ``page_cache_bytes`` not given: ``settings.serve_threads`` and ``serve_page_cache_mb``.
    ``sitemap_page_size``: the most players one sitemap names (``routes.site``). The
    federation's logo is read now: one that cannot be used raises ConfigurationError."""
    if threads is None:
        threads = settings.serve_threads
    if page_cache_bytes is None:
        page_cache_bytes = settings.serve_page_cache_mb * 1024 * 1024
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    if sitemap_page_size < 1:
        raise ValueError(f"a sitemap holds at least one player, got {sitemap_page_size}")
    public_site = site_from(settings)
    list_pages = PageCache(page_cache_bytes)
    list_lookups: ListLookups[Any, Any] = ListLookups(lookup_seconds)
    # Kept as long as a page, and not at all without a page cache (routes.listings).
    tournament_counts: ListLookups[Any, Any] = ListLookups(
        DEFAULT_TTL_SECONDS if page_cache_bytes else 0
    )
    # Each category's generation, as the list lookups (routes.players, routes.pages).
    generations: ListLookups[Any, Any] = ListLookups(lookup_seconds)
    # The latest lists' rank tables, as long as a page, none without a page cache (then the
    # ranks are counted in the database for every player page, as before).
    rank_tables: Builds[Any, Any] = Builds(DEFAULT_TTL_SECONDS if page_cache_bytes else 0)
    # No pre-ping: the Reader reads again when a connection turns out to be dead.
    engine = make_read_only_engine(settings.read_database_url, pool_size=max(threads, 5))
    # PostgreSQL: reads run on the event loop (psycopg's asyncio connection); see Reader.
    async_engine = (
        make_read_only_async_engine(settings.read_database_url, pool_size=ASYNC_POOL_SIZE)
        if engine.dialect.name == "postgresql"
        else None
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Set on the event loop that serves the app (the limiter is the loop's).
        to_thread.current_default_thread_limiter().total_tokens = threads
        try:
            yield
        finally:
            engine.dispose()
            if async_engine is not None:
                await async_engine.dispose()

    app = FastAPI(
        title="ratingdb",
        version=_version(),
        description=DESCRIPTION,
        lifespan=lifespan,
        # Served by routes.docs from local assets, not by FastAPI from a CDN.
        docs_url=None,
        redoc_url=None,
        # Starlette answers /path/ with a 307 to http://<the Host header>/path: a client
        # (or a cache) would be sent wherever the Host header said. /path/ is a 404.
        redirect_slashes=False,
    )
    app.state.read_engine = engine
    app.state.read_async_engine = async_engine
    app.state.list_pages = list_pages
    app.state.list_lookups = list_lookups
    app.state.tournament_counts = tournament_counts
    app.state.generations = generations
    app.state.rank_tables = rank_tables
    #: Absolute links (the feed's) are built from it, never from the Host header.
    app.state.public_base_url = settings.public_base_url
    #: The federation's name, logo and contact address on every page (``ratingdb.api.site``).
    app.state.site = public_site
    app.state.sitemap_page_size = sitemap_page_size
    #: /health compares the database with the migrations this code ships with.
    app.state.expected_revision = head_revision()
    errors.install(app)
    #: /metrics: this app's requests and this process (docs/operations.md, "Metrics and logs").
    registry = metrics.app_registry() if settings.metrics else None
    http_metrics.add_route(app, registry)
    for router in (
        health.router,
        catalog.router,
        lists.router,
        movers.router,
        downloads.router,
        players.router,
        tournaments.router,
        calculator.router,
        pages.router,
        listings.router,
        archive.router,
        feeds.router,
        site.router,
        calculator_page.router,
        tournament_page.router,
        docs.router,
    ):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # gzip inside HEAD-as-GET, so that a HEAD says what its GET sends (compression.py).
    app.add_middleware(Compression)
    app.add_middleware(HeadAsGet)
    app.add_middleware(NoSniff)
    if registry is not None:
        http_metrics.install(app, registry)
    return app
