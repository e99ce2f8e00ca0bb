"""The game-by-game calculations behind a published rating, and a player's entry on one list."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session, aliased

from ratingdb.models import (
    CalculationRow,
    GameRow,
    PlayerRow,
    RatingListRow,
    TournamentRow,
)
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.published.common import AnyRow, is_current


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


class EntryOn(NamedTuple):
    """A player's entry on a list (its figures and the calculation's summary: K used, sum of
    deltas) and the rating on the original list."""

    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    rated_games: int
    peak_rating: int
    k_used: int | None
    sum_delta: Decimal | None
    original_rating: int | None
    active: bool


def entry_on(
    session: Session, list_id: int, player_id: str, original_list_id: int | None = None
) -> EntryOn | None:
    """The player's entry on a list (None: not on it), with ``original_rating``, the rating on
    ``original_list_id`` (default: the list itself); both resolved through their ancestry."""
    entry = list_changes.resolve_one(session, list_id, player_id)
    if entry is None:
        return None
    if original_list_id is None or original_list_id == list_id:
        original: int | None = entry.rating
    else:
        original = rating_on(session, original_list_id, player_id)
    return EntryOn(
        entry.rating, entry.previous_rating, entry.change, entry.games, entry.k_factor,
        entry.rated_games, entry.peak_rating, entry.k_used, entry.sum_delta, original,
        entry.active,
    )  # fmt: skip


def rating_on(session: Session, list_id: int, player_id: str) -> int | None:
    """The player's rating on a list (None: not on it)."""
    entry = list_changes.resolve_one(session, list_id, player_id)
    return None if entry is None else entry.rating
