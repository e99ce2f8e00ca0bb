"""The API's caches. Rendered list pages: bounded by bytes, least recently used out first, each
page for a limited time. List lookups: each for a second. Through the app: a page served again
is the page as rendered, a page of another revision or query is another page, a cache of 0
bytes keeps nothing, and a correction's new revision shows once the lookup's second is over."""

from __future__ import annotations

import gzip
import threading
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.api.caches import Deflated, ListLookups, PageCache
from ratingdb.config import Settings
from tests.api import scenario


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_page_is_kept_and_found() -> None:
    cache = PageCache(max_bytes=100)
    assert cache.get("a") is None
    cache.put("a", b"0123456789")
    assert cache.get("a") == b"0123456789"
    assert (len(cache), cache.size_bytes) == (1, 10)


def test_the_least_recently_used_page_goes_first() -> None:
    cache = PageCache(max_bytes=30)
    for key in "abc":
        cache.put(key, key.encode() * 10)
    assert cache.get("a") == b"a" * 10  # a is now the most recently used
    cache.put("d", b"d" * 10)  # 40 bytes > 30: b, the least recently used, goes
    assert cache.get("b") is None
    assert [cache.get(key) is not None for key in "acd"] == [True, True, True]
    assert cache.size_bytes == 30


def test_one_large_page_pushes_out_several() -> None:
    cache = PageCache(max_bytes=30)
    for key in "abc":
        cache.put(key, b"x" * 10)
    cache.put("big", b"y" * 25)
    assert [key for key in ("a", "b", "c", "big") if cache.get(key) is not None] == ["big"]
    assert cache.size_bytes == 25


def test_a_page_larger_than_the_bound_is_not_kept() -> None:
    cache = PageCache(max_bytes=30)
    cache.put("a", b"a" * 10)
    cache.put("huge", b"h" * 31)
    assert cache.get("huge") is None
    assert cache.get("a") == b"a" * 10  # nothing was pushed out for it


def test_putting_a_key_again_replaces_it() -> None:
    cache = PageCache(max_bytes=30)
    cache.put("a", b"a" * 10)
    cache.put("a", b"A" * 20)
    assert cache.get("a") == b"A" * 20
    assert (len(cache), cache.size_bytes) == (1, 20)


def test_a_page_expires_after_its_time() -> None:
    clock = FakeClock()
    cache = PageCache(max_bytes=100, ttl_seconds=300, clock=clock)
    cache.put("a", b"page")
    clock.now += 299.9
    assert cache.get("a") == b"page"
    clock.now += 0.1  # 300 s after it was rendered: render it again
    assert cache.get("a") is None
    assert (len(cache), cache.size_bytes) == (0, 0)


def test_zero_bytes_keeps_nothing() -> None:
    cache = PageCache(max_bytes=0)
    cache.put("a", b"page")
    assert cache.get("a") is None
    assert len(cache) == 0


