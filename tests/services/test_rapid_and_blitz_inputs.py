"""The close gives the rules core what rapid and blitz need from the standard list: the
standard-rating seed (B.02 rapid/blitz 2024 §7.2.1) and the 2022-10-01 uplift (docs/rules.md §11).
Numbers worked by hand from table 8.1.2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import cli_ok
from tests.support.files import GAMES_HEADER
from tests.support.files import LIST_HEADER as HEADER
from tests.support.rolled_back import RolledBack


def entries(
    capsys: pytest.CaptureFixture[str], url: str, category: str, period: str
) -> dict[str, tuple[int, int | None, int | None, int, int]]:
    out = cli_ok(capsys, "lists", "export", "--category", category, "--period", period,
                 "--format", "json", url=url)  # fmt: skip
    return {
        e["player_id"]: (e["rating"], e["previous_rating"], e["change"], e["games"], e["k_factor"])
        for e in json.loads(out)["entries"]
    }


def test_unrated_rapid_player_is_rated_with_the_standard_rating(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Standard list 2024-02: 11 at 2000, 12 at 1800. Rapid list 2024-02: 12 at 1700, 11 unrated.
    # Rapid tournament 2024-02-10..11, rated on the March 2024 list (fide-rapid-2024-03):
    # 11 beats 12.
    # 11 is rated with the standard 2000 as a rated player with no rapid games: K 40.
    #   D = 2000 - 1700 = 300 -> row 291-302 -> .85; +0.15 x 40 = 6 -> 2006 (first appearance).
    # 12 meets a rated opponent of 2000: D -300 -> .15; -0.15 x 20 = -3 -> 1697.
    standard = tmp_path / "standard.csv"
    standard.write_text(HEADER + "11,Eleven,FRA,M,1980,,2000,,,\n12,Twelve,FRA,M,1980,,1800,,,\n")
    rapid = tmp_path / "rapid.csv"
    rapid.write_text(HEADER + "12,Twelve,FRA,M,1980,,1700,,,\n")
    games = tmp_path / "rapid_open.csv"
    games.write_text(GAMES_HEADER + "Rapid,2024-02-10,2024-02-11,1,11,12,1-0\n")
    cli_ok(capsys, "lists", "import", str(standard), "--category",
           "fide-standard", "--period", "2024-02", url=database.url)  # fmt: skip
    cli_ok(capsys, "lists", "import", str(rapid), "--category", "fide-rapid",
           "--period", "2024-02", url=database.url)  # fmt: skip
    cli_ok(capsys, "tournaments", "import", str(games), "--category",
           "fide-rapid", url=database.url)  # fmt: skip
    cli_ok(capsys, "periods", "close", "--category", "fide-rapid", "--period",
           "2024-03", url=database.url)  # fmt: skip
    assert entries(capsys, database.url, "fide-rapid", "2024-03") == {
        "11": (2006, None, None, 1, 40),
        "12": (1697, 1700, -3, 1, 20),
    }


def test_rapid_uplift_of_october_2022(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Standard 2022-09: 21 at 2732, 22 at 1800. Rapid 2022-09: 21 at 2283, 22 at 1750.
    # October 2022: 2732 - 2283 > 100 -> 2632; 1800 - 1750 = 50 -> unchanged. No games.
    # 21 has a peak of 2632 >= 2400 on the new list: K 10.
    standard = tmp_path / "standard.csv"
    standard.write_text(HEADER + "21,Gukesh,IND,M,2006,GM,2732,,,\n22,Club,FRA,M,1970,,1800,,,\n")
    rapid = tmp_path / "rapid.csv"
    rapid.write_text(HEADER + "21,Gukesh,IND,M,2006,GM,2283,,,\n22,Club,FRA,M,1970,,1750,,,\n")
    cli_ok(capsys, "lists", "import", str(standard), "--category",
           "fide-standard", "--period", "2022-09", url=database.url)  # fmt: skip
    cli_ok(capsys, "lists", "import", str(rapid), "--category", "fide-rapid",
           "--period", "2022-09", url=database.url)  # fmt: skip
    cli_ok(capsys, "periods", "close", "--category", "fide-rapid", "--period",
           "2022-10", url=database.url)  # fmt: skip
    assert entries(capsys, database.url, "fide-rapid", "2022-10") == {
        "21": (2632, 2632, 0, 0, 10),
        "22": (1750, 1750, 0, 0, 20),
    }
