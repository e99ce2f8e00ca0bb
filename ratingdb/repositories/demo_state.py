"""What ``ratingdb demo`` asks of a database: whether the sample data is loaded already, and
how much the database holds (to refuse one that holds something else, and to report)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.models import Base, GameRow, RatingListRow, TournamentRow


def tournament_from_file(session: Session, digest: str) -> str | None:
    """The id of a tournament imported from the file with this SHA-256 digest, if any."""
    return session.scalar(
        select(TournamentRow.tournament_id).where(TournamentRow.source_digest == digest)
    )


def count_rating_lists(session: Session) -> int:
    return _count(session, RatingListRow)


def count_tournaments(session: Session) -> int:
    return _count(session, TournamentRow)


def count_games(session: Session) -> int:
    return _count(session, GameRow)


def _count(session: Session, table: type[Base]) -> int:
    return session.scalars(select(func.count()).select_from(table)).one()
