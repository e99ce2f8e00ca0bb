"""Performance rating Rp = Ra + dp, for display (Title Regulations §1.4.6-1.4.9, B §3.8)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ratingdb.rules.games import Score
from ratingdb.rules.rounding import round_half_up, round_to_hundredths_half_up
from ratingdb.rules.tables import rating_difference_for_score


def performance_rating(opponent_ratings: Sequence[int], scores: Sequence[Score]) -> int:
    """Ra rounded to a whole number (0.5 up), p to a whole percent (0.5 % up), dp from 8.1.1."""
    if not opponent_ratings or len(opponent_ratings) != len(scores):
        raise ValueError("a performance needs one score per opponent and at least one game")
    n = len(opponent_ratings)
    average = round_half_up(Fraction(sum(opponent_ratings), n))
    p = round_to_hundredths_half_up(Fraction(sum(scores), 2 * n))
    return average + rating_difference_for_score(p)
