"""The list pages, downloads and feed (issue 15), on both databases.

Expectations are worked from the scenario (tests/api/scenario.py): the 2026-11 fide-standard
list, by rating, is Max 2443 (NOR, M, 1995, IM), Dan 1994 (GER, M, 1975), Bob 1900 (FRA, M,
1985), Anna 1866 (FRA, F, 1990), Nina 1852 (FRA, F, 2001), Gus 1794 (FRA, M, 1980), Jo 1723
(FRA, F, 2012): ranks 1 to 7. In 2026 a junior is born in 2006 or later (Jo), a senior 50+ in
1976 or earlier (Dan), and nobody is 65+.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import MutableMapping
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.api.routes import downloads, listings
from ratingdb.cli import main
from ratingdb.config import Settings
from ratingdb.repositories.published import list_pages as list_repo
from tests.api.conftest import make_client
from tests.api.test_pages import page
from tests.support.files import LIST_HEADER

LIST = "/lists/fide-standard/2026-11"


class ListTables(HTMLParser):
    """The rows of each ranked table (``table.list``) of a page: each row its cells' texts."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tables: list[list[tuple[str, ...]]] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.in_body = False
        self.in_list = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.in_list = ("class", "list") in attrs  # not the movers' tables
            if self.in_list:
                self.tables.append([])
        elif tag == "tbody" and self.in_list:
            self.in_body = True
        elif tag == "tr" and self.in_body:
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables[-1].append(tuple(self.row))
            self.row = None
        elif tag == "tbody":
            self.in_body = False

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables(client: TestClient, path: str) -> list[list[tuple[str, ...]]]:
    response = client.get(path)
    assert response.status_code == 200, response.text
    return ListTables(response.text).tables


def table(client: TestClient, path: str) -> list[tuple[str, ...]]:
    """The ranked table of a page: (rank, [fed rank,] name, fed, title, rating, change, games)."""
    found = tables(client, path)
    return found[0] if found else []


def names(client: TestClient, path: str) -> list[tuple[str, str]]:
    """(rank, name) of each row."""
    return [(row[0], row[-6]) for row in table(client, path)]


def test_the_whole_list_ranked(client: TestClient) -> None:
    assert table(client, LIST) == [
        ("1", "Max, M", "NOR", "IM", "2443", "-4", "1"),
        ("2", "Dan, D", "GER", "", "1994", "0", "0"),
        ("3", "Bob, B", "FRA", "", "1900", "0", "0"),
        ("4", "Anna, A", "FRA", "", "1866", "+4", "2"),
        ("5", "Nina, N", "FRA", "", "1852", "-30", "1"),
        ("6", "Gus, G", "FRA", "", "1794", "0", "0"),
        ("7", "Jo, J", "FRA", "", "1723", "+40", "2"),
    ]
    parsed = page(client, LIST)
    links = [a["href"] for a in parsed.all("a")]
    assert "/players/1006" in links
    assert "/players/1005" in links
    assert "/lists" in links  # the archive
    assert "7 players" in parsed.text
    downloads = [h for h in links if h and "/download?" in h]
    assert downloads == [
        f"/v1{LIST}/download?format={f}" for f in ("json", "csv", "fide-txt", "fide-xml")
    ]


