"""Issue 27 item 1 in the database: a tournament's time control (TRF26 222, a games CSV's
``time_control`` column, or ``tournaments import --time-control``) decides which of its games
the category rates; a game not rated is stored, calculated with its reason, and counts for
nobody. The rules core's side is tests/rules/test_rate_of_play.py.

Numbers worked by hand (table 8.1.2, K 20 for the baseline's established adults); period
2026-09, FIDE standard rules of 1 March 2024 (120/90/60 minutes for 60 moves by band 2400/1800).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.services.test_a4_which_games_are_rated import (
    BASELINE,
    DATES,
    calculations,
    entries,
    player_line,
    publish,
)
from tests.support.cli import run_cli
from tests.support.files import GAMES_HEADER
from tests.support.rolled_back import RolledBack

#: 45 minutes and 30 s a move: 75 minutes for 60 moves.
SEVENTY_FIVE = "2700+30"
TOO_FAST_FOR_1800 = (
    "rate of play 75 min for 60 moves, below the 90 min required when a player is rated 1800 "
    "or more"
)


def games(time_control: str | None, *rows: str) -> str:
    header = GAMES_HEADER.rstrip("\n") + (",time_control\n" if time_control is not None else "\n")
    tail = f",{time_control}" if time_control is not None else ""
    return header + "".join(f"RoP Open,{DATES},{row}{tail}\n" for row in rows)


def test_the_band_of_the_higher_rating_decides_each_game(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """75 min for 60 moves. Anna (1850) beats Bob (1920): a player is rated 1800 or more, 90
    min needed: not rated, both unchanged. Eve (1700) beats Gus (1780): both below 1800, 60
    min needed: rated. D = 1700 - 1780 = -80, PD .39: Eve +0.61 x 20 = 12.2 -> +12 = 1712;
    Gus -0.61 x 20 = -12.2 -> -12 = 1768."""
    published = publish(
        capsys, database.url, tmp_path,
        ("rop.csv", games(SEVENTY_FIVE, "1,1001,1002,1-0", "1,1006,1003,1-0")),
    )  # fmt: skip
    assert entries(published) == {
        "1001": (1850, 1850, 0, 0),
        "1002": (1920, 1920, 0, 0),
        "1003": (1768, 1780, -12, 1),
        "1004": (2010, 2010, 0, 0),
        "1006": (1712, 1700, 12, 1),
    }
    assert calculations(database) == [
        ("1001", "1002", False, TOO_FAST_FOR_1800),
        ("1002", "1001", False, TOO_FAST_FOR_1800),
        ("1003", "1006", True, None),
        ("1006", "1003", True, None),
    ]


def test_without_a_time_control_every_played_game_is_rated_as_before(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same games without a time control are all rated: Anna (1850) beats Bob (1920):
    D -70, PD .40, 1 - .40 = +0.60 x 20 = +12 -> 1862; Bob D +70, PD .60, 0 - .60 = -0.60 x 20
    = -12 -> 1908."""
    published = publish(
        capsys, database.url, tmp_path,
        ("rop.csv", games(None, "1,1001,1002,1-0", "1,1006,1003,1-0")),
    )  # fmt: skip
    assert entries(published)["1001"] == (1862, 1850, 12, 1)
    assert entries(published)["1002"] == (1908, 1920, -12, 1)
    assert entries(published)["1006"] == (1712, 1700, 12, 1)


def trf(time_control_line: str | None) -> str:
    lines = [
        "012 RoP Report",
        "042 2026/08/10",
        "052 2026/08/12",
        player_line(1, "Anna, A", "1850", "1001", ["   2 w 1"]),
        player_line(2, "Bob, B", "1920", "1002", ["   1 b 0"]),
    ]
    if time_control_line is not None:
        lines.insert(3, time_control_line)
    return "\n".join(lines) + "\n"


def test_a_trf26_time_control_record_decides(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    published = publish(capsys, database.url, tmp_path, ("rop.trf", trf("222 2700+30")))
    assert entries(published)["1001"] == (1850, 1850, 0, 0)
    assert calculations(database) == [
        ("1001", "1002", False, TOO_FAST_FOR_1800),
        ("1002", "1001", False, TOO_FAST_FOR_1800),
    ]


def test_a_time_control_given_on_import_is_the_tournaments(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A TRF without 222, imported with ``--time-control 2700+30``: as if the file said so."""
    (tmp_path / "baseline.csv").write_text(BASELINE, encoding="utf-8")
    assert run_cli(capsys, "lists", "import", str(tmp_path / "baseline.csv"), "--category",
                   "fide-standard", "--period", "2026-08", url=database.url)[0] == 0  # fmt: skip
    path = tmp_path / "rop.trf"
    path.write_text(trf(None), encoding="utf-8")
    code, _, _ = run_cli(capsys, "tournaments", "import", str(path), "--category", "fide-standard",
                         "--time-control", SEVENTY_FIVE, url=database.url)  # fmt: skip
    assert code == 0
    assert run_cli(capsys, "periods", "close", "--category", "fide-standard", "--period",
                   "2026-09", url=database.url)[0] == 0  # fmt: skip
    assert calculations(database) == [
        ("1001", "1002", False, TOO_FAST_FOR_1800),
        ("1002", "1001", False, TOO_FAST_FOR_1800),
    ]


@pytest.mark.parametrize(
    ("name", "content", "option", "message"),
    [
        ("bad.trf", trf("222 90 min + 30 s"), None,
         ("bad.trf:4:5: 222 encoded time control: time control '90 min + 30 s': "
          "'90 min + 30 s' is not a period such as 5400+30")),
        ("other.trf", trf("222 5400+30"), "2700+30",
         ("other.trf: time_control: the file gives the time control 5400+30, not 2700+30: "
          "correct the file or give no time control")),
        ("nothing.trf", trf(None), "0+0",
         "time_control: time control '0+0': gives the players no time"),
        ("two.csv", (GAMES_HEADER.rstrip("\n") + ",time_control\n"
         f"RoP Open,{DATES},1,1001,1002,1-0,2700+30\nRoP Open,{DATES},2,1002,1001,1-0,5400\n"),
         None, "two.csv:3: time_control: 5400 differs from line 2 (2700+30)"),
    ],
)  # fmt: skip
def test_a_time_control_that_cannot_be_read_is_refused_naming_it(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    content: str,
    option: str | None,
    message: str,
) -> None:
    (tmp_path / "baseline.csv").write_text(BASELINE, encoding="utf-8")
    assert run_cli(capsys, "lists", "import", str(tmp_path / "baseline.csv"), "--category",
                   "fide-standard", "--period", "2026-08", url=database.url)[0] == 0  # fmt: skip
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    extra = () if option is None else ("--time-control", option)
    code, out, err = run_cli(capsys, "tournaments", "import", str(path), "--category",
                             "fide-standard", *extra, url=database.url)  # fmt: skip
    assert (code, out) == (2, "")
    assert message in err.replace(str(tmp_path) + "/", "")
    code, out, _ = run_cli(capsys, "tournaments", "list", url=database.url)
    assert (code, out) == (0, "")
