"""``ratingdb lists list``, ``tournaments list``, ``players search`` and ``players show``: what
is stored, as JSON lines, on SQLite and PostgreSQL.

The data, built with the command line: the baseline list (Anna 1850, Bob 1920, Gus 1780, Dan
2010, all K 20 with 60 games; Nina unrated) imported as fide-standard 2026-08; two games CSVs,
one tournament each, rated in 2026-09 (both end before the 2026-08-29 closing date): the
"Club Cup" (2026-08-01..02), where Gus beat Dan by forfeit (stored, not rated), and the
"Autumn Open" (2026-08-03..05), where Anna (1850) beat Bob (1920); then the close of 2026-09.

Worked by hand (docs/rules.md table): a difference of 70 gives Anna an expected 0.40 and Bob
0.60, so Anna gains 20 x 0.60 = +12 (1862, peak 1862, 61 rated games) and Bob loses 12 (1908,
peak stays 1920, 61 games). Gus and Dan keep their ratings (the forfeit is not rated). The
2026-09 list holds the four rated players, as the 2026-08 list did.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import cli_ok, run_cli
from tests.support.factories import BASELINE, games_csv
from tests.support.rolled_back import RolledBack

#: One tournament per games CSV, imported in this order.
GAMES = (
    games_csv('"Autumn Open",2026-08-03,2026-08-05,1,1001,1002,1-0'),
    games_csv('"Club Cup",2026-08-01,2026-08-02,1,1003,1004,+-'),
)


def lines(out: str) -> list[dict[str, Any]]:
    """The JSON lines printed, each one object."""
    found = [json.loads(line) for line in out.splitlines()]
    assert all(isinstance(item, dict) for item in found)
    return found


@pytest.fixture
def stored(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, str]:
    """The data above; the tournaments' ids by name (as their imports printed them)."""
    baseline = tmp_path / "baseline.csv"
    baseline.write_text(BASELINE, encoding="utf-8")
    cli_ok(capsys, "lists", "import", str(baseline), "--category", "fide-standard",
           "--period", "2026-08", url=database.url)  # fmt: skip
    ids = {}
    for number, content in enumerate(GAMES):
        games = tmp_path / f"games{number}.csv"
        games.write_text(content, encoding="utf-8")
        out = cli_ok(capsys, "tournaments", "import", str(games), "--category", "fide-standard",
                     url=database.url)  # fmt: skip
        (imported,) = lines(out)
        ids[content.splitlines()[1].split('"')[1]] = imported["tournament_id"]
    cli_ok(capsys, "periods", "close", "--category", "fide-standard", "--period", "2026-09",
           url=database.url)  # fmt: skip
    return ids


