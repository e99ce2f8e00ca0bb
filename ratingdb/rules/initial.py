"""First ratings (docs/rules.md §9; B.02 §7.1.4, §8.2 and their predecessors; B §3.6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ratingdb.rules.categories import Period
from ratingdb.rules.games import Event, Game, PooledEvent
from ratingdb.rules.rounding import round_half_up, round_to_hundredths_half_up
from ratingdb.rules.tables import rating_difference_for_score
from ratingdb.rules.versions import InitialRatingMethod, RuleVersion

#: The two hypothetical opponents of the 2024 method (B.02 §8.2.2).
HYPOTHETICAL_OPPONENT = 1800
_HALF_POINT_BONUS = {
    InitialRatingMethod.RA_PLUS_12_5: Fraction(25, 2),
    InitialRatingMethod.RA_PLUS_20: Fraction(20),
}


@dataclass(frozen=True, slots=True)
class InitialRating:
    """How a first rating was (or was not) reached, every step kept for the explanation."""

    method: InitialRatingMethod
    games: int
    points: Fraction
    opponents_average: Fraction | None  # Ra, unrounded
    p: Fraction | None  # the fractional score the table was read with, two decimals
    dp: int | None
    bonus: Fraction | None  # the half-point bonus of the older methods
    unrounded: Fraction | None
    capped_at: int | None  # initial_max when it applied
    rating: int | None  # Ru as computed (even when below the floor)
    published: bool
    reason: str | None  # why no rating is published, None when one is


def initial_rating(version: RuleVersion, games: Sequence[Game]) -> InitialRating:
    """Ru from an unrated player's pooled games against rated opponents."""
    method = version.initial_rating_method
    n = len(games)
    points = Fraction(sum(game.score for game in games), 2)
    if n < version.initial_min_games:
        return InitialRating(
            method, n, points, None, None, None, None, None, None, None, False,
            f"{n} games against rated opponents, {version.initial_min_games} needed",
        )  # fmt: skip
    total = sum(_opponent_rating(game) for game in games)
    bonus: Fraction | None = None
    dp: int | None = None
    p: Fraction | None
    if method is InitialRatingMethod.HYPOTHETICAL_DRAWS_1800:
        average = Fraction(total + 2 * HYPOTHETICAL_OPPONENT, n + 2)
        p = round_to_hundredths_half_up((points + 1) / (n + 2))
        dp = rating_difference_for_score(p)
        unrounded = average + dp
    else:
        average = Fraction(total, n)
        exact_p = points / n
        if exact_p > Fraction(1, 2):
            p = None
            half_points_above = 2 * points - n
            bonus = _HALF_POINT_BONUS[method] * half_points_above
            unrounded = average + bonus
        elif exact_p == Fraction(1, 2):
            p = exact_p
            dp = 0
            unrounded = average
        else:
            p = round_to_hundredths_half_up(exact_p)
            dp = rating_difference_for_score(p)
            unrounded = average + dp
    rating = round_half_up(unrounded)
    capped_at: int | None = None
    if version.initial_max is not None and rating > version.initial_max:
        rating = capped_at = version.initial_max
    published = rating >= version.floor
    reason = None if published else f"{rating} is below the floor {version.floor}"
    return InitialRating(
        method, n, points, average, p, dp, bonus, unrounded, capped_at, rating, published, reason
    )


def _opponent_rating(game: Game) -> int:
    if game.opponent_rating is None:
        raise ValueError("a first rating counts only games against rated opponents")
    return game.opponent_rating


@dataclass(frozen=True, slots=True)
class PoolUpdate:
    pool: tuple[PooledEvent, ...]
    added: tuple[PooledEvent, ...]
    expired: tuple[PooledEvent, ...]
    disregarded: tuple[PooledEvent, ...]  # a first event below first_event_min_score
    disregarded_events: frozenset[int]  # their indexes in the period's events


def update_pool(
    version: RuleVersion, period: Period, pool: Iterable[PooledEvent], events: Iterable[Event]
) -> PoolUpdate:
    """Add a period's events to an unrated player's pool (A5).

    Only games against rated opponents that the category rates count; matches with an unrated
    player are not rated.
    Events older than ``pool_months`` periods drop out. An event that would start the pool and
    scores below ``first_event_min_score`` (zero points since 2014) is disregarded.
    """
    kept: list[PooledEvent] = []
    expired: list[PooledEvent] = []
    for pooled in pool:
        if period.index - pooled.period.index < version.pool_months:
            kept.append(pooled)
        else:
            expired.append(pooled)
    added: list[PooledEvent] = []
    disregarded: list[PooledEvent] = []
    disregarded_events: set[int] = set()
    minimum = Fraction(version.first_event_min_score)
    for index, event in enumerate(events):
        if event.is_match:
            continue
        games = tuple(
            game
            for game in event.games
            if game.opponent_rating is not None and game.not_rated is None
        )
        if not games:
            continue
        pooled = PooledEvent(period, games, event.event_id)
        if not kept and pooled.points < minimum:
            disregarded.append(pooled)
            disregarded_events.add(index)
            continue
        kept.append(pooled)
        added.append(pooled)
    return PoolUpdate(
        tuple(kept), tuple(added), tuple(expired), tuple(disregarded), frozenset(disregarded_events)
    )


def as_decimal(value: Fraction, places: int = 2) -> Decimal:
    """A Fraction shown to ``places`` decimals (display only: nothing published uses this)."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal(1).scaleb(-places)
    )
