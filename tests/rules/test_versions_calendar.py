"""Rule versions in force (docs/rules.md §2) and the list calendar (A7, B §2, B §3.2)."""

from __future__ import annotations

from datetime import date

import pytest

from ratingdb.rules import (
    ALL_VERSIONS,
    CapMode,
    Category,
    ExpectedScoreMethod,
    InitialRatingMethod,
    NoRuleVersion,
    OneTimeAdjustment,
    Period,
    PeriodRules,
    closing_date,
    is_list_period,
    next_period,
    period_for_end_date,
    previous_period,
    version_for_period,
    version_named,
    version_on,
    versions_of,
)
from ratingdb.rules.calendar import NotAListPeriod

STD = Category.FIDE_STANDARD
RAPID = Category.FIDE_RAPID
BLITZ = Category.FIDE_BLITZ
FFE = Category.FFE_RAPID


# --- Which version is in force ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("period", "name"),
    [
        ("2000-01", "fide-standard-2000-01"),
        ("2009-04", "fide-standard-2000-01"),
        ("2009-06", "fide-standard-2000-01"),
        ("2009-07", "fide-standard-2009-07"),
        ("2011-06", "fide-standard-2009-07"),
        ("2011-07", "fide-standard-2011-07"),
        ("2012-06", "fide-standard-2011-07"),
        ("2012-07", "fide-standard-2012-07"),
        ("2014-06", "fide-standard-2012-07"),
        ("2014-07", "fide-standard-2014-07"),
        ("2021-12", "fide-standard-2014-07"),
        ("2022-01", "fide-standard-2022-01"),
        ("2024-02", "fide-standard-2022-01"),
        ("2024-03", "fide-standard-2024-03"),
        ("2025-09", "fide-standard-2024-03"),
        ("2025-10", "fide-standard-2025-10"),
        ("2026-12", "fide-standard-2025-10"),
    ],
)
def test_standard_version_in_force(period: str, name: str) -> None:
    assert version_for_period(STD, Period.parse(period)).name == name


@pytest.mark.parametrize("category", [RAPID, BLITZ])
@pytest.mark.parametrize(
    ("period", "suffix"),
    [
        ("2012-01", "2012-01"),
        ("2021-12", "2012-01"),
        ("2022-01", "2022-01"),
        ("2022-09", "2022-01"),
        ("2022-10", "2022-10"),
        ("2024-02", "2022-10"),
        ("2024-03", "2024-03"),
        ("2024-11", "2024-03"),
        ("2024-12", "2024-12"),
        ("2026-12", "2024-12"),
    ],
)
def test_rapid_blitz_version_in_force(category: Category, period: str, suffix: str) -> None:
    assert version_for_period(category, Period.parse(period)).name == f"{category}-{suffix}"


def test_ffe_rapid_single_version() -> None:
    assert version_for_period(FFE, Period(2012, 1)).name == "ffe-rapid-2012-01"
    assert version_for_period(FFE, Period(2027, 4)).name == "ffe-rapid-2012-01"


def test_version_on_a_day() -> None:
    assert version_on(STD, date(2025, 9, 30)).name == "fide-standard-2024-03"
    assert version_on(STD, date(2025, 10, 1)).name == "fide-standard-2025-10"
    assert version_on(STD, date(2009, 6, 30)).name == "fide-standard-2000-01"
    assert version_on(STD, date(2009, 7, 1)).name == "fide-standard-2009-07"
    assert version_on(RAPID, date(2022, 9, 30)).name == "fide-rapid-2022-01"
    assert version_on(RAPID, date(2022, 10, 1)).name == "fide-rapid-2022-10"


