"""Test vectors TV-01..TV-13 of docs/rules.md §17.

Every expected number below is a literal worked by hand from FIDE's tables (docs/rules.md §4.1,
table 8.1.2; B §7.2, table 8.1.1): the difference D, the PD read in the table, the delta
score - PD, the sum, K, the rounded change and the new rating. Nothing expected is computed by
calling the code under test.

The period of each test selects the rule version (docs/rules.md §2: the version in force is the
one of
the period's list date):

* 2009-04: fide-standard-2000-01 (350-point cap, K 25/15/10); 2009-07: fide-standard-2009-07
  (400-point cap);
* 2023-06: fide-standard-2022-01 (cap once per event, initial rating Ra + 20 per half point);
* 2024-03: fide-standard-2024-03 on its effective date (one-time compression); 2024-06 and
  2025-09: the same version (cap every game, initial rating with two draws against 1800);
* 2025-12, 2026-06, 2026-10: fide-standard-2025-10 (no cap for players rated 2650 and over).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from ratingdb.rules import (
    Category,
    Event,
    EventCalculation,
    Game,
    InitialRatingMethod,
    Period,
    PeriodResult,
    PeriodRules,
    PlayerStatus,
    Score,
    initial_rating,
    rate_player,
    round_half_away_from_zero,
    version_for_period,
)
from ratingdb.rules.adjustments import adjusted_base
from ratingdb.rules.calculator import CalculatorRequest, calculate
from ratingdb.rules.period import EXCLUDED_600

STD = Category.FIDE_STANDARD
_SCORES = {"1": Score.WIN, "=": Score.DRAW, "0": Score.LOSS}


def g(opponent: int | None, score: str) -> Game:
    """A game from the player's side: ``score`` is "1", "=" (draw) or "0"."""
    return Game(opponent, _SCORES[score])


def event(*games: Game, rating_used: int | None = None) -> Event:
    return Event(games=tuple(games), rating_used=rating_used)


def rate(category: Category, period: str, status: PlayerStatus, *events: Event) -> PeriodResult:
    rules = PeriodRules.for_period(category, Period.parse(period))
    return rate_player(rules, status, events)


Row = tuple[int, int, str, str]  # D, D used after the cap, PD, delta


def assert_games(calculation: EventCalculation, rows: Sequence[Row]) -> None:
    """Game by game: D, D used, PD and delta, as worked by hand."""
    assert len(calculation.games) == len(rows)
    for index, (game, (difference, used, pd, delta)) in enumerate(
        zip(calculation.games, rows, strict=True)
    ):
        where = f"game {index + 1} (opponent {game.game.opponent_rating})"
        assert game.rated, where
        assert game.difference == difference, where
        assert game.difference_used == used, where
        assert game.expected == Decimal(pd), where
        assert game.delta == Decimal(delta), where


# --- TV-01 ------------------------------------------------------------------------------------


def test_tv01_k20_adult_three_games_rules_2024() -> None:
    # Player 1850, >= 30 games, never 2400 -> K 20 (A3 rule 4).
    # 1920 W: D -70 -> row 69-76 PD_L .40 -> +0.60
    # 1780 D: D +70 -> row 69-76 PD_H .60 -> -0.10
    # 2010 L: D -160 -> row 154-162 PD_L .29 -> -0.29
    # sum +0.21; 20 x 0.21 = 4.20 -> +4 -> 1854
    status = PlayerStatus(rating=1850, rated_games=60, peak_rating=1850)
    result = rate(STD, "2024-06", status, event(g(1920, "1"), g(1780, "="), g(2010, "0")))
    assert result.version.name == "fide-standard-2024-03"
    assert_games(
        result.events[0],
        [(-70, -70, "0.40", "0.60"), (70, 70, "0.60", "-0.10"), (-160, -160, "0.29", "-0.29")],
    )
    assert result.sum_delta == Decimal("0.21")
    assert result.k_status == 20
    assert result.k_factor == 20
    assert result.rated_games == 3
    assert result.change == 4
    assert result.new_rating == 1854


# --- TV-02 ------------------------------------------------------------------------------------

TV02_GAMES = (g(1720, "1"), g(1600, "="), g(1810, "0"), g(1580, "1"))
# 1720 W: D -70 -> .40 -> +0.60;  1600 D: D +50 -> row 47-53 .57 -> -0.07
# 1810 L: D -160 -> .29 -> -0.29; 1580 W: D +70 -> .60 -> +0.40;  sum +0.64
TV02_ROWS: list[Row] = [
    (-70, -70, "0.40", "0.60"),
    (50, 50, "0.57", "-0.07"),
    (-160, -160, "0.29", "-0.29"),
    (70, 70, "0.60", "0.40"),
]


def test_tv02_junior_k40() -> None:
    # Period 2026-06: K status as of the 2026-05 list, year 2026; born 2010 -> 16 <= 18, rating
    # 1650 < 2300 and never >= 2300 -> junior K 40 even with 50 games (A3 rule 2 before rule 4).
    # 40 x 0.64 = 25.60 -> +26 -> 1676.
    status = PlayerStatus(rating=1650, rated_games=50, peak_rating=1650, birth_year=2010)
    result = rate(STD, "2026-06", status, event(*TV02_GAMES))
    assert_games(result.events[0], TV02_ROWS)
    assert result.sum_delta == Decimal("0.64")
    assert result.k_status == 40
    assert result.k_factor == 40
    assert result.change == 26
    assert result.new_rating == 1676
    assert result.next_k_factor == 40


def test_tv02_same_player_born_2007_is_no_longer_junior() -> None:
    # 2026 - 2007 = 19 > 18, >= 30 games -> K 20; 20 x 0.64 = 12.80 -> +13 -> 1663.
    status = PlayerStatus(rating=1650, rated_games=50, peak_rating=1650, birth_year=2007)
    result = rate(STD, "2026-06", status, event(*TV02_GAMES))
    assert_games(result.events[0], TV02_ROWS)
    assert result.k_factor == 20
    assert result.change == 13
    assert result.new_rating == 1663


