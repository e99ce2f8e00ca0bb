"""What the read queries share: the latest revision of a list, a player search, a count, and
the columns of a list entry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

from sqlalchemy import ColumnElement, Row, Select, and_, exists, false, func, or_, select, true
from sqlalchemy.orm import Session, aliased

from ratingdb.models import PlayerRow, RatingListRow

#: A result row of any shape (the columns are named in each query).
AnyRow: TypeAlias = Row[*tuple[Any, ...]]


def is_current(upto: int | ColumnElement[int] | None = None) -> ColumnElement[bool]:
    """``RatingListRow`` is the latest revision of its list (``upto``: the latest revision up
    to that number; combine with ``revision <= upto``)."""
    newer = aliased(RatingListRow)
    condition = exists().where(
        newer.category == RatingListRow.category,
        newer.list_date == RatingListRow.list_date,
        newer.revision > RatingListRow.revision,
    )
    if upto is not None:
        condition = condition.where(newer.revision <= upto)
    return ~condition


def name_matches(words: Sequence[str]) -> ColumnElement[bool]:
    """Every word occurs in the player's name, ignoring case (SQLite folds ASCII letters only)."""
    if not words:
        return true()
    lowered = func.lower(PlayerRow.name)
    return and_(*(lowered.contains(word.lower(), autoescape=True) for word in words))


def player_matches(text: str) -> ColumnElement[bool]:
    """A search: a player id starting with ``text`` (when it is digits), or a name holding
    every word of ``text``."""
    words = text.replace(",", " ").split()
    by_name = name_matches(words) if words else false()
    if text.isdigit():
        return or_(PlayerRow.player_id.startswith(text, autoescape=True), by_name)
    return by_name


def count_rows(session: Session, statement: Select[*tuple[Any, ...]]) -> int:
    total = session.scalar(select(func.count()).select_from(statement.subquery()))
    return int(total or 0)


#: Who a player is, as every read shows them.
PLAYER_COLUMNS = (
    PlayerRow.player_id,
    PlayerRow.name,
    PlayerRow.federation,
    PlayerRow.sex,
    PlayerRow.birth_year,
    PlayerRow.title,
)


#: What a published list shows of an entry (its exports, the API's page), as fields of a packed
#: entry (ratingdb.db.chunks.ENTRY).
SHOWN_FIELDS = ("rating", "previous_rating", "change", "games", "k_factor", "rated_games",
                "peak_rating")  # fmt: skip