@pytest.mark.parametrize(
    ("category", "period"),
    [
        (STD, Period(1999, 12)),
        (RAPID, Period(2011, 12)),
        (BLITZ, Period(2011, 12)),
        (FFE, Period(2011, 12)),
    ],
)
def test_period_before_the_first_version_raises(category: Category, period: Period) -> None:
    with pytest.raises(NoRuleVersion):
        version_for_period(category, period)
    with pytest.raises(NoRuleVersion):
        PeriodRules.for_period(category, period)
    with pytest.raises(NoRuleVersion):
        closing_date(category, period)
    assert not is_list_period(category, period)


def test_version_on_before_first_day_raises() -> None:
    with pytest.raises(NoRuleVersion):
        version_on(RAPID, date(2011, 12, 31))
    with pytest.raises(NoRuleVersion):
        version_named("fide-standard-1990-01")


def test_versions_ordered_and_named_uniquely() -> None:
    names = [v.name for v in ALL_VERSIONS]
    assert len(names) == len(set(names))
    for category in Category:
        versions = versions_of(category)
        dates = [v.effective_from for v in versions]
        assert dates == sorted(dates)
        assert len(set(dates)) == len(dates)
        assert all(v.category is category for v in versions)
        for version in versions:
            assert version_named(version.name) is version
    assert [v.name for v in versions_of(STD)] == [
        "fide-standard-2000-01",
        "fide-standard-2009-07",
        "fide-standard-2011-07",
        "fide-standard-2012-07",
        "fide-standard-2014-07",
        "fide-standard-2022-01",
        "fide-standard-2024-03",
        "fide-standard-2025-10",
    ]


# --- Parameters of the versions (docs/rules.md §2) -------------------------------------


def test_standard_version_parameters() -> None:
    v2000 = version_named("fide-standard-2000-01")
    assert (v2000.difference_cap, v2000.floor, v2000.closing_days) == (350, 1400, 30)
    assert sorted(v2000.list_months) == [1, 4, 7, 10]
    assert v2000.initial_rating_method is InitialRatingMethod.RA_PLUS_12_5
    v2009 = version_named("fide-standard-2009-07")
    assert (v2009.difference_cap, v2009.floor, v2009.closing_days) == (400, 1200, 7)
    assert sorted(v2009.list_months) == [1, 3, 5, 7, 9, 11]
    v2012 = version_named("fide-standard-2012-07")
    assert (v2012.floor, v2012.closing_days, len(v2012.list_months)) == (1000, 3, 12)
    v2014 = version_named("fide-standard-2014-07")
    assert (v2014.k_new, v2014.k_established, v2014.k_high, v2014.junior_k) == (40, 20, 10, 40)
    assert (v2014.kn_cap, v2014.initial_min_games) == (700, 5)
    v2022 = version_named("fide-standard-2022-01")
    assert v2022.cap_mode is CapMode.ONCE_PER_EVENT
    v2024 = version_named("fide-standard-2024-03")
    assert (v2024.floor, v2024.initial_max) == (1400, 2200)
    assert v2024.cap_mode is CapMode.EVERY_GAME
    assert v2024.initial_rating_method is InitialRatingMethod.HYPOTHETICAL_DRAWS_1800
    assert v2024.one_time_adjustment is OneTimeAdjustment.COMPRESSION_BELOW_2000
    v2025 = version_named("fide-standard-2025-10")
    assert v2025.cap_mode is CapMode.BELOW_2650
    assert v2025.cap_exempt_from == 2650
    # A one-time adjustment belongs to its own version only.
    assert v2025.one_time_adjustment is None
    assert all(v.expected is ExpectedScoreMethod.TABLE for v in versions_of(STD))


