"""``/v1/categories``, ``/v1/rules``, ``/v1/tournaments/{id}`` and ``/v1/calculator``."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ratingdb.api.dependencies import today
from ratingdb.rules import Category, version_on, versions_of
from tests.api.scenario import TOURNAMENTS


def test_categories(client: TestClient) -> None:
    body = client.get("/v1/categories").json()
    now = datetime.now(UTC).date()
    assert [c["category"] for c in body["categories"]] == [c.value for c in Category]
    for item in body["categories"]:
        version = version_on(Category(item["category"]), now)
        assert item["rule_version"] == version.name
        assert item["rule_version_effective_from"] == version.effective_from.isoformat()
        assert item["list_months"] == sorted(version.list_months)
        assert item["closing_days"] == version.closing_days
    latest = {c["category"]: c["latest_period"] for c in body["categories"]}
    assert latest == {"fide-standard": "2026-11", "fide-rapid": None, "fide-blitz": None,
                      "ffe-rapid": "2026-10"}  # fmt: skip


def test_categories_on_a_given_day(app: FastAPI, client: TestClient) -> None:
    """ "Current" is the rule version in force today (a dependency the test fixes)."""
    app.dependency_overrides[today] = lambda: date(2024, 6, 1)
    try:
        body = client.get("/v1/categories").json()
    finally:
        app.dependency_overrides.clear()
    versions = {c["category"]: c["rule_version"] for c in body["categories"]}
    assert versions["fide-standard"] == "fide-standard-2024-03"
    assert versions["fide-rapid"] == "fide-rapid-2024-03"


def test_rules(client: TestClient) -> None:
    body = client.get("/v1/rules", params={"category": "fide-standard"}).json()
    versions = versions_of(Category.FIDE_STANDARD)
    assert [r["name"] for r in body["rules"]] == [v.name for v in versions]
    first, second = body["rules"][:2]
    assert first["effective_from"] == versions[0].effective_from.isoformat()
    assert first["effective_until"] == second["effective_from"]
    assert body["rules"][-1]["effective_until"] is None
    assert sum(r["in_force"] for r in body["rules"]) == 1
    latest = body["rules"][-1]
    assert latest["name"] == "fide-standard-2025-10"
    assert latest["parameters"]["difference_cap"] == 400
    assert latest["parameters"]["cap_mode"] == "below_2650"
    assert latest["parameters"]["k_new"] == 40
    assert latest["parameters"]["list_months"] == list(range(1, 13))
    assert latest["source"].startswith("FIDE Rating Regulations")
    everything = client.get("/v1/rules").json()["rules"]
    assert len(everything) == sum(len(versions_of(c)) for c in Category)


def test_tournament(client: TestClient) -> None:
    body = client.get(f"/v1/tournaments/{TOURNAMENTS['D']}").json()
    assert body == {
        "tournament_id": "T000003", "name": "D", "category": "fide-standard",
        "start_date": "2026-08-18", "end_date": "2026-08-20", "period": "2026-10",
        "published": True, "late": True,
        "games": [{"round": 1, "white_id": "1003", "white_name": "Gus, G", "black_id": "1002",
                   "black_name": "Bob, B", "result": "1-0", "rated": True}],
        "withdrawn": None,
    }  # fmt: skip
    a = client.get(f"/v1/tournaments/{TOURNAMENTS['A']}").json()
    assert (a["period"], a["late"], len(a["games"])) == ("2026-09", False, 6)
    assert a["games"][-1] == {"round": 2, "white_id": "1006", "white_name": "Max, M",
                              "black_id": "1001", "black_name": "Anna, A", "result": "+-",
                              "rated": False}  # fmt: skip


def test_unknown_tournament_is_404(client: TestClient) -> None:
    response = client.get("/v1/tournaments/T999999")
    assert response.status_code == 404
    assert response.json() == {"detail": "no tournament T999999"}
    assert client.get("/v1/tournaments/" + "T" * 41).status_code == 422


def test_calculator(client: TestClient) -> None:
    """Jo in 2026-09 (scenario docstring): 1650, K 40, 0 vs 2450 and 1 vs 2010 -> +33."""
    response = client.get(
        "/v1/calculator",
        params={"category": "fide-standard", "period": "2026-09", "rating": 1650, "k": 40,
                "games": "2450:0,2010:1"},
    )  # fmt: skip
    assert response.status_code == 200
    body = response.json()
    assert (body["rule_version"], body["k_factor"], body["games"], body["sum_delta"]) == (
        "fide-standard-2025-10", 40, 2, "0.82",
    )  # fmt: skip
    assert (body["change"], body["new_rating"], body["previous_rating"]) == (33, 1683, 1650)
    games = body["events"][0]["games"]
    assert [(g["difference"], g["difference_used"], g["capped"], g["expected"], g["delta"])
            for g in games] == [(-800, -400, True, "0.08", "-0.08"),
                                (-360, -360, False, "0.10", "0.90")]  # fmt: skip
    assert "initial_rating" not in body  # only for an unrated player, as `ratingdb calc`
    assert "rating_before" not in games[0]  # only in sequential mode


def test_calculator_first_rating_and_sequential(client: TestClient) -> None:
    first = client.get(
        "/v1/calculator",
        params={"category": "fide-standard", "period": "2026-10",
                "games": "1862:0.5,1914:0.5,1780:1,1986:0,1683:1"},
    ).json()  # fmt: skip
    assert (first["initial_rating"], first["change"], first["previous_rating"]) == (
        1882, None, None,
    )  # fmt: skip
    sequential = client.get(
        "/v1/calculator",
        params={"category": "fide-standard", "period": "2026-09", "rating": 1850, "k": 20,
                "games": "1920:1", "mode": "sequential"},
    ).json()  # fmt: skip
    assert sequential["mode"] == "sequential"
    assert sequential["events"][0]["games"][0]["rating_before"] == 1850
    assert sequential["new_rating"] == 1862


@pytest.mark.parametrize(
    ("query", "detail"),
    [
        ("period=2026-09&games=1900:1", "query parameter category: is required"),
        ("category=fide-standard&period=2026-09", "query parameter games: is required"),
        ("category=fide-standard&period=2026-09&games=1900-1", "query parameter games: "),
        ("category=fide-standard&period=2026-09&games=1900:2", "query parameter games: "),
        ("category=fide-standard&period=2026-09&games=5000:1",
         "query parameter games (game 1): must be an integer from 0 to 4000, got 5000"),
        ("category=fide-standard&period=1950-01&games=1900:1",
         "query parameter period: fide-standard has no rules before 2000-01-01"),
        # Quarterly lists before 2009-07: no list in May 2009 (issue 15).
        ("category=fide-standard&period=2009-05&games=1900:1&rating=1850",
         ("query parameter period: fide-standard has no list in 2009-05 under "
          "fide-standard-2000-01 (list months: 1, 4, 7, 10); the lists around it are 2009-04 "
          "and 2009-07")),
        ("category=fide-standard&period=2026-09&games=1900:1&rating=4001",
         "query parameter rating: "),
        ("category=fide-standard&period=2026-09&games=1900:1&k=0", "query parameter k: "),
        ("category=fide-standard&period=2026-09&games=1900:1&rating=2000&peak_rating=1900",
         "query parameter peak_rating: must be at least the rating (2000), got 1900"),
        ("category=fide-standard&period=2026-09&games=1900:1&mode=elo", "query parameter mode: "),
    ],
)  # fmt: skip
def test_calculator_bad_parameters(client: TestClient, query: str, detail: str) -> None:
    response = client.get(f"/v1/calculator?{query}")
    assert response.status_code == 422
    assert response.json()["detail"].startswith(detail)
