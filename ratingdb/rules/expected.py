"""Expected score (PD) of a game from the rating difference D = own rating - opponent's."""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal
from functools import lru_cache, partial

from ratingdb.rules.tables import probability_from_table
from ratingdb.rules.versions import ExpectedScoreMethod

_CONTEXT = Context(prec=28)
_ONE = Decimal(1)


def expected_score(difference: int, method: ExpectedScoreMethod, decimals: int = 4) -> Decimal:
    """PD for a difference already capped by the rules in force.

    The table (FIDE 8.1.2) is what FIDE publishes with. The formula 1 / (1 + 10^(-D/400)) is
    computed in Decimal at 28 digits and rounded to ``decimals`` places, half up, for the
    higher-rated side; the lower-rated side is 1 minus that, so PD(D) + PD(-D) = 1 exactly.
    """
    if method is ExpectedScoreMethod.TABLE:
        return probability_from_table(difference)
    return _formula(difference, decimals)


def expected_function(method: ExpectedScoreMethod, decimals: int = 4) -> Callable[[int], Decimal]:
    """The PD lookup of a method, chosen once for a whole event or period."""
    if method is ExpectedScoreMethod.TABLE:
        return probability_from_table
    return partial(_formula, decimals=decimals)


@lru_cache(maxsize=8192)
def _formula(difference: int, decimals: int) -> Decimal:
    if difference < 0:
        return _ONE - _formula(-difference, decimals)
    exponent = _CONTEXT.divide(Decimal(-difference), Decimal(400))
    power = _CONTEXT.power(Decimal(10), exponent)
    value = _CONTEXT.divide(_ONE, _ONE + power)
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