@pytest.fixture(params=["chosen", "resolved", "decoded"])
def matching(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A filtered page read as list_pages.plan chooses (the latest list: from latest_entries);
    or, as for another list, its entries resolved by player, or the list decoded from its
    chunks and filtered (tests/db/test_list_strategies.py compares them on both databases)."""
    if request.param == "chosen":
        return
    chosen, forced = list_repo.plan, list_repo.Strategy(request.param)

    def plan(*args: Any, **options: Any) -> list_repo.Plan:
        found = chosen(*args, **options)
        if found.strategy is list_repo.Strategy.WHOLE:
            return found
        return chosen(*args, **(options | {"forced": forced}))

    monkeypatch.setattr(list_repo, "plan", plan)


@pytest.mark.usefixtures("matching")
def test_filters(client: TestClient) -> None:
    # Federation: the world rank and the rank in the federation.
    assert table(client, f"{LIST}?federation=fra") == [
        ("3", "1", "Bob, B", "FRA", "", "1900", "0", "0"),
        ("4", "2", "Anna, A", "FRA", "", "1866", "+4", "2"),
        ("5", "3", "Nina, N", "FRA", "", "1852", "-30", "1"),
        ("6", "4", "Gus, G", "FRA", "", "1794", "0", "0"),
        ("7", "5", "Jo, J", "FRA", "", "1723", "+40", "2"),
    ]
    assert names(client, f"{LIST}?sex=F") == [("4", "Anna, A"), ("5", "Nina, N"), ("7", "Jo, J")]
    assert names(client, f"{LIST}?title=IM") == [("1", "Max, M")]
    assert names(client, f"{LIST}?title=GM") == []
    assert names(client, f"{LIST}?age=juniors") == [("7", "Jo, J")]
    assert names(client, f"{LIST}?age=girls") == [("7", "Jo, J")]
    assert names(client, f"{LIST}?age=seniors-50") == [("2", "Dan, D")]
    assert names(client, f"{LIST}?age=seniors-65") == []
    # Each word starts a word of the name: "an" starts Anna's, not Dan's.
    assert names(client, f"{LIST}?q=an") == [("4", "Anna, A")]
    assert names(client, f"{LIST}?q=D%20DAN") == [("2", "Dan, D")]
    assert names(client, f"{LIST}?federation=FRA&sex=M") == [("3", "Bob, B"), ("6", "Gus, G")]
    assert "No player on this list matches these filters." in page(client, f"{LIST}?q=zz").text


@pytest.mark.usefixtures("matching")
def test_pages(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listings, "LIST_PAGE_SIZE", 3)
    assert names(client, LIST) == [("1", "Max, M"), ("2", "Dan, D"), ("3", "Bob, B")]
    assert names(client, f"{LIST}?page=2") == [("4", "Anna, A"), ("5", "Nina, N"), ("6", "Gus, G")]
    assert names(client, f"{LIST}?page=3") == [("7", "Jo, J")]
    second = page(client, f"{LIST}?page=2&sex=F")
    assert "page 1 of 1" not in second.text
    assert names(client, f"{LIST}?federation=FRA&page=2") == [("6", "Gus, G"), ("7", "Jo, J")]
    # The second page's ranks in the federation counted, not placed: 4 and 5.
    assert table(client, f"{LIST}?federation=FRA&page=2") == [
        ("6", "4", "Gus, G", "FRA", "", "1794", "0", "0"),
        ("7", "5", "Jo, J", "FRA", "", "1723", "+40", "2"),
    ]
    links = [a["href"] for a in page(client, f"{LIST}?federation=FRA&page=2").all("a")]
    assert "?federation=FRA&page=1" in links  # the filters stay
    assert "There is no page 9." in page(client, f"{LIST}?page=9").text


def test_equal_ratings_share_a_rank_across_pages(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four players, two at 2000: ranks 1, 2, 2, 4, whichever page the second 2000 is on."""
    listed = tmp_path / "list.csv"
    listed.write_text(
        LIST_HEADER
        + '1,"Ann, A",FRA,F,1990,,2100,60,2100,20\n2,"Ben, B",GER,M,1990,,2000,60,2000,20\n'
        + '3,"Cy, C",FRA,M,1990,,2000,60,2000,20\n4,"Di, D",FRA,F,1990,,1900,60,1900,20\n',
        encoding="utf-8",
    )
    assert main(["db", "upgrade", "--database-url", database_url]) == 0
    assert main(["lists", "import", str(listed), "--category", "fide-standard", "--period",
                 "2026-08", "--database-url", database_url]) == 0  # fmt: skip
    monkeypatch.setattr(listings, "LIST_PAGE_SIZE", 2)
    path = "/lists/fide-standard/2026-08"
    with make_client(database_url) as client:
        assert names(client, path) == [("1", "Ann, A"), ("2", "Ben, B")]
        assert names(client, f"{path}?page=2") == [("2", "Cy, C"), ("4", "Di, D")]
        assert [r[:2] for r in table(client, f"{path}?federation=FRA")] == [("1", "1"), ("2", "2")]
        assert [r[:2] for r in table(client, f"{path}?federation=FRA&page=2")] == [("4", "3")]


def test_unknown_lists_answer_the_html_404(client: TestClient) -> None:
    unknown = ("/lists/chess960/2026-11", "/lists/fide-standard/2026-12",
               "/lists/fide-standard/11-2026", f"{LIST}?revision=2", "/top/chess960")  # fmt: skip
    for path in unknown:
        parsed = page(client, path, status=404)
        assert "Not found" in parsed.text, path
    for path in (f"{LIST}?sex=X", f"{LIST}?page=0", f"{LIST}?age=old", f"{LIST}?federation=F1",
                 f"{LIST}?revision=x"):  # fmt: skip
        assert "Not understood" in page(client, path, status=422).text, path


def test_revisions_and_archive(corrected_client: TestClient) -> None:
    """After the correction 2026-09 has revisions 1 (Bob 1914, Anna 1862) and 2 (Bob 1934,
    Anna 1842)."""
    path = "/lists/fide-standard/2026-09"
    assert names(corrected_client, path)[2:4] == [("3", "Bob, B"), ("4", "Anna, A")]
    assert [r[-3] for r in table(corrected_client, path)[2:4]] == ["1934", "1842"]
    assert [r[-3] for r in table(corrected_client, f"{path}?revision=1")[2:4]] == ["1914", "1862"]
    old = page(corrected_client, f"{path}?revision=1")
    assert "Revision 1 of 2: an earlier revision." in old.text
    assert f"/v1{path}/download?format=csv&revision=1" in [a["href"] for a in old.all("a")]
    archive = page(corrected_client, "/lists")
    links = [a["href"] for a in archive.all("a")]
    for period in ("2026-09", "2026-10", "2026-11"):
        base = f"/lists/fide-standard/{period}"
        assert {base, f"{base}?revision=1", f"{base}?revision=2"} <= set(links)
        assert f"{base}/diff?from=1&to=2" in links  # the diff's page (it links the JSON)
    assert "/lists/fide-standard/2026-08?revision=1" in links
    assert "/lists/ffe-rapid/2026-10?revision=1" in links
    assert "/lists/fide-standard/2026-08/diff?from=1&to=2" not in "".join(str(h) for h in links)


def test_top_lists(client: TestClient) -> None:
    parsed = page(client, "/top/fide-standard")
    assert [h.strip() for h in parsed.text.split("\n") if h in
            ("Open", "Women", "Juniors (under 20)", "Girls (under 20)")] == [
        "Open", "Women", "Juniors (under 20)", "Girls (under 20)"
    ]  # fmt: skip
    found = [[row[-6] for row in rows] for rows in tables(client, "/top/fide-standard")]
    assert found == [
        ["Max, M", "Dan, D", "Bob, B", "Anna, A", "Nina, N", "Gus, G", "Jo, J"],
        ["Anna, A", "Nina, N", "Jo, J"],
        ["Jo, J"],
        ["Jo, J"],
    ]
    assert LIST in [a["href"] for a in parsed.all("a")]
    assert "/top/ffe-rapid" in [a["href"] for a in page(client, "/lists").all("a")]


def test_french(client: TestClient) -> None:
    parsed = page(client, f"{LIST}?lang=fr&federation=FRA")
    assert {"lang": "fr"} in [{"lang": attrs.get("lang")} for attrs in parsed.all("html")]
    assert "Liste du 1er novembre 2026, 7 joueurs classés, règles fide-standard-2025-10." in (
        parsed.text
    )
    assert "5 joueurs" in parsed.text
    assert "Catégorie d\u2019âge" in parsed.text
    assert "Jeunes (moins de 20 ans)" in parsed.text
    assert {"title": "Rang dans la fédération"} in [
        {"title": attrs.get("title")} for attrs in parsed.all("abbr")
    ]
    # The page's own links keep the language the address chose.
    assert "/players/1002?lang=fr" in [a["href"] for a in parsed.all("a")]


# --- downloads ----------------------------------------------------------------------------------

MEDIA = {"csv": "text/csv; charset=utf-8", "fide-txt": "text/plain; charset=utf-8",
         "fide-xml": "application/xml", "json": "application/json"}  # fmt: skip
EXTENSION = {"csv": "csv", "fide-txt": "txt", "fide-xml": "xml", "json": "json"}


def exported(url: str, category: str, period: str, file_format: str, folder: Path) -> bytes:
    """What ``ratingdb lists export`` writes."""
    out = folder / f"{category}-{period}.{file_format}"
    assert main(["lists", "export", "--category", category, "--period", period, "--format",
                 file_format, "--output", str(out), "--database-url", url]) == 0  # fmt: skip
    return out.read_bytes()


@pytest.mark.parametrize(
    ("category", "period", "file_format"),
    [("fide-standard", "2026-11", f) for f in MEDIA] + [("ffe-rapid", "2026-10", f)
                                                        for f in ("csv", "fide-txt", "json")],
)  # fmt: skip
def test_download_is_the_export(
    client: TestClient, scenario_url: str, tmp_path: Path,
    category: str, period: str, file_format: str,
) -> None:  # fmt: skip
    response = client.get(f"/v1/lists/{category}/{period}/download?format={file_format}")
    assert response.status_code == 200, response.text
    assert response.content == exported(scenario_url, category, period, file_format, tmp_path)
    assert response.headers["content-type"] == MEDIA[file_format]
    assert response.headers["content-disposition"] == (
        f'attachment; filename="{category}_{period}.{EXTENSION[file_format]}"'
    )
    etag = response.headers["etag"]
    again = client.get(
        f"/v1/lists/{category}/{period}/download?format={file_format}",
        headers={"If-None-Match": etag},
    )
    assert (again.status_code, again.content) == (304, b"")


def test_download_etags_differ_by_format_and_revision(corrected_client: TestClient) -> None:
    base = "/v1/lists/fide-standard/2026-09/download?format="
    tags = {
        corrected_client.get(f"{base}{f}{r}").headers["etag"]
        for f in MEDIA
        for r in ("", "&revision=1")
    }
    assert len(tags) == 8


def test_download_of_an_earlier_revision(
    corrected_client: TestClient, scenario_url: str, tmp_path: Path
) -> None:
    """Revision 1 of a corrected list downloads as the export wrote it before the correction
    (the uncorrected scenario: the same list, never revised)."""
    for file_format in MEDIA:
        response = corrected_client.get(
            f"/v1/lists/fide-standard/2026-09/download?format={file_format}&revision=1"
        )
        assert response.status_code == 200, response.text
        before = exported(scenario_url, "fide-standard", "2026-09", file_format, tmp_path)
        assert response.content == before
        assert response.headers["content-disposition"] == (
            f'attachment; filename="fide-standard_2026-09_revision-1.{EXTENSION[file_format]}"'
        )
        latest = corrected_client.get(
            f"/v1/lists/fide-standard/2026-09/download?format={file_format}"
        )
        assert latest.content != before


def test_download_refusals(client: TestClient) -> None:
    base = "/v1/lists"
    for path, status, words in (
        (f"{base}/fide-standard/2026-11/download?format=pdf", 422, "format"),
        (f"{base}/fide-standard/2026-11/download", 422, "format"),
        (f"{base}/ffe-rapid/2026-10/download?format=fide-xml", 422, "FIDE XML"),
        (f"{base}/fide-standard/2026-12/download?format=csv", 404, "2026-12"),
        (f"{base}/fide-standard/2026-11/download?format=csv&revision=2", 404, "revision 2"),
        (f"{base}/chess960/2026-11/download?format=csv", 422, "category"),
    ):
        response = client.get(path)
        assert response.status_code == status, (path, response.text)
        assert response.headers["content-type"] == "application/json"
        assert words in response.json()["detail"], (path, response.text)


# --- the feed -----------------------------------------------------------------------------------

ATOM = "{http://www.w3.org/2005/Atom}"


def test_atom_feed(corrected_client: TestClient) -> None:
    response = corrected_client.get("/feeds/lists.atom")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/atom+xml"
    feed = ElementTree.fromstring(response.content)
    assert feed.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated", "author"):
        assert feed.find(f"{ATOM}{required}") is not None, required
    entries = feed.findall(f"{ATOM}entry")
    # Newest first: the correction's three revisions, then the five original publications.
    assert [e.findtext(f"{ATOM}title") for e in entries] == [
        "FIDE standard 2026-11: revision 2",
        "FIDE standard 2026-10: revision 2",
        "FIDE standard 2026-09: revision 2",
        "FIDE standard 2026-11: published",
        "FIDE standard 2026-10: published",
        "FIDE standard 2026-09: published",
        "FFE rapid 2026-10: published",
        "FIDE standard 2026-08: published",
    ]
    for entry in entries:
        for required in ("id", "title", "updated"):
            assert entry.findtext(f"{ATOM}{required}"), required
        link = entry.find(f"{ATOM}link")
        assert link is not None
        assert link.get("rel") == "alternate"
    # No RATINGDB_PUBLIC_BASE_URL: links relative to the feed, ids urn: names
    # (tests/api/test_host_header.py for the feed with one).
    assert entries[0].find(f"{ATOM}link").get("href") == (  # type: ignore[union-attr]
        "/lists/fide-standard/2026-11?revision=2"
    )
    assert entries[0].findtext(f"{ATOM}id") == "urn:ratingdb:lists:fide-standard:2026-11:2"
    assert feed.findtext(f"{ATOM}id") == "urn:ratingdb:feeds:lists"
    updated = [e.findtext(f"{ATOM}updated") or "" for e in entries]
    assert updated == sorted(updated, reverse=True)
    assert feed.findtext(f"{ATOM}updated") == updated[0]


class _Gone(Exception):
    """The client hung up."""


async def _get(app: FastAPI, path: str, leave_after: int | None = None) -> list[bytes]:
    """The bodies of ``path``'s response as the app sends them (ASGI), hanging up after
    ``leave_after`` of them."""
    url, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": url, "raw_path": url.encode(), "root_path": "",
             "query_string": query.encode(), "headers": [(b"host", b"testserver")],
             "client": ("127.0.0.1", 1), "server": ("testserver", 80)}  # fmt: skip
    bodies: list[bytes] = []

    async def receive() -> dict[str, object]:
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 200
        if message["type"] == "http.response.body" and message.get("body"):
            if leave_after is not None and len(bodies) == leave_after:
                raise _Gone()
            bodies.append(message["body"])

    if leave_after is None:
        await app(scope, receive, send)
    else:  # the hang-up reaches the server (in a task group's exception group, maybe)
        with pytest.raises((_Gone, ExceptionGroup)):
            await app(scope, receive, send)
    return bodies


