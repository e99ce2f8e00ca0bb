"""What the title watch and the norm check read: the current lists around a date, and a list's
entries at or above a rating with their rated games."""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

from sqlalchemy import Row, Select, select
from sqlalchemy.orm import Session

from ratingdb.db.chunks import Packed
from ratingdb.models import ListChunkRow, RatingListRow
from ratingdb.repositories.published.common import is_current
from ratingdb.rules import Category


class ListRef(NamedTuple):
    list_id: int
    list_date: date
    revision: int


def _current(category: Category) -> Select[int, date, int]:
    return select(RatingListRow.id, RatingListRow.list_date, RatingListRow.revision).where(
        RatingListRow.category == category, is_current()
    )


def _ref(row: Row[int, date, int] | None) -> ListRef | None:
    if row is None:
        return None
    list_id, list_date, revision = row
    return ListRef(int(list_id), list_date, int(revision))


def list_of(session: Session, category: Category, list_date: date) -> ListRef | None:
    """The current revision of the category's list dated ``list_date``."""
    return _ref(
        session.execute(_current(category).where(RatingListRow.list_date == list_date)).first()
    )


def list_in_force(session: Session, category: Category, day: date) -> ListRef | None:
    """The current revision of the latest list dated on or before ``day``."""
    return _ref(
        session.execute(
            _current(category)
            .where(RatingListRow.list_date <= day)
            .order_by(RatingListRow.list_date.desc())
            .limit(1)
        ).first()
    )


def list_before(session: Session, category: Category, list_date: date) -> ListRef | None:
    """The current revision of the latest list dated before ``list_date``."""
    return _ref(
        session.execute(
            _current(category)
            .where(RatingListRow.list_date < list_date)
            .order_by(RatingListRow.list_date.desc())
            .limit(1)
        ).first()
    )


def entries_rated_at_least(
    session: Session, list_id: int, rating: int
) -> list[tuple[str, int, int]]:
    """(player id, rating, rated games) of the list's entries rated ``rating`` or more, in
    list order: only the chunks whose top reaches it are read."""
    packed = session.scalars(
        select(ListChunkRow.entries)
        .where(ListChunkRow.list_id == list_id, ListChunkRow.top_rating >= rating)
        .order_by(ListChunkRow.chunk)
    ).all()
    found: list[tuple[str, int, int]] = []
    for value in packed:
        chunk = Packed(bytes(value))
        for player_id, entry_rating, rated_games in zip(
            chunk.column("player_id"),
            chunk.column("rating"),
            chunk.column("rated_games"),
            strict=True,
        ):
            if entry_rating >= rating:
                found.append((player_id, int(entry_rating), int(rated_games)))
    return found
