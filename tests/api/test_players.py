"""``/v1/players``: search, latest ratings, history and the game-by-game calculations, against
the hand-worked scenario (tests/api/scenario.py), on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.scenario import TOURNAMENTS


def get(client: TestClient, path: str, **params: Any) -> Any:
    response = client.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_search_by_name_or_id(client: TestClient) -> None:
    def found(**params: Any) -> tuple[int, list[str]]:
        body = get(client, "/v1/players", **params)
        return body["total"], [p["player_id"] for p in body["players"]]

    assert found() == (8, ["1001", "1002", "1004", "1003", "1005", "1006", "1007", "1008"])
    assert found(q="olga") == (1, ["1008"])
    assert found(q="A, ANNA") == (1, ["1001"])
    assert found(q="1003") == (1, ["1003"])
    assert found(q="100", limit=2) == (8, ["1001", "1002"])
    assert found(q="100", limit=2, offset=6) == (8, ["1007", "1008"])
    # Each word starts a word of the name: "o" is Olga's, inside Bob's and Jo's.
    assert found(q="o") == (1, ["1008"])
    assert found(q="b") == (1, ["1002"])
    assert found(federation="esp") == (1, ["1008"])
    assert found(q="m", federation="NOR") == (1, ["1006"])
    assert found(q="a", federation="NOR") == (0, [])
    assert found(q="zz") == (0, [])
    # Each player with their rating on each category's latest list, as /v1/players/{id}
    # gives the latest ones (Anna's below); none for Olga, pooling games for a first rating.
    body = get(client, "/v1/players", q="anna")
    assert body == {
        "total": 1, "limit": 100, "offset": 0,
        "players": [{"player_id": "1001", "name": "Anna, A", "federation": "FRA", "sex": "F",
                     "birth_year": 1990, "title": None,
                     "ratings": {"fide-standard": {"period": "2026-11", "rating": 1866},
                                 "ffe-rapid": {"period": "2026-10", "rating": 1700}}}],
    }  # fmt: skip
    assert get(client, "/v1/players", q="olga")["players"][0]["ratings"] == {}


def test_a_player_and_their_latest_ratings(client: TestClient) -> None:
    body = get(client, "/v1/players/1001")
    assert body == {
        "player_id": "1001", "name": "Anna, A", "federation": "FRA", "sex": "F",
        "birth_year": 1990, "title": None,
        "ratings": [
            {"category": "fide-standard", "period": "2026-11", "list_date": "2026-11-01",
             "revision": 1, "rating": 1866, "original_rating": 1866, "previous_rating": 1862,
             "change": 4, "games": 2, "k_factor": 20, "active": True, "rated_games": 63,
             "peak_rating": 1866},
            {"category": "ffe-rapid", "period": "2026-10", "list_date": "2026-10-01",
             "revision": 1, "rating": 1700, "original_rating": 1700, "previous_rating": None,
             "change": None, "games": 0, "k_factor": 20, "active": True, "rated_games": 40,
             "peak_rating": 1700},
        ],
    }  # fmt: skip
    assert get(client, "/v1/players/1008")["ratings"] == []  # pooled, not rated yet


def test_history_oldest_first(client: TestClient) -> None:
    body = get(client, "/v1/players/1001/history", category="fide-standard")
    assert body["player_id"] == "1001"
    assert body["category"] == "fide-standard"
    assert [
        (p["period"], p["list_date"], p["rating"], p["change"], p["games"], p["k_factor"])
        for p in body["points"]
    ] == [
        ("2026-08", "2026-08-01", 1850, None, 0, 20),
        ("2026-09", "2026-09-01", 1862, 12, 1, 20),
        ("2026-10", "2026-10-01", 1862, 0, 0, 20),
        ("2026-11", "2026-11-01", 1866, 4, 2, 20),
    ]
    nina = get(client, "/v1/players/1007/history", category="fide-standard")["points"]
    assert [(p["period"], p["rating"], p["previous_rating"], p["change"]) for p in nina] == [
        ("2026-10", 1882, None, None),
        ("2026-11", 1852, 1882, -30),
    ]
    assert get(client, "/v1/players/1001/history", category="fide-blitz")["points"] == []


def test_calculation_game_by_game(client: TestClient) -> None:
    """Anna, 2026-11: vs Max D -585 capped -400 -> .08, +.42; vs Jo D +179 -> .73, -.23;
    +0.19 x 20 = 3.8 -> +4."""
    body = get(client, "/v1/players/1001/calculations/fide-standard/2026-11")
    c = {"tournament_id": TOURNAMENTS["C"], "name": "C", "start_date": "2026-10-10"}
    assert body == {
        "player_id": "1001", "category": "fide-standard", "period": "2026-11",
        "list_date": "2026-11-01", "revision": 1,
        "games": [
            {"tournament": c, "round": 1, "opponent": {"player_id": "1006", "name": "Max, M"},
             "rating_used": 1862, "opponent_rating": 2447, "difference": -585,
             "difference_used": -400, "expected": "0.08", "score": "0.5", "delta": "0.42",
             "rated": True, "reason": None, "reason_code": None},
            {"tournament": c, "round": 2, "opponent": {"player_id": "1005", "name": "Jo, J"},
             "rating_used": 1862, "opponent_rating": 1683, "difference": 179,
             "difference_used": 179, "expected": "0.73", "score": "0.5", "delta": "-0.23",
             "rated": True, "reason": None, "reason_code": None},
        ],
        "k_factor": 20, "sum_delta": "0.19", "change": 4,
        "rule_version": "fide-standard-2025-10",
        "previous_rating": 1862, "rating": 1866, "original_rating": 1866, "first_rating": False,
        "next_k_factor": 20,
        "initial": None,
    }  # fmt: skip


def test_calculation_of_a_junior(client: TestClient) -> None:
    """Jo, 2026-09: vs Max D -800 capped -400 -> .08, -.08; vs Dan D -360 -> .10, +.90;
    +0.82 x 40 = 32.8 -> +33."""
    body = get(client, "/v1/players/1005/calculations/fide-standard/2026-09")
    assert [
        (g["round"], g["opponent"]["player_id"], g["opponent_rating"], g["difference"],
         g["difference_used"], g["expected"], g["score"], g["delta"])
        for g in body["games"]
    ] == [
        (1, "1006", 2450, -800, -400, "0.08", "0", "-0.08"),
        (2, "1004", 2010, -360, -360, "0.10", "1", "0.90"),
    ]  # fmt: skip
    assert (body["k_factor"], body["sum_delta"], body["change"], body["rating"]) == (
        40, "0.82", 33, 1683,
    )  # fmt: skip


def test_calculation_with_an_unrated_opponent(client: TestClient) -> None:
    """Anna, 2026-10: her draw with Nina (unrated then) is stored and explained, not rated."""
    body = get(client, "/v1/players/1001/calculations/fide-standard/2026-10")
    (game,) = body["games"]
    assert game["opponent"] == {"player_id": "1007", "name": "Nina, N"}
    assert game["tournament"]["tournament_id"] == TOURNAMENTS["B"]
    assert (game["rated"], game["reason"], game["opponent_rating"], game["delta"]) == (
        False, "opponent unrated", None, None,
    )  # fmt: skip
    assert game["reason_code"] == "opponent-unrated"
    assert (body["k_factor"], body["sum_delta"], body["change"], body["rating"]) == (
        None, None, 0, 1862,
    )  # fmt: skip


def test_calculation_of_a_first_rating(client: TestClient) -> None:
    """Nina, 2026-10: five games against rated players, first rating 1882."""
    body = get(client, "/v1/players/1007/calculations/fide-standard/2026-10")
    games = body["games"]
    assert [(g["opponent"]["player_id"], g["opponent_rating"], g["score"]) for g in games] == [
        ("1001", 1862, "0.5"), ("1002", 1914, "0.5"), ("1003", 1780, "1"),
        ("1004", 1986, "0"), ("1005", 1683, "1"),
    ]  # fmt: skip
    assert all(g["rated"] and g["expected"] is None for g in body["games"])
    assert (body["first_rating"], body["rating"], body["previous_rating"], body["change"]) == (
        True, 1882, None, None,
    )  # fmt: skip


def test_calculation_of_a_pooled_player(client: TestClient) -> None:
    """Olga, 2026-11: one game, not enough for a first rating: no rating yet."""
    body = get(client, "/v1/players/1008/calculations/fide-standard/2026-11")
    (game,) = body["games"]
    assert (game["opponent"]["player_id"], game["opponent_rating"], game["score"]) == (
        "1003", 1794, "1",
    )  # fmt: skip
    assert game["tournament"]["tournament_id"] == TOURNAMENTS["E"]
    assert (body["rating"], body["change"], body["first_rating"]) == (None, None, False)
    assert body["rule_version"] == "fide-standard-2025-10"


def test_calculation_of_an_imported_list(client: TestClient) -> None:
    body = get(client, "/v1/players/1001/calculations/fide-standard/2026-08")
    assert body["games"] == []
    assert (body["rating"], body["rule_version"], body["change"]) == (1850, None, None)


@pytest.mark.parametrize(
    ("path", "detail"),
    [
        ("/v1/players/999", "no player 999"),
        ("/v1/players/999/history?category=fide-standard", "no player 999"),
        ("/v1/players/999/calculations/fide-standard/2026-11", "no player 999"),
        ("/v1/players/1001/calculations/fide-standard/2026-12",
         "fide-standard has no published list for 2026-12"),
        ("/v1/players/1008/calculations/fide-standard/2026-10",
         "player 1008 is not on the fide-standard list of 2026-10"),
    ],
)  # fmt: skip
def test_unknown_is_404(client: TestClient, path: str, detail: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.json() == {"detail": detail}


@pytest.mark.parametrize(
    ("path", "parameter"),
    [
        ("/v1/players/abc", "path parameter player_id"),
        ("/v1/players/1" + "0" * 20, "path parameter player_id"),
        ("/v1/players/1001/history", "query parameter category"),
        ("/v1/players/1001/history?category=blitz", "query parameter category"),
        ("/v1/players/1001/calculations/fide-standard/2026-1", "path parameter period"),
        ("/v1/players/1001/calculations/classic/2026-11", "path parameter category"),
        ("/v1/players?limit=5000", "query parameter limit"),
        ("/v1/players?offset=x", "query parameter offset"),
        ("/v1/players?federation=FRAN", "query parameter federation"),
    ],
)
def test_bad_parameters_are_422(client: TestClient, path: str, parameter: str) -> None:
    response = client.get(path)
    assert response.status_code == 422
    assert response.json()["detail"].startswith(parameter + ": ")
