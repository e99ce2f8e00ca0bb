"""Activity on a list (rules.activity): B.02 §7.2.2 and the FIDE Council's 24 months from the
November 2020 list; each case worked by counting months by hand."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratingdb.rules import Category, Period
from ratingdb.rules.activity import active_on, activity_rule, earliest_active, is_active

STANDARD = Category.FIDE_STANDARD
P = Period.parse


@pytest.mark.parametrize(
    ("last_rated", "period", "active"),
    [
        ("2026-11", "2026-11", True),  # rated on this list: active on it
        ("2025-12", "2026-11", True),  # 11 months
        ("2018-12", "2019-11", True),  # 11 months without games, 12-month rule: active
        ("2018-12", "2019-12", False),  # 12 months: inactive on exactly the twelfth list
        ("2019-10", "2020-10", False),  # 12 months, the last 12-month list: inactive
        ("2019-10", "2020-11", True),  # 13 months, the first 24-month list: active again
        ("2024-12", "2026-11", True),  # 23 months under 24
        ("2024-12", "2026-12", False),  # 24 months: inactive
    ],
)
def test_the_months_without_rated_games(last_rated: str, period: str, active: bool) -> None:
    assert is_active(STANDARD, P(period), P(last_rated)) is active


def test_the_rule_of_each_list_and_its_source() -> None:
    assert activity_rule(STANDARD, P("2020-10")).months == 12
    assert activity_rule(STANDARD, P("2020-11")).months == 24
    assert "fide.com/news/796" in activity_rule(Category.FIDE_BLITZ, P("2026-12")).source
    assert activity_rule(Category.FFE_RAPID, P("2026-12")).months == 12


def test_never_rated_is_inactive_and_a_later_list_is_refused() -> None:
    assert is_active(STANDARD, P("2026-12"), None) is False
    with pytest.raises(ValueError, match="after the 2026-11 list"):
        is_active(STANDARD, P("2026-11"), P("2026-12"))


@given(
    last=st.integers(min_value=2010 * 12, max_value=2030 * 12),
    gap=st.integers(min_value=0, max_value=40),
)
def test_active_exactly_while_the_gap_is_under_the_rules_months(last: int, gap: int) -> None:
    last_rated = Period(last // 12, last % 12 + 1)
    period = last_rated.plus_months(gap)
    months = 24 if period >= P("2020-11") else 12
    assert is_active(STANDARD, period, last_rated) is (gap < months)


@pytest.mark.parametrize(
    ("last_rated", "period", "active"),
    [
        (date(2018, 12, 1), "2019-11", True),  # 11 months, 12-month rule
        (date(2018, 12, 1), "2019-12", False),  # 12 months
        (date(2024, 12, 1), "2026-11", True),  # 23 months, 24-month rule
        (date(2024, 12, 1), "2026-12", False),  # 24 months
        (None, "2026-12", False),  # never rated
    ],
)
def test_active_on_reads_the_list_date_entries_hold(
    last_rated: date | None, period: str, active: bool
) -> None:
    """active_on: is_active for last_rated given as the list date a list entry stores."""
    assert active_on(STANDARD, P(period), last_rated) is active
    assert active_on(Category.FFE_RAPID, P("2026-12"), date(2025, 12, 1)) is False  # 12 months
    with pytest.raises(ValueError, match="after the 2026-11 list"):
        active_on(STANDARD, P("2026-11"), date(2026, 12, 1))


@given(
    last=st.integers(min_value=2010 * 12, max_value=2030 * 12),
    gap=st.integers(min_value=0, max_value=40),
    category=st.sampled_from(list(Category)),
)
def test_active_on_and_earliest_active_agree_with_is_active(
    last: int, gap: int, category: Category
) -> None:
    last_rated = Period(last // 12, last % 12 + 1)
    period = last_rated.plus_months(gap)
    expected = is_active(category, period, last_rated)
    assert active_on(category, period, last_rated.list_date) is expected
    assert (last_rated.index >= earliest_active(category, period)) is expected
