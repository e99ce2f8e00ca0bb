"""What the back office's publication reads and writes beyond a close: the previews shown to
officers and their approvals, the K of every entry of a list, and the corrections recorded
after a preview."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import CorrectionRow, PublicationPreviewRow
from ratingdb.repositories.list_storage import chunk_reads


def find_preview(
    session: Session, category: str, list_date: date, digest: str
) -> PublicationPreviewRow | None:
    return session.scalars(
        select(PublicationPreviewRow).where(
            PublicationPreviewRow.category == category,
            PublicationPreviewRow.list_date == list_date,
            PublicationPreviewRow.digest == digest,
        )
    ).one_or_none()


def add_preview(session: Session, row: PublicationPreviewRow) -> PublicationPreviewRow:
    session.add(row)
    session.flush()
    return row


def approved_previews(
    session: Session, category: str, list_date: date
) -> Sequence[PublicationPreviewRow]:
    """The previews of the period approved before its cut-off, earliest approval first."""
    return session.scalars(
        select(PublicationPreviewRow)
        .where(
            PublicationPreviewRow.category == category,
            PublicationPreviewRow.list_date == list_date,
            PublicationPreviewRow.approved_at.is_not(None),
        )
        .order_by(PublicationPreviewRow.approved_at, PublicationPreviewRow.id)
    ).all()


def mark_approved(
    session: Session, row: PublicationPreviewRow, approved_by: str, now: datetime
) -> None:
    row.approved_by = approved_by
    row.approved_at = now
    session.flush()


def k_factors_on(session: Session, list_id: int) -> dict[str, int]:
    """player id -> the K an entry of the list gives for the next period."""
    return chunk_reads.k_factors(session, list_id)


def corrections_between(session: Session, after: int, up_to: int) -> Sequence[CorrectionRow]:
    """The corrections recorded after the correction ``after`` up to ``up_to``, oldest first."""
    return session.scalars(
        select(CorrectionRow)
        .where(CorrectionRow.id > after, CorrectionRow.id <= up_to)
        .order_by(CorrectionRow.id)
    ).all()