# --- TV-03 ------------------------------------------------------------------------------------


def test_tv03_k10_three_events_list_at_start_per_period_sum() -> None:
    # December 2025 period, K 10 (published peak >= 2400). Lists: Oct 2499, Nov 2505.
    # The spec shows capped opponents as FIDE prints them (2099* = 2499 - 400, 2105* = 2505 - 400);
    # their real ratings are not given, any rating below the printed value gives the same result,
    # so stand-ins below it are used (1980, 2050, 1990, 2010, 1900, 2080).
    status = PlayerStatus(rating=2505, rated_games=300, peak_rating=2507)
    aca = event(  # started 31 Oct 2025 under the October list: Ro 2499
        g(1980, "1"), g(2322, "1"), g(2422, "1"), g(2325, "="), g(2255, "="), rating_used=2499
    )
    dulles = event(
        g(2050, "1"), g(1990, "1"), g(2237, "="), g(2134, "1"), g(2813, "="), rating_used=2505
    )
    nova = event(
        g(2010, "1"), g(1900, "1"), g(2080, "1"), g(2400, "0"), g(2118, "1"), rating_used=2505
    )
    result = rate(STD, "2025-12", status, aca, dulles, nova)
    assert result.version.name == "fide-standard-2025-10"
    # ACA (Ro 2499): 1980 D 519 capped 400 -> .92 +0.08; 2322 D 177 (171-179) .73 +0.27;
    # 2422 D 77 (77-83) .61 +0.39; 2325 D 174 .73 -0.23; 2255 D 244 (236-245) .80 -0.30 -> +0.21
    assert_games(
        result.events[0],
        [
            (519, 400, "0.92", "0.08"),
            (177, 177, "0.73", "0.27"),
            (77, 77, "0.61", "0.39"),
            (174, 174, "0.73", "-0.23"),
            (244, 244, "0.80", "-0.30"),
        ],
    )
    assert result.events[0].rating_used == 2499
    assert result.events[0].sum_delta == Decimal("0.21")
    # Dulles (Ro 2505): 2050 D 455 -> 400 .92 +0.08; 1990 D 515 -> 400 .92 +0.08;
    # 2237 D 268 (268-278) .83 -0.33; 2134 D 371 (358-374) .90 +0.10;
    # 2813 D -308 (303-315) PD_L .14 +0.36 -> +0.29
    assert_games(
        result.events[1],
        [
            (455, 400, "0.92", "0.08"),
            (515, 400, "0.92", "0.08"),
            (268, 268, "0.83", "-0.33"),
            (371, 371, "0.90", "0.10"),
            (-308, -308, "0.14", "0.36"),
        ],
    )
    assert result.events[1].sum_delta == Decimal("0.29")
    # Northern Virginia (Ro 2505): three capped wins +0.08 each; 2400 D 105 (99-106) .64 -0.64;
    # 2118 D 387 (375-391) .91 +0.09 -> -0.31
    assert_games(
        result.events[2],
        [
            (495, 400, "0.92", "0.08"),
            (605, 400, "0.92", "0.08"),
            (425, 400, "0.92", "0.08"),
            (105, 105, "0.64", "-0.64"),
            (387, 387, "0.91", "0.09"),
        ],
    )
    assert result.events[2].sum_delta == Decimal("-0.31")
    # Period: 0.21 + 0.29 - 0.31 = +0.19; 10 x 0.19 = 1.90 -> +2 -> 2507 (the Dec list).
    assert result.sum_delta == Decimal("0.19")
    assert result.k_factor == 10
    assert result.rated_games == 15
    assert result.change == 2
    assert result.new_rating == 2507


# --- TV-04 ------------------------------------------------------------------------------------


def test_tv04_k20_with_a_capped_game() -> None:
    # Ro 2053 (FIDE started from a corrected base; A2: the test checks the change from 2053).
    # 1653* is printed capped: a stand-in real rating 1600 (D 453) is used.
    # 1675 W: D 378 (375-391) .91 +0.09; 2310 L: D -257 (257-267) .18 -0.18;
    # 1600 W: D 453 -> 400 .92 +0.08; 1884 W: D 169 (163-170) .72 +0.28;
    # 2218 L: D -165 (163-170) .28 -0.28.  Sum -0.01; 20 x -0.01 = -0.20 -> 0 -> 2053.
    status = PlayerStatus(rating=2053, rated_games=120, peak_rating=2060)
    result = rate(
        STD,
        "2025-12",
        status,
        event(g(1675, "1"), g(2310, "0"), g(1600, "1"), g(1884, "1"), g(2218, "0")),
    )
    assert_games(
        result.events[0],
        [
            (378, 378, "0.91", "0.09"),
            (-257, -257, "0.18", "-0.18"),
            (453, 400, "0.92", "0.08"),
            (169, 169, "0.72", "0.28"),
            (-165, -165, "0.28", "-0.28"),
        ],
    )
    assert result.events[0].games[2].capped
    assert result.sum_delta == Decimal("-0.01")
    assert result.k_factor == 20
    assert result.change == 0
    assert result.new_rating == 2053


# --- TV-05 ------------------------------------------------------------------------------------

TV05_GAMES = (g(1787, "1"), g(2025, "1"), g(2310, "1"), g(2400, "1"), g(2505, "="))
TV05_STATUS = PlayerStatus(rating=2813, rated_games=1500, peak_rating=2882)


