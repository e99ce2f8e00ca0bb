"""What every site serves beside its pages (issue 29): ``/favicon.ico``, the federation's logo
(``/federation-logo``), ``/robots.txt`` and the sitemaps.

The sitemaps (sitemaps.org 0.9) name every published list and every player: ``/sitemap.xml``
is an index of ``/sitemaps/lists.xml`` (the site's main pages and every list) and
``/sitemaps/players-N.xml``, pages of at most ``sitemap_page_size`` players (the protocol's
limit, 50,000, by default), however many players the federation has. A sitemap's addresses
must be absolute, and are never built from a request's Host header: without
``RATINGDB_PUBLIC_BASE_URL`` there is no sitemap (404, saying why) and ``robots.txt`` names
none.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from xml.sax.saxutils import escape

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.site import LOGO_PATH, site_of
from ratingdb.db import ReadSession
from ratingdb.rules import Category
from ratingdb.services import published as svc

router = APIRouter(include_in_schema=False)

STATIC = Path(__file__).resolve().parent.parent / "static"
#: The icon browsers ask for at the root (IANA's type for the ICO format).
FAVICON = (STATIC / "favicon.ico").read_bytes()
ICO_TYPE = "image/vnd.microsoft.icon"
#: An hour: what changes at most once a publication (robots.txt, the sitemaps) or at a restart.
CACHE_CONTROL = "public, max-age=3600"
#: The most addresses one sitemap may hold (sitemaps.org: 50,000 and 50 MB; a player's address
#: is some 60 bytes, so 50,000 of them stay far below 50 MB).
SITEMAP_PAGE_SIZE = 50_000
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
SITEMAP_TYPE = "application/xml"
#: A logo is shown, never run: an SVG opened by itself runs no script and loads nothing.
LOGO_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
NO_BASE_URL = (
    "No sitemap: RATINGDB_PUBLIC_BASE_URL is not set. A sitemap lists absolute addresses, "
    "and ratingdb builds them only from that setting, never from a request's Host header.\n"
)
#: What crawlers are asked to leave: the JSON API and its documentation, the metrics, and the
#: pages every query makes anew (search results, calculator results, diffs between revisions).
DISALLOWED = ("/v1/", "/docs", "/redoc", "/openapi.json", "/metrics", "/?q=", "/calculator?",
              "/lists/*/diff")  # fmt: skip


@router.get("/favicon.ico")
async def favicon() -> Response:
    """ratingdb's icon (``static/favicon.svg`` is the same drawing, for the pages' link)."""
    return Response(FAVICON, media_type=ICO_TYPE, headers={"Cache-Control": CACHE_CONTROL})


@router.get(LOGO_PATH)
async def federation_logo(request: Request) -> Response:
    """The federation's logo (``RATINGDB_FEDERATION_LOGO``, read at start); 404 without one."""
    logo = site_of(request).logo
    if logo is None:
        return PlainTextResponse("No logo: RATINGDB_FEDERATION_LOGO is not set.\n", 404)
    headers = {"Cache-Control": CACHE_CONTROL, "Content-Security-Policy": LOGO_POLICY}
    return Response(logo.content, media_type=logo.media_type, headers=headers)


@router.get("/robots.txt")
async def robots(request: Request) -> PlainTextResponse:
    """Crawlers may read the pages, not the API; the sitemap's address when there is one."""
    base = site_of(request).public_base_url
    lines = ["User-agent: *", *(f"Disallow: {path}" for path in DISALLOWED), "Allow: /"]
    if base is not None:
        lines += ["", f"Sitemap: {base}/sitemap.xml"]
    return PlainTextResponse("\n".join(lines) + "\n", headers={"Cache-Control": CACHE_CONTROL})


def sitemap_page_size(request: Request) -> int:
    size = request.app.state.sitemap_page_size
    if not isinstance(size, int) or size < 1:
        raise TypeError("the app has no sitemap page size (build it with create_app)")
    return size


def _xml(root: str, items: Iterable[str]) -> Response:
    body = "".join(
        ['<?xml version="1.0" encoding="UTF-8"?>\n', f'<{root} xmlns="{SITEMAP_NS}">\n',
         *items, f"</{root}>\n"]
    )  # fmt: skip
    return Response(body.encode(), media_type=SITEMAP_TYPE,
                    headers={"Cache-Control": CACHE_CONTROL})  # fmt: skip


def _url(location: str, modified: datetime | None = None) -> str:
    lastmod = ""
    if modified is not None:
        moment = modified if modified.tzinfo is not None else modified.replace(tzinfo=UTC)
        lastmod = f"<lastmod>{moment.astimezone(UTC).date().isoformat()}</lastmod>"
    return f"<url><loc>{escape(location)}</loc>{lastmod}</url>\n"


def _no_sitemap() -> PlainTextResponse:
    return PlainTextResponse(NO_BASE_URL, status_code=404)


@router.get("/sitemap.xml")
async def sitemap_index(request: Request, read: ReaderDep) -> Response:
    """The index: the lists' sitemap, then one sitemap per page of players."""
    base = site_of(request).public_base_url
    if base is None:
        return _no_sitemap()
    size = sitemap_page_size(request)
    pages = await read(lambda session: svc.sitemap_player_pages(session, size))
    names = ["lists", *(f"players-{page}" for page in range(1, pages + 1))]
    return _xml(
        "sitemapindex",
        (f"<sitemap><loc>{escape(f'{base}/sitemaps/{name}.xml')}</loc></sitemap>\n"
         for name in names),
    )  # fmt: skip


@router.get("/sitemaps/lists.xml")
async def lists_sitemap(request: Request, read: ReaderDep) -> Response:
    """The home page, the archive, the calculator, each category's top lists, and every
    published list (its latest revision's page, modified when that revision was published)."""
    base = site_of(request).public_base_url
    if base is None:
        return _no_sitemap()
    lists = await read(lambda session: svc.published_lists(session))
    categories = [c for c in Category if any(s.category is c for s in lists)]
    urls = [_url(f"{base}/"), _url(f"{base}/lists"), _url(f"{base}/calculator")]
    urls += [_url(f"{base}/top/{category.value}") for category in categories]
    urls += [_url(f"{base}/lists/{s.category.value}/{s.period}", s.published_at) for s in lists]
    return _xml("urlset", urls)


@router.get("/sitemaps/players-{page}.xml")
async def players_sitemap(request: Request, read: ReaderDep, page: str) -> Response:
    """Page ``page`` (1..) of the players' pages, by player id; 404 past the last page."""
    base = site_of(request).public_base_url
    if base is None:
        return _no_sitemap()
    size = sitemap_page_size(request)
    number = int(page) if page.isascii() and page.isdigit() and len(page) < 10 else 0
    if number < 1 or str(number) != page:
        return PlainTextResponse(f"No sitemap players-{page}.xml.\n", status_code=404)

    def ids(session: ReadSession) -> list[str]:
        return svc.sitemap_players(session, number, size)

    found = await read(ids)
    if not found:
        return PlainTextResponse(f"No sitemap players-{page}.xml.\n", status_code=404)
    return _xml("urlset", (_url(f"{base}/players/{player_id}") for player_id in found))
