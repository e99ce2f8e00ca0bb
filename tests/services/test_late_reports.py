"""FIDE B.02 §9.1 (1 March 2024): a tournament not reported in time for the third list after
it ends is not rated, unless a rating officer rates it anyway with a reason, kept in the audit
log (issue 27 item 2). Hand-worked calendar: FIDE standard lists are monthly, the 2026-09 list
closing on 2026-08-29 (docs/rules.md §12): a tournament ending
2026-08-12 belongs to the 2026-09 list, so its third list is 2026-11; one ending 2026-08-31
belongs to 2026-10, its third list 2026-12."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from ratingdb.rules import Category, Period
from ratingdb.rules.calendar import last_list_for
from tests.services.test_a4_which_games_are_rated import BASELINE
from tests.support.cli import run_cli as cli
from tests.support.files import GAMES_HEADER
from tests.support.rolled_back import RolledBack


@pytest.mark.parametrize(
    ("end", "last"),
    [
        (date(2026, 8, 12), "2026-11"),
        (date(2026, 8, 31), "2026-12"),
        (date(2024, 3, 1), "2024-06"),  # the rule's first day
    ],
)
def test_the_third_list_after_the_end(end: date, last: str) -> None:
    found = last_list_for(Category.FIDE_STANDARD, end)
    assert found is not None
    assert found[0] == Period.parse(last)
    assert "§9.1" in found[1].source


def test_no_bound_before_2024_03_nor_for_the_national_list() -> None:
    assert last_list_for(Category.FIDE_STANDARD, date(2024, 2, 29)) is None
    assert last_list_for(Category.FFE_RAPID, date(2026, 8, 12)) is None


def games(end: str) -> str:
    return GAMES_HEADER + f"Late Open,2026-08-10,{end},1,1001,1002,1-0\n"


def publish_until(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], last: str) -> None:
    """The 2026-08 list imported, then every list to ``last`` closed (nothing to rate)."""
    (tmp_path / "baseline.csv").write_text(BASELINE, encoding="utf-8")
    assert cli(capsys, "lists", "import", str(tmp_path / "baseline.csv"), "--category",
               "fide-standard", "--period", "2026-08", url=url)[0] == 0  # fmt: skip
    period = Period.parse("2026-09")
    while period <= Period.parse(last):
        code, _, err = cli(capsys, "periods", "close", "--category", "fide-standard", "--period",
                           str(period), url=url)  # fmt: skip
        assert code == 0, err
        period = period.plus_months(1)


def test_a_report_after_the_third_list_is_refused_unless_an_officer_says_why(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_until(database.url, tmp_path, capsys, "2026-11")
    path = tmp_path / "late.csv"
    path.write_text(games("2026-08-12"), encoding="utf-8")
    code, out, err = cli(capsys, "tournaments", "import", str(path), "--category",
                         "fide-standard", url=database.url)  # fmt: skip
    assert (code, out) == (2, "")
    assert (
        "late_reason: the tournament ended on 2026-08-12: the last fide-standard list it may be "
        "rated on is 2026-11 (the third after its end), and the next open list is 2026-12; FIDE "
        "does not rate it (FIDE Handbook B.02 (1 Mar 2024) §9.1): give a reason to rate it anyway"
    ) in err
    assert database.rows("SELECT count(*) FROM tournaments") == [(0,)]
    code, out, err = cli(capsys, "tournaments", "import", str(path), "--category",
                         "fide-standard", "--late-reason", "arbiter in hospital; report "
                         "received 2026-11-30", url=database.url)  # fmt: skip
    assert code == 0, err
    imported = json.loads(out)
    assert (imported["period"], imported["late"]) == ("2026-12", True)
    audited = database.rows("SELECT details FROM audit_log WHERE action = 'tournament-import'")
    (details,) = audited[0]
    details = details if isinstance(details, dict) else json.loads(details)
    assert details["late_reason"] == "arbiter in hospital; report received 2026-11-30"


def test_in_time_for_the_third_list_a_late_report_is_rated(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ends 2026-08-31: its lists are 2026-10, 11, 12. With 2026-10 and 2026-11 out it goes to
    2026-12, late but in time."""
    publish_until(database.url, tmp_path, capsys, "2026-11")
    path = tmp_path / "in_time.csv"
    path.write_text(games("2026-08-31"), encoding="utf-8")
    code, out, err = cli(capsys, "tournaments", "import", str(path), "--category",
                         "fide-standard", url=database.url)  # fmt: skip
    assert code == 0, err
    assert (json.loads(out)["period"], json.loads(out)["late"]) == ("2026-12", True)