@pytest.mark.parametrize("category", [RAPID, BLITZ])
def test_rapid_blitz_version_parameters(category: Category) -> None:
    first = version_named(f"{category}-2012-01")
    assert (first.k_new, first.k_established, first.k_high, first.junior_k) == (20, 20, 20, None)
    assert first.difference_cap is None or first.cap_mode is CapMode.NONE
    assert first.kn_cap == 700
    v2022 = version_named(f"{category}-2022-01")
    assert (v2022.difference_cap, v2022.cap_mode) == (400, CapMode.ONCE_PER_EVENT)
    v2022_10 = version_named(f"{category}-2022-10")
    assert v2022_10.one_time_adjustment is OneTimeAdjustment.STANDARD_MINUS_100
    assert (v2022_10.k_new, v2022_10.k_established, v2022_10.k_high) == (40, 20, 10)
    v2024 = version_named(f"{category}-2024-03")
    assert v2024.standard_seed
    assert v2024.cap_mode is CapMode.EVERY_GAME
    assert v2024.one_time_adjustment is None
    v2024_12 = version_named(f"{category}-2024-12")
    assert (v2024_12.exclusion_difference, v2024_12.exclusion_rating) == (600, 2600)
    # No 2650 exemption in rapid and blitz.
    assert v2024_12.cap_mode is CapMode.EVERY_GAME
    assert v2024_12.cap_exempt_from is None


def test_ffe_rapid_version_parameters() -> None:
    ffe = version_named("ffe-rapid-2012-01")
    assert ffe.expected is ExpectedScoreMethod.FORMULA
    assert (ffe.k_new, ffe.k_established, ffe.k_high) == (40, 20, 10)
    assert (ffe.difference_cap, ffe.cap_mode) == (400, CapMode.EVERY_GAME)
    assert (ffe.floor, ffe.closing_days, len(ffe.list_months)) == (1000, 3, 12)
    assert ffe.one_time_adjustment is None
    assert ffe.effective_from == date(2012, 1, 1)


def test_parameters_are_plain_values() -> None:
    params = version_named("fide-standard-2009-07").parameters()
    assert params["effective_from"] == "2009-07-01"
    assert params["list_months"] == [1, 3, 5, 7, 9, 11]
    assert params["cap_mode"] == "every_game"
    assert params["difference_cap"] == 400


# --- Closing dates ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "period", "closing"),
    [
        (STD, Period(2026, 12), date(2026, 11, 28)),
        (STD, Period(2026, 9), date(2026, 8, 29)),
        (STD, Period(2025, 3), date(2025, 2, 26)),
        (STD, Period(2024, 3), date(2024, 2, 27)),  # leap year
        (STD, Period(2009, 9), date(2009, 8, 25)),  # bimonthly, 7 days
        (STD, Period(2009, 4), date(2009, 3, 2)),  # quarterly, 30 days
        (RAPID, Period(2012, 7), date(2012, 6, 28)),
        (FFE, Period(2027, 4), date(2027, 3, 29)),
    ],
)
def test_closing_date(category: Category, period: Period, closing: date) -> None:
    assert closing_date(category, period) == closing


def test_closing_date_of_a_month_without_list_raises() -> None:
    with pytest.raises(NotAListPeriod):
        closing_date(STD, Period(2009, 8))
    with pytest.raises(NotAListPeriod):
        PeriodRules.for_period(STD, Period(2009, 5))
    with pytest.raises(ValueError, match="no list"):
        closing_date(STD, Period(2012, 6))


# --- List months -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("period", "is_list"),
    [
        ("2009-01", True),
        ("2009-02", False),
        ("2009-03", False),
        ("2009-04", True),
        ("2009-05", False),
        ("2009-06", False),
        ("2009-07", True),
        ("2009-08", False),
        ("2009-09", True),
        ("2011-11", True),
        ("2011-12", False),
        ("2012-05", True),
        ("2012-06", False),
        ("2012-07", True),
        ("2012-08", True),
        ("2026-02", True),
    ],
)
def test_standard_list_months(period: str, is_list: bool) -> None:
    assert is_list_period(STD, Period.parse(period)) is is_list


def test_rapid_and_ffe_lists_are_monthly() -> None:
    for month in range(1, 13):
        assert is_list_period(RAPID, Period(2012, month))
        assert is_list_period(FFE, Period(2027, month))


# --- Previous and next list, across frequency changes ----------------------------------------


