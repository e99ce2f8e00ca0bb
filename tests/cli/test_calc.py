"""``ratingdb calc``: the contract's JSON in and out, and its refusals (exit 2, field named).

Expected numbers are worked by hand from FIDE table 8.1.2 (docs/rules.md §4) in the comments.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ratingdb.cli import main
from tests.support import forks


def run_calc(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], payload: Any
) -> tuple[int, Any, str]:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(["calc"])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if code == 0 else None), captured.err


TV05 = {
    "category": "fide-standard",
    "period": "2025-12",
    "player": {"rating": 2813, "k_factor": 10},
    "events": [
        {
            "start_date": "2025-11-07",
            "rating_used": 2813,
            "games": [
                {"opponent_rating": 1787, "score": 1},
                {"opponent_rating": 2025, "score": 1},
                {"opponent_rating": 2310, "score": 1},
                {"opponent_rating": 2400, "score": 1},
                {"opponent_rating": 2505, "score": 0.5},
            ],
        }
    ],
}


def test_tv05_published_calculation_of_a_2650_plus_player(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # D 1026, 788 -> 1.00 (over 735); 503 -> .96; 413 -> .93; 308 -> .86 (no cap from 2650).
    # Deltas 0, 0, +.04, +.07, -.36 = -0.25; K 10 -> -2.50 -> -3 (away from zero) -> 2810.
    code, out, _ = run_calc(monkeypatch, capsys, TV05)
    assert code == 0
    assert out["rule_version"] == "fide-standard-2025-10"
    assert out["k_factor"] == 10
    assert out["games"] == 5
    assert out["sum_delta"] == "-0.25"
    assert out["change"] == -3
    assert out["new_rating"] == 2810
    games = out["events"][0]["games"]
    assert [g["difference_used"] for g in games] == [1026, 788, 503, 413, 308]
    assert [g["expected"] for g in games] == ["1.00", "1.00", "0.96", "0.93", "0.86"]
    assert [g["delta"] for g in games] == ["0.00", "0.00", "0.04", "0.07", "-0.36"]


def test_same_games_before_october_2025_are_capped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Cap for everyone: the first four games at D 400 -> .92 -> +.08 x 4 = +.32, then -.36:
    # -0.04 x 10 = -0.40 -> 0.
    code, out, _ = run_calc(monkeypatch, capsys, {**TV05, "period": "2025-09"})
    assert code == 0
    assert out["rule_version"] == "fide-standard-2024-03"
    assert [g["difference_used"] for g in out["events"][0]["games"]][:4] == [400] * 4
    assert out["sum_delta"] == "-0.04"
    assert out["change"] == 0
    assert out["new_rating"] == 2813


def test_cap_forced_off_and_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # TV-09: own 2000, K 20: 1500:1, 1550:1, 1900:1/2. No cap: .96 .94 .64 -> -0.04 -> -0.80 -> -1.
    payload = {
        "category": "fide-standard",
        "period": "2024-06",
        "player": {"rating": 2000, "k_factor": 20},
        "events": [
            {
                "games": [
                    {"opponent_rating": 1500, "score": 1},
                    {"opponent_rating": 1550, "score": 1},
                    {"opponent_rating": 1900, "score": 0.5},
                ]
            }
        ],
        "cap": False,
    }
    code, out, _ = run_calc(monkeypatch, capsys, payload)
    assert code == 0
    assert out["change"] == -1
    # Cap on (2024 rule, every game): .92 .92 .64 -> +0.02 -> +0.40 -> 0.
    code, out, _ = run_calc(monkeypatch, capsys, {**payload, "cap": True})
    assert code == 0
    assert out["sum_delta"] == "0.02"
    assert out["change"] == 0


def test_sequential_mode_updates_the_rating_after_each_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The seed's 1500 player, K 20, with the table. Period mode: D 50 -> .57, -120 -> .34,
    # -80 -> .39: +.43 +.16 -.39 = +0.20 -> +4 -> 1504.
    # Sequential: 1500 vs 1450 win: +.43 x 20 = 8.6 -> +9 -> 1509; vs 1620 draw: D -111 -> .35,
    # +.15 x 20 = 3 -> 1512; vs 1580 loss: D -68 -> .41, -.41 x 20 = -8.2 -> -8 -> 1504.
    payload = {
        "category": "fide-standard",
        "period": "2026-12",
        "player": {"rating": 1500, "k_factor": 20},
        "events": [
            {
                "games": [
                    {"opponent_rating": 1450, "score": 1},
                    {"opponent_rating": 1620, "score": 0.5},
                    {"opponent_rating": 1580, "score": 0},
                ]
            }
        ],
    }
    code, out, _ = run_calc(monkeypatch, capsys, payload)
    assert code == 0
    assert (out["sum_delta"], out["change"], out["new_rating"]) == ("0.20", 4, 1504)
    code, out, _ = run_calc(monkeypatch, capsys, {**payload, "mode": "sequential"})
    assert code == 0
    games = out["events"][0]["games"]
    assert [g["rating_before"] for g in games] == [1500, 1509, 1512]
    assert [g["change"] for g in games] == [9, 3, -8]
    assert (out["change"], out["new_rating"]) == (4, 1504)


def test_formula_mode_reproduces_the_ffe_rapid_seed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Seed 003: 1500, K 20: 1450 win (E 0.5715), 1620 draw (0.3339), 1580 loss (0.3869).
    # 0.4285 + 0.1661 - 0.3869 = 0.2077; x 20 = 4.154 -> +4 -> 1504.
    payload = {
        "category": "ffe-rapid",
        "period": "2027-04",
        "player": {"rating": 1500, "k_factor": 20},
        "events": [
            {
                "games": [
                    {"opponent_rating": 1450, "score": 1},
                    {"opponent_rating": 1620, "score": 0.5},
                    {"opponent_rating": 1580, "score": 0},
                ]
            }
        ],
    }
    code, out, _ = run_calc(monkeypatch, capsys, payload)
    assert code == 0
    assert out["expected_method"] == "formula"
    assert [g["expected"] for g in out["events"][0]["games"]] == ["0.5715", "0.3339", "0.3869"]
    assert (out["sum_delta"], out["change"], out["new_rating"]) == ("0.2077", 4, 1504)


def test_unrated_player_gets_the_2024_first_rating(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # TV-07: Ra = (9507 + 3600) / 7 = 1872.43; p = 4/7 = .5714 -> .57 -> dp 50; Ru = 1922.
    games = [(1902, 0.5), (1877, 0.5), (1884, 1), (2012, 0), (1832, 1)]
    payload = {
        "category": "fide-standard",
        "period": "2025-12",
        "player": {"rating": None},
        "events": [{"games": [{"opponent_rating": o, "score": s} for o, s in games]}],
    }
    code, out, _ = run_calc(monkeypatch, capsys, payload)
    assert code == 0
    assert out["change"] is None
    assert out["initial_rating"] == 1922
    assert out["new_rating"] == 1922
    assert out["initial"]["opponents_average"] == "1872.43"
    assert (out["initial"]["p"], out["initial"]["dp"]) == ("0.57", 50)
    # Four games only: no rating, and the reason says why.
    payload["events"][0]["games"] = payload["events"][0]["games"][:4]  # type: ignore[index]
    code, out, _ = run_calc(monkeypatch, capsys, payload)
    assert code == 0
    assert out["initial_rating"] is None
    assert "5 needed" in out["reason"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({**TV05, "category": "fide-classic"}, "category"),
        ({**TV05, "period": "1999-12"}, "period"),
        ({**TV05, "period": "2025-13"}, "period"),
        ({**TV05, "player": {"rating": -5, "k_factor": 10}}, "player.rating"),
        ({**TV05, "player": {"rating": 2813, "k_factor": 10, "raitng": 1}}, "player.raitng"),
        (
            {**TV05, "events": [{"games": [{"opponent_rating": 1800, "score": 0.7}]}]},
            "events[0].games[0].score",
        ),
        (
            {**TV05, "events": [{"games": [{"opponent_rating": 1800, "score": True}]}]},
            "events[0].games[0].score",
        ),
        (
            {**TV05, "events": [{"games": [{"opponent_rating": -1, "score": 1}]}]},
            "events[0].games[0].opponent_rating",
        ),
        ({**TV05, "events": [{"games": [{"score": 1}]}]}, "events[0].games[0].opponent_rating"),
        ({**TV05, "events": [{"start_date": "07/11/2025", "games": []}]}, "events[0].start_date"),
        ({**TV05, "mode": "live"}, "mode"),
        ({**TV05, "expected": "logistic"}, "expected"),
        ({k: v for k, v in TV05.items() if k != "player"}, "player"),
    ],
)
def test_bad_input_exits_2_naming_the_field(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    payload: dict[str, Any],
    field: str,
) -> None:
    code, _, err = run_calc(monkeypatch, capsys, payload)
    assert code == 2
    assert f"{field}:" in err


def test_bad_json_names_line_and_column(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_calc(monkeypatch, capsys, '{"category": "fide-standard",\n "period" 1}')
    assert code == 2
    assert "<stdin>:2:" in err
    assert "bad JSON" in err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calc", str(tmp_path / "nope.json")]) == 2
    assert "nope.json" in capsys.readouterr().err


@pytest.mark.processes
def test_python_dash_m_reads_a_file(tmp_path: Path) -> None:
    request = tmp_path / "tv05.json"
    request.write_text(json.dumps(TV05), encoding="utf-8")
    done = forks.run(["calc", str(request)])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["new_rating"] == 2810
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**TV05, "category": "go"}), encoding="utf-8")
    done = forks.run(["calc", str(bad)])
    assert done.returncode == 2
    assert "bad.json: category: unknown category 'go'" in done.stderr


@pytest.mark.processes
@pytest.mark.parametrize("arguments", [["calc", "-"], ["calc"]])
def test_a_dash_or_no_file_reads_standard_input(arguments: list[str]) -> None:
    # The usual convention: "-" names standard input. TV-05 as above: 2813 -> 2810.
    completed = forks.run(arguments, stdin=json.dumps(TV05))
    assert completed.returncode == 0, completed.stderr
    out = json.loads(completed.stdout)
    assert (out["change"], out["new_rating"]) == (-3, 2810)


def test_a_month_without_a_list_exits_2_naming_period(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # FIDE standard lists were quarterly before July 2009: May 2009 has none (issue 15).
    payload = {**TV05, "period": "2009-05"}
    code, _, err = run_calc(monkeypatch, capsys, payload)
    assert code == 2
    assert "period: fide-standard has no list in 2009-05" in err
    assert "the lists around it are 2009-04 and 2009-07" in err


def _first(category: str, period: str, games: list[tuple[int, float]], **player: Any) -> Any:
    return {
        "category": category,
        "period": period,
        "player": {"rating": None, **player},
        "events": [{"games": [{"opponent_rating": o, "score": s} for o, s in games]}],
    }


#: Every first-rating method, worked by hand (docs/rules.md §9; table 8.1.2 for PD, table
#: 8.1.1 for dp), with the figures of its working.
FIRST_RATINGS = [
    # Rapid 2024-03, standard 1850, no rapid games: K 40. D +150 -> .70, -50 -> .43, -150 ->
    # .30; sum (1 - .70) + (.5 - .43) + (0 - .30) = +.07; 40 x .07 = 2.80 -> +3; 1850 + 3 = 1853.
    (
        _first("fide-rapid", "2024-03", [(1700, 1), (1900, 0.5), (2000, 0)],
               standard_rating=1850, rated_games=0),
        {"method": "standard_seed", "games": 3, "points": "1.5", "standard_rating": 1850,
         "k_factor": 40, "sum_delta": "0.07", "change": 3, "rating": 1853},
    ),
    # Standard 2025-12, five wins against 2300: Ra = (11500 + 3600) / 7 = 2157.14; p = 6 / 7 =
    # .857 -> .86 -> dp 309; 2466.14 -> 2466, at most 2200.
    (
        _first("fide-standard", "2025-12", [(2300, 1)] * 5),
        {"method": "hypothetical_draws_1800", "games": 5, "points": "5.0",
         "opponents_total": 11500, "opponents_average": "2157.14", "p": "0.86", "dp": 309,
         "unrounded": "2466.14", "capped_at": 2200, "rating": 2200},
    ),
    # Blitz 2016-02, 1500 to 1900, 1.5 points: Ra = 8500 / 5 = 1700.00; p .30 -> dp -149;
    # 1551.00 -> 1551.
    (
        _first("fide-blitz", "2016-02", [(1500, 1), (1600, 0.5), (1700, 0), (1800, 0),
                                         (1900, 0)]),
        {"method": "ra_plus_20", "games": 5, "points": "1.5", "opponents_total": 8500,
         "opponents_average": "1700.00", "p": "0.30", "dp": -149, "unrounded": "1551.00",
         "rating": 1551},
    ),
    # Standard 2013-02, 1600 to 2000 by 50, 6 points of 9: Ra = 16200 / 9 = 1800.00; 2 x 6 - 9
    # = 3 half points above 50 % x 12.5 = +37.5; 1837.50 rounded half up -> 1838.
    (
        _first("fide-standard", "2013-02",
               [(1550 + 50 * i, 1 if i <= 6 else 0) for i in range(1, 10)]),
        {"method": "ra_plus_12_5", "games": 9, "points": "6.0", "opponents_total": 16200,
         "opponents_average": "1800.00", "half_points_above": 3, "bonus": "37.5",
         "unrounded": "1837.50", "rating": 1838},
    ),
    # Standard 2016-01 (ra_plus_20), exactly 50 %: 2.5 of 5 against 1800 to 2200, Ra = 10000 / 5
    # = 2000.00; p .50, dp 0; Ru = Ra = 2000.
    (
        _first("fide-standard", "2016-01", [(1800, 1), (1900, 0.5), (2000, 0.5), (2100, 0.5),
                                            (2200, 0)]),
        {"method": "ra_plus_20", "games": 5, "points": "2.5", "opponents_total": 10000,
         "opponents_average": "2000.00", "p": "0.50", "dp": 0, "unrounded": "2000.00",
         "rating": 2000},
    ),
]  # fmt: skip


@pytest.mark.parametrize(("payload", "figures"), FIRST_RATINGS)
def test_each_first_rating_method_gives_its_working(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    payload: Any,
    figures: dict[str, Any],
) -> None:
    code, out, _ = run_calc(monkeypatch, capsys, payload)
    assert code == 0
    assert out["initial_rating"] == out["new_rating"] == figures["rating"]
    working = out["initial"]
    assert set(working) == {
        "method", "games", "points", "opponents_total", "opponents_average", "p", "dp",
        "half_points_above", "bonus", "unrounded", "capped_at", "standard_rating", "k_factor",
        "sum_delta", "change", "rating",
    }  # fmt: skip
    # The method's own figures; every other one is null.
    assert working == {**dict.fromkeys(working), **figures}