def test_tv05_player_2650_and_over_uses_the_real_difference() -> None:
    # Period 2025-12 (2025-10 rule): own 2813 >= 2650 -> no cap.
    # 1787 D 1026 (> 735) 1.00 0.00; 2025 D 788 1.00 0.00; 2310 D 503 (485-517) .96 +0.04;
    # 2400 D 413 (412-432) .93 +0.07; 2505 D 308 (303-315) .86 draw -0.36.
    # Sum -0.25; 10 x -0.25 = -2.50 -> -3 (0.5 away from zero) -> 2810.
    result = rate(STD, "2025-12", TV05_STATUS, event(*TV05_GAMES))
    assert_games(
        result.events[0],
        [
            (1026, 1026, "1.00", "0.00"),
            (788, 788, "1.00", "0.00"),
            (503, 503, "0.96", "0.04"),
            (413, 413, "0.93", "0.07"),
            (308, 308, "0.86", "-0.36"),
        ],
    )
    assert result.sum_delta == Decimal("-0.25")
    assert result.k_factor == 10
    assert result.change == -3
    assert result.new_rating == 2810


def test_tv05_contrast_same_games_before_october_2025() -> None:
    # Period 2025-09 (2024-03 rule, cap for everyone): the first four games D -> 400 -> .92,
    # +0.08 each; 2505 still .86 -> -0.36. Sum +0.32 - 0.36 = -0.04; 10 x -0.04 = -0.40 -> 0.
    result = rate(STD, "2025-09", TV05_STATUS, event(*TV05_GAMES))
    assert result.version.name == "fide-standard-2024-03"
    assert_games(
        result.events[0],
        [
            (1026, 400, "0.92", "0.08"),
            (788, 400, "0.92", "0.08"),
            (503, 400, "0.92", "0.08"),
            (413, 400, "0.92", "0.08"),
            (308, 308, "0.86", "-0.36"),
        ],
    )
    assert result.sum_delta == Decimal("-0.04")
    assert result.change == 0
    assert result.new_rating == 2813


def test_tv05_other_side_of_one_game_is_capped() -> None:
    # The 2400 opponent (below 2650) in the same game: D -413 -> capped -400 -> PD_L .08,
    # loss -> -0.08; K 10 -> -0.80 -> -1.
    status = PlayerStatus(rating=2400, rated_games=200, peak_rating=2400)
    result = rate(STD, "2025-12", status, event(g(2813, "0")))
    assert_games(result.events[0], [(-413, -400, "0.08", "-0.08")])
    assert result.k_factor == 10
    assert result.change == -1


# --- TV-06 ------------------------------------------------------------------------------------


