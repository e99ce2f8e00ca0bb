"""Interim ratings on the public side (issue 28 item 7): ``/v1/players/{id}/interim`` marked
``"official": false`` and the player page's "Interim (unofficial)" block, explained game by
game with the published calculation's partials, in English and French; none for a player
without games in the open period; a page kept in the cache moves when a tournament is
accepted. The numbers are worked by hand in tests/services/test_interim.py (Anna 1850, +0.21 x
K 20 = +4.2 -> +4, 1854)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ratingdb.api.app import create_app
from ratingdb.config import Settings
from tests.services.test_interim import set_up
from tests.support.cli import run_cli as cli
from tests.support.factories import games_csv


def _client(url: str) -> TestClient:
    # No lookup kept: a tournament accepted shows at the next request.
    return TestClient(create_app(Settings(database_url=url, read_database_url=url),
                                 lookup_seconds=0))  # fmt: skip


def test_interim_json_is_unofficial_and_worked_by_hand(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_up(database_url, tmp_path, capsys)
    with _client(database_url) as client:
        response = client.get("/v1/players/1001/interim")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["official"] is False
        (anna,) = body["interims"]
        assert anna["official"] is False
        assert (anna["category"], anna["period"], anna["list_date"]) == (
            "fide-standard", "2026-09", "2026-09-01")  # fmt: skip
        assert (anna["previous_rating"], anna["rating"], anna["change"]) == (1850, 1854, 4)
        assert (anna["k_factor"], anna["sum_delta"], anna["tournaments"]) == (20, "0.21", 1)
        assert anna["as_of"]["name"] == "Summer Open"
        assert [(g["round"], g["opponent"]["name"], g["expected"], g["delta"])
                for g in anna["games"]] == [
            (1, "Bob, B", "0.40", "0.60"), (2, "Gus, G", "0.60", "-0.10"),
            (3, "Dan, D", "0.29", "-0.29"),
        ]  # fmt: skip
        etag = response.headers["etag"]
        assert (
            client.get("/v1/players/1001/interim", headers={"If-None-Match": etag}).status_code
            == 304
        )
        nina = client.get("/v1/players/1005/interim").json()
        assert nina == {"player_id": "1005", "official": False, "interims": []}
        assert client.get("/v1/players/9999/interim").status_code == 404


@pytest.mark.parametrize(
    ("language", "heading", "unofficial", "summary"),
    [
        ("en", "Interim rating (unofficial)", "Unofficial.", "1850 → 1854 (+4)"),
        ("fr", "Classement provisoire (non officiel)", "Non officiel.", "1850 → 1854 (+4)"),
    ],
)
def test_player_page_shows_the_interim_block(
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    language: str,
    heading: str,
    unofficial: str,
    summary: str,
) -> None:
    set_up(database_url, tmp_path, capsys)
    with _client(database_url) as client:
        page = client.get(f"/players/1001?lang={language}").text
        assert heading in page
        assert unofficial in page
        assert summary in page
        assert 'id="fide-standard-2026-09"' in page  # the published calculation's table
        assert 'id="fide-standard-2026-09-by-tournament"' in page
        assert "Summer Open" in page
        nina = client.get(f"/players/1005?lang={language}").text
        assert heading not in nina
        assert "interim" not in nina

        # A second tournament accepted: the page kept in the cache moves (its ETag names the
        # games), and Anna's interim now counts it. Anna beats Gus:
        # D = +70: PD_H 0.60, +0.40; sum 0.21 + 0.40 = 0.61 x 20 = 12.2 -> +12, 1862.
        etag = client.get(f"/players/1001?lang={language}").headers["etag"]
        (tmp_path / "second.csv").write_text(
            games_csv("Autumn Cup,2026-08-20,2026-08-21,1,1001,1003,1-0"), encoding="utf-8"
        )
        assert cli(capsys, "tournaments", "import", str(tmp_path / "second.csv"),
                   "--category", "fide-standard", url=database_url)[0] == 0  # fmt: skip
        again = client.get(f"/players/1001?lang={language}")
        assert again.headers["etag"] != etag
        assert "1850 → 1862 (+12)" in again.text
        # The latest accepted ("as of"), its game, and its line by tournament.
        assert again.text.count("Autumn Cup") == 3
        assert "Autumn Cup" in again.text


def test_cli_prints_what_the_api_answers(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``ratingdb players interim PLAYER`` (the officer's, for a title application): one JSON
    line, the API's body; an unknown player names the field; a category filter."""
    set_up(database_url, tmp_path, capsys)
    code, out, err = cli(capsys, "players", "interim", "1001", url=database_url)
    assert code == 0, err
    printed = json.loads(out)
    with _client(database_url) as client:
        assert printed == client.get("/v1/players/1001/interim").json()
    assert printed["interims"][0]["rating"] == 1854
    code, out, err = cli(capsys, "players", "interim", "1001", "--category", "fide-rapid",
                         url=database_url)  # fmt: skip
    assert (code, json.loads(out)["interims"]) == (0, [])
    code, out, err = cli(capsys, "players", "interim", "9999", url=database_url)
    assert (code, out) == (2, "")
    assert "PLAYER" in err
    assert "no player 9999" in err


