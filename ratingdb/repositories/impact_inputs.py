"""What an incremental impact computation (services.impact) reads: the same rows as a close
(repositories.period_inputs), restricted to a set of players, one set-based query each."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind
from ratingdb.models import (
    CalculationRow,
    CorrectionRow,
    GameRow,
    PlayerRow,
    PlayerStatusRow,
    TournamentRow,
)
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.players import chunks, one_of


class GameOfPeriod(NamedTuple):
    """A played game of the period, with its tournament's start date and its round."""

    id: int
    tournament_id: str
    white_id: str
    black_id: str
    result: str
    start_date: date
    round: int


_GAME_COLUMNS = (
    GameRow.id,
    GameRow.tournament_id,
    GameRow.white_id,
    GameRow.black_id,
    GameRow.result,
    TournamentRow.start_date,
    GameRow.round,
)


def touched_tournaments(session: Session, after: int) -> set[str]:
    """The tournaments whose games a correction after ``after`` superseded or created: a game
    or a tournament correction names its tournament, a merge the games it replaced."""
    tournaments: set[str] = set()
    merged_games: list[int] = []
    for kind, tournament_id, before in session.execute(
        select(CorrectionRow.kind, CorrectionRow.tournament_id, CorrectionRow.before).where(
            CorrectionRow.id > after
        )
    ):
        if tournament_id is not None:
            tournaments.add(tournament_id)
        if kind == CorrectionKind.MERGE:
            merged_games.extend(before["game_ids"])
    for chunk in chunks(sorted(merged_games)):
        tournaments.update(
            session.scalars(select(GameRow.tournament_id).where(GameRow.id.in_(chunk)).distinct())
        )
    return tournaments


def current_games_of(
    session: Session, period_id: int, tournament_ids: Collection[str]
) -> list[GameOfPeriod]:
    """The current rated games of those of ``tournament_ids`` rated in the period (read
    through the current games' index: tournament first)."""
    found: list[GameOfPeriod] = []
    for chunk in chunks(sorted(tournament_ids)):
        found.extend(
            GameOfPeriod(*row)
            for row in session.connection().execute(
                select(*_GAME_COLUMNS)
                .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
                .where(
                    one_of(session, GameRow.tournament_id, chunk),
                    TournamentRow.period_id == period_id,
                    GameRow.superseded_by.is_(None),
                    GameRow.rated.is_(True),
                )
            )
        )
    return found


def calculated_games(
    session: Session, list_id: int, player_ids: Collection[str], leave_out: Collection[str]
) -> list[GameOfPeriod]:
    """The games a computed list was computed from for ``player_ids`` (its calculations: one
    row per player and game, read by its primary key), but those of the tournaments
    ``leave_out``."""
    found: list[GameOfPeriod] = []
    for chunk in chunks(sorted(player_ids)):
        query = (
            select(*_GAME_COLUMNS)
            .select_from(CalculationRow)
            .join(GameRow, GameRow.id == CalculationRow.game_id)
            .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
            .where(
                CalculationRow.list_id == list_id,
                one_of(session, CalculationRow.player_id, chunk),
            )
        )
        if leave_out:
            query = query.where(CalculationRow.tournament_id.not_in(sorted(leave_out)))
        found.extend(GameOfPeriod(*row) for row in session.connection().execute(query))
    return found


def entries_of(
    session: Session, list_id: int, player_ids: Iterable[str]
) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rating, previous_rating, change, games, k_factor, rated_games, peak) of
    those of ``player_ids`` with an entry on the list (chunk_reads.entries_by_player's
    tuples), resolved through the list's ancestry."""
    return {
        player_id: (*entry[1:6], *entry[8:10])
        for player_id, entry in list_changes.resolve(session, list_id, player_ids).items()
    }


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