@pytest.mark.parametrize(
    ("max_bytes", "ttl", "message"),
    [
        (-1, 300.0, "max_bytes must be 0 or more, got -1"),
        (100, 0.0, "ttl_seconds must be more than 0, got 0.0"),
        (100, -5.0, "ttl_seconds must be more than 0, got -5.0"),
    ],
)
def test_bad_bounds_are_refused(max_bytes: int, ttl: float, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PageCache(max_bytes=max_bytes, ttl_seconds=ttl)


def test_threads_sharing_the_cache_keep_its_count_right() -> None:
    cache = PageCache(max_bytes=1000)

    def work(worker: int) -> None:
        for i in range(2000):
            key = f"{(worker * 7 + i) % 150}"
            if cache.get(key) is None:
                cache.put(key, b"x" * (1 + int(key) % 20))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.size_bytes <= 1000
    held = [key for key in map(str, range(150)) if cache.get(key) is not None]
    assert cache.size_bytes == sum(1 + int(key) % 20 for key in held)


def test_a_lookup_is_kept_for_its_time() -> None:
    clock = FakeClock()
    lookups: ListLookups[str, int] = ListLookups(ttl_seconds=1.0, clock=clock)
    assert lookups.get("a") is None
    lookups.put("a", 1)
    clock.now += 0.9
    assert lookups.get("a") == 1
    clock.now += 0.1
    assert lookups.get("a") is None  # this caller reads it again...
    assert lookups.get("a") == 1  # ...while the others get the old value
    clock.now += 0.5
    lookups.put("a", 2)  # read again
    assert lookups.get("a") == 2
    clock.now += 1.0
    assert lookups.get("a") is None
    clock.now += 0.9  # the caller told to read it again never put it back
    assert lookups.get("a") == 2
    clock.now += 0.1
    assert lookups.get("a") is None  # the next one is told
    assert lookups.get("a") == 2


def test_lookups_are_bounded_the_oldest_out_first() -> None:
    lookups: ListLookups[int, int] = ListLookups(ttl_seconds=60, max_entries=3)
    for key in range(5):
        lookups.put(key, key * 10)
    assert [lookups.get(key) for key in range(5)] == [None, None, 20, 30, 40]
    lookups.put(2, 21)  # put again: the newest
    lookups.put(5, 50)
    assert [lookups.get(key) for key in range(6)] == [None, None, 21, None, 40, 50]


def test_zero_seconds_keeps_no_lookup() -> None:
    lookups: ListLookups[str, int] = ListLookups(ttl_seconds=0)
    lookups.put("a", 1)
    assert lookups.get("a") is None
    assert len(lookups) == 0


@pytest.mark.parametrize(
    ("ttl", "entries", "message"),
    [
        (-1.0, 10, "ttl_seconds must be 0 or more, got -1.0"),
        (1.0, 0, "max_entries must be at least 1, got 0"),
    ],
)
def test_bad_lookup_bounds_are_refused(ttl: float, entries: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ListLookups(ttl_seconds=ttl, max_entries=entries)


# --- through the app -------------------------------------------------------------------------


def cache_of(app: FastAPI) -> PageCache:
    cache = app.state.list_pages
    assert isinstance(cache, PageCache)
    return cache


def test_a_page_served_from_the_cache_is_the_page_rendered(scenario_url: str) -> None:
    uncached_app = create_app(
        Settings(database_url=scenario_url, read_database_url=scenario_url), page_cache_bytes=0
    )
    app = create_app(Settings(database_url=scenario_url, read_database_url=scenario_url))
    queries: list[dict[str, str | int]] = [
        {},
        {"limit": 2, "offset": 1},
        {"federation": "FRA"},
        {"q": "a"},
        {"revision": 1},
    ]
    with TestClient(uncached_app) as plain, TestClient(app) as client:
        for period in ("2026-10", "2026-11"):
            url = f"/v1/lists/fide-standard/{period}"
            for params in queries:
                expected = plain.get(url, params=params)
                first = client.get(url, params=params)
                again = client.get(url, params=params)
                for answer in (first, again):
                    assert answer.status_code == 200
                    assert answer.headers["content-type"] == "application/json"
                    assert answer.content == expected.content, (period, params)
                    assert answer.headers["etag"] == expected.headers["etag"]
                    assert answer.headers["cache-control"] == expected.headers["cache-control"]
        assert len(cache_of(uncached_app)) == 0
        # One page per query and list, except that revision 1 of a never-corrected list is the
        # latest: the same ETag, the same page.
        assert len(cache_of(app)) == 2 * (len(queries) - 1)
        etag = client.get("/v1/lists/fide-standard/2026-10").headers["etag"]
        assert client.get(
            "/v1/lists/fide-standard/2026-10", headers={"If-None-Match": etag}
        ).status_code == 304  # fmt: skip


def test_a_revised_list_is_a_page_of_its_own(corrected_url: str) -> None:
    app = create_app(Settings(database_url=corrected_url, read_database_url=corrected_url))
    with TestClient(app) as client:
        url = "/v1/lists/fide-standard/2026-10"
        latest = client.get(url).json()
        original = client.get(url, params={"revision": 1}).json()
        assert (latest["revision"], original["revision"]) == (2, 1)
        assert latest["entries"] != original["entries"]
        assert client.get(url).json() == latest
        assert client.get(url, params={"revision": 1}).json() == original
        assert len(cache_of(app)) == 2


def test_a_new_revision_shows_once_the_lookup_second_is_over(
    database_url: str, tmp_path: Path
) -> None:
    """A correction publishes revision 2 of the scenario's lists (scenario.correct). An app
    that read the lists before keeps serving revision 1 as the latest for at most the lookup
    time, then revision 2; and revision 1's page, which says how many revisions there are,
    gets another ETag and body."""
    scenario.build(database_url, tmp_path)
    app = create_app(Settings(database_url=database_url, read_database_url=database_url))
    clock = FakeClock()
    app.state.list_lookups = ListLookups(ttl_seconds=1.0, clock=clock)
    url = "/v1/lists/fide-standard/2026-10"
    with TestClient(app) as client:
        latest = client.get(url)
        first = client.get(url, params={"revision": 1})
        assert (latest.json()["revision"], latest.json()["revisions"]) == (1, 1)
        assert first.json()["revisions"] == 1

        scenario.correct(database_url)
        still = client.get(url)  # within the second: the lookup made before the correction
        assert still.json()["revision"] == 1
        assert still.headers["etag"] == latest.headers["etag"]

        clock.now += 1.0
        assert client.get(url).json()["revision"] == 2  # the request that reads it again
        now = client.get(url)
        assert (now.json()["revision"], now.json()["revisions"]) == (2, 2)
        assert now.headers["etag"] != latest.headers["etag"]
        original = client.get(url, params={"revision": 1})
        assert (original.json()["revision"], original.json()["revisions"]) == (1, 2)
        assert original.headers["etag"] != first.headers["etag"]
        assert original.json()["entries"] == first.json()["entries"]  # revision 1 as it was
        stale = client.get(
            url, params={"revision": 1}, headers={"If-None-Match": first.headers["etag"]}
        )
        assert stale.status_code == 200


def test_pages_rendered_meanwhile_do_not_keep_the_lookup_longer(
    database_url: str, tmp_path: Path
) -> None:
    """Other pages of the list rendered while its lookup is kept (each a page not in the cache
    yet) do not make the lookup last longer: a correction shows one second after the lookup
    was read, however many new pages are asked for meanwhile, in JSON and in HTML."""
    scenario.build(database_url, tmp_path)
    app = create_app(Settings(database_url=database_url, read_database_url=database_url))
    clock = FakeClock()
    app.state.list_lookups = ListLookups(ttl_seconds=1.0, clock=clock)
    url, page = "/v1/lists/fide-standard/2026-10", "/lists/fide-standard/2026-10"
    with TestClient(app) as client:
        assert client.get(url, params={"limit": 1}).json()["revision"] == 1
        assert "Revision" not in client.get(page, params={"q": "a"}).text
        scenario.correct(database_url)
        clock.now += 0.5
        assert client.get(url, params={"limit": 2}).json()["revision"] == 1  # still kept
        assert "Revision" not in client.get(page, params={"q": "b"}).text
        clock.now += 0.5
        assert client.get(url, params={"limit": 3}).json()["revision"] == 2
        assert "Revision 2 of 2 (corrected)." in client.get(page, params={"q": "c"}).text


def test_a_deflated_page_is_kept_smaller_and_found_as_it_was() -> None:
    body = b'{"period":"2026-11","rating":1866,"change":4},' * 200  # 9.2 kB, repetitive
    pages = PageCache(max_bytes=len(body) // 2)  # room for the deflated page only
    deflated = Deflated(pages)
    assert deflated.get("a") is None
    deflated.put("a", body)
    assert deflated.get("a") == body
    assert len(pages) == 1
    # Kept as one gzip member, the bytes a client that accepts gzip is sent as they are.
    packed = deflated.get_gzip("a")
    assert packed is not None
    assert gzip.decompress(packed) == body
    assert pages.size_bytes == len(packed) < len(body) // 10
    pages.put("plain", b"x" * 10)  # plain pages share the bound
    assert pages.size_bytes == len(packed) + 10
