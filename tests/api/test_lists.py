"""``/v1/lists`` and ``/v1/lists/{category}/{period}``: content against the hand-worked
scenario, pagination, filters, ETag and 304, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.scenario import NOVEMBER, OCTOBER, SEPTEMBER


def rows(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (e["player_id"], e["rating"], e["previous_rating"], e["change"], e["games"], e["k_factor"])
        for e in body["entries"]
    ]


def test_published_lists_newest_first(client: TestClient) -> None:
    response = client.get("/v1/lists")
    assert response.status_code == 200
    lists = response.json()["lists"]
    assert [(x["category"], x["period"]) for x in lists] == [
        ("fide-standard", "2026-11"),
        ("fide-standard", "2026-10"),
        ("ffe-rapid", "2026-10"),
        ("fide-standard", "2026-09"),
        ("fide-standard", "2026-08"),
    ]
    november = lists[0]
    assert november["list_date"] == "2026-11-01"
    assert november["entries"] == 7
    assert november["rule_version"] == "fide-standard-2025-10"
    assert november["source"] == "close"
    assert (november["revision"], november["revisions"], november["correction_id"]) == (1, 1, None)
    assert november["published_at"].endswith("Z")
    imported = lists[-1]
    assert (imported["entries"], imported["rule_version"], imported["source"]) == (
        7 - 1, None, "import",
    )  # fmt: skip


def test_lists_of_one_category(client: TestClient) -> None:
    lists = client.get("/v1/lists", params={"category": "ffe-rapid"}).json()["lists"]
    assert [(x["category"], x["period"], x["entries"]) for x in lists] == [
        ("ffe-rapid", "2026-10", 2)
    ]
    assert client.get("/v1/lists", params={"category": "fide-blitz"}).json() == {"lists": []}


@pytest.mark.parametrize(
    ("period", "expected"), [("2026-09", SEPTEMBER), ("2026-10", OCTOBER), ("2026-11", NOVEMBER)]
)
def test_a_list_as_published(client: TestClient, period: str, expected: list[Any]) -> None:
    response = client.get(f"/v1/lists/fide-standard/{period}")
    assert response.status_code == 200
    body = response.json()
    assert rows(body) == expected
    assert body["total"] == len(expected)
    assert (body["category"], body["period"], body["list_date"]) == (
        "fide-standard", period, f"{period}-01",
    )  # fmt: skip
    assert (body["limit"], body["offset"], body["revision"]) == (100, 0, 1)
    assert (body["revisions"], body["correction_id"]) == (1, None)
    assert body["rule_version"] == "fide-standard-2025-10"
    first = body["entries"][0]
    assert first == {
        "player_id": "1006", "name": "Max, M", "federation": "NOR", "rating": expected[0][1],
        "previous_rating": expected[0][2], "change": expected[0][3], "games": expected[0][4],
        "k_factor": 10, "active": True, "original_rating": expected[0][1],
    }  # fmt: skip
    # Never corrected: every original rating is the rating.
    assert all(e["original_rating"] == e["rating"] for e in body["entries"])


def test_pagination(client: TestClient) -> None:
    pages = [
        client.get("/v1/lists/fide-standard/2026-11", params={"limit": 3, "offset": offset}).json()
        for offset in (0, 3, 6, 9)
    ]
    assert [len(page["entries"]) for page in pages] == [3, 3, 1, 0]
    assert all(page["total"] == 7 for page in pages)
    assert [row for page in pages for row in rows(page)] == NOVEMBER
    assert pages[1]["limit"] == 3
    assert pages[1]["offset"] == 3


def test_filters(client: TestClient) -> None:
    def ids(**params: Any) -> tuple[int, list[str]]:
        body = client.get("/v1/lists/fide-standard/2026-11", params=params).json()
        return body["total"], [e["player_id"] for e in body["entries"]]

    assert ids(federation="FRA") == (5, ["1002", "1001", "1007", "1003", "1005"])
    assert ids(federation="ger") == (1, ["1004"])
    assert ids(federation="USA") == (0, [])
    assert ids(q="nina") == (1, ["1007"])
    assert ids(q="  N nIna ") == (1, ["1007"])  # every word, any case
    # A word of the query starts a word of the name: only "Anna, A" has one starting "a"
    # (Max, Dan and Nina hold an "a" inside a word).
    assert ids(q="a") == (1, ["1001"])
    assert ids(q="ni") == (1, ["1007"])
    assert ids(q="100") == (7, [row[0] for row in NOVEMBER])  # the start of an id
    assert ids(q="1005") == (1, ["1005"])
    assert ids(q="%") == (0, [])  # LIKE wildcards are plain characters
    assert ids(q="a", federation="FRA", limit=1) == (1, ["1001"])
    assert ids(q="") == (7, [row[0] for row in NOVEMBER])


def test_etag_and_304(client: TestClient) -> None:
    url = "/v1/lists/fide-standard/2026-10"
    # The identity body's tag: a gzip body's is the same tag made weak (test_compression.py).
    identity = {"Accept-Encoding": "identity"}
    first = client.get(url, headers=identity)
    etag = first.headers["etag"]
    assert etag.startswith('"')
    assert etag.endswith('"')
    # The latest revision: a correction may publish another, so it is kept for less time.
    assert first.headers["cache-control"] == "public, max-age=300"
    assert client.get(url, headers=identity).headers["etag"] == etag  # a list never changes
    # The same revision asked for by number: the same content and ETag, kept longer.
    numbered = client.get(url, params={"revision": 1}, headers=identity)
    assert numbered.headers["etag"] == etag
    assert numbered.headers["cache-control"] == "public, max-age=3600"

    cached = client.get(url, headers={"If-None-Match": etag})
    assert cached.status_code == 304
    assert cached.content == b""
    assert cached.headers["etag"] == etag
    assert cached.headers["cache-control"] == "public, max-age=300"
    for header in (f"W/{etag}", f'"other", {etag}', "*"):
        assert client.get(url, headers={"If-None-Match": header}).status_code == 304
    assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200

    # The ETag names the query too: another page, filter or list has another one.
    others = {
        client.get(url, params={"limit": 2}).headers["etag"],
        client.get(url, params={"offset": 1}).headers["etag"],
        client.get(url, params={"federation": "FRA"}).headers["etag"],
        client.get(url, params={"q": "nina"}).headers["etag"],
        client.get("/v1/lists/fide-standard/2026-11").headers["etag"],
    }
    assert len(others) == 5
    assert etag not in others
    assert (
        client.get(url, params={"federation": "fra"}).headers["etag"]
        == client.get(url, params={"federation": "FRA"}).headers["etag"]
    )


def test_unknown_list_is_404(client: TestClient) -> None:
    for path, detail in [
        ("/v1/lists/fide-standard/2026-12", "fide-standard has no published list for 2026-12"),
        ("/v1/lists/fide-blitz/2026-10", "fide-blitz has no published list for 2026-10"),
    ]:
        response = client.get(path)
        assert response.status_code == 404
        assert response.json() == {"detail": detail}


@pytest.mark.parametrize(
    ("path", "parameter"),
    [
        ("/v1/lists/fide-standard/2026-13", "path parameter period"),
        ("/v1/lists/fide-standard/26-11", "path parameter period"),
        ("/v1/lists/standard/2026-11", "path parameter category"),
        ("/v1/lists/fide-standard/2026-11?limit=0", "query parameter limit"),
        ("/v1/lists/fide-standard/2026-11?limit=1001", "query parameter limit"),
        ("/v1/lists/fide-standard/2026-11?limit=ten", "query parameter limit"),
        ("/v1/lists/fide-standard/2026-11?offset=-1", "query parameter offset"),
        ("/v1/lists/fide-standard/2026-11?federation=FR", "query parameter federation"),
        ("/v1/lists/fide-standard/2026-11?q=" + "x" * 101, "query parameter q"),
        ("/v1/lists/fide-standard/2026-11?q=a%00b", "query parameter q"),
        ("/v1/lists?category=rapid", "query parameter category"),
    ],
)
def test_bad_parameters_are_422(client: TestClient, path: str, parameter: str) -> None:
    response = client.get(path)
    assert response.status_code == 422
    body = response.json()
    assert list(body) == ["detail"]
    assert body["detail"].startswith(parameter + ": ")
