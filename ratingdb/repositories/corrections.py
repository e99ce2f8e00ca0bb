"""Corrections: recording one, the latest id (what a computation of now includes), the merges
up to a correction, the tournaments corrected after one, and the corrections behind list
revisions."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind
from ratingdb.models import CorrectionRow, GameRow, TournamentRow
from ratingdb.repositories.players import chunks
from ratingdb.rules import Category


def add(
    session: Session,
    kind: CorrectionKind,
    *,
    category: Category | None,
    tournament_id: str | None,
    reason: str,
    actor: str,
    now: datetime,
    before: dict[str, Any],
) -> CorrectionRow:
    """Record a correction (its ``after`` filled in by the caller once known), flushed for its
    id: the rows it replaces and brings name it."""
    correction = CorrectionRow(
        kind=kind, category=category, tournament_id=tournament_id, reason=reason, actor=actor,
        created_at=now, before=before, after={},
    )  # fmt: skip
    session.add(correction)
    session.flush()
    return correction


def latest_id(session: Session) -> int:
    """The id of the latest correction (0 before any)."""
    return session.scalar(select(func.coalesce(func.max(CorrectionRow.id), 0))) or 0


def merges(session: Session, up_to: int) -> dict[str, str]:
    """Players merged by the corrections up to ``up_to``: dropped record -> kept one."""
    rows = session.scalars(
        select(CorrectionRow.before).where(
            CorrectionRow.kind == CorrectionKind.MERGE, CorrectionRow.id <= up_to
        )
    )
    return {row["drop"]: row["keep"] for row in rows}


def tournaments_corrected_after(session: Session, after: int) -> dict[str, int]:
    """The tournaments whose games a correction after ``after`` superseded or created, with
    their period's id: a game or a tournament correction names its tournament, a merge the
    games it replaced."""
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
    periods: dict[str, int] = {}
    for chunk in chunks(sorted(tournaments)):
        rows = session.execute(
            select(TournamentRow.tournament_id, TournamentRow.period_id).where(
                TournamentRow.tournament_id.in_(chunk)
            )
        )
        periods.update((tournament_id, period_id) for tournament_id, period_id in rows)
    return periods


def with_ids(session: Session, ids: Collection[int]) -> Sequence[CorrectionRow]:
    """The corrections with these ids, oldest first (a diff lists them in that order)."""
    return session.scalars(
        select(CorrectionRow).where(CorrectionRow.id.in_(list(ids))).order_by(CorrectionRow.id)
    ).all()
