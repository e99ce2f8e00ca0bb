"""What an incremental impact computation (services.impact) reads: the same rows as a close
(repositories.period_inputs), restricted to a set of players, one set-based query each."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from sqlalchemy import ColumnElement, String, any_, bindparam, or_, select, union
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from ratingdb.models import GameRow, ListEntryRow, PlayerRow, PlayerStatusRow, TournamentRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories.period_inputs import PeriodGame
from ratingdb.repositories.players import chunks, one_of


def _among(session: Session, column: Any, values: Collection[str]) -> ColumnElement[bool]:
    """``column IN values`` for any column (a CTE's too): one array parameter on PostgreSQL."""
    if session.get_bind().dialect.name == "postgresql":
        return column == any_(  # type: ignore[no-any-return]
            bindparam("among", sorted(values), type_=ARRAY(String), unique=True)
        )
    return column.in_(sorted(values))  # type: ignore[no-any-return]


def games_around(
    session: Session, period_id: int, corrections: int, seeds: Collection[str]
) -> list[PeriodGame]:
    """The rated games of the period (as after the correction ``corrections``) of the
    ``seeds`` and of everyone who played one of them in the period, in rating order (as
    period_inputs.played_games orders them): one query."""
    if not seeds:
        return []
    period_games = (
        select(
            GameRow.id,
            GameRow.tournament_id,
            GameRow.white_id,
            GameRow.black_id,
            GameRow.result,
            TournamentRow.start_date,
            GameRow.round,
        )
        .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
        .where(
            TournamentRow.period_id == period_id,
            GameRow.rated.is_(True),
            or_(GameRow.created_by.is_(None), GameRow.created_by <= corrections),
            # No game is superseded by a correction after the latest (a foreign key): then
            # the current games are the games as of ``corrections``, and their index serves.
            GameRow.superseded_by.is_(None)
            if corrections >= correction_repo.latest_id(session)
            else or_(GameRow.superseded_by.is_(None), GameRow.superseded_by > corrections),
        )
        .cte("period_games")
    )
    g = period_games.c
    near = union(
        select(g.white_id.label("player_id")).where(_among(session, g.black_id, seeds)),
        select(g.black_id).where(_among(session, g.white_id, seeds)),
    ).subquery("near")
    reached = or_(
        _among(session, g.white_id, seeds),
        _among(session, g.black_id, seeds),
        g.white_id.in_(select(near.c.player_id)),
        g.black_id.in_(select(near.c.player_id)),
    )
    rows = session.connection().execute(
        select(g.id, g.tournament_id, g.white_id, g.black_id, g.result, g.start_date)
        .where(reached)
        .order_by(g.start_date, g.tournament_id, g.round, g.id)
    )
    return [PeriodGame(*row) for row in rows]


def entries_of(
    session: Session, list_id: int, player_ids: Iterable[str]
) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rating, previous_rating, change, games, k_factor, rated_games, peak) of
    those of ``player_ids`` with an entry on the list (list_entries.entries_by_player's
    tuples)."""
    found: dict[str, tuple[Any, ...]] = {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.connection().execute(
            select(
                ListEntryRow.player_id,
                ListEntryRow.rating,
                ListEntryRow.previous_rating,
                ListEntryRow.change,
                ListEntryRow.games,
                ListEntryRow.k_factor,
                ListEntryRow.rated_games,
                ListEntryRow.peak_rating,
            ).where(ListEntryRow.list_id == list_id, one_of(session, ListEntryRow.player_id, chunk))
        )
        found.update((row[0], tuple(row[1:])) for row in rows)
    return found


def statuses_of(
    session: Session, list_id: int, player_ids: Iterable[str]
) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rated_games, peak_rating, pool) of those of ``player_ids`` kept off the
    list with a history."""
    found: dict[str, tuple[Any, ...]] = {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.connection().execute(
            select(
                PlayerStatusRow.player_id,
                PlayerStatusRow.rated_games,
                PlayerStatusRow.peak_rating,
                PlayerStatusRow.pool,
            ).where(
                PlayerStatusRow.list_id == list_id,
                one_of(session, PlayerStatusRow.player_id, chunk),
            )
        )
        found.update((row[0], tuple(row[1:])) for row in rows)
    return found


def status_players(session: Session, list_id: int) -> set[str]:
    """The players kept off a list with a history."""
    return set(
        session.scalars(select(PlayerStatusRow.player_id).where(PlayerStatusRow.list_id == list_id))
    )


def all_birth_years(session: Session) -> dict[str, int | None]:
    """Every player's birth year (what a list import may change)."""
    return {
        row[0]: row[1]
        for row in session.connection().execute(select(PlayerRow.player_id, PlayerRow.birth_year))
    }
