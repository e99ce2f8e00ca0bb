"""The worked examples of the seeds (/work/shared/seeds/, French), checked with literals.

* 002: a 1848-rated player's six games before 1 July 2009 (K 25 under 30 games, 350-point rule,
  quarterly lists): deltas 0.24, -0.22, 0.72, 0.23, -0.22, 0.17, sum 0.92, K x sum = 23.
* 003: the FFE rapid rating's example, a 1500-rated player's three games with the logistic
  formula and K 20: about +4 -> 1504.
* 000: "avec 100 points d'avance environ 0,64, avec 200 environ 0,76", "environ 0,91 à 400".
"""

from __future__ import annotations

from decimal import Decimal

from ratingdb.rules import (
    Category,
    Event,
    ExpectedScoreMethod,
    Game,
    Period,
    PeriodRules,
    PlayerStatus,
    Score,
    expected_score,
    probability_from_table,
    rate_player,
)
from ratingdb.rules.calculator import CalculatorRequest, Mode, calculate

_SCORES = {"1": Score.WIN, "=": Score.DRAW, "0": Score.LOSS}


def g(opponent: int, score: str) -> Game:
    return Game(opponent, _SCORES[score])


# --- Seed 002: the 1848 player, period 2009-04 ------------------------------------------------

SEED_002_GAMES = (
    g(2035, "="),
    g(2071, "0"),
    g(2015, "1"),
    g(2024, "="),
    g(2067, "0"),
    g(1571, "1"),
)


def test_seed_002_six_games_before_july_2009() -> None:
    # Fewer than 30 games since the first rating -> K 25 (the pre-July-2009 rules).
    # 2035 D -187 (180-188) PD_L .26, draw -> +0.24
    # 2071 D -223 (216-225) .22, loss     -> -0.22
    # 2015 D -167 (163-170) .28, win      -> +0.72
    # 2024 D -176 (171-179) .27, draw     -> +0.23
    # 2067 D -219 (216-225) .22, loss     -> -0.22
    # 1571 D +277 (268-278) PD_H .83, win -> +0.17
    # Sum +0.92; 25 x 0.92 = 23.00 -> +23 -> 1871. (K x each: 6, -5.5, 18, 5.75, -5.5, 4.25.)
    rules = PeriodRules.for_period(Category.FIDE_STANDARD, Period(2009, 4))
    assert rules.version.name == "fide-standard-2000-01"
    assert rules.version.difference_cap == 350
    status = PlayerStatus(rating=1848, rated_games=10)
    result = rate_player(rules, status, [Event(SEED_002_GAMES)])
    games = result.events[0].games
    assert [c.difference for c in games] == [-187, -223, -167, -176, -219, 277]
    assert [c.expected for c in games] == [
        Decimal(x) for x in ("0.26", "0.22", "0.28", "0.27", "0.22", "0.83")
    ]
    assert [c.delta for c in games] == [
        Decimal(x) for x in ("0.24", "-0.22", "0.72", "0.23", "-0.22", "0.17")
    ]
    assert [25 * c.delta for c in games if c.delta is not None] == [
        Decimal(x) for x in ("6.00", "-5.50", "18.00", "5.75", "-5.50", "4.25")
    ]
    assert result.sum_delta == Decimal("0.92")
    assert result.k_status == 25
    assert result.k_factor == 25
    assert result.change == 23
    assert result.new_rating == 1871


def test_seed_002_seed_step_3_formula_is_the_same_delta() -> None:
    # The seed writes the delta as (P(D) - (1 - score)) x K with P(D) the opponent's side:
    # 2035: (0.74 - 0.5) x 25 = 6; 2071: (0.78 - 1) x 25 = -5.5: equal to score - PD of ours.
    assert probability_from_table(2035 - 1848) == Decimal("0.74")
    assert probability_from_table(2071 - 1848) == Decimal("0.78")
    assert probability_from_table(1848 - 2035) == Decimal("0.26")
    assert probability_from_table(1848 - 2071) == Decimal("0.22")


