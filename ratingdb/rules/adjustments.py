"""One-time adjustments to the base rating of one list (docs/rules.md §11)."""

from __future__ import annotations

from fractions import Fraction

from ratingdb.rules.categories import Period
from ratingdb.rules.rounding import round_half_up
from ratingdb.rules.versions import OneTimeAdjustment, RuleVersion

COMPRESSION_TARGET = 2000
COMPRESSION_SHARE = Fraction(2, 5)
UPLIFT_GAP = 100


def adjusted_base(
    version: RuleVersion, period: Period, rating: int, standard_rating: int | None
) -> int:
    """The previous published rating after the version's one-time adjustment, if this period is
    the one the adjustment applies to (the list dated the version's effective date)."""
    adjustment = version.one_time_adjustment
    if adjustment is None or period.list_date != version.effective_from:
        return rating
    if adjustment is OneTimeAdjustment.COMPRESSION_BELOW_2000:
        if rating >= COMPRESSION_TARGET:
            return rating
        return round_half_up(rating + COMPRESSION_SHARE * (COMPRESSION_TARGET - rating))
    if adjustment is OneTimeAdjustment.STANDARD_MINUS_100:
        if standard_rating is not None and standard_rating - rating > UPLIFT_GAP:
            return standard_rating - UPLIFT_GAP
        return rating
    raise AssertionError(f"unhandled one-time adjustment {adjustment}")