def test_lists_list_newest_first(
    stored: dict[str, str], database: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    started = datetime.now(UTC)
    code, out, err = run_cli(capsys, "lists", "list", url=database.url)
    assert (code, err) == (0, "")
    found = lines(out)
    published = [datetime.fromisoformat(item.pop("published_at")) for item in found]
    assert found == [
        {"category": "fide-standard", "period": "2026-09", "list_date": "2026-09-01",
         "revision": 1, "revisions": 1, "entries": 4,
         "rule_version": "fide-standard-2025-10"},
        {"category": "fide-standard", "period": "2026-08", "list_date": "2026-08-01",
         "revision": 1, "revisions": 1, "entries": 4, "rule_version": None},
    ]  # fmt: skip
    for moment in published:  # written by this test, in UTC
        assert moment.utcoffset() == timedelta(0)
        assert started - timedelta(minutes=10) < moment <= started
    assert published[1] <= published[0]


def test_lists_list_of_a_category(
    stored: dict[str, str], database: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(capsys, "lists", "list", "--category", "fide-rapid", url=database.url) == (
        0, "", ""
    )  # fmt: skip
    out = cli_ok(capsys, "lists", "list", "--category", "fide-standard", url=database.url)
    assert [item["period"] for item in lines(out)] == ["2026-09", "2026-08"]
    code, out, err = run_cli(capsys, "lists", "list", "--category", "chess960", url=database.url)
    assert (code, out) == (2, "")
    assert "--category" in err


CLUB_CUP = {"name": "Club Cup", "category": "fide-standard", "start_date": "2026-08-01",
            "end_date": "2026-08-02", "period": "2026-09", "late": False, "games": 1}  # fmt: skip
AUTUMN_OPEN = CLUB_CUP | {"name": "Autumn Open", "start_date": "2026-08-03",
                          "end_date": "2026-08-05"}  # fmt: skip


def test_tournaments_list_by_period_then_start_date(
    stored: dict[str, str], database: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = [
        {"tournament_id": stored["Club Cup"], **CLUB_CUP},
        {"tournament_id": stored["Autumn Open"], **AUTUMN_OPEN},
    ]
    for filters in ([], ["--category", "fide-standard"], ["--period", "2026-09"]):
        code, out, err = run_cli(capsys, "tournaments", "list", *filters, url=database.url)
        assert (code, err) == (0, ""), filters
        assert [list(item) for item in lines(out)] == [list(expected[0])] * 2  # keys in order
        assert lines(out) == expected, filters
    for filters in (["--category", "fide-rapid"], ["--period", "2026-10"]):
        assert run_cli(capsys, "tournaments", "list", *filters, url=database.url) == (0, "", "")
    code, out, err = run_cli(capsys, "tournaments", "list", "--period", "2026-13",
                             url=database.url)  # fmt: skip
    assert (code, out) == (2, "")
    assert "--period" in err


ANNA = {"player_id": "1001", "name": "Anna, A", "federation": "FRA", "sex": "F",
        "birth_year": 1990, "title": None}  # fmt: skip
NINA = {"player_id": "1005", "name": "Nina, N", "federation": "FRA", "sex": "F",
        "birth_year": 2001, "title": None}  # fmt: skip


def test_players_search(
    stored: dict[str, str], database: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "players", "search", "n", url=database.url)
    assert (code, err) == (0, "")
    # Each word starts a word of the name (any order, accents and case ignored): "n" starts
    # Nina's name only (not Anna's nor "Dan, D"); "a" starts Anna's and her initial.
    assert [item["player_id"] for item in lines(out)] == ["1005"]
    anna = ANNA | {"ratings": {"fide-standard": {"period": "2026-09", "rating": 1862}}}
    assert lines(cli_ok(capsys, "players", "search", "ANNA", url=database.url)) == [anna]
    assert lines(cli_ok(capsys, "players", "search", "a ánnà", url=database.url)) == [anna]
    nina = NINA | {"ratings": {}}  # unrated
    assert lines(cli_ok(capsys, "players", "search", "1005", url=database.url)) == [nina]
    out = cli_ok(capsys, "players", "search", "a", "--limit", "1", url=database.url)
    assert lines(out) == [anna]
    assert run_cli(capsys, "players", "search", "zed", url=database.url) == (0, "", "")
    assert run_cli(capsys, "players", "search", "nn", url=database.url) == (0, "", "")
    code, out, err = run_cli(capsys, "players", "search", "n", "--limit", "0", url=database.url)
    assert (code, out) == (2, "")
    assert "--limit" in err


def test_players_show_the_latest_rating_in_each_category(
    stored: dict[str, str], database: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "players", "show", "1001", url=database.url)
    assert (code, err) == (0, "")
    assert len(out.splitlines()) == 1
    assert json.loads(out) == ANNA | {
        "ratings": [
            {"category": "fide-standard", "period": "2026-09", "list_date": "2026-09-01",
             "revision": 1, "rating": 1862, "original_rating": 1862, "previous_rating": 1850,
             "change": 12, "games": 1, "k_factor": 20, "rated_games": 61,
             "peak_rating": 1862},
        ]
    }  # fmt: skip
    bob = json.loads(cli_ok(capsys, "players", "show", "1002", url=database.url))
    assert [(r["rating"], r["change"], r["peak_rating"]) for r in bob["ratings"]] == [
        (1908, -12, 1920)
    ]
    assert json.loads(cli_ok(capsys, "players", "show", "1005", url=database.url)) == NINA | {
        "ratings": []
    }


def test_players_show_of_an_unknown_player_exits_2_naming_it(
    database: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "players", "show", "999999", url=database.url)
    assert (code, out) == (2, "")
    assert err == "ratingdb players: ID: no player 999999\n"


def test_periods_status_one_json_line_per_period(
    stored: dict[str, str], database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As every listing: one JSON line per period, by category then period, the state spelt as
    everywhere else (``open``, ``published``; ``awaiting-approval``: tests/jobs)."""
    october = tmp_path / "october.csv"
    games = games_csv('"Fall Blitz",2026-09-05,2026-09-06,1,1001,1004,1/2-1/2')
    october.write_text(games, encoding="utf-8")
    cli_ok(capsys, "tournaments", "import", str(october), "--category", "fide-standard",
           url=database.url)  # fmt: skip
    code, out, err = run_cli(capsys, "periods", "status", url=database.url)
    assert (code, err) == (0, "")
    found = lines(out)
    published = [item.pop("published_at") for item in found]
    assert found == [
        {"category": "fide-standard", "period": "2026-08", "state": "published",
         "closing_date": "2026-07-29", "tournaments": 0, "games": 0},
        {"category": "fide-standard", "period": "2026-09", "state": "published",
         "closing_date": "2026-08-29", "tournaments": 2, "games": 2},
        {"category": "fide-standard", "period": "2026-10", "state": "open",
         "closing_date": "2026-09-28", "tournaments": 1, "games": 1},
    ]  # fmt: skip
    assert [moment is None for moment in published] == [False, False, True]
    assert list(json.loads(out.splitlines()[0])) == [
        "category", "period", "state", "closing_date", "tournaments", "games", "published_at",
    ]  # fmt: skip
    # Another category's periods: none, so nothing at all (not an empty document).
    code, out, err = run_cli(capsys, "periods", "status", "--category", "fide-rapid",
                             url=database.url)  # fmt: skip
    assert (code, out, err) == (0, "", "")
