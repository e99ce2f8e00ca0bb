"""The game-by-game calculations behind a published rating, and a player's entry on one list."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import Select, and_, bindparam, select
from sqlalchemy.orm import Session, aliased

from ratingdb.models import (
    CalculationRow,
    GameRow,
    ListEntryRow,
    PlayerRow,
    RatingListRow,
    TournamentRow,
)
from ratingdb.repositories.published.common import ENTRY_FIGURES, AnyRow, is_current


@cache
def _player_calculations_statement(*, of_list: bool) -> Select[*tuple[Any, ...]]:
    opponent = aliased(PlayerRow)
    statement = (
        select(
            CalculationRow.list_id,
            RatingListRow.category,
            RatingListRow.list_date,
            RatingListRow.revision,
            CalculationRow.tournament_id,
            TournamentRow.name.label("tournament_name"),
            TournamentRow.start_date,
            GameRow.round,
            CalculationRow.opponent_id,
            opponent.name.label("opponent_name"),
            CalculationRow.rating_used,
            CalculationRow.opponent_rating_used,
            CalculationRow.difference,
            CalculationRow.difference_used,
            CalculationRow.expected,
            CalculationRow.score,
            CalculationRow.delta,
            CalculationRow.rated,
            CalculationRow.reason,
            CalculationRow.rule_version,
        )
        .join(RatingListRow, RatingListRow.id == CalculationRow.list_id)
        .join(GameRow, GameRow.id == CalculationRow.game_id)
        .join(TournamentRow, TournamentRow.tournament_id == CalculationRow.tournament_id)
        .join(opponent, opponent.player_id == CalculationRow.opponent_id)
        .where(CalculationRow.player_id == bindparam("player_id"))
    )
    if of_list:
        statement = statement.where(CalculationRow.list_id == bindparam("list_id"))
    else:
        statement = statement.where(is_current())
    return statement.order_by(
        RatingListRow.category,
        RatingListRow.list_date,
        TournamentRow.start_date,
        CalculationRow.tournament_id,
        GameRow.round,
        CalculationRow.game_id,
    )


def player_calculations(
    session: Session, player_id: str, list_id: int | None = None
) -> Sequence[AnyRow]:
    """The player's game-by-game calculations on every current list (or on ``list_id``), in
    the order they were rated: list date, tournament start, tournament, round."""
    statement = _player_calculations_statement(of_list=list_id is not None)
    return (
        session.connection().execute(statement, {"player_id": player_id, "list_id": list_id}).all()
    )


def _entry_statement() -> Select[*tuple[Any, ...]]:
    original = aliased(ListEntryRow)
    return (
        select(*ENTRY_FIGURES, original.rating.label("original_rating"))
        .outerjoin(
            original,
            and_(
                original.list_id == bindparam("original_list_id"),
                original.player_id == ListEntryRow.player_id,
            ),
        )
        .where(
            ListEntryRow.list_id == bindparam("list_id"),
            ListEntryRow.player_id == bindparam("player_id"),
        )
    )


_ENTRY = _entry_statement()
_ORIGINAL_RATING = select(ListEntryRow.rating).where(
    ListEntryRow.list_id == bindparam("list_id"), ListEntryRow.player_id == bindparam("player_id")
)


def entry_on(
    session: Session, list_id: int, player_id: str, original_list_id: int | None = None
) -> AnyRow | None:
    """The player's entry on a list (None: not on it), with ``original_rating``, the rating on
    ``original_list_id`` (default: the list itself)."""
    original = list_id if original_list_id is None else original_list_id
    parameters = {"list_id": list_id, "player_id": player_id, "original_list_id": original}
    return session.connection().execute(_ENTRY, parameters).one_or_none()


def rating_on(session: Session, list_id: int, player_id: str) -> int | None:
    """The player's rating on a list (None: not on it)."""
    found = (
        session.connection()
        .execute(_ORIGINAL_RATING, {"list_id": list_id, "player_id": player_id})
        .scalar()
    )
    return None if found is None else int(found)
