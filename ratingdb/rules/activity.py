"""Whether a player is active on a list (issue 27 item 3), by rule version per category.

B.02 §7.2.2 [P]: "A player is considered to commence inactivity if they play no rated games in
a one-year period. A player regains their activity if they play at least one rated game in a
period. They are then listed as active on the next list." Ratings do not decay; the flag only
says so, and rankings count active players.

FIDE Council, 2 November 2020 (https://www.fide.com/news/796): "from the November 2020 list
UNTIL FURTHER NOTICE, the period specified in the definition of inactivity will be increased
from 12 months to 24 months" (applied to every FIDE list). Still in force as far as ratingdb
knows (docs/rules.md §10.1): a later notice is a new row here.

A player's activity on a list follows from the last list on which they had rated games: active
while that list is less than ``months`` months before this one. So with 12 months, games rated
on the 2025-12 list keep a player active through the 2026-11 list; the 2026-12 list shows them
inactive; games rated on a later list make them active on that list.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from typing import Final

from ratingdb.rules.categories import Category, Period


@dataclass(frozen=True, slots=True)
class ActivityRule:
    """From the list of ``effective_from`` on, inactive after ``months`` without rated games."""

    effective_from: date
    months: int
    source: str


_B02 = "FIDE Handbook B.02 §7.2.2 [P] (12 months; the rule since at least 2009)"
_COVID = (
    "FIDE Council resolution of 2 Nov 2020 (https://www.fide.com/news/796): 24 months from the "
    "November 2020 list, until further notice"
)
_FFE = (
    "FFE: no inactivity rule found for the national rapid list; FIDE's 12 months applied "
    "(UNCONFIRMED, docs/rules.md §10.1)"
)

#: Oldest first, per category.
ACTIVITY_RULES: Final[dict[Category, tuple[ActivityRule, ...]]] = {
    **{
        category: (
            ActivityRule(date(2009, 7, 1), 12, _B02),
            ActivityRule(date(2020, 11, 1), 24, _COVID),
        )
        for category in (Category.FIDE_STANDARD, Category.FIDE_RAPID, Category.FIDE_BLITZ)
    },
    Category.FFE_RAPID: (ActivityRule(date(2009, 7, 1), 12, _FFE),),
}


def activity_rule(category: Category, period: Period) -> ActivityRule:
    """The rule of ``period``'s list (the first one for a list before it)."""
    rules = ACTIVITY_RULES[category]
    found = [rule for rule in rules if rule.effective_from <= period.list_date]
    return found[-1] if found else rules[0]


def is_active(category: Category, period: Period, last_rated: Period | None) -> bool:
    """Whether a player whose games were last rated on ``last_rated``'s list (None: never, as
    far as ratingdb knows) is active on ``period``'s list."""
    if last_rated is None:
        return False
    months = period.index - last_rated.index
    if months < 0:
        raise ValueError(f"games rated on the {last_rated} list are after the {period} list")
    return months < activity_rule(category, period).months


@functools.cache
def earliest_active(category: Category, period: Period) -> int:
    """The month index (Period.index) of the earliest period whose rated games still make a
    player active on ``period``'s list: :func:`is_active` as one comparison, for a whole list."""
    return period.index - activity_rule(category, period).months + 1


def active_on(category: Category, period: Period, last_rated: date | None) -> bool:
    """:func:`is_active` for ``last_rated`` given as the date of that period's list (as list
    entries hold it)."""
    if last_rated is None:
        return False
    index = last_rated.year * 12 + last_rated.month - 1
    if index > period.index:
        raise ValueError(f"games rated on the {last_rated} list are after the {period} list")
    return index >= earliest_active(category, period)