@pytest.mark.parametrize(
    ("category", "period", "previous"),
    [
        (STD, Period(2009, 7), Period(2009, 4)),  # quarterly -> bimonthly
        (STD, Period(2009, 9), Period(2009, 7)),
        (STD, Period(2012, 7), Period(2012, 5)),  # bimonthly -> monthly
        (STD, Period(2012, 8), Period(2012, 7)),
        (STD, Period(2026, 1), Period(2025, 12)),
        (STD, Period(2026, 6), Period(2026, 5)),
        (STD, Period(2000, 4), Period(2000, 1)),
        (STD, Period(2000, 1), None),  # the category's first list
        (RAPID, Period(2012, 1), None),
        (RAPID, Period(2012, 2), Period(2012, 1)),
    ],
)
def test_previous_period(category: Category, period: Period, previous: Period | None) -> None:
    assert previous_period(category, period) == previous


@pytest.mark.parametrize(
    ("category", "period", "following"),
    [
        (STD, Period(2009, 4), Period(2009, 7)),
        (STD, Period(2009, 1), Period(2009, 4)),
        (STD, Period(2009, 7), Period(2009, 9)),
        (STD, Period(2012, 5), Period(2012, 7)),
        (STD, Period(2012, 7), Period(2012, 8)),
        (STD, Period(2025, 12), Period(2026, 1)),
        (RAPID, Period(2012, 1), Period(2012, 2)),
    ],
)
def test_next_period(category: Category, period: Period, following: Period) -> None:
    assert next_period(category, period) == following


def test_period_rules_status_year_is_the_previous_lists_year() -> None:
    assert PeriodRules.for_period(STD, Period(2026, 6)).previous_period == Period(2026, 5)
    assert PeriodRules.for_period(STD, Period(2026, 6)).status_year == 2026
    assert PeriodRules.for_period(STD, Period(2026, 1)).status_year == 2025
    assert PeriodRules.for_period(STD, Period(2009, 7)).previous_period == Period(2009, 4)
    # The first list has no previous list: its own year.
    assert PeriodRules.for_period(RAPID, Period(2012, 1)).status_year == 2012


# --- Which list a tournament ending on a day goes to (A7) ------------------------------------


@pytest.mark.parametrize(
    ("category", "end", "period"),
    [
        (STD, date(2026, 11, 28), Period(2026, 12)),
        (STD, date(2026, 11, 29), Period(2027, 1)),
        (STD, date(2026, 8, 29), Period(2026, 9)),
        (STD, date(2026, 8, 30), Period(2026, 10)),  # TV-06: missed the Sept closing (29 Aug)
        (STD, date(2009, 8, 25), Period(2009, 9)),
        (STD, date(2009, 8, 26), Period(2009, 11)),
        (STD, date(2009, 3, 2), Period(2009, 4)),
        (STD, date(2009, 3, 3), Period(2009, 7)),
        (STD, date(2012, 5, 30), Period(2012, 7)),
        (RAPID, date(2025, 6, 8), Period(2025, 7)),
    ],
)
def test_period_for_end_date(category: Category, end: date, period: Period) -> None:
    assert period_for_end_date(category, end) == period


# --- Period values ---------------------------------------------------------------------------


def test_period_values() -> None:
    period = Period.parse("2026-12")
    assert period == Period(2026, 12)
    assert str(period) == "2026-12"
    assert period.list_date == date(2026, 12, 1)
    assert period.plus_months(1) == Period(2027, 1)
    assert Period(2026, 1).plus_months(-1) == Period(2025, 12)
    assert Period(2026, 2).index - Period(2023, 12).index == 26
    assert Period.of_list_date(date(2025, 10, 1)) == Period(2025, 10)
    assert Period(2009, 6) < Period(2009, 7)
    with pytest.raises(ValueError, match=r"1\.\.12"):
        Period(2026, 13)
    with pytest.raises(ValueError, match="YYYY-MM"):
        Period.parse("2026-1")
