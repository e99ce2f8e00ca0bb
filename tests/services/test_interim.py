"""Interim ratings (issue 28 item 7): a player's rating as if the open period closed now,
computed by the close's own loading and arithmetic for the players asked for, nothing written.

Hand-worked (FIDE standard, rules of 2024: K 20 below 2400 for an adult with 30 games or more,
PD from table 8.1.2, /work/shared/spec/rules.md §7.1; the change rounded once for the period).
The 2026-08 list rates Anna 1850, Bob 1920, Gus 1780 and Dan 2010 (K 20, 60 games each). The
Summer Open (2026-08-10 to 2026-08-12) goes to the 2026-09 list (closing 2026-08-29), the open
period. Anna beats Bob, draws Gus and loses to Dan:

- Anna vs Bob: D = 1850 - 1920 = -70, |D| 69-76: PD_L 0.40; score 1: +0.60
- Anna vs Gus: D = +70: PD_H 0.60; score 0.5: -0.10
- Anna vs Dan: D = -160, |D| 154-162: PD_L 0.29; score 0: -0.29
- Anna: sum 0.60 - 0.10 - 0.29 = +0.21; K 20 x 0.21 = 4.2, rounded: +4; 1850 -> 1854.
- Bob vs Anna: D = +70: PD_H 0.60; score 0: -0.60; 20 x -0.60 = -12; 1920 -> 1908.
- Gus vs Anna: D = -70: PD_L 0.40; score 0.5: +0.10; 20 x 0.10 = 2; 1780 -> 1782.
- Dan vs Anna: D = +160: PD_H 0.71; score 1: +0.29; 20 x 0.29 = 5.8, rounded: +6; 2010 -> 2016.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import func, select

from ratingdb.models import RatingListRow
from ratingdb.rules import Category, Period
from ratingdb.services.interim import interim_ratings, player_interims
from tests.support.calculations import stored_calculations
from tests.support.cli import run_cli as cli
from tests.support.factories import BASELINE, games_csv
from tests.support.rolled_back import RolledBack

SUMMER_OPEN = games_csv(
    "Summer Open,2026-08-10,2026-08-12,1,1001,1002,1-0",
    "Summer Open,2026-08-10,2026-08-12,2,1003,1001,1/2-1/2",
    "Summer Open,2026-08-10,2026-08-12,3,1004,1001,1-0",
)
#: (rating, change) of each player on the interim, worked by hand above.
BY_HAND = {"1001": (1854, 4), "1002": (1908, -12), "1003": (1782, 2), "1004": (2016, 6)}


def _ok(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> str:
    code, out, err = cli(capsys, *args, url=url)
    assert code == 0, err
    return out


def set_up(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The 2026-08 list, then the Summer Open accepted into the open 2026-09 period."""
    (tmp_path / "baseline.csv").write_text(BASELINE, encoding="utf-8")
    (tmp_path / "open.csv").write_text(SUMMER_OPEN, encoding="utf-8")
    _ok(capsys, url, "lists", "import", str(tmp_path / "baseline.csv"), "--category",
        "fide-standard", "--period", "2026-08")  # fmt: skip
    _ok(capsys, url, "tournaments", "import", str(tmp_path / "open.csv"), "--category",
        "fide-standard")  # fmt: skip


def test_interim_worked_by_hand_then_published_the_same(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_up(database.url, tmp_path, capsys)
    with database.sessions() as session:
        found = interim_ratings(session, ["1001", "1002", "1003", "1004", "1005"])
        lists_before = session.scalar(select(func.count()).select_from(RatingListRow))
        calculations = len(stored_calculations(session))
    assert set(found) == {Category.FIDE_STANDARD}
    interims = found[Category.FIDE_STANDARD]
    assert "1005" not in interims  # Nina played no game in the open period
    assert {p: (i.calculation.rating, i.calculation.change) for p, i in interims.items()} == BY_HAND
    anna = interims["1001"]
    assert anna.official is False
    assert anna.period == Period.parse("2026-09")
    assert anna.as_of.name == "Summer Open"
    calc = anna.calculation
    assert (calc.previous_rating, calc.k_factor, calc.sum_delta) == (1850, 20, Decimal("0.21"))
    assert [(g.round, g.opponent_name, g.difference_used, g.expected, g.score, g.delta)
            for g in calc.games] == [
        (1, "Bob, B", -70, Decimal("0.40"), Decimal("1"), Decimal("0.60")),
        (2, "Gus, G", 70, Decimal("0.60"), Decimal("0.5"), Decimal("-0.10")),
        (3, "Dan, D", -160, Decimal("0.29"), Decimal("0"), Decimal("-0.29")),
    ]  # fmt: skip
    # Nothing written: one list (the imported one), no calculation.
    assert (lists_before, calculations) == (1, 0)

    # Consistency: publishing the period gives what the interim said.
    out = _ok(capsys, database.url, "lists", "export", "--category", "fide-standard",
              "--period", "2026-08", "--format", "json")  # fmt: skip
    assert json.loads(out)["period"] == "2026-08"
    _ok(capsys, database.url, "periods", "close", "--category", "fide-standard", "--period",
        "2026-09")  # fmt: skip
    out = _ok(capsys, database.url, "lists", "export", "--category", "fide-standard",
              "--period", "2026-09", "--format", "json")  # fmt: skip
    published = {e["player_id"]: (e["rating"], e["change"]) for e in json.loads(out)["entries"]}
    assert {p: published[p] for p in BY_HAND} == BY_HAND
    # Once published, the next period (2026-10) is open and holds no game: no interim.
    with database.sessions() as session:
        assert interim_ratings(session, list(BY_HAND)) == {}
        assert player_interims(session, "1001") == ()


def test_no_games_in_the_open_period_no_interim(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_up(database.url, tmp_path, capsys)
    with database.sessions() as session:
        assert player_interims(session, "1005") == ()
        (anna,) = player_interims(session, "1001")
        assert anna.category is Category.FIDE_STANDARD
        assert interim_ratings(session, ["1001"], [Category.FIDE_RAPID]) == {}
