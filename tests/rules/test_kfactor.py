"""K status (docs/rules.md §6, §2.2, §2.3) and K x n <= 700 (A2)."""

from __future__ import annotations

import pytest

from ratingdb.rules import (
    Category,
    Event,
    Game,
    KStatus,
    Period,
    PeriodRules,
    PlayerStatus,
    RuleVersion,
    Score,
    bounded_k,
    k_factor,
    rate_player,
    version_for_period,
)

STD = Category.FIDE_STANDARD
V2024 = version_for_period(STD, Period(2025, 12))  # fide-standard-2025-10 (K as 2024)
V2014 = version_for_period(STD, Period(2014, 7))  # fide-standard-2014-07
V2000 = version_for_period(STD, Period(2009, 4))  # fide-standard-2000-01
V2009 = version_for_period(STD, Period(2009, 7))  # fide-standard-2009-07
V2011 = version_for_period(STD, Period(2012, 1))  # fide-standard-2011-07
V2012 = version_for_period(STD, Period(2013, 6))  # fide-standard-2012-07


def test_versions_under_test() -> None:
    assert V2024.name == "fide-standard-2025-10"
    assert V2014.name == "fide-standard-2014-07"
    assert V2000.name == "fide-standard-2000-01"
    assert V2009.name == "fide-standard-2009-07"
    assert V2011.name == "fide-standard-2011-07"
    assert V2012.name == "fide-standard-2012-07"


# --- A3 precedence under the current rules ---------------------------------------------------


@pytest.mark.parametrize(
    ("status", "year", "k"),
    [
        # (1) a published 2400 -> 10, even for a junior with fewer than 30 games.
        (KStatus(rating=2350, rated_games=5, peak_rating=2400, birth_year=2012), 2026, 10),
        # ... and permanently, after the rating dropped.
        (KStatus(rating=2280, rated_games=300, peak_rating=2455, birth_year=1980), 2026, 10),
        # exactly 2400 published triggers it.
        (KStatus(rating=2400, rated_games=300, peak_rating=2400, birth_year=1980), 2026, 10),
        # 2399 does not.
        (KStatus(rating=2399, rated_games=300, peak_rating=2399, birth_year=1980), 2026, 20),
        # (2) junior, rating < 2300 and never >= 2300 -> 40, even with many games.
        (KStatus(rating=2299, rated_games=200, peak_rating=2299, birth_year=2010), 2026, 40),
        (KStatus(rating=1650, rated_games=50, peak_rating=1650, birth_year=2010), 2026, 40),
        # junior with no peak recorded.
        (KStatus(rating=1650, rated_games=50, peak_rating=None, birth_year=2010), 2026, 40),
        # junior at 2300 -> not the junior line; >= 30 games -> 20.
        (KStatus(rating=2300, rated_games=50, peak_rating=2300, birth_year=2010), 2026, 20),
        # junior who once published 2300 stays at 20 after dropping.
        (KStatus(rating=2250, rated_games=50, peak_rating=2310, birth_year=2010), 2026, 20),
        # ... but with fewer than 30 games the new-player line still gives 40.
        (KStatus(rating=2250, rated_games=12, peak_rating=2310, birth_year=2010), 2026, 40),
        # junior until the end of the year of the 18th birthday: born 2008, year 2026 -> 18.
        (KStatus(rating=1900, rated_games=100, peak_rating=1900, birth_year=2008), 2026, 40),
        # born 2007, year 2026 -> 19: junior K over.
        (KStatus(rating=1900, rated_games=100, peak_rating=1900, birth_year=2007), 2026, 20),
        # born 2007, list year 2025 -> 18: still junior on the December 2025 list.
        (KStatus(rating=1900, rated_games=100, peak_rating=1900, birth_year=2007), 2025, 40),
        # (3) fewer than 30 rated games -> 40.
        (KStatus(rating=1800, rated_games=29, peak_rating=1800, birth_year=1990), 2026, 40),
        (KStatus(rating=1800, rated_games=0, peak_rating=None, birth_year=None), 2026, 40),
        # (4) otherwise 20.
        (KStatus(rating=1800, rated_games=30, peak_rating=1800, birth_year=1990), 2026, 20),
        (KStatus(rating=1800, rated_games=30, peak_rating=1800, birth_year=None), 2026, 20),
    ],
)
def test_k_precedence_current_rules(status: KStatus, year: int, k: int) -> None:
    assert k_factor(V2024, status, year) == k


