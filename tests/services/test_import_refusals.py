"""Bad input is refused with exit code 2, a message naming file, line and field, and nothing
changed in the database (docs/cli.md §1: a failed command changes nothing).

Every case starts from a migrated database holding the fide-standard baseline list of period
2026-08 (four rated players and one unrated), imported through the command line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_cli as cli
from tests.support.factories import BASELINE
from tests.support.files import GAMES_HEADER, LIST_HEADER, write
from tests.support.rolled_back import RolledBack

TABLES = (
    "players",
    "periods",
    "rating_lists",
    "list_entries",
    "player_status",
    "tournaments",
    "games",
    "player_calculations",
)
GOOD_GAMES = GAMES_HEADER + (
    "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"  # line 2
    "Open,2026-08-10,2026-08-12,1,1003,1004,1/2-1/2\n"  # line 3
    "Open,2026-08-10,2026-08-12,2,1001,1003,0-1\n"  # line 4
)


def row_counts(database: RolledBack) -> dict[str, Any]:
    """Rows of every table, and the state of every period: what "unchanged" means here."""
    counts: dict[str, Any] = {
        table: database.rows(f"SELECT count(*) FROM {table}")[0][0] for table in TABLES
    }
    counts["period states"] = database.rows(
        "SELECT category, list_date, state, claimed_by FROM periods ORDER BY category, list_date"
    )
    return counts


@pytest.fixture
def loaded(database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> RolledBack:
    """A migrated database with the fide-standard list of 2026-08 published."""
    baseline = tmp_path / "baseline.csv"
    baseline.write_text(BASELINE, encoding="utf-8")
    code, _, err = cli(capsys, "lists", "import", str(baseline), "--category", "fide-standard",
                       "--period", "2026-08", url=database.url)  # fmt: skip
    assert code == 0, err
    counts = row_counts(database)
    assert (counts["players"], counts["rating_lists"], counts["list_entries"]) == (5, 1, 4)
    return database


def assert_names(stderr: str, path: Path, line: int, fields: str) -> None:
    """``stderr`` names ``path``, ``line`` and one of ``fields`` (a regex alternative) as
    ``PATH:LINE: FIELD: message``."""
    pattern = re.escape(str(path)) + rf":{line}: ({fields}): \S"
    assert re.search(pattern, stderr), f"expected {path}:{line}: {fields}: in {stderr!r}"


def test_the_good_files_import(loaded: RolledBack, tmp_path: Path, capsys: Any) -> None:
    """The control: the files the refusals below are made from are accepted as they are."""
    games = write(tmp_path, "games.csv", GOOD_GAMES)
    code, out, err = cli(capsys, "tournaments", "import", str(games), "--category",
                         "fide-standard", url=loaded.url)  # fmt: skip
    assert code == 0, err
    assert '"games": 3' in out
    counts = row_counts(loaded)
    assert (counts["tournaments"], counts["games"]) == (1, 3)


BAD_GAMES = {
    "missing column": (
        GAMES_HEADER.replace(",result", "") + "Open,2026-08-10,2026-08-12,1,1001,1002\n",
        1,
        "result",
    ),
    "unknown white player": (
        GAMES_HEADER + "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
        "Open,2026-08-10,2026-08-12,1,9999,1004,1/2-1/2\n",
        3,
        "white_id",
    ),
    "unknown black player": (
        GAMES_HEADER + "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
        "Open,2026-08-10,2026-08-12,1,1003,1004,1/2-1/2\n"
        "Open,2026-08-10,2026-08-12,2,1001,8888,0-1\n",
        4,
        "black_id",
    ),
    "bad start date": (
        GAMES_HEADER + "Open,2026-02-30,2026-08-12,1,1001,1002,1-0\n",
        2,
        "start_date",
    ),
    "bad end date": (
        GAMES_HEADER + "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
        "Open,2026-08-10,12/08/2026,1,1003,1004,1-0\n",
        3,
        "end_date",
    ),
    "bad result": (
        GAMES_HEADER + "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
        "Open,2026-08-10,2026-08-12,1,1003,1004,1/2-1/2\n"
        "Open,2026-08-10,2026-08-12,2,1001,1003,1-1\n",
        4,
        "result",
    ),
    "duplicate game": (
        GAMES_HEADER + "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
        "Open,2026-08-10,2026-08-12,1,1003,1004,1/2-1/2\n"
        "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n",
        4,
        "round|white_id|black_id|result",
    ),
    "duplicate game, colours swapped": (
        GAMES_HEADER + "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n"
        "Open,2026-08-10,2026-08-12,1,1002,1001,0-1\n",
        3,
        "round|white_id|black_id|result",
    ),
    "ends before it starts": (
        GAMES_HEADER + "Open,2026-08-12,2026-08-10,1,1001,1002,1-0\n",
        2,
        "start_date|end_date",
    ),
}


@pytest.mark.parametrize(("content", "line", "fields"), BAD_GAMES.values(), ids=BAD_GAMES.keys())
def test_a_bad_games_csv_is_refused(
    loaded: RolledBack, tmp_path: Path, capsys: Any, content: str, line: int, fields: str
) -> None:
    games = write(tmp_path, "games.csv", content)
    before = row_counts(loaded)
    code, out, err = cli(capsys, "tournaments", "import", str(games), "--category",
                         "fide-standard", url=loaded.url)  # fmt: skip
    assert code == 2, (out, err)
    assert_names(err, games, line, fields)
    assert out == ""
    assert row_counts(loaded) == before


BAD_LISTS = {
    "rating not a number": ('1002,"Bob, B",FRA,M,1985,,19x0,60,,\n', "rating"),
    "rating negative": ('1002,"Bob, B",FRA,M,1985,,-5,60,,\n', "rating"),
    "rating too high": ('1002,"Bob, B",FRA,M,1985,,9000,60,,\n', "rating"),
    # A FIDE list holds FIDE ids only: a local id (9 and 11 digits) is refused (issue 27).
    "local id on a FIDE list": ('900000000017,"Loc, L",FRA,M,1985,,1920,60,,\n', "player_id"),
}


@pytest.mark.parametrize(("bad_row", "field"), BAD_LISTS.values(), ids=BAD_LISTS.keys())
def test_a_list_with_a_bad_rating_is_refused(
    loaded: RolledBack, tmp_path: Path, capsys: Any, bad_row: str, field: str
) -> None:
    """Line 3 is bad; everything else would make a valid fide-rapid list of 2026-08."""
    content = LIST_HEADER + '1001,"Anna, A",FRA,F,1990,,1850,60,1850,20\n' + bad_row
    content += '1003,"Gus, G",FRA,M,1980,,1780,60,1780,20\n'
    rapid = write(tmp_path, "rapid.csv", content)
    before = row_counts(loaded)
    code, out, err = cli(capsys, "lists", "import", str(rapid), "--category", "fide-rapid",
                         "--period", "2026-08", url=loaded.url)  # fmt: skip
    assert code == 2, (out, err)
    assert_names(err, rapid, 3, field)
    assert row_counts(loaded) == before


def test_the_good_list_imports(loaded: RolledBack, tmp_path: Path, capsys: Any) -> None:
    """The control of the test above: the same list with a good rating is accepted."""
    content = LIST_HEADER + '1001,"Anna, A",FRA,F,1990,,1850,60,1850,20\n'
    content += '1002,"Bob, B",FRA,M,1985,,1920,60,,\n1003,"Gus, G",FRA,M,1980,,1780,60,1780,20\n'
    rapid = write(tmp_path, "rapid.csv", content)
    code, _, err = cli(capsys, "lists", "import", str(rapid), "--category", "fide-rapid",
                       "--period", "2026-08", url=loaded.url)  # fmt: skip
    assert code == 0, err
    counts = row_counts(loaded)
    assert (counts["players"], counts["rating_lists"], counts["list_entries"]) == (5, 2, 7)


def test_the_same_games_file_twice_is_refused(
    loaded: RolledBack, tmp_path: Path, capsys: Any
) -> None:
    games = write(tmp_path, "games.csv", GOOD_GAMES)
    args = ("tournaments", "import", str(games), "--category", "fide-standard")
    code, _, err = cli(capsys, *args, url=loaded.url)
    assert code == 0, err
    before = row_counts(loaded)
    assert (before["tournaments"], before["games"]) == (1, 3)

    code, out, err = cli(capsys, *args, url=loaded.url)
    assert code == 2, (out, err)
    assert str(games) in err
    assert row_counts(loaded) == before


@pytest.mark.parametrize("forced", ["2026-08", "2026-07"])
def test_forcing_a_published_period_is_refused(
    loaded: RolledBack, tmp_path: Path, capsys: Any, forced: str
) -> None:
    """2026-08 is published; 2026-07 is before it: neither list can take a tournament."""
    games = write(
        tmp_path, "games.csv", GAMES_HEADER + "Open,2026-07-10,2026-07-12,1,1001,1002,1-0\n"
    )
    before = row_counts(loaded)
    code, out, err = cli(capsys, "tournaments", "import", str(games), "--category",
                         "fide-standard", "--period", forced, url=loaded.url)  # fmt: skip
    assert code == 2, (out, err)
    assert "--period" in err
    assert row_counts(loaded) == before


def test_importing_a_list_over_a_published_one_is_refused(
    loaded: RolledBack, tmp_path: Path, capsys: Any
) -> None:
    again = write(tmp_path, "again.csv", BASELINE.replace("1850", "1860"))
    before = row_counts(loaded)
    code, out, err = cli(capsys, "lists", "import", str(again), "--category", "fide-standard",
                         "--period", "2026-08", url=loaded.url)  # fmt: skip
    assert code == 2, (out, err)
    assert "--period" in err
    assert row_counts(loaded) == before


@pytest.mark.parametrize(
    "command",
    [
        ("tournaments", "import", "{games}", "--category", "fide-bullet"),
        ("lists", "import", "{baseline}", "--category", "fide-bullet", "--period", "2026-09"),
        ("periods", "close", "--category", "fide-bullet", "--period", "2026-09"),
        ("periods", "status", "--category", "fide-bullet"),
        ("lists", "export", "--category", "fide-bullet", "--period", "2026-08", "--format", "json"),
    ],
    ids=lambda command: " ".join(command[:2]),
)
def test_an_unknown_category_is_refused(
    loaded: RolledBack, tmp_path: Path, capsys: Any, command: tuple[str, ...]
) -> None:
    files = {
        "games": str(write(tmp_path, "games.csv", GOOD_GAMES)),
        "baseline": str(write(tmp_path, "list.csv", BASELINE)),
    }
    before = row_counts(loaded)
    code, out, err = cli(capsys, *(part.format(**files) for part in command), url=loaded.url)
    assert code == 2, (out, err)
    assert "--category" in err
    assert "fide-bullet" in err
    assert row_counts(loaded) == before


def test_closing_a_period_whose_previous_period_is_open_is_refused(
    loaded: RolledBack, tmp_path: Path, capsys: Any
) -> None:
    """2026-08 is published, 2026-09 is not: 2026-10 (which has a tournament) cannot close."""
    games = write(
        tmp_path, "october.csv", GAMES_HEADER + "Oct,2026-09-08,2026-09-10,1,1001,1002,1-0\n"
    )
    code, out, err = cli(capsys, "tournaments", "import", str(games), "--category",
                         "fide-standard", url=loaded.url)  # fmt: skip
    assert code == 0, err
    assert '"period": "2026-10"' in out
    before = row_counts(loaded)

    code, out, err = cli(capsys, "periods", "close", "--category", "fide-standard", "--period",
                         "2026-10", url=loaded.url)  # fmt: skip
    assert code == 2, (out, err)
    assert "--period" in err
    assert row_counts(loaded) == before


def test_closing_a_period_two_ahead_with_no_tournament_is_refused(
    loaded: RolledBack, capsys: Any
) -> None:
    """The same refusal when the period has no row yet: none is left behind."""
    before = row_counts(loaded)
    code, out, err = cli(capsys, "periods", "close", "--category", "fide-standard", "--period",
                         "2026-11", url=loaded.url)  # fmt: skip
    assert code == 2, (out, err)
    assert "--period" in err
    assert row_counts(loaded) == before


def test_a_row_with_a_missing_cell_is_refused(
    loaded: RolledBack, tmp_path: Path, capsys: Any
) -> None:
    games = write(
        tmp_path,
        "games.csv",
        GAMES_HEADER
        + "Open,2026-08-10,2026-08-12,1,1001,1002,1-0\nOpen,2026-08-10,2026-08-12,1,1003,1004\n",
    )
    before = row_counts(loaded)
    code, out, err = cli(capsys, "tournaments", "import", str(games), "--category",
                         "fide-standard", url=loaded.url)  # fmt: skip
    assert code == 2, (out, err)
    assert f"{games}:3:" in err
    assert row_counts(loaded) == before
