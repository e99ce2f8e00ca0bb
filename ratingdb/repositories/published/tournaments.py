"""A tournament with its period's list date and state, and its games."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import (
    select,
)
from sqlalchemy.orm import Session, aliased

from ratingdb.models import (
    GameRow,
    PeriodRow,
    PlayerRow,
    TournamentRow,
)
from ratingdb.repositories.published.common import AnyRow


def tournament(session: Session, tournament_id: str) -> AnyRow | None:
    """The tournament with the list date and state of its period."""
    return session.execute(
        select(
            TournamentRow.tournament_id,
            TournamentRow.name,
            TournamentRow.category,
            TournamentRow.start_date,
            TournamentRow.end_date,
            TournamentRow.late,
            PeriodRow.list_date,
            PeriodRow.state,
        )
        .join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
        .where(TournamentRow.tournament_id == tournament_id)
    ).one_or_none()


def tournament_games(session: Session, tournament_id: str) -> Sequence[AnyRow]:
    white = aliased(PlayerRow)
    black = aliased(PlayerRow)
    return session.execute(
        select(
            GameRow.round,
            GameRow.white_id,
            white.name.label("white_name"),
            GameRow.black_id,
            black.name.label("black_name"),
            GameRow.result,
            GameRow.rated,
        )
        .join(white, white.player_id == GameRow.white_id)
        .join(black, black.player_id == GameRow.black_id)
        .where(GameRow.tournament_id == tournament_id, GameRow.superseded_by.is_(None))
        .order_by(GameRow.round, GameRow.id)
    ).all()
