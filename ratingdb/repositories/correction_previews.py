"""Queries on the corrections previewed in the back office (ratingdb.models.correction_preview)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session

from ratingdb.enums import PreviewState
from ratingdb.models import CorrectionPreviewRow


def add(session: Session, row: CorrectionPreviewRow) -> CorrectionPreviewRow:
    session.add(row)
    session.flush()
    return row


def get(
    session: Session, preview_id: int, *, for_update: bool = False
) -> CorrectionPreviewRow | None:
    """One preview; ``for_update``: locked until the transaction ends (PostgreSQL: a second
    confirmation of the same preview waits, then finds it decided; SQLite writers take turns)."""
    return session.get(CorrectionPreviewRow, preview_id, with_for_update=for_update)


def of_user(session: Session, user_id: int, *, limit: int) -> Sequence[CorrectionPreviewRow]:
    """A user's latest previews, newest first."""
    return session.scalars(
        select(CorrectionPreviewRow)
        .where(CorrectionPreviewRow.user_id == user_id)
        .order_by(CorrectionPreviewRow.id.desc())
        .limit(limit)
    ).all()


def expire(
    session: Session, created_before: datetime, now: datetime, *, user_id: int | None = None
) -> int:
    """The previews still waiting that were made before ``created_before`` (only ``user_id``'s
    when given): marked expired, their files dropped. Returns how many."""
    waiting = [
        CorrectionPreviewRow.state == PreviewState.PREVIEWED,
        CorrectionPreviewRow.created_at < created_before,
    ]
    if user_id is not None:
        waiting.append(CorrectionPreviewRow.user_id == user_id)
    done: CursorResult[Any] = session.execute(  # type: ignore[assignment]
        update(CorrectionPreviewRow)
        .where(*waiting)
        .values(state=PreviewState.EXPIRED, content=None, decided_at=now)
        .execution_options(synchronize_session=False)
    )
    return int(done.rowcount)
