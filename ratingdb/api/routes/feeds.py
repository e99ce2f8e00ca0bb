"""``/feeds/lists.atom``: an Atom feed (RFC 4287) of publications and revisions, and
``/feeds/lists.xsl``, the XSLT stylesheet that a browser applies to it (an ``xml-stylesheet``
processing instruction), so that opening the feed's address shows a readable page rather than
raw XML. No JavaScript: the browser's own XSLT 1.0 processor does it.

The feed is Atom for everything that asks for Atom (feed readers, or ``*/*``). A browser that
opens the address asks for ``text/html`` first and is answered the same document as
``application/xml``: browsers show ``application/atom+xml`` as text or offer to download it,
and apply a stylesheet only to XML they render (``Vary: Accept`` tells caches).
"""

from __future__ import annotations

from datetime import UTC, datetime
from xml.etree import ElementTree

from fastapi import APIRouter, Request, Response

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.i18n import Reader, reader_of
from ratingdb.api.routes.pages import page_headers, templates
from ratingdb.api.site import site_of
from ratingdb.services.published.lists import ListSummary, list_archive

router = APIRouter(include_in_schema=False)

ATOM = "http://www.w3.org/2005/Atom"
FEED_SIZE = 100
FEED_PATH = "/feeds/lists.atom"
STYLESHEET_PATH = "/feeds/lists.xsl"
#: The feed's type, for what asks for Atom.
ATOM_TYPE = "application/atom+xml"
#: The feed's type for a browser opening it, which renders XML of this type with its
#: stylesheet (and shows ``application/atom+xml`` as plain text).
BROWSER_TYPE = "application/xml"
#: The stylesheet's type as it is served: XSLT's own (W3C XSLT 2.0 appendix B.1), which
#: Chromium accepts with ``X-Content-Type-Options: nosniff``.
XSLT_TYPE = "application/xslt+xml"
#: The type the processing instruction names: ``text/xsl``, the only one Chromium applies
#: (naming ``application/xslt+xml`` there, it shows the XML tree instead).
PI_TYPE = "text/xsl"
#: What the feed and its stylesheet may load: the site's own stylesheet and images, and the
#: site's own "scripts", which is how Chromium counts an XSLT stylesheet (``script-src-elem``:
#: without it the stylesheet is blocked); the site serves no JavaScript to its pages, and
#: inline scripts and handlers stay forbidden.
FEED_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


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


def wants_html(accept: str | None) -> bool:
    """Whether ``Accept`` names HTML (a browser navigating) rather than Atom: then the feed is
    served as ``application/xml``, which browsers render with the stylesheet."""
    types = {item.split(";")[0].strip().lower() for item in (accept or "").split(",")}
    return "text/html" in types and ATOM_TYPE not in types


@router.get(FEED_PATH)
async def lists_feed(request: Request, read: ReaderDep) -> Response:
    """An Atom feed (RFC 4287) of publications and revisions, newest first: each entry a
    revision of a list, linked to its page. In English (a feed has one language); its title
    and author are the federation's name (``RATINGDB_FEDERATION_NAME``).

    Links and ids are built from ``RATINGDB_PUBLIC_BASE_URL``, never from the request (its
    Host header is the client's to choose: a cache would keep the links it chose). Without
    it the links are relative (a feed reader resolves them against the feed's address) and
    the ids are ``urn:ratingdb:`` names. The stylesheet is named by its path on this site
    (a browser applies only a stylesheet of the feed's own origin)."""
    site = site_of(request)
    base = site.public_base_url
    revisions = await read(list_archive)
    reader = Reader("en", False, ())
    ElementTree.register_namespace("", ATOM)

    def element(parent: ElementTree.Element, tag: str, text: str | None = None,
                **attributes: str) -> ElementTree.Element:  # fmt: skip
        child = ElementTree.SubElement(parent, f"{{{ATOM}}}{tag}", attributes)
        child.text = text
        return child

    link_base = base or ""  # relative links without a base URL
    feed = ElementTree.Element(f"{{{ATOM}}}feed")
    element(feed, "id", f"{base}{FEED_PATH}" if base else FEED_URN)
    element(feed, "title", f"{site.name}: published rating lists")
    element(feed, "updated", _timestamp(revisions[0].published_at) if revisions
            else _timestamp(datetime(1970, 1, 1, tzinfo=UTC)))  # fmt: skip
    element(feed, "link", rel="self", href=f"{link_base}{FEED_PATH}")
    element(feed, "link", rel="alternate", href=f"{link_base}/lists")
    author = element(feed, "author")
    element(author, "name", site.name)
    if site.contact_email is not None:
        element(author, "email", site.contact_email)
    element(feed, "icon", f"{link_base}/favicon.ico")
    if site.logo_path is not None:
        element(feed, "logo", f"{link_base}{site.logo_path}")
    for summary in revisions[:FEED_SIZE]:
        name = reader.category(summary.category)
        page = f"{link_base}/lists/{summary.category.value}/{summary.period}"
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
    body = (
        b'<?xml version="1.0" encoding="utf-8"?>\n'
        + f'<?xml-stylesheet type="{PI_TYPE}" href="{STYLESHEET_PATH}"?>\n'.encode()
        + ElementTree.tostring(feed, encoding="utf-8", xml_declaration=False)
        + b"\n"
    )
    media_type = BROWSER_TYPE if wants_html(request.headers.get("accept")) else ATOM_TYPE
    headers = {"Vary": "Accept", "Content-Security-Policy": FEED_POLICY}
    return Response(body, media_type=media_type, headers=headers)


@router.get(STYLESHEET_PATH)
async def lists_feed_stylesheet(request: Request) -> Response:
    """The feed's XSLT 1.0 stylesheet, in the reader's language (``Accept-Language``, or
    ``?lang=``): the feed as a page, each entry linked to its list."""
    reader = reader_of(request)
    body = templates.env.get_template("feed.xsl").render(
        reader=reader, site=site_of(request), feed_path=FEED_PATH
    )
    headers = {**page_headers(reader), "Content-Security-Policy": FEED_POLICY}
    return Response(body.encode(), media_type=XSLT_TYPE, headers=headers)
