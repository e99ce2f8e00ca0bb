"""The game-by-game calculations behind a published rating, and a player's entry on one list."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from typing import Any, NamedTuple, cast

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session, aliased

from ratingdb.models import (
    CalculationRow,
    GameRow,
    PlayerRow,
    RatingListRow,
    TournamentRow,
)
from ratingdb.repositories.list_storage import calculations as stored_calculations
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.published.common import AnyRow


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
    the order they were rated: list date, tournament start, tournament, round. Each is read
    where it is stored (a correction's revision holds only the players it recomputed:
    repositories.list_storage.calculations) and given as the list's it is shown for (its id
    and revision)."""
    statement = _player_calculations_statement(of_list=list_id is not None)
    if list_id is not None:
        chain, held = stored_calculations.sources(session, list_id, [player_id])
        source = held.get(player_id, chain[-1])
        rows = (
            session.connection()
            .execute(statement, {"player_id": player_id, "list_id": source})
            .all()
        )
        if source == list_id:
            return rows
        target = stored_calculations.links(session, [list_id])[list_id]
        return [_shown_as(row, target) for row in rows]
    rows = session.connection().execute(statement, {"player_id": player_id}).all()
    lists = stored_calculations.links(session, {int(row.list_id) for row in rows})
    revised = stored_calculations.revised_on(session, list(lists), [player_id])
    shown = stored_calculations.current_sources(lists, revised.get(player_id, set()))
    found: list[AnyRow] = []
    for row in rows:
        shown_on = shown.get(int(row.list_id))
        if shown_on is None:
            continue  # on a revision replaced since, or recomputed on a later one
        found.append(row if shown_on.id == row.list_id else _shown_as(row, shown_on))
    return found


def _shown_as(row: AnyRow, target: stored_calculations.ListLink) -> AnyRow:
    """A calculation stored on a revision that a later one (``target``) reads through, given
    as ``target``'s (its list id and revision)."""
    shown: Any = _Shown(*row)
    return cast(AnyRow, shown._replace(list_id=target.id, revision=target.revision))


#: A calculation row with its list given as another's (:func:`_shown_as`): the fields of the
#: statement's rows, by name.
_Shown = namedtuple(  # type: ignore[misc]
    "_Shown", [c.name for c in _player_calculations_statement(of_list=False).selected_columns]
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