# --- Seed 003: the 1500 player, logistic formula, K 20 ---------------------------------------
#
# E = 1 / (1 + 10^((opponent - own) / 400)), rounded to 4 decimals half up (hand arithmetic,
# ln 10 = 2.302585):
# * 1450: 10^(-50/400) = 10^-0.125 = e^-0.287823 = 0.749894; 1 / 1.749894 = 0.571463 -> 0.5715
# * 1620: 10^(120/400) = 10^0.3 = 1.995262; 1 / 2.995262 = 0.333861 -> 0.3339
#   (higher side: 10^-0.3 = 0.501187, 1 / 1.501187 = 0.666139 -> 0.6661, 1 - 0.6661 = 0.3339)
# * 1580: 10^(80/400) = 10^0.2 = 1.584893; 1 / 2.584893 = 0.386863 -> 0.3869
#   (higher side: 10^-0.2 = 0.630957, 1 / 1.630957 = 0.613137 -> 0.6131, 1 - 0.6131 = 0.3869)
# Deltas: 1 - 0.5715 = +0.4285; 0.5 - 0.3339 = +0.1661; 0 - 0.3869 = -0.3869; sum +0.2077.
# K 20: +8.570, +3.322, -7.738 (the seed prints +8.6, +3.3, -7.7); 20 x 0.2077 = 4.154 -> +4.

SEED_003_GAMES = (g(1450, "1"), g(1620, "="), g(1580, "0"))
SEED_003_PD = [Decimal("0.5715"), Decimal("0.3339"), Decimal("0.3869")]
SEED_003_DELTAS = [Decimal("0.4285"), Decimal("0.1661"), Decimal("-0.3869")]


def test_seed_003_formula_example_via_the_calculator() -> None:
    request = CalculatorRequest(
        category=Category.FFE_RAPID,
        period=Period(2027, 4),  # "Rapide Avril 2027"
        player=PlayerStatus(rating=1500, k_factor=20),
        events=(Event(SEED_003_GAMES),),
        expected=ExpectedScoreMethod.FORMULA,
    )
    out = calculate(request)
    games = out.result.events[0].games
    assert [c.expected for c in games] == SEED_003_PD
    assert [c.delta for c in games] == SEED_003_DELTAS
    assert out.result.sum_delta == Decimal("0.2077")
    assert out.result.k_factor == 20
    assert [20 * c.delta for c in games if c.delta is not None] == [
        Decimal("8.5700"),
        Decimal("3.3220"),
        Decimal("-7.7380"),
    ]
    assert out.change == 4
    assert out.new_rating == 1504
    # Performance (Title Regulations 1.4.7-1.4.9): Ra = (1450 + 1620 + 1580) / 3 = 1550;
    # p = 1.5 / 3 = .50 -> dp 0 -> 1550.
    assert out.performance == 1550


def test_seed_003_same_example_on_a_fide_category_with_the_formula_option() -> None:
    request = CalculatorRequest(
        category=Category.FIDE_RAPID,
        period=Period(2027, 4),
        player=PlayerStatus(rating=1500, k_factor=20),
        events=(Event(SEED_003_GAMES),),
        expected=ExpectedScoreMethod.FORMULA,
    )
    out = calculate(request)
    assert [c.expected for c in out.result.events[0].games] == SEED_003_PD
    assert out.change == 4
    assert out.new_rating == 1504


def test_seed_003_ffe_rapid_version_uses_the_formula_by_default() -> None:
    # A1: the FFE rapid version ships with expected: formula, K as FIDE's.
    rules = PeriodRules.for_period(Category.FFE_RAPID, Period(2027, 4))
    assert rules.version.expected is ExpectedScoreMethod.FORMULA
    result = rate_player(rules, PlayerStatus(rating=1500, k_factor=20), [Event(SEED_003_GAMES)])
    assert [c.expected for c in result.events[0].games] == SEED_003_PD
    assert result.change == 4
    assert result.new_rating == 1504