def test_tv06_k_times_n_above_700() -> None:
    # October 2026 period, Sep list 2054 (Ro 2054 in all five events), K 20 on the list.
    # Capped opponents printed as 1654* (= 2054 - 400) and 2454* (= 2054 + 400): stand-ins 1600,
    # 1620, 1580 (below 1654) and 2480 (above 2454).
    e1 = event(
        g(2406, "0"), g(1908, "1"), g(2220, "1"), g(2216, "0"),
        g(2204, "="), g(2189, "1"), g(2223, "0"), g(2221, "="),
    )  # fmt: skip
    e2 = event(
        g(2350, "0"), g(1928, "0"), g(2085, "1"), g(1993, "1"),
        g(1931, "1"), g(2055, "="), g(2480, "="), g(1861, "1"),
    )  # fmt: skip
    e3 = event(g(2217, "1"), g(1743, "1"), g(1947, "1"), g(2266, "="), g(2189, "="), g(2186, "1"))
    e4 = event(
        g(1600, "1"), g(2283, "0"), g(1822, "1"), g(2251, "0"),
        g(1884, "1"), g(2215, "="), g(2210, "="), g(1872, "1"),
    )  # fmt: skip
    e5 = event(
        g(1620, "1"), g(2247, "1"), g(2308, "0"), g(2168, "0"), g(1810, "0"),
        g(1747, "1"), g(1852, "1"), g(1875, "="), g(1580, "1"),
    )  # fmt: skip
    status = PlayerStatus(rating=2054, rated_games=400, peak_rating=2101)
    result = rate(STD, "2026-10", status, e1, e2, e3, e4, e5)
    # E1: 2406 D -352 (345-357) .11 -0.11; 1908 D 146 (146-153) .70 +0.30; 2220 D -166 .28 +0.72;
    # 2216 D -162 (154-162) .29 -0.29; 2204 D -150 .30 +0.20; 2189 D -135 (130-137) .32 +0.68;
    # 2223 D -169 .28 -0.28; 2221 D -167 .28 +0.22 -> +1.44
    assert_games(
        result.events[0],
        [
            (-352, -352, "0.11", "-0.11"),
            (146, 146, "0.70", "0.30"),
            (-166, -166, "0.28", "0.72"),
            (-162, -162, "0.29", "-0.29"),
            (-150, -150, "0.30", "0.20"),
            (-135, -135, "0.32", "0.68"),
            (-169, -169, "0.28", "-0.28"),
            (-167, -167, "0.28", "0.22"),
        ],
    )
    # E2: 2350 D -296 (291-302) .15 -0.15; 1928 D 126 (122-129) .67 -0.67; 2085 D -31 (26-32)
    # .46 +0.54; 1993 D 61 (54-61) .58 +0.42; 1931 D 123 .67 +0.33; 2055 D -1 .50 0.00;
    # 2480 D -426 -> -400 .08 +0.42; 1861 D 193 (189-197) .75 +0.25 -> +1.14
    assert_games(
        result.events[1],
        [
            (-296, -296, "0.15", "-0.15"),
            (126, 126, "0.67", "-0.67"),
            (-31, -31, "0.46", "0.54"),
            (61, 61, "0.58", "0.42"),
            (123, 123, "0.67", "0.33"),
            (-1, -1, "0.50", "0.00"),
            (-426, -400, "0.08", "0.42"),
            (193, 193, "0.75", "0.25"),
        ],
    )
    # E3: 2217 D -163 .28 +0.72; 1743 D 311 (303-315) .86 +0.14; 1947 D 107 (107-113) .65 +0.35;
    # 2266 D -212 (207-215) .23 +0.27; 2189 D -135 .32 +0.18; 2186 D -132 .32 +0.68 -> +2.34
    assert_games(
        result.events[2],
        [
            (-163, -163, "0.28", "0.72"),
            (311, 311, "0.86", "0.14"),
            (107, 107, "0.65", "0.35"),
            (-212, -212, "0.23", "0.27"),
            (-135, -135, "0.32", "0.18"),
            (-132, -132, "0.32", "0.68"),
        ],
    )
    # E4: 1600 D 454 -> 400 .92 +0.08; 2283 D -229 (226-235) .21 -0.21; 1822 D 232 .79 +0.21;
    # 2251 D -197 (189-197) .25 -0.25; 1884 D 170 (163-170) .72 +0.28; 2215 D -161 .29 +0.21;
    # 2210 D -156 .29 +0.21; 1872 D 182 (180-188) .74 +0.26 -> +0.79
    assert_games(
        result.events[3],
        [
            (454, 400, "0.92", "0.08"),
            (-229, -229, "0.21", "-0.21"),
            (232, 232, "0.79", "0.21"),
            (-197, -197, "0.25", "-0.25"),
            (170, 170, "0.72", "0.28"),
            (-161, -161, "0.29", "0.21"),
            (-156, -156, "0.29", "0.21"),
            (182, 182, "0.74", "0.26"),
        ],
    )
    # E5: 1620 D 434 -> 400 .92 +0.08; 2247 D -193 .25 +0.75; 2308 D -254 (246-256) .19 -0.19;
    # 2168 D -114 (114-121) .34 -0.34; 1810 D 244 (236-245) .80 -0.80; 1747 D 307 .86 +0.14;
    # 1852 D 202 (198-206) .76 +0.24; 1875 D 179 (171-179) .73 -0.23; 1580 D 474 -> 400 .92
    # +0.08 -> -0.27
    assert_games(
        result.events[4],
        [
            (434, 400, "0.92", "0.08"),
            (-193, -193, "0.25", "0.75"),
            (-254, -254, "0.19", "-0.19"),
            (-114, -114, "0.34", "-0.34"),
            (244, 244, "0.80", "-0.80"),
            (307, 307, "0.86", "0.14"),
            (202, 202, "0.76", "0.24"),
            (179, 179, "0.73", "-0.23"),
            (474, 400, "0.92", "0.08"),
        ],
    )
    sums = [e.sum_delta for e in result.events]
    assert sums == [
        Decimal("1.44"),
        Decimal("1.14"),
        Decimal("2.34"),
        Decimal("0.79"),
        Decimal("-0.27"),
    ]
    assert [e.rated_games for e in result.events] == [8, 8, 6, 8, 9]
    # n = 39; 20 x 39 = 780 > 700 -> K = floor(700 / 39) = 17 (17 x 39 = 663, 18 x 39 = 702).
    # 17 x 5.44 = 92.48 -> +92 -> 2146 (the Oct list).
    assert result.rated_games == 39
    assert result.sum_delta == Decimal("5.44")
    assert result.k_status == 20
    assert result.k_factor == 17
    assert result.change == 92
    assert result.new_rating == 2146
    # Per-event rounding would give 24 + 19 + 40 + 13 - 5 = +91: not what FIDE published.
    assert sum(round_half_away_from_zero(17 * s) for s in sums) == 91


def test_tv06_junior_k40_reduced_by_700_rule() -> None:
    # Own 1650, junior (born 2012, list year 2026), n = 20 -> K = floor(700 / 20) = 35.
    # 10 wins vs 1600: D 50 (47-53) .57 -> +0.43 each; 10 draws vs 1700: D -50 .43 -> +0.07 each.
    # Sum 4.30 + 0.70 = +5.00; 35 x 5 = +175 -> 1825.
    status = PlayerStatus(rating=1650, rated_games=80, peak_rating=1650, birth_year=2012)
    games = [g(1600, "1")] * 10 + [g(1700, "=")] * 10
    result = rate(STD, "2026-06", status, event(*games))
    assert result.events[0].games[0].expected == Decimal("0.57")
    assert result.events[0].games[10].expected == Decimal("0.43")
    assert result.sum_delta == Decimal("5.00")
    assert result.k_status == 40
    assert result.k_factor == 35
    assert result.change == 175
    assert result.new_rating == 1825


# --- TV-07 ------------------------------------------------------------------------------------

TV07_GAMES = (g(1902, "="), g(1877, "="), g(1884, "1"), g(2012, "0"), g(1832, "1"))


def test_tv07_initial_rating_2024_method() -> None:
    # Sum of opponents 1902 + 1877 + 1884 + 2012 + 1832 = 9507; W = 3.
    # Ra = (9507 + 3600) / 7 = 13107 / 7 = 1872.43; p = (3 + 1) / 7 = 0.5714 -> .57 -> dp 50;
    # Ru = 1922.43 -> 1922.
    version = version_for_period(STD, Period(2025, 12))
    assert version.initial_rating_method is InitialRatingMethod.HYPOTHETICAL_DRAWS_1800
    initial = initial_rating(version, TV07_GAMES)
    assert initial.games == 5
    assert initial.points == 3
    assert initial.opponents_average == Fraction(13107, 7)
    assert initial.p == Fraction(57, 100)
    assert initial.dp == 50
    assert initial.rating == 1922
    assert initial.capped_at is None
    assert initial.published


