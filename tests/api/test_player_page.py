"""The player page and calculation endpoint of issue 15: a first rating's working, world and
federation ranks, titled chart axes, one list drawn as a point.

Nina's first rating (2026-10, fide-standard-2025-10: two hypothetical draws against 1800), by
hand: opponents 1862 + 1914 + 1780 + 1986 + 1683 = 9225, with the two 1800s (9225 + 3600) / 7
= 1832.142..., shown 1832.14; p = (3 + 1) / 7 = 0.571... -> 0.57 -> dp 50 (FIDE table 8.1.1);
1832.14 + 50 -> 1882, the published rating.
Ranks on the 2026-11 list (Max 2443, Dan 1994, Bob 1900, Anna 1866, Nina 1852, Gus 1794, Jo
1723): Anna 4th in the world and 2nd of FRA (after Bob); Nina 5th and 3rd.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.test_pages import page

WORKING = {
    "method": "hypothetical_draws_1800",
    "games": 5,
    "points": "3.0",
    "opponents_total": 9225,
    "opponents_average": "1832.14",
    "p": "0.57",
    "dp": 50,
    "half_points_above": None,
    "bonus": None,
    "unrounded": "1882.14",
    "capped_at": None,
    "standard_rating": None,
    "standard_list": None,
    "k_factor": None,
    "sum_delta": None,
    "change": None,
    "rating": 1882,
    "reproduced": True,
}


def test_first_rating_working_in_the_api(client: TestClient) -> None:
    body = client.get("/v1/players/1007/calculations/fide-standard/2026-10").json()
    assert body["first_rating"] is True
    assert body["rating"] == 1882
    assert body["initial"] == WORKING
    later = client.get("/v1/players/1007/calculations/fide-standard/2026-11").json()
    assert later["initial"] is None  # not a first rating


def test_first_rating_working_in_the_page(client: TestClient) -> None:
    nina = page(client, "/players/1007")
    assert "Method: Ra + dp, with two hypothetical draws against 1800-rated opponents." in nina.text
    working = (
        "5 games against rated opponents, 3.0 points, and two hypothetical draws against 1800: "
        "Ra = (9225 + 3600) / 7 = 1832.14; p = (3.0 + 1) / 7 = 0.57, dp +50; "
        "Ra + dp = 1882.14, rounded: 1882."
    )
    assert working in " ".join(nina.text.split())
    french = page(client, "/players/1007?lang=fr")
    assert (
        "5 parties contre des adversaires classés, 3,0 points, et deux nulles hypothétiques "
        "contre 1800 : Ra = (9225 + 3600) / 7 = 1832,14 ; p = (3,0 + 1) / 7 = 0,57, dp +50 ; "
        "Ra + dp = 1882,14, arrondi : 1882."
    ) in " ".join(french.text.split())


def test_world_and_federation_rank_on_the_latest_list(client: TestClient) -> None:
    assert (
        "Rank among the active players of the 2026-11 list: 4, 2 in FRA"
        in page(client, "/players/1001").text
    )
    assert (
        "Rank among the active players of the 2026-11 list: 5, 3 in FRA"
        in page(client, "/players/1007").text
    )
    french = page(client, "/players/1001?lang=fr")
    assert "Rang parmi les joueurs actifs de la liste 2026-11 : 4, 2 en FRA" in french.text


def test_chart_axes_titled_and_one_list_a_point(client: TestClient) -> None:
    anna = page(client, "/players/1001")
    assert anna.text.count("List (month)") == 2  # fide-standard and ffe-rapid charts
    assert anna.text.count("Rating\n") >= 2
    html = client.get("/players/1001").text
    ffe = html[html.index('id="chart-ffe-rapid"') :]
    ffe = ffe[: ffe.index("</svg>")]
    assert 'class="line"' not in ffe  # one list: no line
    assert ffe.count("<circle") == 1
    assert "One published list so far: one point." in anna.text
    standard = html[html.index('id="chart-fide-standard"') :]
    assert 'class="line"' in standard[: standard.index("</svg>")]
    assert "Liste (mois)" in page(client, "/players/1001?lang=fr").text
