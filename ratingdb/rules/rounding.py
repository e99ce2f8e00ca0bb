"""The two rounding rules the regulations use, written once.

Published numbers are integers; everything before the final rounding stays exact (Decimal or
Fraction), so no float ever reaches a list.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction


def round_half_away_from_zero(value: Decimal) -> int:
    """Rating change of a period: FIDE B.02 §8.3.4, "0.5 is rounded away from zero".

    Decimal's ROUND_HALF_UP rounds ties away from zero (-2.5 -> -3, 2.5 -> 3).
    """
    return int(value.to_integral_value(rounding=ROUND_HALF_UP))


def round_half_up(value: Fraction | Decimal | int) -> int:
    """Averages, initial ratings, one-time adjustments: "the fraction 0.5 is rounded upward"
    (Title Regulations §1.4.7), i.e. towards +infinity on a tie.
    """
    return math.floor(Fraction(value) + Fraction(1, 2))


def round_to_hundredths_half_up(value: Fraction) -> Fraction:
    """A fractional score p to two decimals, 0.005 upward (B §3.6; the regulations are silent)."""
    return Fraction(math.floor(value * 100 + Fraction(1, 2)), 100)