def test_tv07_initial_rating_2022_method() -> None:
    # Ra = 9507 / 5 = 1901.4; 3 of 5 = one half point above 50 % -> +20; 1921.4 -> 1921.
    version = version_for_period(STD, Period(2023, 6))
    assert version.initial_rating_method is InitialRatingMethod.RA_PLUS_20
    initial = initial_rating(version, TV07_GAMES)
    assert initial.opponents_average == Fraction(19014, 10)
    assert initial.bonus == 20
    assert initial.rating == 1921
    assert initial.published


def test_tv07_via_rate_player_for_an_unrated_player() -> None:
    result = rate(STD, "2025-12", PlayerStatus(rating=None), event(*TV07_GAMES))
    assert result.is_first_rating
    assert result.new_rating == 1922
    assert result.change is None
    assert result.published_rating is None
    assert result.rated_games == 5
    assert result.status.rated_games == 5
    assert result.status.pool == ()
    # Published with K 40 (fewer than 30 games).
    assert result.next_k_factor == 40


def test_tv07_via_rate_player_2022_rule() -> None:
    result = rate(STD, "2023-06", PlayerStatus(rating=None), event(*TV07_GAMES))
    assert result.new_rating == 1921


# --- TV-08 ------------------------------------------------------------------------------------

V2024 = version_for_period(STD, Period(2025, 12))
V2022 = version_for_period(STD, Period(2023, 6))


def test_tv08_strong_newcomer_capped_at_2200() -> None:
    # 2300 + 2250 + 2200 + 2350 + 2100 = 11200; Ra = 14800 / 7 = 2114.29; W = 4.5,
    # p = 5.5 / 7 = .7857 -> .79 -> dp 230; 2344.29 -> 2344 -> capped 2200.
    games = (g(2300, "1"), g(2250, "1"), g(2200, "1"), g(2350, "="), g(2100, "1"))
    initial = initial_rating(V2024, games)
    assert initial.opponents_average == Fraction(14800, 7)
    assert initial.p == Fraction(79, 100)
    assert initial.dp == 230
    assert initial.capped_at == 2200
    assert initial.rating == 2200
    assert initial.published


def test_tv08_weak_newcomer_below_floor_stays_in_pool() -> None:
    # 1500 + 1600 + 1450 + 1550 + 1480 = 7580; Ra = 11180 / 7 = 1597.14; W = 0.5,
    # p = 1.5 / 7 = .2143 -> .21 -> dp -230; 1367.14 -> 1367 < 1400: not published.
    games = (g(1500, "0"), g(1600, "0"), g(1450, "="), g(1550, "0"), g(1480, "0"))
    initial = initial_rating(V2024, games)
    assert initial.opponents_average == Fraction(11180, 7)
    assert initial.p == Fraction(21, 100)
    assert initial.dp == -230
    assert initial.rating == 1367
    assert not initial.published

    result = rate(STD, "2025-12", PlayerStatus(rating=None), event(*games))
    assert result.new_rating is None
    assert not result.is_first_rating
    assert result.initial is not None
    assert result.initial.rating == 1367
    assert len(result.status.pool) == 1
    assert result.status.pool[0].games == games
    assert result.status.pool[0].period == Period(2025, 12)


SIX_GAMES = (g(1700, "1"), g(1650, "0"), g(1800, "="), g(1750, "1"), g(1600, "1"), g(1900, "0"))


def test_tv08_six_games_2024_method() -> None:
    # Sum 10400; Ra = 14000 / 8 = 1750; W 3.5, p = 4.5 / 8 = .5625 -> .56 -> dp 43 -> 1793.
    initial = initial_rating(V2024, SIX_GAMES)
    assert initial.opponents_average == 1750
    assert initial.p == Fraction(56, 100)
    assert initial.dp == 43
    assert initial.rating == 1793


def test_tv08_six_games_2022_method() -> None:
    # Ra = 10400 / 6 = 1733.33; 3.5 of 6 = one half point above 50 % -> +20 -> 1753.33 -> 1753.
    initial = initial_rating(V2022, SIX_GAMES)
    assert initial.opponents_average == Fraction(10400, 6)
    assert initial.rating == 1753


def test_tv08_tie_in_p_rounds_half_up() -> None:
    # Six opponents of 1700, W = 2: Ra = (10200 + 3600) / 8 = 1725; p = 3 / 8 = .375 -> .38
    # (half up, the documented choice) -> dp -87 -> 1638 (1630 with .37).
    games = tuple(g(1700, "1") for _ in range(2)) + tuple(g(1700, "0") for _ in range(4))
    initial = initial_rating(V2024, games)
    assert initial.opponents_average == 1725
    assert initial.p == Fraction(38, 100)
    assert initial.dp == -87
    assert initial.rating == 1638


def test_tv08_tie_in_ru_rounds_half_up() -> None:
    # Opponents summing 10204 (5 x 1700 + 1704), W = 3: Ra = 13804 / 8 = 1725.5; p = 4 / 8 = .50
    # -> dp 0 -> 1725.5 -> 1726 (half up, the documented choice; 1725 otherwise).
    games = (
        g(1700, "1"), g(1700, "1"), g(1700, "1"), g(1700, "0"), g(1700, "0"), g(1704, "0"),
    )  # fmt: skip
    initial = initial_rating(V2024, games)
    assert initial.opponents_average == Fraction(13804, 8)
    assert initial.p == Fraction(50, 100)
    assert initial.dp == 0
    assert initial.unrounded == Fraction(3451, 2)
    assert initial.rating == 1726


# --- TV-09 ------------------------------------------------------------------------------------

TV09_EVENT = event(g(1500, "1"), g(1550, "1"), g(1900, "="))
TV09_STATUS = PlayerStatus(rating=2000, rated_games=100, peak_rating=2000)


