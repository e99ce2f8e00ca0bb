"""The plain data a period calculation works on: scores, games, events, a player's status."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import IntEnum
from fractions import Fraction

from ratingdb.rules.categories import Period


class Score(IntEnum):
    """A played game's result for one player, in half points (so sums stay integers)."""

    LOSS = 0
    DRAW = 1
    WIN = 2

    @property
    def points(self) -> Decimal:
        return _POINTS[self]

    @classmethod
    def from_points(cls, value: Decimal | Fraction | int | str) -> Score:
        """1, 0.5 or 0 (as number or text); anything else is refused."""
        try:
            halves = Fraction(value) * 2
        except (ValueError, ArithmeticError, TypeError):
            raise ValueError(f"score must be 0, 0.5 or 1, got {value!r}") from None
        if halves.denominator != 1 or halves not in (0, 1, 2):
            raise ValueError(f"score must be 0, 0.5 or 1, got {value!r}")
        return cls(int(halves))


_POINTS = {Score.LOSS: Decimal("0"), Score.DRAW: Decimal("0.5"), Score.WIN: Decimal("1")}


@dataclass(frozen=True, slots=True)
class Game:
    """One played game from the player's side.

    ``opponent_rating`` is the opponent's rating on the list in force at the event's start
    (None: unrated there, so the game cannot change a rated player's rating). ``not_rated``
    says why a game the category does not rate (its rate of play, say) does not count: it is
    kept, and explained, but never rated nor pooled toward a first rating.
    """

    opponent_rating: int | None
    score: Score
    opponent_id: str | None = None
    not_rated: str | None = None


@dataclass(frozen=True, slots=True)
class Event:
    """A player's games of one tournament rated in the period.

    ``rating_used`` is the player's own rating on the list in force at the event's start; None
    means the player's published rating is used (B.02 §8.2.4: a player who got a rating before
    a pending tournament is rated with the current rating).
    """

    games: tuple[Game, ...]
    rating_used: int | None = None
    start_date: date | None = None
    event_id: str | None = None
    #: A match (B.02 §6): when a player is unrated, the match is not rated.
    is_match: bool = False


@dataclass(frozen=True, slots=True)
class PooledEvent:
    """An unrated player's games against rated opponents, waiting for a first rating (A5)."""

    period: Period
    games: tuple[Game, ...]
    event_id: str | None = None

    @property
    def points(self) -> Fraction:
        return Fraction(sum(game.score for game in self.games), 2)


@dataclass(frozen=True, slots=True)
class PlayerStatus:
    """A player's standing in one category as of the previous list.

    ``rating`` None = unrated in the category. ``peak_rating`` is the highest published rating
    (2400 -> permanent K 10; 2300 ends junior K). ``k_factor`` overrides the K rules (the
    calculator, or a list imported with its K). ``standard_rating`` serves the rapid/blitz
    standard-rating seed and the 2022 uplift. ``last_rated``: the last period whose list rated
    games of the player (None: none known), which says whether they are active (rules.activity).
    """

    rating: int | None
    rated_games: int = 0
    peak_rating: int | None = None
    birth_year: int | None = None
    k_factor: int | None = None
    standard_rating: int | None = None
    pool: tuple[PooledEvent, ...] = ()
    last_rated: Period | None = None
