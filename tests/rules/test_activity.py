"""Activity on a list (rules.activity): B.02 §7.2.2 and the FIDE Council's 24 months from the
November 2020 list; each case worked by counting months by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratingdb.rules import Category, Period
from ratingdb.rules.activity import activity_rule, is_active

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
