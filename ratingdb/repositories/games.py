"""Games: the current games of a tournament, a player or one pairing; adding games, and
superseding them (a correction marks the rows it replaces instead of editing them)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from ratingdb.db import bulk_insert
from ratingdb.models import GameRow, TournamentRow
from ratingdb.repositories.players import BLACK, WHITE, chunks, one_of


class NewGame(NamedTuple):
    """A game to store, as a file or a correction gives it."""

    tournament_id: str
    round: int
    white_id: str
    black_id: str
    result: str
    rated: bool


def _values(game: NewGame, created_by: int | None) -> dict[str, Any]:
    return {**game._asdict(), "created_by": created_by}


def insert_games(session: Session, games: Iterable[NewGame], *, created_by: int | None) -> int:
    """Store ``games`` in one bulk write (imported: ``created_by`` None; else the correction
    that brings them); returns how many."""
    return bulk_insert(session, GameRow, [_values(game, created_by) for game in games])


def add_game(session: Session, game: NewGame, *, created_by: int) -> GameRow:
    """Store one game and flush it for its id."""
    row = GameRow(**_values(game, created_by))
    session.add(row)
    session.flush()
    return row


def supersede(session: Session, game_ids: Collection[int], correction_id: int) -> None:
    """Mark the games ``game_ids`` replaced by the correction (they stay as history); run
    before the replacing games are stored (one current row per game)."""
    session.execute(
        update(GameRow)
        .where(GameRow.id.in_(list(game_ids)))
        .values(superseded_by=correction_id)
        .execution_options(synchronize_session=False)
    )


def current_game(
    session: Session, tournament_id: str, round_number: int, white_id: str, black_id: str
) -> GameRow | None:
    """The current game of a pairing (white first), if any."""
    return session.scalars(
        select(GameRow).where(
            GameRow.tournament_id == tournament_id,
            GameRow.round == round_number,
            GameRow.white_id == white_id,
            GameRow.black_id == black_id,
            GameRow.superseded_by.is_(None),
        )
    ).one_or_none()


def current_games_of_tournament(session: Session, tournament_id: str) -> Sequence[GameRow]:
    """The tournament's games in force, by id: a correction supersedes them, gives their
    replacements ids and records them in this order, the same on every database."""
    return session.scalars(
        select(GameRow)
        .where(GameRow.tournament_id == tournament_id, GameRow.superseded_by.is_(None))
        .order_by(GameRow.id)
    ).all()


def current_games_of_player(session: Session, player_id: str) -> Sequence[GameRow]:
    """The player's games in force, by id (as current_games_of_tournament)."""
    return session.scalars(
        select(GameRow)
        .where(
            or_(GameRow.white_id == player_id, GameRow.black_id == player_id),
            GameRow.superseded_by.is_(None),
        )
        .order_by(GameRow.id)
    ).all()


def played_in_period_by(
    session: Session, period_id: int, player_ids: Collection[str]
) -> dict[int, tuple[str, str, str]]:
    """Game id -> (tournament id, white, black): the current played games of the period's
    stored tournaments that any of ``player_ids`` played (the quality flags of a check), in
    chunks of players, a query per side and chunk."""
    found: dict[int, tuple[str, str, str]] = {}
    for chunk in chunks(sorted(player_ids)):
        for side in (GameRow.white_id, GameRow.black_id):
            rows = session.execute(
                select(GameRow.id, GameRow.tournament_id, GameRow.white_id, GameRow.black_id)
                .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
                .where(
                    TournamentRow.period_id == period_id,
                    GameRow.rated.is_(True),
                    GameRow.superseded_by.is_(None),
                    one_of(session, side, chunk),
                )
            )
            found.update((game_id, (t, w, b)) for game_id, t, w, b in rows)
    return found


class ShownGame(NamedTuple):
    """A game as a calculation shows it: its round, both players' names, its tournament."""

    id: int
    round: int
    white_id: str
    white_name: str
    black_id: str
    black_name: str
    tournament_id: str
    tournament_name: str
    start_date: date
    end_date: date
    imported_at: datetime


def shown_games(session: Session, game_ids: Collection[int]) -> list[ShownGame]:
    """The games of ``game_ids`` with what a calculation shows of them, one statement per
    5,000 games."""
    found: list[ShownGame] = []
    ordered = sorted(game_ids)
    for start in range(0, len(ordered), 5000):
        rows = session.execute(
            select(
                GameRow.id,
                GameRow.round,
                GameRow.white_id,
                WHITE.name,
                GameRow.black_id,
                BLACK.name,
                TournamentRow.tournament_id,
                TournamentRow.name,
                TournamentRow.start_date,
                TournamentRow.end_date,
                TournamentRow.imported_at,
            )
            .join(WHITE, WHITE.player_id == GameRow.white_id)
            .join(BLACK, BLACK.player_id == GameRow.black_id)
            .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
            .where(GameRow.id.in_(ordered[start : start + 5000]))
        )
        found.extend(ShownGame(*row) for row in rows)
    return found
