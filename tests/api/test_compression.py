"""Responses in gzip (issue 29): ``Accept-Encoding: gzip`` gets ``Content-Encoding: gzip``, and
the body, decompressed, is the page sent to a client that does not ask for it, byte for byte;
the validators stay true (ratingdb/api/compression.py):

- the gzip body's ETag is the identity body's strong tag made weak; either tag sent back in
  If-None-Match gets 304, with the tag in the form the client holds, before and after the page
  is in the page cache;
- every compressible answer varies on Accept-Encoding (besides the pages' Accept-Language),
  the identity one and the 304 included;
- a HEAD says what its GET sends; a body under the minimum size goes as it is.

The bodies are read raw (``iter_raw``): the test client would otherwise decompress them.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.api.caches import Deflated
from ratingdb.api.compression import MINIMUM_SIZE
from ratingdb.config import Settings

GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}
#: A player page in each language, a list page, a JSON list and the stylesheet, each longer
#: than the minimum, and a download (streamed: compressed whatever its length).
PATHS = [
    "/players/1002",
    "/players/1002?lang=fr",
    "/lists/fide-standard/2026-11",
    "/v1/lists/fide-standard/2026-11",
    "/static/ratingdb.css",
    "/v1/lists/fide-standard/2026-11/download?format=csv",
]


def raw(
    client: TestClient, method: str, path: str, headers: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    with client.stream(method, path, headers=headers) as response:
        body = b"".join(response.iter_raw())
        return response.status_code, dict(response.headers), body


def vary(headers: dict[str, str]) -> list[str]:
    return [value.strip() for value in headers.get("vary", "").split(",")]


@pytest.fixture(scope="module", params=[0, None], ids=["no-cache", "cache"])
def app_client(request: pytest.FixtureRequest, scenario_url: str) -> Iterator[TestClient]:
    app = create_app(
        Settings(database_url=scenario_url, read_database_url=scenario_url),
        page_cache_bytes=request.param,
    )
    with TestClient(app) as client:
        yield client


@pytest.mark.parametrize("path", PATHS)
def test_gzip_is_the_same_page(app_client: TestClient, path: str) -> None:
    status, plain_headers, plain = raw(app_client, "GET", path, IDENTITY)
    assert status == 200
    assert "content-encoding" not in plain_headers
    if "download" not in path:
        assert len(plain) >= MINIMUM_SIZE
    assert "Accept-Encoding" in vary(plain_headers)
    for _ in range(2):  # the second from the page cache, when there is one
        status, headers, body = raw(app_client, "GET", path, GZIP)
        assert status == 200
        assert headers["content-encoding"] == "gzip"
        assert body[:2] == b"\x1f\x8b"
        if "content-length" in headers:  # a download streams: no length
            assert int(headers["content-length"]) == len(body)
        assert gzip.decompress(body) == plain
        assert len(body) < len(plain)
        assert "Accept-Encoding" in vary(headers)
        assert headers["content-type"] == plain_headers["content-type"]
        if path.startswith(("/players", "/lists")):
            assert vary(headers) == ["Accept-Language", "Accept-Encoding"]
        if "etag" in plain_headers:
            assert plain_headers["etag"].startswith('"')
            assert headers["etag"] == "W/" + plain_headers["etag"]


@pytest.mark.parametrize("path", [p for p in PATHS if "download" not in p] + ["/players/1001"])
def test_304_with_either_tag(app_client: TestClient, path: str) -> None:
    _, plain_headers, _ = raw(app_client, "GET", path, IDENTITY)
    strong = plain_headers["etag"]
    weak = "W/" + strong
    for accept, sent, answered in (
        (GZIP, weak, weak),  # a client holding the gzip body
        (GZIP, strong, strong),
        (IDENTITY, strong, strong),  # a client holding the identity body
        (IDENTITY, weak, strong),
    ):
        status, headers, body = raw(app_client, "GET", path, {**accept, "If-None-Match": sent})
        assert (status, body) == (304, b""), (accept, sent)
        assert headers["etag"] == answered, (accept, sent)
        assert "Accept-Encoding" in vary(headers)
        assert "content-encoding" not in headers
    status, _, _ = raw(app_client, "GET", path, {**GZIP, "If-None-Match": '"other"'})
    assert status == 200


def test_head_says_what_get_sends(app_client: TestClient) -> None:
    _, got, body = raw(app_client, "GET", "/players/1002", GZIP)
    status, headed, nothing = raw(app_client, "HEAD", "/players/1002", GZIP)
    assert (status, nothing) == (200, b"")
    for name in ("content-encoding", "content-length", "etag", "vary"):
        assert headed[name] == got[name], name
    assert int(headed["content-length"]) == len(body)


def test_a_small_body_goes_as_it_is(app_client: TestClient) -> None:
    """Bob's history in JSON: 752 bytes, never compressed, so it varies on nothing."""
    path = "/v1/players/1002/history?category=fide-standard"
    status, headers, body = raw(app_client, "GET", path, GZIP)
    assert status == 200
    assert len(body) < MINIMUM_SIZE
    assert "content-encoding" not in headers
    assert "Accept-Encoding" not in vary(headers)
    assert headers["etag"].startswith('"')
    assert body.startswith(b"{")


@pytest.mark.parametrize("path", ["/players/1002", "/players/1002?lang=fr"])
def test_a_kept_page_is_sent_as_kept(scenario_url: str, path: str) -> None:
    """A player page in the page cache is kept as gzip and a client that accepts gzip is sent
    those bytes as they are, not compressed again at each request (5.5 ms of CPU for a
    ten-year page: benchmarks/README.md); a client that does not gets them decompressed."""
    app = create_app(Settings(database_url=scenario_url, read_database_url=scenario_url))
    with TestClient(app) as client:
        _, plain_headers, plain = raw(client, "GET", path, IDENTITY)  # rendered and kept
        kept = Deflated(app.state.list_pages).get_gzip(plain_headers["etag"])
        assert kept is not None
        assert gzip.decompress(kept) == plain
        status, headers, body = raw(client, "GET", path, GZIP)
        assert (status, body) == (200, kept)
        assert (headers["content-encoding"], headers["etag"]) == (
            "gzip",
            "W/" + plain_headers["etag"],
        )
        assert raw(client, "GET", path, IDENTITY)[2] == plain


@pytest.mark.parametrize("path", ["/players/1002", "/players/1002?lang=fr", "/players/1001"])
def test_a_first_render_is_sent_as_kept(scenario_url: str, path: str) -> None:
    """A page's first render, to a client that accepts gzip, is the gzip member the page cache
    keeps, sent as the next request sends it: compressed once, not again on the way out. A
    client that does not accept gzip still gets the page itself."""
    app = create_app(Settings(database_url=scenario_url, read_database_url=scenario_url))
    with TestClient(app) as client:
        first = raw(client, "GET", path, GZIP)  # rendered, kept and sent
        status, headers, body = first
        kept = Deflated(app.state.list_pages).get_gzip(headers["etag"].removeprefix("W/"))
        assert kept is not None
        assert (status, body, headers["content-encoding"]) == (200, kept, "gzip")
        assert int(headers["content-length"]) == len(kept)
        assert headers["etag"].startswith('W/"')
        assert raw(client, "GET", path, GZIP) == first  # from the page cache: the same answer
        _, plain_headers, plain = raw(client, "GET", path, IDENTITY)
        assert gzip.decompress(kept) == plain
        assert "content-encoding" not in plain_headers
