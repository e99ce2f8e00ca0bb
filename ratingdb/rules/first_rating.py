"""The working of a first rating, as its method made it (docs/rules.md §9): every figure the
explanation of a first rating shows, taken from the core's own result, so that a page, the API
and the calculator never work a first rating again their own way.

Two kinds of first rating: one worked from the pooled games by the version's
``InitialRatingMethod`` (``initial_rating``), and, in rapid and blitz from 2024-03, one made by
rating the unrated player as a rated player with their standard rating (B.02 rapid/blitz 2024
§7.2.1): standard rating + K x sum(score - PD), the change rounded once.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Final

from ratingdb.rules.initial import HYPOTHETICAL_OPPONENT, as_decimal
from ratingdb.rules.period import PeriodResult
from ratingdb.rules.versions import InitialRatingMethod

#: The method of a first rating made from the standard rating (rapid and blitz from 2024-03).
STANDARD_SEED: Final = "standard_seed"
#: Every method a first rating's working can name: the pooled methods, then the seed.
FIRST_RATING_METHODS: Final = (*(method.value for method in InitialRatingMethod), STANDARD_SEED)
#: The hypothetical draws of the 2024 method (B.02 §8.2.2).
HYPOTHETICAL_GAMES: Final = 2


@dataclass(frozen=True, slots=True)
class FirstRatingWorking:
    """How a first rating came about, each figure as the core computed it (None: not a step of
    this method). ``rating`` is what the working gives; a page shows the working only when
    that is the published rating."""

    method: str  # an InitialRatingMethod value, or STANDARD_SEED
    games: int  # the games counted: pooled games, or the seed's rated games
    points: Fraction
    rating: int | None  # what the working gives, even below the floor (None: too few games)
    published: bool  # the rating is published (enough games, at or above the floor)
    # The pooled methods (initial_rating)
    opponents_total: int | None = None  # the real opponents' ratings, summed
    opponents_average: Fraction | None = None  # Ra (with the hypothetical draws: over n + 2)
    p: Fraction | None = None
    dp: int | None = None
    half_points_above: int | None = None  # above 50 %, the older methods' bonus counts these
    bonus: Fraction | None = None
    unrounded: Fraction | None = None  # Ra + dp, Ra + bonus or Ra, before rounding
    capped_at: int | None = None
    reason: str | None = None  # why the pooled games give no rating
    # The standard seed
    standard_rating: int | None = None
    k_factor: int | None = None  # K applied, after K x n <= 700
    sum_delta: Decimal | None = None
    change: int | None = None

    def figures(self) -> dict[str, object]:
        """The working as shown: fractions as decimals (points to one place, the others to
        two), integers as they are. The same names in the API and the calculator's JSON."""

        def shown(value: Fraction | None, places: int = 2) -> Decimal | None:
            return None if value is None else as_decimal(value, places)

        return {
            "method": self.method,
            "games": self.games,
            "points": as_decimal(self.points, 1),
            "opponents_total": self.opponents_total,
            "opponents_average": shown(self.opponents_average),
            "p": shown(self.p),
            "dp": self.dp,
            "half_points_above": self.half_points_above,
            "bonus": shown(self.bonus, 1),
            "unrounded": shown(self.unrounded),
            "capped_at": self.capped_at,
            "standard_rating": self.standard_rating,
            "k_factor": self.k_factor,
            "sum_delta": self.sum_delta,
            "change": self.change,
            "rating": self.rating,
        }


def first_rating_working(result: PeriodResult) -> FirstRatingWorking | None:
    """The working of the period's first rating (or of the attempt at one): None when the
    player was rated before the period or pooled nothing in it."""
    if result.seeded_from_standard:
        return _seeded(result)
    initial = result.initial
    if initial is None:
        return None
    method = initial.method
    total: int | None = None
    half_points: int | None = None
    if initial.opponents_average is not None:
        hypothetical = (
            HYPOTHETICAL_GAMES if method is InitialRatingMethod.HYPOTHETICAL_DRAWS_1800 else 0
        )
        counted = initial.opponents_average * (initial.games + hypothetical)
        total = int(counted) - hypothetical * HYPOTHETICAL_OPPONENT  # exact: a sum of ratings
    if initial.bonus is not None:
        half_points = int(2 * initial.points) - initial.games
    return FirstRatingWorking(
        method=method.value,
        games=initial.games,
        points=initial.points,
        rating=initial.rating,
        published=initial.published,
        opponents_total=total,
        opponents_average=initial.opponents_average,
        p=initial.p,
        dp=initial.dp,
        half_points_above=half_points,
        bonus=initial.bonus,
        unrounded=initial.unrounded,
        capped_at=initial.capped_at,
        reason=initial.reason,
    )


def _seeded(result: PeriodResult) -> FirstRatingWorking:
    points = Fraction(
        sum(
            int(game.game.score)
            for event in result.events
            for game in event.games
            if game.rated and game.delta is not None
        ),
        2,
    )
    if result.base_rating is None or result.change is None:
        raise AssertionError("a seeded player is rated from the standard rating")
    rating = result.base_rating + result.change
    return FirstRatingWorking(
        method=STANDARD_SEED,
        games=result.rated_games,
        points=points,
        rating=rating,
        published=result.new_rating is not None,
        reason=None
        if result.new_rating is not None
        else f"{rating} is below the floor {result.version.floor}",
        standard_rating=result.base_rating,
        k_factor=result.k_factor,
        sum_delta=result.sum_delta,
        change=result.change,
    )