def test_tv09_2024_rule_cap_every_game() -> None:
    # 1500 D 500 -> 400 .92 +0.08; 1550 D 450 -> 400 .92 +0.08; 1900 D 100 (99-106) .64 -0.14.
    # Sum +0.02; 20 x 0.02 = 0.40 -> 0.
    result = rate(STD, "2024-06", TV09_STATUS, TV09_EVENT)
    assert_games(
        result.events[0],
        [(500, 400, "0.92", "0.08"), (450, 400, "0.92", "0.08"), (100, 100, "0.64", "-0.14")],
    )
    assert result.sum_delta == Decimal("0.02")
    assert result.k_factor == 20
    assert result.change == 0
    assert result.new_rating == 2000


def test_tv09_2022_rule_cap_once_per_event() -> None:
    # Only the game with the largest |D| (vs 1500) is capped: .92 +0.08; 1550 D 450 (433-456)
    # .94 +0.06; 1900 .64 -0.14. Sum 0.00 -> 0.
    result = rate(STD, "2023-06", TV09_STATUS, TV09_EVENT)
    assert result.version.name == "fide-standard-2022-01"
    assert_games(
        result.events[0],
        [(500, 400, "0.92", "0.08"), (450, 450, "0.94", "0.06"), (100, 100, "0.64", "-0.14")],
    )
    assert result.sum_delta == Decimal("0.00")
    assert result.change == 0


def test_tv09_no_cap_via_the_calculator() -> None:
    # 1500 D 500 (485-517) .96 +0.04; 1550 .94 +0.06; 1900 .64 -0.14. Sum -0.04;
    # 20 x -0.04 = -0.80 -> -1 -> 1999.
    out = calculate(CalculatorRequest(STD, Period(2024, 6), TV09_STATUS, (TV09_EVENT,), cap=False))
    assert_games(
        out.result.events[0],
        [(500, 500, "0.96", "0.04"), (450, 450, "0.94", "0.06"), (100, 100, "0.64", "-0.14")],
    )
    assert out.result.sum_delta == Decimal("-0.04")
    assert out.change == -1
    assert out.new_rating == 1999


def test_tv09_no_cap_in_a_version_without_cap() -> None:
    # FIDE rapid 2012-2021 has no cap and K 20 for all: same -0.04 -> -1.
    result = rate(Category.FIDE_RAPID, "2015-06", TV09_STATUS, TV09_EVENT)
    assert result.version.name == "fide-rapid-2012-01"
    assert [c.expected for c in result.events[0].games] == [
        Decimal("0.96"),
        Decimal("0.94"),
        Decimal("0.64"),
    ]
    assert result.k_factor == 20
    assert result.change == -1


# --- TV-10 ------------------------------------------------------------------------------------


def test_tv10_350_rule_before_july_2009() -> None:
    # 2000 beats 1620, D 380 -> capped 350 (345-357) .89 -> +0.11; 15 x 0.11 = 1.65 -> +2.
    status = PlayerStatus(rating=2000, rated_games=100, k_factor=15)
    result = rate(STD, "2009-04", status, event(g(1620, "1")))
    assert result.version.name == "fide-standard-2000-01"
    assert_games(result.events[0], [(380, 350, "0.89", "0.11")])
    assert result.change == 2
    assert result.new_rating == 2002


def test_tv10_400_rule_from_july_2009() -> None:
    # D 380 not capped (375-391) .91 -> +0.09; 15 x 0.09 = 1.35 -> +1.
    status = PlayerStatus(rating=2000, rated_games=100, k_factor=15)
    result = rate(STD, "2009-07", status, event(g(1620, "1")))
    assert result.version.name == "fide-standard-2009-07"
    assert_games(result.events[0], [(380, 380, "0.91", "0.09")])
    assert result.change == 1
    assert result.new_rating == 2001


def test_tv10_k15_also_from_the_k_rules_of_2009() -> None:
    # >= 30 games, never 2400, 2009 -> K 15 without an override.
    status = PlayerStatus(rating=2000, rated_games=100, peak_rating=2010)
    assert rate(STD, "2009-07", status, event(g(1620, "1"))).k_factor == 15


# --- TV-11 ------------------------------------------------------------------------------------


def test_tv11_rounding_per_period_known_discrepancy() -> None:
    """Known discrepancy fixture (S15 F-P02, FIDE ID 9953698, Dec 2025).

    FIDE published 2400 -> 2406 (+6), which is per-tournament rounding (-6 + 4 + 8). ratingdb
    follows B.02 §8.3.4 and A2 (one rounding per period): +5.40 -> +5. This test pins ratingdb's
    rule; the published +6 is the one known counter-example (13 of 14 discriminating periods
    follow per-period rounding).

    Games built to give the published per-event K x sums (-6.10, +3.70, +7.80) with K 10:
    * event A under the October list (Ro 2395): loss to 2315, D 80 (77-83) .61 -> -0.61;
    * event B (Ro 2400): win against 2305, D 95 (92-98) .63 -> +0.37;
    * event C (Ro 2400): loss to 2813, D -413 -> -400 .08 -> -0.08; win against 2710,
      D -310 (303-315) .14 -> +0.86; event sum +0.78.
    """
    status = PlayerStatus(rating=2400, rated_games=250, peak_rating=2400)
    a = event(g(2315, "0"), rating_used=2395)
    b = event(g(2305, "1"), rating_used=2400)
    c = event(g(2813, "0"), g(2710, "1"), rating_used=2400)
    result = rate(STD, "2025-12", status, a, b, c)
    assert_games(result.events[0], [(80, 80, "0.61", "-0.61")])
    assert_games(result.events[1], [(95, 95, "0.63", "0.37")])
    assert_games(result.events[2], [(-413, -400, "0.08", "-0.08"), (-310, -310, "0.14", "0.86")])
    assert result.k_factor == 10
    per_event = [result.k_factor * e.sum_delta for e in result.events]
    assert per_event == [Decimal("-6.10"), Decimal("3.70"), Decimal("7.80")]
    # Per period: 10 x 0.54 = +5.40 -> +5 -> 2405 (FIDE published 2406).
    assert result.sum_delta == Decimal("0.54")
    assert result.change == 5
    assert result.new_rating == 2405
    # What per-tournament rounding (FIDE's published +6) would have given: -6 + 4 + 8.
    assert [round_half_away_from_zero(v) for v in per_event] == [-6, 4, 8]


