"""Corrections: recording one, the latest id (what a computation of now includes), the merges
up to a correction, and the corrections behind list revisions."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind
from ratingdb.models import CorrectionRow
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


def with_ids(session: Session, ids: Collection[int]) -> Sequence[CorrectionRow]:
    return session.scalars(select(CorrectionRow).where(CorrectionRow.id.in_(list(ids)))).all()
