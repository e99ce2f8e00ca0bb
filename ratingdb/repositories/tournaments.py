"""Tournaments: lookups, the duplicate-file check, new tournament ids, storing one."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.models import TournamentRow
from ratingdb.rules import Category

TOURNAMENT_ID_DIGITS = 6


def get(session: Session, tournament_id: str) -> TournamentRow | None:
    return session.get(TournamentRow, tournament_id)


def with_ids(session: Session, tournament_ids: Collection[str]) -> Sequence[TournamentRow]:
    return session.scalars(
        select(TournamentRow).where(TournamentRow.tournament_id.in_(set(tournament_ids)))
    ).all()


def imported_from(session: Session, digest: str, category: Category) -> str | None:
    """The tournament already imported from the file of ``digest`` for ``category``, if any."""
    return session.scalars(
        select(TournamentRow.tournament_id).where(
            TournamentRow.source_digest == digest, TournamentRow.category == category
        )
    ).first()


def next_tournament_id(session: Session) -> str:
    """``T`` and a zero-padded sequence number, one more than the highest stored."""
    highest = session.scalar(
        select(func.max(TournamentRow.tournament_id)).where(
            TournamentRow.tournament_id.like("T" + "_" * TOURNAMENT_ID_DIGITS)
        )
    )
    number = 1 if highest is None else int(highest[1:]) + 1
    return f"T{number:0{TOURNAMENT_ID_DIGITS}d}"


def add(session: Session, row: TournamentRow) -> None:
    session.add(row)
    session.flush()