def test_k_2014_rules_are_40_20_10_with_juniors() -> None:
    assert k_factor(V2014, KStatus(1800, 10, 1800, 1980), 2014) == 40
    assert k_factor(V2014, KStatus(1800, 40, 1800, 1980), 2014) == 20
    assert k_factor(V2014, KStatus(2300, 40, 2410, 1980), 2014) == 10
    # K 10 no longer needs 30 games.
    assert k_factor(V2014, KStatus(2400, 10, 2400, 1980), 2014) == 10
    assert k_factor(V2014, KStatus(1800, 40, 1800, 2000), 2014) == 40


# --- Pre-2014 versions -----------------------------------------------------------------------


@pytest.mark.parametrize(("version", "new", "established"), [(V2000, 25, 15), (V2009, 25, 15)])
def test_k_before_2011_is_25_15_10(version: RuleVersion, new: int, established: int) -> None:
    year = version.effective_from.year
    assert k_factor(version, KStatus(1800, 10, 1800, 1980), year) == new
    assert k_factor(version, KStatus(1800, 29, 1800, 1980), year) == new
    assert k_factor(version, KStatus(1800, 30, 1800, 1980), year) == established
    assert k_factor(version, KStatus(2350, 100, 2420, 1970), year) == 10
    # Before 2014 K 10 also needed 30 games: a 2400 player with 10 games keeps the new K.
    assert k_factor(version, KStatus(2400, 10, 2400, 1980), year) == new
    # No junior K before 2014: a 9-year-old with 50 games has the established K.
    assert k_factor(version, KStatus(1800, 50, 1800, 2000), 2009) == established


@pytest.mark.parametrize("version", [V2011, V2012])
def test_k_2011_to_2014_is_30_15_10(version: RuleVersion) -> None:
    year = version.effective_from.year
    assert k_factor(version, KStatus(1800, 10, 1800, 1980), year) == 30
    assert k_factor(version, KStatus(1800, 30, 1800, 1980), year) == 15
    assert k_factor(version, KStatus(2350, 100, 2420, 1970), year) == 10
    assert k_factor(version, KStatus(1800, 50, 1800, 2000), year) == 15


# --- Rapid and blitz -------------------------------------------------------------------------


@pytest.mark.parametrize("category", [Category.FIDE_RAPID, Category.FIDE_BLITZ])
@pytest.mark.parametrize("period", [Period(2012, 1), Period(2015, 6), Period(2022, 9)])
def test_rapid_blitz_2012_to_september_2022_k20_for_all(category: Category, period: Period) -> None:
    version = version_for_period(category, period)
    year = period.year
    assert k_factor(version, KStatus(1500, 0, None, 1990), year) == 20
    assert k_factor(version, KStatus(1800, 100, 1800, 1990), year) == 20
    assert k_factor(version, KStatus(2600, 500, 2700, 1980), year) == 20
    assert k_factor(version, KStatus(1600, 5, 1600, year - 12), year) == 20


@pytest.mark.parametrize("category", [Category.FIDE_RAPID, Category.FIDE_BLITZ])
def test_rapid_blitz_from_october_2022_k_as_standard(category: Category) -> None:
    version = version_for_period(category, Period(2022, 10))
    assert k_factor(version, KStatus(1500, 0, None, 1990), 2022) == 40
    assert k_factor(version, KStatus(1800, 100, 1800, 1990), 2022) == 20
    assert k_factor(version, KStatus(2600, 500, 2700, 1980), 2022) == 10
    assert k_factor(version, KStatus(1600, 100, 1600, 2010), 2022) == 40


