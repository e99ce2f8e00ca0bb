"""A period's calculation tournament by tournament, as FIDE's calculation pages show it: for
each event, the rated games, the points scored, the sum of the expected scores, the sum of
score - expected, and what it adds to the change (K x that sum).

Pure: it reads a :class:`PeriodCalculation` already loaded, nothing else. The change itself is
rounded once, on the period's total (docs/rules.md §7), so each event's share is shown
unrounded (K x a sum of hundredths: exact to two places).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ratingdb.services.published.calculations import GameLine, PeriodCalculation


@dataclass(frozen=True, slots=True)
class TournamentSubtotal:
    """One event's part of a period's calculation."""

    tournament_id: str
    tournament_name: str
    #: Rated games, and the games stored but not rated (an unrated opponent, a forfeit...).
    games: int
    not_rated: int
    #: Score over the rated games.
    points: Decimal
    #: Sums over the rated games; None when they have no expected score (a first rating,
    #: worked from the opponents' average instead) or when no game was rated.
    expected: Decimal | None
    sum_delta: Decimal | None
    #: K x sum_delta, unrounded; None without a K (no game rated, or a first rating).
    change: Decimal | None
    #: The player's own rating used in this event's games: one value when they all used the
    #: same (the rule: the rating of the list before the period), else None; ``ratings_used``
    #: lists them all, in game order, without repeats.
    rating_used: int | None
    ratings_used: tuple[int, ...]


def tournament_subtotals(calc: PeriodCalculation) -> tuple[TournamentSubtotal, ...]:
    """Each event of ``calc``, in the order its first game appears in the calculation."""
    by_event: dict[str, list[GameLine]] = {}
    for line in calc.games:
        by_event.setdefault(line.tournament_id, []).append(line)
    return tuple(_subtotal(lines, calc.k_factor) for lines in by_event.values())


def _subtotal(lines: list[GameLine], k_factor: int | None) -> TournamentSubtotal:
    rated = [line for line in lines if line.rated]
    expected: Decimal | None = None
    sum_delta: Decimal | None = None
    if rated and all(line.expected is not None and line.delta is not None for line in rated):
        expected = sum((line.expected for line in rated if line.expected is not None), Decimal(0))
        sum_delta = sum((line.delta for line in rated if line.delta is not None), Decimal(0))
    change = None if sum_delta is None or k_factor is None else k_factor * sum_delta
    used = tuple(dict.fromkeys(line.rating_used for line in rated if line.rating_used is not None))
    return TournamentSubtotal(
        tournament_id=lines[0].tournament_id,
        tournament_name=lines[0].tournament_name,
        games=len(rated),
        not_rated=len(lines) - len(rated),
        points=sum((line.score for line in rated), Decimal(0)),
        expected=expected,
        sum_delta=sum_delta,
        change=change,
        rating_used=used[0] if len(used) == 1 else None,
        ratings_used=used,
    )


def ratings_used(calc: PeriodCalculation) -> tuple[int, ...]:
    """The player's own ratings used over the period's rated games, without repeats (one,
    as a rule)."""
    return tuple(
        dict.fromkeys(
            line.rating_used for line in calc.games if line.rated and line.rating_used is not None
        )
    )
