"""A period's calculation event by event (issue 29, FIDE's calculation pages): the numbers are
the scenario's, worked by hand in tests/api/scenario.py and FIDE table 8.1.2
(fide-standard-2025-10) as tests/end_to_end/test_monthly_close.py works them.

- Anna, 2026-11, tournament C: vs Max .08, score .5, +.42; vs Jo .73, score .5, -.23:
  2 games, 1 point, expected .81, sum +.19, K 20 -> 3.80 (the change: +4), her 1862 used.
- Bob, 2026-10: tournament D (2026-08, reported late and rated in 2026-10 with the ratings of
  the 2026-08 list in force at its start): vs Gus D 1920 - 1780 = +140 -> .69, score 0,
  -.69 x 20 = -13.80 (the change: -14), his 1920 used, not the 1914 of the list before the
  period; tournament B, his draw with Nina (unrated then): stored, not rated, nothing added.
- Jo, 2026-09, tournament A: .08 + .10 = .18 expected, 1 point, +.82 x 40 = 32.80 (+33).
- Nina, 2026-10, tournament B: her first rating, 5 games and 3 points, no expected score and
  no K (worked from her opponents' average instead).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from ratingdb.db import make_read_only_engine, read_only_session
from ratingdb.rules import Category, Period
from ratingdb.services import published as svc
from tests.api.scenario import TOURNAMENTS

D = Decimal


def subtotals(url: str, player_id: str, period: str) -> dict[str, tuple[object, ...]]:
    engine = make_read_only_engine(url)
    try:
        with read_only_session(engine) as session:
            calc = svc.calculation(session, player_id, Category.FIDE_STANDARD, Period.parse(period))
    finally:
        engine.dispose()
    return {
        s.tournament_id: (
            s.games, s.not_rated, s.points, s.expected, s.sum_delta, s.change, s.rating_used,
        )
        for s in svc.tournament_subtotals(calc)
    }  # fmt: skip


def test_one_event_two_games(scenario_url: str) -> None:
    assert subtotals(scenario_url, "1001", "2026-11") == {
        TOURNAMENTS["C"]: (2, 0, D("1.0"), D("0.81"), D("0.19"), D("3.80"), 1862),
    }
    assert subtotals(scenario_url, "1005", "2026-09") == {
        TOURNAMENTS["A"]: (2, 0, D("1"), D("0.18"), D("0.82"), D("32.80"), 1650),
    }


def test_two_events_one_not_rated(scenario_url: str) -> None:
    assert subtotals(scenario_url, "1002", "2026-10") == {
        TOURNAMENTS["D"]: (1, 0, D("0"), D("0.69"), D("-0.69"), D("-13.80"), 1920),
        TOURNAMENTS["B"]: (0, 1, D("0"), None, None, None, None),
    }


def test_a_first_rating_has_no_expected_score(scenario_url: str) -> None:
    assert subtotals(scenario_url, "1007", "2026-10") == {
        TOURNAMENTS["B"]: (5, 0, D("3.0"), None, None, None, None),
    }


def _line(event: str, score: str, expected: str, rating_used: int) -> svc.GameLine:
    return svc.GameLine(
        tournament_id=event, tournament_name=event, start_date=date(2026, 10, 1), round=1,
        opponent_id="9", opponent_name="X", rating_used=rating_used, opponent_rating=1800,
        difference=0, difference_used=0, expected=D(expected), score=D(score),
        delta=D(score) - D(expected), rated=True, reason=None,
    )  # fmt: skip


def test_events_in_order_and_ratings_used_listed() -> None:
    """Pure: two events in the order of their first game; an event whose games used two
    ratings of the player (a correction, say) names both and no single one."""
    games = (
        _line("Y", "1", "0.50", 1900),
        _line("X", "0", "0.36", 1900),
        _line("Y", "0.5", "0.64", 1910),
    )
    calc = svc.PeriodCalculation(
        category=Category.FIDE_STANDARD, period=Period.parse("2026-11"), revision=1,
        rule_version="fide-standard-2025-10", previous_rating=1900, rating=1900,
        original_rating=1900, change=0, k_factor=20, next_k_factor=20, sum_delta=D("0"),
        first_rating=False, games=games,
    )  # fmt: skip
    found = svc.tournament_subtotals(calc)
    assert [(s.tournament_id, s.games, s.points, s.expected) for s in found] == [
        ("Y", 2, D("1.5"), D("1.14")),
        ("X", 1, D("0"), D("0.36")),
    ]
    # Y: 1.5 - 1.14 = +.36, x 20 = 7.20; X: -.36 x 20 = -7.20.
    assert [(s.sum_delta, s.change) for s in found] == [
        (D("0.36"), D("7.20")),
        (D("-0.36"), D("-7.20")),
    ]
    assert (found[0].rating_used, found[0].ratings_used) == (None, (1900, 1910))
    assert (found[1].rating_used, found[1].ratings_used) == (1900, (1900,))
    assert svc.ratings_used(calc) == (1900, 1910)