def test_download_is_streamed_and_stops_when_the_client_goes(
    scenario_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In chunks of CHUNK bytes as the writer writes them (the same bytes in the end), and a
    client that leaves after the first chunk stops the writer (its thread ends). An app of its
    own, on one event loop, its engines closed at the end."""
    monkeypatch.setattr(downloads, "CHUNK", 64)
    monkeypatch.setattr(downloads, "QUEUED", 1)
    path = "/v1/lists/fide-standard/2026-11/download?format=fide-xml"
    app = create_app(Settings(database_url=scenario_url, read_database_url=scenario_url))

    async def both() -> tuple[list[bytes], list[bytes]]:
        try:
            found = await _get(app, path), await _get(app, path, leave_after=1)
            deadline = time.monotonic() + 10
            while any(t.name.startswith("download ") for t in threading.enumerate()):
                assert time.monotonic() < deadline, "the writer still runs"
                await asyncio.sleep(0.05)
            return found
        finally:
            if app.state.read_async_engine is not None:
                await app.state.read_async_engine.dispose()
            app.state.read_engine.dispose()

    chunks, left = asyncio.run(both())
    expected = exported(scenario_url, "fide-standard", "2026-11", "fide-xml", tmp_path)
    assert b"".join(chunks) == expected
    assert len(chunks) >= 7  # an entry is longer than 64 bytes: at least one chunk each
    assert left == chunks[:1]
