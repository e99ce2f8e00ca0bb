"""What a tournament's crosstable needs beyond its games: the calculations of its period's
current list (each player's rating used, each game's delta, the K applied) and, before that list
is out, the ratings on the list in force at its start."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import CalculationRow, GameRow, RatingListRow, TournamentRow
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.published.common import is_current
from ratingdb.rules import Category


class CalculationWithEntry(NamedTuple):
    """A game from one player's side, with the player's entry on the list (``rating``,
    ``previous_rating``, ``k_used``: None when not on it)."""

    player_id: str
    game_id: int
    rating_used: int | None
    opponent_id: str
    opponent_rating_used: int | None
    score: Any
    delta: Any
    rated: bool
    reason: str | None
    revision: int
    rating: int | None
    previous_rating: int | None
    k_used: int | None


def tournament_calculations(session: Session, tournament_id: str) -> list[CalculationWithEntry]:
    """The tournament's games as computed on the latest revision of its period's list, from
    each player's side, with the player's entry on that list (``k_used``, ``previous_rating``,
    ``rating``; None when not on it), resolved through the list's ancestry."""
    rows = session.execute(
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
            CalculationRow.list_id,
        )
        .join(RatingListRow, RatingListRow.id == CalculationRow.list_id)
        .join(TournamentRow, TournamentRow.tournament_id == CalculationRow.tournament_id)
        .join(GameRow, GameRow.id == CalculationRow.game_id)
        .where(
            CalculationRow.tournament_id == tournament_id,
            RatingListRow.period_id == TournamentRow.period_id,
            is_current(),
        )
        .order_by(CalculationRow.player_id, GameRow.round, CalculationRow.game_id)
    ).all()
    players: dict[int, set[str]] = {}
    for row in rows:
        players.setdefault(int(row.list_id), set()).add(row.player_id)
    entries = {
        list_id: list_changes.resolve(session, list_id, ids) for list_id, ids in players.items()
    }
    found: list[CalculationWithEntry] = []
    for row in rows:
        entry = entries[int(row.list_id)].get(row.player_id)
        found.append(
            CalculationWithEntry(
                *row[:10],
                None if entry is None else entry[1],
                None if entry is None else entry[2],
                None if entry is None else entry[6],
            )
        )
    return found


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
    return list_changes.ratings_on(session, list_id, player_ids)