# --- K x n <= 700 ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "bounded"),
    [
        (40, 0, 40),
        (40, 17, 40),  # 700 / 17 = 41.2
        (40, 18, 38),  # 700 / 18 = 38.9
        (40, 20, 35),
        (20, 35, 20),  # 700 / 35 = 20
        (20, 36, 19),  # 700 / 36 = 19.4
        (20, 39, 17),  # 700 / 39 = 17.9 (TV-06)
        (10, 70, 10),  # 700 / 70 = 10
        (10, 71, 9),  # 700 / 71 = 9.86
    ],
)
def test_k_times_n_at_most_700(k: int, n: int, bounded: int) -> None:
    assert bounded_k(V2024, k, n) == bounded
    assert bounded * n <= 700 or n == 0


def test_no_k_times_n_bound_before_2014() -> None:
    assert bounded_k(V2000, 25, 100) == 25
    assert bounded_k(V2012, 30, 60) == 30


def test_k_times_n_bound_in_rapid_2012() -> None:
    assert bounded_k(version_for_period(Category.FIDE_RAPID, Period(2015, 6)), 20, 36) == 19


# --- K of a period = status as of the previous list --------------------------------------------


def _rate(period: Period, status: PlayerStatus, games: list[Game]) -> tuple[int | None, int]:
    result = rate_player(PeriodRules.for_period(STD, period), status, [Event(tuple(games))])
    return result.k_factor, result.next_k_factor


def test_junior_k_ends_on_the_january_list_after_the_18th_year() -> None:
    # Born 2007: the January 2026 period is rated with the K of the December 2025 list (18 in
    # 2025 -> 40); the January 2026 list shows 20 (19 in 2026); February 2026 is rated with 20.
    status = PlayerStatus(rating=1900, rated_games=100, peak_rating=1900, birth_year=2007)
    assert PeriodRules.for_period(STD, Period(2026, 1)).status_year == 2025
    assert _rate(Period(2026, 1), status, [Game(1900, Score.DRAW)]) == (40, 20)
    assert _rate(Period(2026, 2), status, [Game(1900, Score.DRAW)]) == (20, 20)


def test_thirtieth_game_takes_effect_on_the_next_list() -> None:
    # 28 games + 2 this period: rated with 40, next list 20.
    status = PlayerStatus(rating=1800, rated_games=28, peak_rating=1800, birth_year=1990)
    result = rate_player(
        PeriodRules.for_period(STD, Period(2026, 6)),
        status,
        [Event((Game(1800, Score.DRAW), Game(1800, Score.DRAW)))],
    )
    assert result.k_factor == 40
    assert result.status.rated_games == 30
    assert result.next_k_factor == 20


def test_reaching_2400_gives_k10_from_the_next_list() -> None:
    # 2390, win against 2390: D 0 -> .50 -> +0.50 x 20 = +10 -> 2400; next K 10.
    status = PlayerStatus(rating=2390, rated_games=100, peak_rating=2390, birth_year=1990)
    result = rate_player(
        PeriodRules.for_period(STD, Period(2026, 6)), status, [Event((Game(2390, Score.WIN),))]
    )
    assert result.k_factor == 20
    assert result.new_rating == 2400
    assert result.status.peak_rating == 2400
    assert result.next_k_factor == 10


def test_junior_reaching_2300_loses_junior_k_on_the_next_list() -> None:
    # Junior 2290 (40), win against 2290: +0.50 x 40 = +20 -> 2310; next K 20 (>= 30 games).
    status = PlayerStatus(rating=2290, rated_games=100, peak_rating=2290, birth_year=2012)
    result = rate_player(
        PeriodRules.for_period(STD, Period(2026, 6)), status, [Event((Game(2290, Score.WIN),))]
    )
    assert result.k_factor == 40
    assert result.new_rating == 2310
    assert result.next_k_factor == 20


def test_k_factor_override_bypasses_the_rules_but_not_700() -> None:
    status = PlayerStatus(rating=1800, rated_games=5, k_factor=15)
    result = rate_player(
        PeriodRules.for_period(STD, Period(2026, 6)), status, [Event((Game(1800, Score.WIN),))]
    )
    assert result.k_status == 15
    assert result.k_factor == 15
    # +0.50 x 15 = 7.5 -> +8
    assert result.change == 8
    many = Event(tuple(Game(1800, Score.DRAW) for _ in range(50)))
    result = rate_player(PeriodRules.for_period(STD, Period(2026, 6)), status, [many])
    assert result.k_factor == 14  # 700 / 50 = 14
