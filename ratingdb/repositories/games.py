"""Games: the current games of a tournament, a player or one pairing; adding games, and
superseding them (a correction marks the rows it replaces instead of editing them)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any, NamedTuple

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from ratingdb.db import bulk_insert
from ratingdb.models import GameRow


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
    return session.scalars(
        select(GameRow).where(
            GameRow.tournament_id == tournament_id, GameRow.superseded_by.is_(None)
        )
    ).all()


def current_games_of_player(session: Session, player_id: str) -> Sequence[GameRow]:
    return session.scalars(
        select(GameRow).where(
            or_(GameRow.white_id == player_id, GameRow.black_id == player_id),
            GameRow.superseded_by.is_(None),
        )
    ).all()


def rounds_of(session: Session, game_ids: Collection[int]) -> dict[int, int]:
    """Game id -> round, in chunks."""
    found: dict[int, int] = {}
    ordered = sorted(game_ids)
    for start in range(0, len(ordered), 5000):
        rows = session.execute(
            select(GameRow.id, GameRow.round).where(GameRow.id.in_(ordered[start : start + 5000]))
        )
        found.update((game_id, round_) for game_id, round_ in rows)
    return found