def test_tv11_rounding_of_the_given_sums() -> None:
    assert round_half_away_from_zero(Decimal("-6.10") + Decimal("3.70") + Decimal("7.80")) == 5


# --- TV-12 ------------------------------------------------------------------------------------


def test_tv12_march_2024_compression_of_the_base() -> None:
    # R + 0.4 x (2000 - R), half up: 1000 -> 1400; 1234 -> 1234 + 306.4 = 1540.4 -> 1540;
    # 1500 -> 1700; 1600 -> 1760; 1700 -> 1820; 1950 -> 1970; 1999 -> 1999.4 -> 1999;
    # 2000 and above unchanged.
    version = version_for_period(STD, Period(2024, 3))
    cases = {
        1000: 1400,
        1234: 1540,
        1500: 1700,
        1600: 1760,
        1700: 1820,
        1950: 1970,
        1999: 1999,
        2000: 2000,
        2450: 2450,
    }
    for before, after in cases.items():
        assert adjusted_base(version, Period(2024, 3), before, None) == after, before
    # Only on the list of the effective date: the April 2024 list starts from 1234.
    assert adjusted_base(version, Period(2024, 4), 1234, None) == 1234


def test_tv12_march_2024_compression_via_rate_player_without_games() -> None:
    status = PlayerStatus(rating=1234, rated_games=60, peak_rating=1300)
    result = rate(STD, "2024-03", status)
    assert result.published_rating == 1234
    assert result.base_rating == 1540
    assert result.change == 0
    assert result.new_rating == 1540


def test_tv12_march_2024_ratings_used_for_d_stay_as_published() -> None:
    # A6: the base is 1700 (1500 compressed) but D uses the published 1500: a win against 1500,
    # D 0 -> .50 -> +0.50, K 20 -> +10 -> 1710.
    status = PlayerStatus(rating=1500, rated_games=60, peak_rating=1500)
    result = rate(STD, "2024-03", status, event(g(1500, "1")))
    assert result.base_rating == 1700
    assert result.events[0].rating_used == 1500
    assert_games(result.events[0], [(0, 0, "0.50", "0.50")])
    assert result.change == 10
    assert result.new_rating == 1710


def test_tv12_october_2022_rapid_blitz_uplift() -> None:
    # standard - rapid > 100 -> standard - 100: 2732 / 2283 -> 2632; 1800 / 1750 unchanged;
    # difference exactly 100 unchanged, 101 lifted.
    for category in (Category.FIDE_RAPID, Category.FIDE_BLITZ):
        version = version_for_period(category, Period(2022, 10))
        assert adjusted_base(version, Period(2022, 10), 2283, 2732) == 2632
        assert adjusted_base(version, Period(2022, 10), 1750, 1800) == 1750
        assert adjusted_base(version, Period(2022, 10), 1700, 1800) == 1700
        assert adjusted_base(version, Period(2022, 10), 1699, 1800) == 1700
        assert adjusted_base(version, Period(2022, 10), 1750, None) == 1750
        # Not on the next list.
        assert adjusted_base(version, Period(2022, 11), 2283, 2732) == 2283


def test_tv12_october_2022_uplift_via_rate_player_without_games() -> None:
    status = PlayerStatus(rating=2283, rated_games=100, peak_rating=2300, standard_rating=2732)
    result = rate(Category.FIDE_RAPID, "2022-10", status)
    assert result.published_rating == 2283
    assert result.base_rating == 2632
    assert result.new_rating == 2632
    unchanged = PlayerStatus(rating=1750, rated_games=100, standard_rating=1800)
    assert rate(Category.FIDE_BLITZ, "2022-10", unchanged).new_rating == 1750


def test_tv12_october_2022_no_rapid_rating_stays_unrated() -> None:
    status = PlayerStatus(rating=None, standard_rating=2732)
    result = rate(Category.FIDE_RAPID, "2022-10", status)
    assert result.new_rating is None
    assert result.status.rating is None


# --- TV-13 ------------------------------------------------------------------------------------


def test_tv13_blitz_600_points_with_a_player_above_2600_not_rated() -> None:
    # Blitz 2650 vs 2040: |D| 610 >= 600 and one player > 2600 -> not rated for either player.
    strong = PlayerStatus(rating=2650, rated_games=500, peak_rating=2700)
    result = rate(Category.FIDE_BLITZ, "2025-06", strong, event(g(2040, "1")))
    assert result.version.name == "fide-blitz-2024-12"
    game = result.events[0].games[0]
    assert not game.rated
    assert game.not_rated_reason == EXCLUDED_600
    assert result.rated_games == 0
    assert result.change == 0
    assert result.new_rating == 2650

    weak = PlayerStatus(rating=2040, rated_games=500, peak_rating=2100)
    other = rate(Category.FIDE_BLITZ, "2025-06", weak, event(g(2650, "0")))
    assert not other.events[0].games[0].rated
    assert other.events[0].games[0].not_rated_reason == EXCLUDED_600
    assert other.rated_games == 0
    assert other.new_rating == 2040


