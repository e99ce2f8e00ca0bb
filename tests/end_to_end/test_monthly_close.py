"""End to end, through the commands a federation runs: ``db upgrade``, a baseline list, four
tournaments over three months (one of them late), ``python -m jobs run close-periods --now``
across the cut-offs, and the exported lists checked against numbers worked by hand.

Every expected number is worked below from FIDE table 8.1.2 (docs/rules.md §4.1); the rules in
force are fide-standard-2025-10 (K 40/20/10, junior K 40, cap 400 below 2650, rounding once per
period half away from zero, first rating with two draws against 1800). Closing dates: list
2026-09 -> 2026-08-29, 2026-10 -> 2026-09-28, 2026-11 -> 2026-10-29.

Baseline list 2026-08: Anna 1001 1850, Bob 1002 1920, Gus 1003 1780, Dan 1004 2010 (adults,
60 games: K 20); Jo 1005 1650 born 2012, 10 games (junior: K 40); Max 1006 2450, peak 2450
(K 10 for good); Nina 1007 unrated.

Period 2026-09, tournament A (2026-08-10..12, ratings of the 2026-08 list):
  Anna-Bob 1-0, Gus-Dan 1/2, Jo-Max 0-1, Bob-Gus 1-0, Dan-Jo 0-1, Max-Anna +- (forfeit).
  Anna: D -70 -> .40, +.60; x20 = 12 -> 1862 (the forfeit is not rated: 1 game).
  Bob: D +70 -> .60, -.60; D +140 -> .69, +.31; -0.29 x20 = -5.8 -> -6 -> 1914.
  Gus: D -230 -> .21, +.29; D -140 -> .31, -.31; -0.02 x20 = -0.4 -> 0 -> 1780.
  Dan: D +230 -> .79, -.29; D +360 -> .90, -.90; -1.19 x20 = -23.8 -> -24 -> 1986.
  Jo: D -800 capped -400 -> .08, -.08; D -360 -> .10, +.90; +0.82 x40 = 32.8 -> +33 -> 1683.
  Max: D +800 capped 400 -> .92, +.08; x10 = 0.8 -> +1 -> 2451.
Period 2026-10: tournament B (2026-09-05..06, ratings of the 2026-09 list) and the late
tournament D (2026-08-18..20, imported after 2026-09 was published: rated on 2026-10 with the
ratings of the 2026-08 list in force at its start).
  B: Nina-Anna 1/2, Bob-Nina 1/2, Nina-Gus 1-0, Dan-Nina 1-0, Nina-Jo 1-0, Dan-Max 1/2.
  Nina: opponents 1862 + 1914 + 1780 + 1986 + 1683 = 9225, 3 points in 5 games:
    Ra = (9225 + 3600) / 7 = 1832.14; p = 4/7 = .57 -> dp 50; 1882.14 -> first rating 1882.
  Games against Nina (unrated at the start) change nothing for the rated players.
  Dan: vs Max D -465 capped -400 -> .08, +.42; x20 = 8.4 -> +8 -> 1994.
  Max: D +465 capped 400 -> .92, -.42;
    x10 = -4.2 -> -4 -> 2447.
  D: Gus-Bob 1-0 with 2026-08 ratings 1780 and 1920: Gus D -140 -> .31, +.69; x20 = 13.8 ->
    +14 -> 1780 + 14 = 1794.  Bob: D +140 -> .69, -.69 -> -13.8 -> -14 -> 1914 - 14 = 1900.
Period 2026-11, tournament C (2026-10-10..11, ratings of the 2026-10 list):
  Nina-Jo 0-1, Anna-Max 1/2, Jo-Anna 1/2.
  Nina (K 40, 5 games): D +199 -> .76, -.76; x40 = -30.4 -> -30 -> 1852.
  Jo: D -199 -> .24, +.76; D -179 -> .27, +.23; +0.99 x40 = 39.6 -> +40 -> 1723.
  Anna: D -585 capped -400 -> .08, +.42; D +179 -> .73, -.23; +0.19 x20 = 3.8 -> +4 -> 1866.
  Max: D +585 capped 400 -> .92, -.42; x10 = -4.2 -> -4 -> 2443.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_process as run
from tests.support.factories import ANNA, BOB, DAN, GUS, list_csv
from tests.support.files import GAMES_HEADER as HEADER

# Slow: a few dozen `python -m ratingdb` and `python -m jobs` processes.
pytestmark = pytest.mark.slow

BASELINE = list_csv(
    ANNA,
    BOB,
    GUS,
    DAN,
    '1005,"Jo, J",FRA,F,2012,,1650,10,1650,40',
    '1006,"Max, M",FRA,M,1995,IM,2450,300,2450,10',
    '1007,"Nina, N",FRA,F,2001,,,,,',
)
A = HEADER + "\n".join(
    f"A,2026-08-10,2026-08-12,{r},{w},{b},{res}"
    for r, w, b, res in [
        (1, 1001, 1002, "1-0"),
        (1, 1003, 1004, "1/2-1/2"),
        (1, 1005, 1006, "0-1"),
        (2, 1002, 1003, "1-0"),
        (2, 1004, 1005, "0-1"),
        (2, 1006, 1001, "+-"),
    ]
)
B = HEADER + "\n".join(
    f"B,2026-09-05,2026-09-06,{r},{w},{b},{res}"
    for r, w, b, res in [
        (1, 1007, 1001, "1/2-1/2"),
        (1, 1004, 1006, "1/2-1/2"),
        (2, 1002, 1007, "1/2-1/2"),
        (3, 1007, 1003, "1-0"),
        (4, 1004, 1007, "1-0"),
        (5, 1007, 1005, "1-0"),
    ]
)
C = HEADER + "\n".join(
    f"C,2026-10-10,2026-10-11,{r},{w},{b},{res}"
    for r, w, b, res in [
        (1, 1007, 1005, "0-1"),
        (1, 1001, 1006, "1/2-1/2"),
        (2, 1005, 1001, "1/2-1/2"),
    ]
)
D = HEADER + "D,2026-08-18,2026-08-20,1,1003,1002,1-0\n"


def exported(url: str, period: str) -> dict[str, Any]:
    text = run("lists", "export", "--category", "fide-standard", "--period", period,
               "--format", "json", url=url)  # fmt: skip
    document = json.loads(text)
    assert document["period"] == period
    return {e["player_id"]: e for e in document["entries"]} | {"_order": document["entries"]}


def table(entries: dict[str, Any]) -> list[tuple[str, int, int | None, int | None, int, int]]:
    return [
        (e["player_id"], e["rating"], e["previous_rating"], e["change"], e["games"], e["k_factor"])
        for e in entries["_order"]
    ]


def test_a_federation_month_by_month(empty_database_url: str, tmp_path: Path) -> None:
    url = empty_database_url
    files = {}
    for name, text in {"baseline.csv": BASELINE, "A.csv": A, "B.csv": B, "C.csv": C,
                       "D.csv": D}.items():  # fmt: skip
        files[name] = tmp_path / name
        files[name].write_text(text, encoding="utf-8")

    run("db", "upgrade", url=url)
    run("lists", "import", str(files["baseline.csv"]), "--category", "fide-standard",
        "--period", "2026-08", url=url)  # fmt: skip
    imported = json.loads(run("tournaments", "import", str(files["A.csv"]), "--category",
                              "fide-standard", url=url))  # fmt: skip
    assert imported == {"tournament_id": "T000001", "period": "2026-09", "late": False,
                        "games": 6, "rated_games": 5}  # fmt: skip

    closed = run("run", "close-periods", "--now", "2026-09-01T00:30:00+00:00", url=url,
                 module="jobs")  # fmt: skip
    assert [json.loads(line)["period"] for line in closed.splitlines()] == ["2026-09"]

    september = exported(url, "2026-09")
    assert table(september) == [
        ("1006", 2451, 2450, 1, 1, 10),
        ("1004", 1986, 2010, -24, 2, 20),
        ("1002", 1914, 1920, -6, 2, 20),
        ("1001", 1862, 1850, 12, 1, 20),
        ("1003", 1780, 1780, 0, 2, 20),
        ("1005", 1683, 1650, 33, 2, 40),
    ]

    for name, period, late in (("B.csv", "2026-10", False), ("D.csv", "2026-10", True),
                               ("C.csv", "2026-11", False)):  # fmt: skip
        result = json.loads(run("tournaments", "import", str(files[name]), "--category",
                                "fide-standard", url=url))  # fmt: skip
        assert (result["period"], result["late"]) == (period, late), name

    closed = run("run", "close-periods", "--now", "2026-11-01T00:30:00+00:00", url=url,
                 module="jobs")  # fmt: skip
    assert [json.loads(line)["period"] for line in closed.splitlines()] == ["2026-10", "2026-11"]

    october = exported(url, "2026-10")
    assert table(october) == [
        ("1006", 2447, 2451, -4, 1, 10),
        ("1004", 1994, 1986, 8, 1, 20),
        ("1002", 1900, 1914, -14, 1, 20),
        ("1007", 1882, None, None, 5, 40),
        ("1001", 1862, 1862, 0, 0, 20),
        ("1003", 1794, 1780, 14, 1, 20),
        ("1005", 1683, 1683, 0, 0, 40),
    ]
    november = exported(url, "2026-11")
    assert table(november) == [
        ("1006", 2443, 2447, -4, 1, 10),
        ("1004", 1994, 1994, 0, 0, 20),
        ("1002", 1900, 1900, 0, 0, 20),
        ("1001", 1866, 1862, 4, 2, 20),
        ("1007", 1852, 1882, -30, 1, 40),
        ("1003", 1794, 1794, 0, 0, 20),
        ("1005", 1723, 1683, 40, 2, 40),
    ]
    csv_text = run("lists", "export", "--category", "fide-standard", "--period", "2026-11",
                   "--format", "csv", url=url)  # fmt: skip
    rows = {line.split(",")[0]: line for line in csv_text.splitlines()[1:]}
    # Anna: 60 + 1 (September) + 0 + 2 (November) rated games; Nina: 5 + 1. Then the month's
    # change and games: Anna +4 in 2 games, Nina -30 in 1.
    assert rows["1001"].endswith(",1866,63,1866,20,1,4,2")
    assert rows["1007"].endswith(",1852,6,1882,40,1,-30,1")

    # Nothing more is due, and closing a published period again changes nothing.
    assert run("run", "close-periods", "--now", "2026-11-01T00:30:00+00:00", url=url,
               module="jobs") == ""  # fmt: skip
    again = json.loads(run("periods", "close", "--category", "fide-standard", "--period",
                           "2026-11", url=url))  # fmt: skip
    assert again["state"] == "already-published"
    assert table(exported(url, "2026-11")) == table(november)