def test_a_newcomer_gets_a_first_rating_block(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nina (unrated, never on a list) plays her first games in the open period: her page has
    no history but the interim block, with the first rating's working. Worked by hand (2024
    method, docs/rules.md §9): opponents 1850, 1920, 1780, 2010, 1850 = 9410 plus two
    hypothetical 1800 draws: Ra = 13010 / 7 = 1858.57; 3 points + 1 = 4 of 7, p = 0.57, dp 50
    (table 8.1.1); Ra + dp = 1908.57, rounded 1909. Below 5 games she is only pooled."""
    set_up(database_url, tmp_path, capsys)
    games = [
        "Nina Cup,2026-08-14,2026-08-16,1,1005,1001,1-0",
        "Nina Cup,2026-08-14,2026-08-16,2,1002,1005,1-0",
        "Nina Cup,2026-08-14,2026-08-16,3,1005,1003,1-0",
        "Nina Cup,2026-08-14,2026-08-16,4,1004,1005,1/2-1/2",
    ]
    (tmp_path / "nina.csv").write_text(games_csv(*games), encoding="utf-8")
    assert cli(capsys, "tournaments", "import", str(tmp_path / "nina.csv"), "--category",
               "fide-standard", url=database_url)[0] == 0  # fmt: skip
    with _client(database_url) as client:
        (pooled,) = client.get("/v1/players/1005/interim").json()["interims"]
        assert (pooled["rating"], pooled["first_rating"], len(pooled["games"])) == (None, False, 4)
        page = client.get("/players/1005?lang=en")
        assert page.status_code == 200
        assert "Interim rating (unofficial)" in page.text
        assert "not rated yet" in page.text
    (tmp_path / "more.csv").write_text(
        games_csv("Nina Blitz,2026-08-22,2026-08-22,1,1005,1001,1/2-1/2"), encoding="utf-8"
    )
    assert cli(capsys, "tournaments", "import", str(tmp_path / "more.csv"), "--category",
               "fide-standard", url=database_url)[0] == 0  # fmt: skip
    with _client(database_url) as client:
        (first,) = client.get("/v1/players/1005/interim").json()["interims"]
        assert (first["rating"], first["first_rating"], first["change"]) == (1909, True, None)
        assert first["initial"]["method"] == "hypothetical_draws_1800"
        assert first["initial"]["opponents_average"] == "1858.57"
        french = client.get("/players/1005?lang=fr").text
        assert "Classement provisoire (non officiel)" in french
        assert "premier classement 1909" in french
        assert "Ra = (9410 + 3600) / 7 = 1858,57" in french