def test_seed_003_with_the_table_instead() -> None:
    # Table: 1450 D 50 (47-53) .57 +0.43; 1620 D -120 (114-121) .34 +0.16; 1580 D -80 (77-83)
    # .39 -0.39; sum +0.20; 20 x 0.20 = 4.00 -> +4 -> 1504 as well.
    request = CalculatorRequest(
        category=Category.FFE_RAPID,
        period=Period(2027, 4),
        player=PlayerStatus(rating=1500, k_factor=20),
        events=(Event(SEED_003_GAMES),),
        expected=ExpectedScoreMethod.TABLE,
    )
    out = calculate(request)
    assert [c.expected for c in out.result.events[0].games] == [
        Decimal("0.57"),
        Decimal("0.34"),
        Decimal("0.39"),
    ]
    assert out.result.sum_delta == Decimal("0.20")
    assert out.change == 4


def test_seed_003_sequential_mode() -> None:
    # "À la suite" (seed 000): rating updated after each game, each change rounded.
    # 1500 vs 1450 W: 20 x 0.4285 = 8.57 -> +9 -> 1509.
    # 1509 vs 1620 D: D -111; 10^(111/400) = 10^0.2775 = 1.894524; 1 / 2.894524 = 0.345480
    #   -> 0.3455 (higher side 0.654520 -> 0.6545, 1 - 0.6545 = 0.3455);
    #   20 x 0.1545 = 3.09 -> +3 -> 1512.
    # 1512 vs 1580 L: D -68; 10^0.17 = 1.479108; 1 / 2.479108 = 0.403371 -> 0.4034;
    #   20 x -0.4034 = -8.068 -> -8 -> 1504.
    request = CalculatorRequest(
        category=Category.FFE_RAPID,
        period=Period(2027, 4),
        player=PlayerStatus(rating=1500, k_factor=20),
        events=(Event(SEED_003_GAMES),),
        mode=Mode.SEQUENTIAL,
        expected=ExpectedScoreMethod.FORMULA,
    )
    out = calculate(request)
    assert [(s.rating_before, s.change) for s in out.steps] == [(1500, 9), (1509, 3), (1512, -8)]
    assert out.change == 4
    assert out.new_rating == 1504


# --- Seed 000: "100 points apart -> about 0.64" ----------------------------------------------


def test_seed_000_hundred_points_apart_about_064() -> None:
    # 10^(-100/400) = 10^-0.25 = 0.562341; 1 / 1.562341 = 0.640065 -> 0.6401; table D 100 -> .64.
    assert expected_score(100, ExpectedScoreMethod.FORMULA, 4) == Decimal("0.6401")
    assert expected_score(100, ExpectedScoreMethod.TABLE) == Decimal("0.64")
    assert expected_score(-100, ExpectedScoreMethod.FORMULA, 4) == Decimal("0.3599")


def test_seed_000_two_hundred_and_four_hundred_points() -> None:
    # 200: 10^-0.5 = 0.316228; 1 / 1.316228 = 0.759747 -> 0.7597; table (198-206) .76.
    # 400: 10^-1 = 0.1; 1 / 1.1 = 0.909091 -> 0.9091; table (392-411) .92 (B §3.3).
    assert expected_score(200, ExpectedScoreMethod.FORMULA, 4) == Decimal("0.7597")
    assert expected_score(200, ExpectedScoreMethod.TABLE) == Decimal("0.76")
    assert expected_score(400, ExpectedScoreMethod.FORMULA, 4) == Decimal("0.9091")
    assert expected_score(400, ExpectedScoreMethod.TABLE) == Decimal("0.92")
    # Equal ratings: exactly 0.5 both ways.
    assert expected_score(0, ExpectedScoreMethod.FORMULA, 4) == Decimal("0.5")
    assert expected_score(0, ExpectedScoreMethod.TABLE) == Decimal("0.5")
