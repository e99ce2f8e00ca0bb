"""What a first rating was computed from besides the period's own games: the player's standing
on the category's list before it (pool, rated games, peak), their year of birth, and in rapid
and blitz the standard rating it may have been seeded from."""

from __future__ import annotations

from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import PlayerRow, PlayerStatusRow, RatingListRow
from ratingdb.repositories import period_inputs
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.published.common import is_current
from ratingdb.rules import Category


class StatusBefore(NamedTuple):
    """An unrated player's standing on the category's list before a period (all empty when
    they had none there)."""

    rated_games: int
    peak_rating: int | None
    birth_year: int | None
    pool: list[dict[str, Any]]


def status_before(
    session: Session, category: Category, list_date: date, player_id: str
) -> StatusBefore:
    """The player's status on the latest revision of the category's last list before
    ``list_date``: pooled events, rated games and peak (none: no such list, or nothing of the
    player's there), with their year of birth."""
    birth_year = session.scalar(
        select(PlayerRow.birth_year).where(PlayerRow.player_id == player_id)
    )
    previous = session.scalar(
        select(RatingListRow.id)
        .where(
            RatingListRow.category == category, RatingListRow.list_date < list_date, is_current()
        )
        .order_by(RatingListRow.list_date.desc())
        .limit(1)
    )
    if previous is None:
        return StatusBefore(0, None, birth_year, [])
    row = session.execute(
        select(
            PlayerStatusRow.rated_games, PlayerStatusRow.peak_rating, PlayerStatusRow.pool
        ).where(PlayerStatusRow.list_id == previous, PlayerStatusRow.player_id == player_id)
    ).first()
    if row is None:
        return StatusBefore(0, None, birth_year, [])
    return StatusBefore(row.rated_games, row.peak_rating, birth_year, list(row.pool or []))


class StandardRating(NamedTuple):
    list_date: date
    rating: int


def standard_rating_on(
    session: Session, player_id: str, day: date, written_before: int
) -> StandardRating | None:
    """The player's rating on the FIDE standard list in force on ``day``, among the standard
    lists written before the list ``written_before`` (what that list was computed from; the
    close's choice of list, services.close.inputs.standard_ratings_wanted). None: no such list,
    or the player is not on it."""
    lists = period_repo.lists_of(session, Category.FIDE_STANDARD, written_before=written_before)
    in_force = period_repo.in_force(lists, day)
    if in_force is None:
        return None
    rating = period_inputs.ratings_on(session, in_force.id, {player_id}).get(player_id)
    return None if rating is None else StandardRating(in_force.list_date, rating)
