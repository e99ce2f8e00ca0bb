"""The HTML list page served from the page cache (issue 15), on both databases: a page served
again is byte for byte the page an app without a cache renders, in both languages and with
every filter; each language, filter and page is a page of its own; the ETag answers 304; a
correction's new revision is rendered afresh, not served from the old page; and HTML and JSON
pages together stay within the cache's bytes.

Expectations are worked from the scenario (tests/api/scenario.py): the 2026-11 fide-standard
list has Bob (1002) at 1900, 1920 once the correction (Bob won his first game of tournament A)
has published revision 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response

from ratingdb.api import create_app
from ratingdb.api.caches import ListLookups, PageCache
from ratingdb.config import Settings
from tests.api import scenario
from tests.api.test_caches import FakeClock
from tests.api.test_list_pages import ListTables

NOVEMBER = "/lists/fide-standard/2026-11"
OCTOBER = "/lists/fide-standard/2026-10"
#: (query, Accept-Language) of the pages compared: both languages, by ``?lang=`` and by the
#: header, every filter, a page past the last, an earlier revision.
ASKED: list[tuple[dict[str, str], str | None]] = [
    ({}, None),
    ({}, "fr"),
    ({"lang": "fr"}, None),
    ({"lang": "en"}, "fr"),
    ({"federation": "fra"}, None),
    ({"federation": "FRA", "sex": "M", "lang": "fr"}, None),
    ({"sex": "F"}, "fr-FR,fr;q=0.9"),
    ({"title": "IM"}, None),
    ({"age": "juniors"}, "fr"),
    ({"age": "seniors-50"}, None),
    ({"q": "an"}, None),
    ({"q": "  an "}, None),
    ({"page": "2"}, "fr"),
    ({"revision": "1"}, None),
    ({"revision": "1", "lang": "fr", "unknown": "kept in the links"}, None),
]


def settings(url: str) -> Settings:
    return Settings(database_url=url, read_database_url=url)


def cache_of(app: FastAPI) -> PageCache:
    cache = app.state.list_pages
    assert isinstance(cache, PageCache)
    return cache


def get(client: TestClient, path: str, params: dict[str, str], language: str | None,
        etag: str | None = None) -> Response:  # fmt: skip
    headers = {} if language is None else {"Accept-Language": language}
    if etag is not None:
        headers["If-None-Match"] = etag
    return client.get(path, params=params, headers=headers)


def bob(response: Response) -> tuple[str, ...]:
    """Bob's row of the page's ranked table."""
    rows = [row for row in ListTables(response.text).tables[0] if row[-6] == "Bob, B"]
    assert len(rows) == 1, rows
    return rows[0]


def test_a_cached_page_is_the_page_rendered_without_a_cache(scenario_url: str) -> None:
    plain_app = create_app(settings(scenario_url), page_cache_bytes=0)
    app = create_app(settings(scenario_url))
    with TestClient(plain_app) as plain, TestClient(app) as client:
        etags: set[str] = set()
        for path in (OCTOBER, NOVEMBER):
            for params, language in ASKED:
                expected = get(plain, path, params, language)
                assert expected.status_code == 200, (path, params, language)
                for answer in (get(client, path, params, language),
                               get(client, path, params, language)):  # fmt: skip
                    assert answer.status_code == 200
                    assert answer.content == expected.content, (path, params, language)
                    for header in ("content-type", "content-language", "vary", "etag",
                                   "cache-control", "content-security-policy"):  # fmt: skip
                        assert answer.headers[header] == expected.headers[header], header
                etags.add(expected.headers["etag"])
        # Every language, filter, page and revision is a page of its own, kept once.
        assert len(etags) == 2 * len(ASKED)
        assert len(cache_of(app)) == 2 * len(ASKED)
        assert len(cache_of(plain_app)) == 0

        # The two languages of one address: two pages, each in its language.
        english = get(client, NOVEMBER, {}, None)
        french = get(client, NOVEMBER, {}, "fr")
        assert english.headers["content-language"] == "en"
        assert french.headers["content-language"] == "fr"
        assert "7 players" in english.text
        assert "7 joueurs" in french.text
        assert english.headers["etag"] != french.headers["etag"]
        assert english.headers["vary"] == "Accept-Language, Accept-Encoding"
        # The latest revision for five minutes, a given one for an hour (as the JSON pages).
        assert english.headers["cache-control"] == "public, max-age=300"
        revision = get(client, NOVEMBER, {"revision": "1"}, None)
        assert revision.headers["cache-control"] == "public, max-age=3600"
        # A filter's page is that filter's: Bob's rank in France is 1.
        assert bob(get(client, NOVEMBER, {"federation": "FRA"}, None))[:2] == ("3", "1")
        assert bob(english)[:2] == ("3", "Bob, B")


@pytest.mark.parametrize("cache_bytes", [0, None], ids=["no-cache", "cache"])
def test_the_etag_answers_304(scenario_url: str, cache_bytes: int | None) -> None:
    app = create_app(settings(scenario_url), page_cache_bytes=cache_bytes)
    # The identity body's tag (a gzip body's is that tag made weak: test_compression.py).
    with TestClient(app, headers={"Accept-Encoding": "identity"}) as client:
        page = get(client, NOVEMBER, {"sex": "F"}, "fr")
        etag = page.headers["etag"]
        for sent in (etag, f"W/{etag}", f'"other", {etag}', "*"):
            again = get(client, NOVEMBER, {"sex": "F"}, "fr", etag=sent)
            assert again.status_code == 304, sent
            assert again.content == b""
            assert again.headers["etag"] == etag
            assert again.headers["cache-control"] == "public, max-age=300"
            assert again.headers["vary"] == "Accept-Language, Accept-Encoding"
        # The same tag does not fit the page in the other language, or with other filters.
        assert get(client, NOVEMBER, {"sex": "F"}, "en", etag=etag).status_code == 200
        assert get(client, NOVEMBER, {"sex": "M"}, "fr", etag=etag).status_code == 200
        assert get(client, NOVEMBER, {"sex": "F"}, "fr", etag='"other"').content == page.content


def test_a_new_revision_is_rendered_afresh(database_url: str, tmp_path: Path) -> None:
    """A correction publishes revision 2 (scenario.correct). An app that kept the pages of
    revision 1 serves them as the latest for at most the lookup's second, then renders the
    pages of revision 2, byte for byte what an app without a cache renders; revision 1's page,
    which now says there are two revisions, is rendered again too."""
    scenario.build(database_url, tmp_path)
    app = create_app(settings(database_url))
    clock = FakeClock()
    app.state.list_lookups = ListLookups(ttl_seconds=1.0, clock=clock)
    with TestClient(app) as client:
        before = {language: get(client, NOVEMBER, {}, language) for language in ("en", "fr")}
        first = get(client, NOVEMBER, {"revision": "1"}, None)
        assert bob(before["en"])[2:] == ("FRA", "", "1900", "0", "0")
        assert "Revision" not in before["en"].text

        scenario.correct(database_url)
        still = get(client, NOVEMBER, {}, "en")  # within the lookup's second
        assert still.content == before["en"].content

        clock.now += 1.0
        get(client, NOVEMBER, {}, "en")  # the request that reads the lookup again
        with TestClient(create_app(settings(database_url), page_cache_bytes=0)) as plain:
            for language in ("en", "fr"):
                now = get(client, NOVEMBER, {}, language)
                assert now.content == get(plain, NOVEMBER, {}, language).content, language
                assert now.headers["etag"] != before[language].headers["etag"]
                assert bob(now)[2:] == ("FRA", "", "1920", "0", "0")
            assert "Revision 2 of 2 (corrected)." in get(client, NOVEMBER, {}, "en").text
            assert "Révision 2 sur 2 (corrigée)." in get(client, NOVEMBER, {}, "fr").text
            original = get(client, NOVEMBER, {"revision": "1"}, None)
            assert original.content == get(plain, NOVEMBER, {"revision": "1"}, None).content
        assert original.headers["etag"] != first.headers["etag"]
        assert "Revision 1 of 2: an earlier revision." in original.text
        assert bob(original)[2:] == ("FRA", "", "1900", "0", "0")  # revision 1 as it was
        stale = get(client, NOVEMBER, {"revision": "1"}, None, etag=first.headers["etag"])
        assert stale.status_code == 200


def test_html_and_json_pages_stay_within_the_cache_bytes(scenario_url: str) -> None:
    """A cache with room for two of these pages keeps the two used last, and no more bytes,
    whatever else (a JSON page) comes in."""
    asked = [({}, None), ({}, "fr"), ({"sex": "F"}, None), ({"age": "juniors"}, "fr")]
    with TestClient(create_app(settings(scenario_url), page_cache_bytes=0)) as plain:
        sizes = [len(get(plain, NOVEMBER, params, language).content) for params, language in asked]
    room = sizes[2] + sizes[3]
    assert room < sum(sizes[1:])  # the last three do not fit
    app = create_app(settings(scenario_url), page_cache_bytes=room)
    cache = cache_of(app)
    with TestClient(app) as client:
        etags = []
        for params, language in asked:
            # The cache keeps the identity body under the strong tag; the gzip answer's tag is
            # that tag made weak (ratingdb/api/compression.py).
            etags.append(get(client, NOVEMBER, params, language).headers["etag"].removeprefix("W/"))
            assert cache.size_bytes <= room
        assert (len(cache), cache.size_bytes) == (2, room)
        assert [cache.get(etag) is not None for etag in etags] == [False, False, True, True]
        # A JSON page comes in: the least recently used HTML page makes room for it.
        json_page = client.get("/v1/lists/fide-standard/2026-11")
        assert len(json_page.content) < sizes[2]
        assert cache.get(json_page.headers["etag"].removeprefix("W/")) == json_page.content
        assert cache.size_bytes <= room
        assert [cache.get(etag) is not None for etag in etags] == [False, False, False, True]
