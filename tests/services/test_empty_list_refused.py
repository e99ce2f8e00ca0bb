"""A list without entries is never published (issue 11): a list CSV with only its header, a FIDE
TXT with only its header, a FIDE XML without a ``<player>``, and a file whose players are all
unrated or below the floor are refused (exit 2, the file named), and nothing is stored. Before,
the header-only CSV was published as an empty list that the next close started from, and that
nothing could take back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run_cli as cli
from tests.support.files import FIDE_STANDARD_HEADER as STANDARD_HEADER
from tests.support.files import LIST_HEADER, fixed
from tests.support.rolled_back import RolledBack
from tests.support.sql import row_counts

#: fide-standard 2026-11: floor 1400 (docs/rules.md §10, 2024-03 on). One player without a
#: rating, one
#: below the floor.
UNRATED_CSV = (
    f'{LIST_HEADER}3001,"Una, U",FRA,F,1990,,,0,,\n3002,"Low, L",FRA,M,1990,,1399,40,1399,\n'
)


def refused(capsys: pytest.CaptureFixture[str], database: RolledBack, path: Path, fmt: str) -> str:
    before = row_counts(database)
    code, out, err = cli(
        capsys, "lists", "import", str(path), "--format", fmt,
        "--category", "fide-standard", "--period", "2026-11", url=database.url,
    )  # fmt: skip
    assert code == 2, (code, out, err)
    assert out == ""
    assert "Traceback" not in err
    assert str(path) in err
    assert "the list has no entries" in err
    assert row_counts(database) == before, "a refused import stores nothing"
    return err


@pytest.mark.parametrize(
    ("name", "text", "fmt"),
    [
        ("header.csv", LIST_HEADER, "csv"),
        ("header.txt", STANDARD_HEADER + "\n", "fide-txt"),
        ("none.xml", '<?xml version="1.0"?>\n<playerslist>\n</playerslist>\n', "fide-xml"),
        (
            "other.xml",
            "<playerslist><comment>no players this month</comment></playerslist>\n",
            "fide-xml",
        ),
    ],
)
def test_a_list_file_without_players_is_refused(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    fmt: str,
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    err = refused(capsys, database, path, fmt)
    assert err.strip().endswith("the list has no entries"), err


def test_a_list_of_unrated_players_only_is_refused(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Players without a rating or below the floor are not entries: a list of only them
    would be published empty. The two players are not created either."""
    path = tmp_path / "unrated.csv"
    path.write_text(UNRATED_CSV, encoding="utf-8")
    err = refused(capsys, database, path, "csv")
    assert "none of its 2 players" in err, err
    assert "floor (1400)" in err, err


def test_a_fide_txt_of_unrated_players_only_is_refused(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        fixed(STANDARD_HEADER, {"ID Number": "45678901", "Name": "Low, L", "Fed": "FRA",
                                "Sex": "M", "SRtng": "1350", "SGm": "2", "SK": "40",
                                "B-day": "1999"}),
        fixed(STANDARD_HEADER, {"ID Number": "45678902", "Name": "Una, U", "Fed": "FRA",
                                "Sex": "F", "B-day": "1999"}),
    ]  # fmt: skip
    path = tmp_path / "unrated.txt"
    path.write_text("\n".join([STANDARD_HEADER, *rows]) + "\n", encoding="utf-8")
    err = refused(capsys, database, path, "fide-txt")
    assert "none of its 2 players" in err, err
