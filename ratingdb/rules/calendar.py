"""Which months have a list, and the closing date of each (docs/rules.md §12, docs/README.md
"Words").

List frequency changed over time (quarterly, every two months, monthly), so the list before or
after a period is found by walking months under the version in force at each.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from ratingdb.rules.categories import Category, Period
from ratingdb.rules.messages import N_, Message, MessageError
from ratingdb.rules.versions import NoRuleVersion, version_for_period, versions_of


class NotAListPeriod(MessageError):
    """The category publishes no list in that month under the rules then in force."""


def is_list_period(category: Category, period: Period) -> bool:
    try:
        return version_for_period(category, period).is_list_month(period.month)
    except NoRuleVersion:
        return False


def check_list_period(category: Category, period: Period) -> None:
    """Refuse a month without a list, saying which lists surround it, so the reader can pick
    one (FIDE standard lists were quarterly until 2009-07, every two months until 2012-07)."""
    version = version_for_period(category, period)
    if not version.is_list_month(period.month):
        months = ", ".join(str(m) for m in sorted(version.list_months))
        before = previous_period(category, period)
        after = str(next_period(category, period))
        around = (
            Message(N_("the lists around it are %(before)s and %(after)s"),
                    {"before": str(before), "after": after})
            if before is not None
            else Message(N_("the first list after it is %(after)s"), {"after": after})
        )  # fmt: skip
        raise NotAListPeriod(
            Message(N_("%(category)s has no list in %(period)s under %(version)s (list months: "
                       "%(months)s); %(around)s"),
                    {"category": category.value, "period": str(period), "version": version.name,
                     "months": months, "around": around})
        )  # fmt: skip


def closing_date(category: Category, period: Period) -> date:
    """Tournaments ending on or before this date may be rated on the period's list."""
    check_list_period(category, period)
    return period.list_date - timedelta(days=version_for_period(category, period).closing_days)


def previous_period(category: Category, period: Period) -> Period | None:
    """The list before ``period``, or None when ``period`` is the category's first list."""
    first = Period.of_list_date(versions_of(category)[0].effective_from)
    candidate = period.plus_months(-1)
    while candidate >= first:
        if is_list_period(category, candidate):
            return candidate
        candidate = candidate.plus_months(-1)
    return None


def next_period(category: Category, period: Period) -> Period:
    """The list after ``period`` (at most 12 months ahead under any version)."""
    candidate = period.plus_months(1)
    for _ in range(12):
        if is_list_period(category, candidate):
            return candidate
        candidate = candidate.plus_months(1)
    raise AssertionError(f"no {category.value} list within a year after {period}")


def period_for_end_date(category: Category, end_date: date) -> Period:
    """The first list whose closing date is on or after ``end_date`` (A7, before publication
    state is taken into account by the caller)."""
    candidate = Period.of_list_date(end_date)
    for _ in range(15):
        if is_list_period(category, candidate) and closing_date(category, candidate) >= end_date:
            return candidate
        candidate = candidate.plus_months(1)
    raise AssertionError(f"no {category.value} list closes after {end_date}")


# Late reports ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LateReportRule:
    """A tournament reported too late for the ``lists``-th list after its end is not rated."""

    effective_from: date  # by the tournament's end date
    lists: int
    source: str


_B02_9_1 = (
    'FIDE Handbook B.02 (1 Mar 2024) §9.1 [P, S1]: "If the tournament report is not submitted '
    "in time to be included in the third rating list after it ends, the tournament will not be "
    'rated."'
)
#: Per category, oldest first. Before 2024-03 FIDE's deadlines were in days (30 days from the
#: end, 2014-2021, UNCONFIRMED) or "more than one rating period late" (before 2009): not
#: applied, a federation replaying those years decides (docs/rules.md §12). The national list
#: has no such rule.
LATE_REPORT_RULES: dict[Category, tuple[LateReportRule, ...]] = {
    category: (LateReportRule(date(2024, 3, 1), 3, _B02_9_1),)
    for category in (Category.FIDE_STANDARD, Category.FIDE_RAPID, Category.FIDE_BLITZ)
}


def last_list_for(category: Category, end_date: date) -> tuple[Period, LateReportRule] | None:
    """The last list a tournament ending on ``end_date`` may be rated on, with the rule that
    says so; None when no rule bounds it."""
    found = [r for r in LATE_REPORT_RULES.get(category, ()) if r.effective_from <= end_date]
    if not found:
        return None
    rule = found[-1]
    period = period_for_end_date(category, end_date)
    for _ in range(rule.lists - 1):
        period = next_period(category, period)
    return period, rule
