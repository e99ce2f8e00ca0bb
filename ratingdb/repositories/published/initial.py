"""What a first rating was computed from besides the period's own games: the player's pool on
the category's list before it."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import PlayerStatusRow, RatingListRow
from ratingdb.repositories.published.common import is_current
from ratingdb.rules import Category


def pool_before(
    session: Session, category: Category, list_date: date, player_id: str
) -> list[dict[str, Any]]:
    """The player's pooled events on the latest revision of the category's last list before
    ``list_date`` (empty: no such list, or nothing pooled there)."""
    previous = session.scalar(
        select(RatingListRow.id)
        .where(
            RatingListRow.category == category, RatingListRow.list_date < list_date, is_current()
        )
        .order_by(RatingListRow.list_date.desc())
        .limit(1)
    )
    if previous is None:
        return []
    pool = session.scalar(
        select(PlayerStatusRow.pool).where(
            PlayerStatusRow.list_id == previous, PlayerStatusRow.player_id == player_id
        )
    )
    return list(pool or [])
