"""The player history kept by ETag (issue 16, the read side), on both databases: a history
served again is byte for byte the one an app without a cache renders; its ETag answers 304; a
new list or a correction's revision of the category shows once the generations' second is over
(never an old history after it); another category's publication leaves it cached.

Expectations are worked from the scenario (tests/api/scenario.py): fide-standard lists of
2026-08 (imported), 2026-09, 2026-10 and 2026-11; Bob (1002) 1920, 1914, 1900, 1900, and after
the correction (Bob won his first game of tournament A) 1920, 1934, 1920, 1920; Anna (1001)
1850, 1862, 1862, 1866 in fide-standard and 1700 on the one ffe-rapid list (2026-10).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response

from ratingdb.api import create_app
from ratingdb.api.caches import ListLookups, PageCache
from ratingdb.cli import main
from ratingdb.config import Settings
from ratingdb.db import make_read_only_engine
from tests.api import scenario
from tests.api.test_caches import FakeClock
from tests.support.files import LIST_HEADER

ASKED: list[tuple[str, dict[str, str]]] = [
    (f"/v1/players/{player}/history", params)
    for player in ("1001", "1002", "1005", "1006", "1007", "1008")
    for params in (
        {"category": "fide-standard"},
        {"category": "fide-standard", "revision": "1"},
        {"category": "ffe-rapid"},
        {"category": "fide-rapid"},
    )
]


def settings(url: str) -> Settings:
    return Settings(database_url=url, read_database_url=url)


def cache_of(app: FastAPI) -> PageCache:
    cache = app.state.list_pages
    assert isinstance(cache, PageCache)
    return cache


def history(
    client: TestClient, player: str, category: str = "fide-standard", etag: str | None = None
) -> Response:
    headers = {} if etag is None else {"If-None-Match": etag}
    return client.get(
        f"/v1/players/{player}/history", params={"category": category}, headers=headers
    )


def ratings(response: Response) -> list[tuple[str, int, int]]:
    assert response.status_code == 200, response.text
    return [(p["period"], p["revision"], p["rating"]) for p in response.json()["points"]]


BOB = [("2026-08", 1, 1920), ("2026-09", 1, 1914), ("2026-10", 1, 1900), ("2026-11", 1, 1900)]
BOB_CORRECTED = [
    ("2026-08", 1, 1920), ("2026-09", 2, 1934), ("2026-10", 2, 1920), ("2026-11", 2, 1920),
]  # fmt: skip


def test_a_cached_history_is_the_history_rendered_without_a_cache(scenario_url: str) -> None:
    plain_app = create_app(settings(scenario_url), page_cache_bytes=0)
    app = create_app(settings(scenario_url))
    with TestClient(plain_app) as plain, TestClient(app) as client:
        etags: set[str] = set()
        for path, params in ASKED:
            expected = plain.get(path, params=params)
            assert expected.status_code == 200, (path, params)
            for answer in (client.get(path, params=params), client.get(path, params=params)):
                assert answer.status_code == 200
                assert answer.content == expected.content, (path, params)
                for header in ("content-type", "etag", "cache-control"):
                    assert answer.headers[header] == expected.headers[header], header
            etags.add(expected.headers["etag"])
        assert len(etags) == len(ASKED)  # each player, category and revision a page of its own
        assert len(cache_of(app)) == len(ASKED)
        assert len(cache_of(plain_app)) == 0
        assert ratings(history(client, "1002")) == BOB
        anna = [("2026-08", 1850), ("2026-09", 1862), ("2026-10", 1862), ("2026-11", 1866)]
        assert [(p, r) for p, _, r in ratings(history(client, "1001"))] == anna
        assert ratings(history(client, "1001", "ffe-rapid")) == [("2026-10", 1, 1700)]
        assert ratings(history(client, "1008")) == []  # Olga: pooled, on no list
        assert history(client, "1002").headers["cache-control"] == "no-cache"

        # Unknown players and revisions: 404 as before, nothing kept.
        for path, params in [
            ("/v1/players/9999/history", {"category": "fide-standard"}),
            ("/v1/players/1002/history", {"category": "fide-standard", "revision": "2"}),
            ("/v1/players/9999/history", {"category": "fide-standard", "revision": "1"}),
        ]:
            for answering in (plain, client, client):
                missing = answering.get(path, params=params)
                assert missing.status_code == 404, (path, params)
                assert missing.json() == plain.get(path, params=params).json()
                assert "etag" not in missing.headers
        assert len(cache_of(app)) == len(ASKED)


@pytest.mark.parametrize("cache_bytes", [0, None], ids=["no-cache", "cache"])
def test_the_etag_answers_304(scenario_url: str, cache_bytes: int | None) -> None:
    app = create_app(settings(scenario_url), page_cache_bytes=cache_bytes)
    # The identity body's tag (a gzip body's is that tag made weak: test_compression.py).
    with TestClient(app, headers={"Accept-Encoding": "identity"}) as client:
        first = history(client, "1002")
        etag = first.headers["etag"]
        for sent in (etag, f"W/{etag}", f'"other", {etag}', "*"):
            again = history(client, "1002", etag=sent)
            assert again.status_code == 304, sent
            assert again.content == b""
            assert again.headers["etag"] == etag
            assert again.headers["cache-control"] == "no-cache"
        # The tag is the player's, the category's and the revision's.
        assert history(client, "1001", etag=etag).status_code == 200
        assert history(client, "1002", "ffe-rapid", etag=etag).status_code == 200
        earlier = client.get(
            "/v1/players/1002/history",
            params={"category": "fide-standard", "revision": "1"},
            headers={"If-None-Match": etag},
        )
        assert earlier.status_code == 200
        assert history(client, "1002", etag='"other"').content == first.content
        # A player who does not exist has no history to hold: 404, whatever the client sends.
        for page in ("/v1/players/9999/history?category=fide-standard", "/players/9999"):
            assert client.get(page, headers={"If-None-Match": "*"}).status_code == 404
        # The player page likewise answers its own ETag with 304, with or without the cache.
        player_page = client.get("/players/1002")
        for sent in (player_page.headers["etag"], "*"):
            again = client.get("/players/1002", headers={"If-None-Match": sent})
            assert again.status_code == 304
            assert again.headers["etag"] == player_page.headers["etag"]


def app_with_clock(url: str) -> tuple[FastAPI, FakeClock]:
    app = create_app(settings(url))
    clock = FakeClock()
    app.state.generations = ListLookups(ttl_seconds=1.0, clock=clock)
    return app, clock


def test_a_correction_shows_once_the_second_is_over(database_url: str, tmp_path: Path) -> None:
    """A correction publishes revision 2 of the three closed lists (scenario.correct): the
    history kept from before is served for at most the generations' second, then the
    corrected one, byte for byte what an app without a cache renders, under a new ETag."""
    scenario.build(database_url, tmp_path)
    app, clock = app_with_clock(database_url)
    with TestClient(app) as client:
        before = history(client, "1002")
        assert ratings(before) == BOB
        scenario.correct(database_url)
        still = history(client, "1002")  # within the second: the history kept
        assert still.content == before.content
        assert history(client, "1002", etag=before.headers["etag"]).status_code == 304

        clock.now += 1.0
        with TestClient(create_app(settings(database_url), page_cache_bytes=0)) as plain:
            for path, params in ASKED:
                now = client.get(path, params=params)
                assert now.content == plain.get(path, params=params).content, (path, params)
            after = history(client, "1002")
            assert ratings(after) == BOB_CORRECTED
            assert after.headers["etag"] != before.headers["etag"]
            stale = history(client, "1002", etag=before.headers["etag"])
            assert stale.status_code == 200
            assert stale.content == after.content
            # Revision 1 of every list: the same ratings as before, under a new ETag.
            original = client.get(
                "/v1/players/1002/history", params={"category": "fide-standard", "revision": "1"}
            )
            assert ratings(original) == BOB
            revision_2 = client.get(
                "/v1/players/1002/history", params={"category": "fide-standard", "revision": "2"}
            )
            assert ratings(revision_2) == BOB_CORRECTED  # a 404 before the correction


def test_a_new_list_shows_and_another_category_keeps_its_histories(
    database_url: str, tmp_path: Path
) -> None:
    """The close of fide-standard 2026-12 (no games: everyone carried forward) adds a point
    once the second is over; a new ffe-rapid list (2026-11) changes the ffe-rapid history and
    leaves the fide-standard one where it was kept."""
    scenario.build(database_url, tmp_path)
    app, clock = app_with_clock(database_url)
    pages = cache_of(app)
    with TestClient(app) as client:
        standard = history(client, "1001")
        rapid = history(client, "1001", "ffe-rapid")
        assert ratings(rapid) == [("2026-10", 1, 1700)]

        ffe = tmp_path / "ffe-2026-11.csv"
        ffe.write_text(LIST_HEADER + '1001,"Anna, A",FRA,F,1990,,1712,52,1712,20\n')
        assert main(["lists", "import", str(ffe), "--category", "ffe-rapid", "--period",
                     "2026-11", "--database-url", database_url]) == 0  # fmt: skip
        assert history(client, "1001", "ffe-rapid").content == rapid.content  # the second
        clock.now += 1.0
        kept = len(pages)
        again = history(client, "1001")
        assert again.content == standard.content
        assert again.headers["etag"] == standard.headers["etag"]  # the same page, not a new one
        assert len(pages) == kept
        assert history(client, "1001", etag=standard.headers["etag"]).status_code == 304
        new_rapid = history(client, "1001", "ffe-rapid")
        assert new_rapid.headers["etag"] != rapid.headers["etag"]
        assert ratings(new_rapid) == [("2026-10", 1, 1700), ("2026-11", 1, 1712)]

        assert main(["periods", "close", "--category", "fide-standard", "--period", "2026-12",
                     "--database-url", database_url]) == 0  # fmt: skip
        assert history(client, "1001").content == standard.content  # within the second
        clock.now += 1.0
        closed = history(client, "1001")
        assert closed.headers["etag"] != standard.headers["etag"]
        assert [(p, r) for p, _, r in ratings(closed)][-2:] == [("2026-11", 1866),
                                                                ("2026-12", 1866)]  # fmt: skip
        assert history(client, "1001", "ffe-rapid").content == new_rapid.content
        with TestClient(create_app(settings(database_url), page_cache_bytes=0)) as plain:
            assert closed.content == history(plain, "1001").content


def test_a_kept_history_is_answered_without_the_database(scenario_url: str, tmp_path: Path) -> None:
    """Within the generations' second a history already rendered (and the player page) is
    answered from memory: with the database gone, they still are; a history not kept is
    read, and fails (503)."""
    app, _ = app_with_clock(scenario_url)
    with TestClient(app) as client:
        first = history(client, "1002")
        page = client.get("/players/1002")
        engines = app.state.read_engine, app.state.read_async_engine
        gone = make_read_only_engine(f"sqlite:///{tmp_path / 'missing' / 'ratingdb.sqlite3'}")
        app.state.read_engine, app.state.read_async_engine = gone, None
        try:
            again = history(client, "1002")
            assert again.status_code == 200
            assert again.content == first.content
            assert client.get("/players/1002").content == page.content
            assert history(client, "1002", etag=first.headers["etag"]).status_code == 304
            assert history(client, "1001").status_code == 503
        finally:
            app.state.read_engine, app.state.read_async_engine = engines
            gone.dispose()