def test_tv13_blitz_550_points_rated_and_capped_no_2650_exemption() -> None:
    # Blitz 2650 vs 2100: |D| 550 < 600 -> rated; no 2650 exemption in blitz -> D 400 -> .92;
    # the 2100 player: D -400 -> .08.
    strong = PlayerStatus(rating=2650, rated_games=500, peak_rating=2700)
    result = rate(Category.FIDE_BLITZ, "2025-06", strong, event(g(2100, "1")))
    assert_games(result.events[0], [(550, 400, "0.92", "0.08")])
    weak = PlayerStatus(rating=2100, rated_games=500, peak_rating=2150)
    other = rate(Category.FIDE_BLITZ, "2025-06", weak, event(g(2650, "0")))
    assert_games(other.events[0], [(-550, -400, "0.08", "-0.08")])


def test_tv13_standard_after_october_2025_one_side_capped() -> None:
    # Standard 2650 vs 2100 in period 2025-12: the 2650 player uses D 550 (518-559) -> .97;
    # the 2100 player uses D -400 -> .08.
    strong = PlayerStatus(rating=2650, rated_games=500, peak_rating=2700)
    result = rate(STD, "2025-12", strong, event(g(2100, "1")))
    assert_games(result.events[0], [(550, 550, "0.97", "0.03")])
    weak = PlayerStatus(rating=2100, rated_games=500, peak_rating=2150)
    other = rate(STD, "2025-12", weak, event(g(2650, "0")))
    assert_games(other.events[0], [(-550, -400, "0.08", "-0.08")])


# --- Edges of the rules the vectors exercise (docs/rules.md §3, A4)
# --------------------------------


def test_2650_test_is_on_the_rating_used_at_the_event() -> None:
    # Published 2660 on the previous list, but the event started under a list where the player
    # was 2645: below 2650 there, so capped. Win against 2100: D 545 -> 400 -> .92 -> +0.08.
    # A second event at 2650: D 550 (518-559) -> .97 -> +0.03. Sum +0.11; K 10 -> 1.1 -> +1.
    status = PlayerStatus(rating=2660, rated_games=900, peak_rating=2700)
    result = rate(
        STD,
        "2025-12",
        status,
        event(g(2100, "1"), rating_used=2645),
        event(g(2100, "1"), rating_used=2650),
    )
    assert_games(result.events[0], [(545, 400, "0.92", "0.08")])
    assert_games(result.events[1], [(550, 550, "0.97", "0.03")])
    assert result.change == 1
    assert result.new_rating == 2661


def test_cap_once_per_event_is_per_event_and_takes_the_largest_absolute_difference() -> None:
    # 2022 rule, own 2000. Event 1: 2500 (D -500) and 1550 (D 450): the -500 game is the widest,
    # capped -400 -> .08, loss -> -0.08; 1550 uncapped .94, win -> +0.06.
    # Event 2: 1500 (D 500) capped 400 -> .92, win -> +0.08; 1520 (D 480, 457-484) .95 -> +0.05.
    # Sum +0.11; K 20 -> 2.2 -> +2.
    status = PlayerStatus(rating=2000, rated_games=100, peak_rating=2000)
    result = rate(
        STD,
        "2023-06",
        status,
        event(g(2500, "0"), g(1550, "1")),
        event(g(1500, "1"), g(1520, "1")),
    )
    assert_games(result.events[0], [(-500, -400, "0.08", "-0.08"), (450, 450, "0.94", "0.06")])
    assert_games(result.events[1], [(500, 400, "0.92", "0.08"), (480, 480, "0.95", "0.05")])
    assert result.sum_delta == Decimal("0.11")
    assert result.change == 2


def test_600_point_exclusion_boundaries() -> None:
    # |D| exactly 600 with a player above 2600 -> not rated; 599 -> rated (capped 400);
    # 2600 is not "above 2600": 2600 vs 1950 (D 650) rated; before 2024-12 nothing is excluded.
    blitz = Category.FIDE_BLITZ
    status = PlayerStatus(rating=2601, rated_games=500, peak_rating=2650)
    result = rate(blitz, "2025-06", status, event(g(2001, "1"), g(2002, "1")))
    assert [c.rated for c in result.events[0].games] == [False, True]
    assert result.events[0].games[1].difference_used == 400
    assert result.rated_games == 1
    at_2600 = PlayerStatus(rating=2600, rated_games=500, peak_rating=2650)
    assert rate(blitz, "2025-06", at_2600, event(g(1950, "1"))).rated_games == 1
    before = rate(blitz, "2024-11", status, event(g(2001, "1")))
    assert before.version.name == "fide-blitz-2024-03"
    assert before.rated_games == 1


def test_game_against_unrated_opponent_changes_nothing_for_the_rated_player() -> None:
    # A4: only the game against 1850 counts: D 0 -> .50, win -> +0.50; K 20 -> +10.
    status = PlayerStatus(rating=1850, rated_games=100, peak_rating=1850)
    result = rate(STD, "2025-12", status, event(g(None, "1"), g(1850, "1"), g(None, "0")))
    assert [c.rated for c in result.events[0].games] == [False, True, False]
    assert result.rated_games == 1
    assert result.change == 10
    only_unrated = rate(STD, "2025-12", status, event(g(None, "1")))
    assert only_unrated.rated_games == 0
    assert only_unrated.change == 0
    assert only_unrated.new_rating == 1850


def test_calculator_cap_on_for_a_version_without_cap() -> None:
    # Rapid 2015 has no cap; cap=True applies 400 every game: 1500 D 500 -> 400 -> .92.
    out = calculate(
        CalculatorRequest(
            Category.FIDE_RAPID, Period(2015, 6), TV09_STATUS, (TV09_EVENT,), cap=True
        )
    )
    assert [c.expected for c in out.result.events[0].games] == [
        Decimal("0.92"),
        Decimal("0.92"),
        Decimal("0.64"),
    ]
    assert out.change == 0
    assert out.rule_version == "fide-rapid-2012-01"
