"""What a tournament's crosstable needs beyond its games: the calculations of its period's
current list (each player's rating used, each game's delta, the K applied) and, before that list
is out, the ratings on the list in force at its start."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from ratingdb.models import CalculationRow, GameRow, ListEntryRow, RatingListRow, TournamentRow
from ratingdb.repositories.published.common import AnyRow, is_current
from ratingdb.rules import Category


def tournament_calculations(session: Session, tournament_id: str) -> Sequence[AnyRow]:
    """The tournament's games as computed on the latest revision of its period's list, from
    each player's side, with the player's entry on that list (``k_used``, ``previous_rating``,
    ``rating``; None when not on it)."""
    return session.execute(
        select(
            CalculationRow.player_id,
            CalculationRow.game_id,
            CalculationRow.rating_used,
            CalculationRow.opponent_id,
            CalculationRow.opponent_rating_used,
            CalculationRow.score,
            CalculationRow.delta,
            CalculationRow.rated,
            CalculationRow.reason,
            RatingListRow.revision,
            ListEntryRow.rating,
            ListEntryRow.previous_rating,
            ListEntryRow.k_used,
        )
        .join(RatingListRow, RatingListRow.id == CalculationRow.list_id)
        .join(TournamentRow, TournamentRow.tournament_id == CalculationRow.tournament_id)
        .join(GameRow, GameRow.id == CalculationRow.game_id)
        .outerjoin(
            ListEntryRow,
            and_(
                ListEntryRow.list_id == CalculationRow.list_id,
                ListEntryRow.player_id == CalculationRow.player_id,
            ),
        )
        .where(
            CalculationRow.tournament_id == tournament_id,
            RatingListRow.period_id == TournamentRow.period_id,
            is_current(),
        )
        .order_by(CalculationRow.player_id, GameRow.round, CalculationRow.game_id)
    ).all()


def ratings_in_force(
    session: Session, category: Category, day: date, player_ids: Collection[str]
) -> dict[str, int]:
    """The players' ratings on the category's list in force on ``day`` (the latest revision of
    the latest list dated on or before it); players not on it are left out."""
    list_id = session.scalar(
        select(RatingListRow.id)
        .where(RatingListRow.category == category, RatingListRow.list_date <= day, is_current())
        .order_by(RatingListRow.list_date.desc())
        .limit(1)
    )
    if list_id is None or not player_ids:
        return {}
    rows = session.execute(
        select(ListEntryRow.player_id, ListEntryRow.rating).where(
            ListEntryRow.list_id == list_id, ListEntryRow.player_id.in_(sorted(player_ids))
        )
    ).all()
    return {row.player_id: int(row.rating) for row in rows}
