"""Players: a search, one player, and their entries on the published lists."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Select, and_, bindparam, case, select
from sqlalchemy.orm import Session, aliased

from ratingdb.models import ListEntryRow, PlayerRow, RatingListRow
from ratingdb.repositories.published.common import (
    ENTRY_FIGURES,
    PLAYER_COLUMNS,
    AnyRow,
    count_rows,
    is_current,
    player_matches,
)
from ratingdb.rules import Category


def search_players(
    session: Session, *, search: str | None, federation: str | None, limit: int, offset: int
) -> tuple[int, Sequence[AnyRow]]:
    """Players matching the filters (total, one page): an exact id first, then by name."""
    statement = select(*PLAYER_COLUMNS)
    if search is not None:
        statement = statement.where(player_matches(search))
    if federation is not None:
        statement = statement.where(PlayerRow.federation == federation)
    total = count_rows(session, statement)
    exact_first = case((PlayerRow.player_id == (search or ""), 0), else_=1)
    rows = session.execute(
        statement.order_by(exact_first, PlayerRow.name, PlayerRow.player_id)
        .limit(limit)
        .offset(offset)
    ).all()
    return total, rows


_GET_PLAYER = select(*PLAYER_COLUMNS).where(PlayerRow.player_id == bindparam("player_id"))


def get_player(session: Session, player_id: str) -> AnyRow | None:
    return session.connection().execute(_GET_PLAYER, {"player_id": player_id}).one_or_none()


@cache
def _player_entries_statement(*, by_category: bool, upto: bool) -> Select[*tuple[Any, ...]]:
    """Built once per shape (the read paths run it for every request)."""
    original_list = aliased(RatingListRow)
    original = aliased(ListEntryRow)
    player_id: BindParameter[str] = bindparam("player_id")
    statement = (
        select(
            RatingListRow.id.label("list_id"),
            RatingListRow.category,
            RatingListRow.list_date,
            RatingListRow.revision,
            RatingListRow.rule_version,
            *ENTRY_FIGURES,
            original.rating.label("original_rating"),
        )
        .join(RatingListRow, RatingListRow.id == ListEntryRow.list_id)
        .outerjoin(
            original_list,
            and_(
                original_list.category == RatingListRow.category,
                original_list.list_date == RatingListRow.list_date,
                original_list.revision == 1,
            ),
        )
        .outerjoin(
            original,
            and_(original.list_id == original_list.id, original.player_id == player_id),
        )
        .where(ListEntryRow.player_id == player_id)
    )
    if upto:
        statement = statement.where(
            is_current(bindparam("upto")), RatingListRow.revision <= bindparam("upto")
        )
    else:
        statement = statement.where(is_current())
    if by_category:
        statement = statement.where(RatingListRow.category == bindparam("category"))
    return statement.order_by(RatingListRow.category, RatingListRow.list_date)


def player_entries(
    session: Session, player_id: str, category: Category | None = None, upto: int | None = None
) -> Sequence[AnyRow]:
    """The player's entries on every current list (or, with ``upto``, on the latest revision up
    to ``upto`` of every list), by category then list date (oldest first), each with the
    rating on the original list (``original_rating``, None when the player was not on it)."""
    statement = _player_entries_statement(by_category=category is not None, upto=upto is not None)
    parameters = {"player_id": player_id, "upto": upto,
                  "category": category}  # fmt: skip
    return session.connection().execute(statement, parameters).all()
