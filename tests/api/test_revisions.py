"""Revisions in the API: ``?revision=N`` on lists, histories and calculations, the original
rating beside every rating, ``/v1/lists/{category}/{period}/diff``, ETags per revision, 404 for
a revision that does not exist and 422 for one below 1. On the corrected scenario
(tests/api/scenario.py: Anna - Bob of tournament A was 0-1, corrected after the three closes
with ``ratingdb games correct``), on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.scenario import (
    CORRECTION_REASON,
    NOVEMBER,
    NOVEMBER_REVISED,
    OCTOBER,
    OCTOBER_REVISED,
    SEPTEMBER,
    SEPTEMBER_REVISED,
    TOURNAMENTS,
)

LISTS: dict[str, tuple[Any, Any]] = {
    "2026-09": (SEPTEMBER, SEPTEMBER_REVISED), "2026-10": (OCTOBER, OCTOBER_REVISED),
    "2026-11": (NOVEMBER, NOVEMBER_REVISED),
}  # fmt: skip


def get(client: TestClient, path: str, **params: Any) -> Any:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def rows(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (e["player_id"], e["rating"], e["previous_rating"], e["change"], e["games"], e["k_factor"])
        for e in body["entries"]
    ]


def originals(body: dict[str, Any]) -> dict[str, int | None]:
    return {e["player_id"]: e["original_rating"] for e in body["entries"]}


def assert_refused(client: TestClient, path: str, status: int, detail: str, **params: Any) -> None:
    response = client.get(path, params=params)
    assert response.status_code == status, response.text
    body = response.json()
    assert list(body) == ["detail"]
    assert body["detail"].startswith(detail), body["detail"]


# --- /v1/lists ---------------------------------------------------------------------------------


def test_lists_show_the_latest_revision_and_how_many(corrected_client: TestClient) -> None:
    lists = get(corrected_client, "/v1/lists")["lists"]
    assert [
        (x["category"], x["period"], x["revision"], x["revisions"], x["correction_id"])
        for x in lists
    ] == [
        ("fide-standard", "2026-11", 2, 2, 1),
        ("fide-standard", "2026-10", 2, 2, 1),
        ("ffe-rapid", "2026-10", 1, 1, None),
        ("fide-standard", "2026-09", 2, 2, 1),
        ("fide-standard", "2026-08", 1, 1, None),  # imported: never recomputed
    ]
    assert [x["entries"] for x in lists] == [7, 7, 2, 6, 6]
    # /v1/categories still names the latest list of each category.
    categories = get(corrected_client, "/v1/categories")["categories"]
    assert {c["category"]: c["latest_period"] for c in categories}["fide-standard"] == "2026-11"


# --- /v1/lists/{category}/{period}?revision= ---------------------------------------------------


@pytest.mark.parametrize("period", sorted(LISTS))
def test_a_list_latest_and_original(corrected_client: TestClient, period: str) -> None:
    original, revised = LISTS[period]
    url = f"/v1/lists/fide-standard/{period}"
    latest = get(corrected_client, url)
    assert rows(latest) == revised
    assert (latest["revision"], latest["revisions"], latest["correction_id"]) == (2, 2, 1)
    # Beside each revised rating, the original one, given even when it is the same.
    assert originals(latest) == {player: rating for player, rating, *_ in original}
    assert get(corrected_client, url, revision=2) == latest

    first = get(corrected_client, url, revision=1)
    assert rows(first) == original
    assert (first["revision"], first["revisions"], first["correction_id"]) == (1, 2, None)
    assert originals(first) == {player: rating for player, rating, *_ in original}
    assert first["total"] == latest["total"] == len(original)
    assert first["published_at"] < latest["published_at"]


def test_revised_entries_name_their_original_rating(corrected_client: TestClient) -> None:
    body = get(corrected_client, "/v1/lists/fide-standard/2026-11", q="anna")
    assert body["entries"] == [
        {"player_id": "1001", "name": "Anna, A", "federation": "FRA", "rating": 1846,
         "previous_rating": 1842, "change": 4, "games": 2, "k_factor": 20, "active": True,
         "original_rating": 1866},
    ]  # fmt: skip
    # Filters and pages apply to the revision asked for.
    page = get(corrected_client, "/v1/lists/fide-standard/2026-11", federation="FRA", limit=2,
               offset=1, revision=1)  # fmt: skip
    assert (page["total"], [e["player_id"] for e in page["entries"]]) == (5, ["1001", "1007"])
    assert [e["original_rating"] for e in page["entries"]] == [1866, 1852]


def test_the_etag_changes_with_the_revision(corrected_client: TestClient) -> None:
    url = "/v1/lists/fide-standard/2026-10"
    latest = corrected_client.get(url)
    first = corrected_client.get(url, params={"revision": 1})
    second = corrected_client.get(url, params={"revision": 2})
    assert latest.headers["etag"] != first.headers["etag"]
    assert latest.headers["etag"] == second.headers["etag"]  # the same revision, the same body
    assert latest.headers["cache-control"] == "public, max-age=300"
    assert first.headers["cache-control"] == "public, max-age=3600"
    # A client holding the original's ETag gets the revised list, not 304.
    stale = corrected_client.get(url, headers={"If-None-Match": first.headers["etag"]})
    assert stale.status_code == 200
    assert rows(stale.json()) == OCTOBER_REVISED
    fresh = corrected_client.get(url, headers={"If-None-Match": latest.headers["etag"]})
    assert fresh.status_code == 304
    kept = corrected_client.get(
        url, params={"revision": 1}, headers={"If-None-Match": first.headers["etag"]}
    )
    assert kept.status_code == 304


def test_a_revision_that_does_not_exist_is_404(corrected_client: TestClient) -> None:
    assert_refused(
        corrected_client, "/v1/lists/fide-standard/2026-10", 404,
        "the fide-standard list of 2026-10 has no revision 3 (revisions: 1, 2)", revision=3,
    )  # fmt: skip
    assert_refused(
        corrected_client, "/v1/lists/fide-standard/2026-08", 404,
        "the fide-standard list of 2026-08 has no revision 2 (revisions: 1)", revision=2,
    )  # fmt: skip
    assert_refused(
        corrected_client, "/v1/lists/fide-standard/2026-12", 404,
        "fide-standard has no published list for 2026-12", revision=1,
    )  # fmt: skip


@pytest.mark.parametrize("revision", ["0", "-1", "two", "1.5", "2147483648"])
def test_a_revision_below_1_or_not_a_number_is_422(
    corrected_client: TestClient, revision: str
) -> None:
    for path in (
        "/v1/lists/fide-standard/2026-10",
        "/v1/players/1001/calculations/fide-standard/2026-10",
    ):
        assert_refused(corrected_client, path, 422, "query parameter revision: ",
                       revision=revision)  # fmt: skip
    assert_refused(corrected_client, "/v1/players/1001/history", 422,
                   "query parameter revision: ", category="fide-standard",
                   revision=revision)  # fmt: skip


# --- players: history, latest ratings, calculations ---------------------------------------------


def points(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(p["period"], p["revision"], p["rating"], p["original_rating"], p["change"])
            for p in body["points"]]  # fmt: skip


def test_history_latest_revisions_with_original_ratings(corrected_client: TestClient) -> None:
    url = "/v1/players/1001/history"
    body = get(corrected_client, url, category="fide-standard")
    assert body["revision"] is None
    assert points(body) == [
        ("2026-08", 1, 1850, 1850, None),
        ("2026-09", 2, 1842, 1862, -8),
        ("2026-10", 2, 1842, 1862, 0),
        ("2026-11", 2, 1846, 1866, 4),
    ]
    assert (
        get(corrected_client, url, category="fide-standard", revision=2)["points"]
        == (body["points"])
    )
    # Jo moved on the November list only; the earlier points are unchanged revisions.
    jo = get(corrected_client, "/v1/players/1005/history", category="fide-standard")
    assert points(jo) == [
        ("2026-08", 1, 1650, 1650, None),
        ("2026-09", 2, 1683, 1683, 33),
        ("2026-10", 2, 1683, 1683, 0),
        ("2026-11", 2, 1722, 1723, 39),
    ]


@pytest.mark.parametrize("player", ["1001", "1002", "1003", "1005", "1006", "1007"])
def test_history_of_revision_1_is_the_original_lists(
    corrected_client: TestClient, player: str
) -> None:
    """revision=1 gives the player's entries on the original lists; the default, on the
    revised ones, each with the original rating beside it."""

    def on(lists: list[list[tuple[Any, ...]]]) -> list[tuple[Any, ...]]:
        return [row[1:] for rows_ in lists for row in rows_ if row[0] == player]

    def closed(body: dict[str, Any]) -> list[dict[str, Any]]:
        return [p for p in body["points"] if p["period"] != "2026-08"]  # the imported list

    def numbers(body: dict[str, Any]) -> list[tuple[Any, ...]]:
        return [(p["rating"], p["previous_rating"], p["change"], p["games"], p["k_factor"])
                for p in closed(body)]  # fmt: skip

    url = f"/v1/players/{player}/history"
    first = get(corrected_client, url, category="fide-standard", revision=1)
    assert first["revision"] == 1
    assert numbers(first) == on([SEPTEMBER, OCTOBER, NOVEMBER])
    assert all(p["revision"] == 1 for p in first["points"])
    assert all(p["original_rating"] == p["rating"] for p in first["points"])

    latest = get(corrected_client, url, category="fide-standard")
    assert numbers(latest) == on([SEPTEMBER_REVISED, OCTOBER_REVISED, NOVEMBER_REVISED])
    assert [p["original_rating"] for p in closed(latest)] == [p["rating"] for p in closed(first)]
    assert all(p["revision"] == 2 for p in closed(latest))


def test_history_revision_that_no_list_has_is_404(corrected_client: TestClient) -> None:
    assert_refused(corrected_client, "/v1/players/1001/history", 404,
                   "no fide-standard list has a revision 3 (the highest is 2)",
                   category="fide-standard", revision=3)  # fmt: skip
    assert_refused(corrected_client, "/v1/players/1001/history", 404,
                   "no ffe-rapid list has a revision 2 (the highest is 1)",
                   category="ffe-rapid", revision=2)  # fmt: skip
    assert_refused(corrected_client, "/v1/players/1001/history", 404,
                   "no fide-blitz list has a revision 1", category="fide-blitz",
                   revision=1)  # fmt: skip
    assert_refused(corrected_client, "/v1/players/9999/history", 404, "no player 9999",
                   category="fide-standard", revision=1)  # fmt: skip


def test_latest_ratings_name_revision_and_original(corrected_client: TestClient) -> None:
    ratings = get(corrected_client, "/v1/players/1001")["ratings"]
    assert [(r["category"], r["period"], r["revision"], r["rating"], r["original_rating"])
            for r in ratings] == [
        ("fide-standard", "2026-11", 2, 1846, 1866),
        ("ffe-rapid", "2026-10", 1, 1700, 1700),
    ]  # fmt: skip


def test_calculation_of_each_revision(corrected_client: TestClient) -> None:
    """Anna, 2026-09: the corrected game is a loss (.40 expected: -.40 x 20 = -8); revision 1
    keeps the win as published (+.60 x 20 = +12)."""
    url = "/v1/players/1001/calculations/fide-standard/2026-09"
    latest = get(corrected_client, url)
    assert get(corrected_client, url, revision=2) == latest
    first = get(corrected_client, url, revision=1)
    summary = ("revision", "rating", "original_rating", "previous_rating", "change", "sum_delta",
               "k_factor")  # fmt: skip
    assert [latest[key] for key in summary] == [2, 1842, 1862, 1850, -8, "-0.40", 20]
    assert [first[key] for key in summary] == [1, 1862, 1862, 1850, 12, "0.60", 20]
    ((game_after,), (game_before,)) = latest["games"], first["games"]
    assert game_after["tournament"]["tournament_id"] == TOURNAMENTS["A"]
    assert (game_after["score"], game_after["expected"], game_after["delta"]) == (
        "0", "0.40", "-0.40",
    )  # fmt: skip
    assert (game_before["score"], game_before["expected"], game_before["delta"]) == (
        "1", "0.40", "0.60",
    )  # fmt: skip


def test_calculation_of_a_pooled_player_has_no_original_rating(
    corrected_client: TestClient,
) -> None:
    """Olga is pooled (one game) on both revisions of November: no rating, no original."""
    for revision in (1, 2):
        body = get(corrected_client, "/v1/players/1008/calculations/fide-standard/2026-11",
                   revision=revision)  # fmt: skip
        assert (body["revision"], body["rating"], body["original_rating"]) == (
            revision, None, None,
        )  # fmt: skip
        assert len(body["games"]) == 1


def test_calculation_revision_that_does_not_exist_is_404(corrected_client: TestClient) -> None:
    assert_refused(corrected_client, "/v1/players/1001/calculations/fide-standard/2026-09", 404,
                   "the fide-standard list of 2026-09 has no revision 5 (revisions: 1, 2)",
                   revision=5)  # fmt: skip
    assert_refused(corrected_client, "/v1/players/1008/calculations/fide-standard/2026-09", 404,
                   "player 1008 is not on revision 1 of the fide-standard list of 2026-09",
                   revision=1)  # fmt: skip


# --- /v1/lists/{category}/{period}/diff ----------------------------------------------------------


def test_diff_who_changed_by_how_much_and_why(corrected_client: TestClient) -> None:
    url = "/v1/lists/fide-standard/2026-09/diff"
    body = get(corrected_client, url, **{"from": 1, "to": 2})
    assert get(corrected_client, url) == body  # default: the original against the latest
    (correction,) = body["corrections"]
    assert correction["created_at"].endswith("Z")
    # Made by mallory-officer: the public API names the role, never the account.
    assert {k: v for k, v in correction.items() if k != "created_at"} == {
        "correction_id": 1, "kind": "game", "reason": CORRECTION_REASON,
        "actor": "rating officer", "tournament_id": TOURNAMENTS["A"], "withdrawn": False,
    }  # fmt: skip
    assert body["changes"] == [
        {"player_id": "1001", "name": "Anna, A",
         "from": {"rating": 1862, "previous_rating": 1850, "change": 12, "games": 1,
                  "k_factor": 20},
         "to": {"rating": 1842, "previous_rating": 1850, "change": -8, "games": 1,
                "k_factor": 20},
         "rating_difference": -20},
        {"player_id": "1002", "name": "Bob, B",
         "from": {"rating": 1914, "previous_rating": 1920, "change": -6, "games": 2,
                  "k_factor": 20},
         "to": {"rating": 1934, "previous_rating": 1920, "change": 14, "games": 2,
                "k_factor": 20},
         "rating_difference": 20},
    ]  # fmt: skip
    assert (body["category"], body["period"], body["from_revision"], body["to_revision"],
            body["players_changed"]) == ("fide-standard", "2026-09", 1, 2, 2)  # fmt: skip


def test_diff_of_the_later_lists(corrected_client: TestClient) -> None:
    def moved(period: str) -> list[tuple[str, int, int, int]]:
        body = get(corrected_client, f"/v1/lists/fide-standard/{period}/diff", to=2)
        return [(c["player_id"], c["from"]["rating"], c["to"]["rating"], c["rating_difference"])
                for c in body["changes"]]  # fmt: skip

    assert moved("2026-10") == [("1001", 1862, 1842, -20), ("1002", 1900, 1920, 20)]
    assert moved("2026-11") == [
        ("1001", 1866, 1846, -20), ("1002", 1900, 1920, 20), ("1005", 1723, 1722, -1),
    ]  # fmt: skip


def test_diff_backwards_and_of_one_revision(corrected_client: TestClient) -> None:
    url = "/v1/lists/fide-standard/2026-11/diff"
    backwards = get(corrected_client, url, **{"from": 2, "to": 1})
    assert (backwards["from_revision"], backwards["to_revision"]) == (2, 1)
    assert [(c["player_id"], c["rating_difference"]) for c in backwards["changes"]] == [
        ("1001", 20), ("1002", -20), ("1005", 1),
    ]  # fmt: skip
    assert [c["correction_id"] for c in backwards["corrections"]] == [1]
    same = get(corrected_client, url, **{"from": 2, "to": 2})
    assert (same["changes"], same["corrections"], same["players_changed"]) == ([], [], 0)
    # A list never corrected: its only revision against itself.
    imported = get(corrected_client, "/v1/lists/fide-standard/2026-08/diff")
    assert (imported["from_revision"], imported["to_revision"], imported["changes"]) == (1, 1, [])


def test_diff_etag(corrected_client: TestClient) -> None:
    url = "/v1/lists/fide-standard/2026-10/diff"
    first = corrected_client.get(url)
    etag = first.headers["etag"]
    assert corrected_client.get(url, params={"from": 1, "to": 2}).headers["etag"] == etag
    assert corrected_client.get(url, params={"from": 2, "to": 1}).headers["etag"] != etag
    assert corrected_client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_diff_refusals(corrected_client: TestClient) -> None:
    url = "/v1/lists/fide-standard/2026-10/diff"
    assert_refused(corrected_client, url, 404,
                   "the fide-standard list of 2026-10 has no revision 3 (revisions: 1, 2)",
                   to=3)  # fmt: skip
    assert_refused(
        corrected_client,
        url,
        404,
        "the fide-standard list of 2026-10 has no revision 4",
        **{"from": 4},
    )
    assert_refused(corrected_client, "/v1/lists/fide-standard/2026-12/diff", 404,
                   "fide-standard has no published list for 2026-12")  # fmt: skip
    assert_refused(corrected_client, "/v1/lists/fide-blitz/2026-10/diff", 404,
                   "fide-blitz has no published list for 2026-10")  # fmt: skip
    for params, parameter in (({"from": 0}, "from"), ({"to": -1}, "to"),
                              ({"from": "one"}, "from"), ({"to": "2x"}, "to")):  # fmt: skip
        assert_refused(corrected_client, url, 422, f"query parameter {parameter}: ", **params)
    assert_refused(corrected_client, "/v1/lists/fide-standard/2026-13/diff", 422,
                   "path parameter period: ")  # fmt: skip


# --- the player page ---------------------------------------------------------------------------


def test_player_page_shows_the_original_beside_a_revised_rating(
    corrected_client: TestClient,
) -> None:
    page = corrected_client.get("/players/1001").text
    assert "1846 <span" in page
    assert "(originally 1866)" in page
    assert "(originally 1862)" in page
    assert "originally" not in corrected_client.get("/players/1006").text  # never revised


# --- never corrected: the scenario itself --------------------------------------------------------


def test_never_corrected_lists_have_one_revision(client: TestClient) -> None:
    assert_refused(client, "/v1/players/1001/history", 404,
                   "no fide-standard list has a revision 2 (the highest is 1)",
                   category="fide-standard", revision=2)  # fmt: skip
    assert_refused(client, "/v1/lists/fide-standard/2026-11", 404,
                   "the fide-standard list of 2026-11 has no revision 2 (revisions: 1)",
                   revision=2)  # fmt: skip
    history = get(client, "/v1/players/1001/history", category="fide-standard")
    assert get(client, "/v1/players/1001/history", category="fide-standard",
               revision=1)["points"] == history["points"]  # fmt: skip
    diff = get(client, "/v1/lists/fide-standard/2026-11/diff")
    assert (diff["from_revision"], diff["to_revision"], diff["changes"], diff["corrections"]) == (
        1, 1, [], [],
    )  # fmt: skip
    assert "originally" not in client.get("/players/1001").text
