"""What the back office's publication reads and writes beyond a close: the previews shown to
officers and their approvals, the K of every entry of a list, and the corrections recorded
after a preview."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from ratingdb.models import CorrectionRow, PublicationModeRow, PublicationPreviewRow
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


def stored_modes(session: Session) -> list[PublicationModeRow]:
    """Every category's mode an admin chose (a category never set has no row)."""
    return list(session.scalars(select(PublicationModeRow).order_by(PublicationModeRow.category)))


def store_mode(
    session: Session, category: str, *, approval: bool, at: datetime, by: str, reason: str
) -> bool | None:
    """The category's mode written, one writer at a time (two admins at once: the second waits
    for the first's commit on the row, then writes over it); returns the mode it had (None:
    never set). The first row is inserted with ON CONFLICT DO NOTHING, so that two first
    writers do not collide on the key."""
    values = {"category": category, "approval": approval, "changed_at": at, "changed_by": by,
              "reason": reason}  # fmt: skip
    insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    created = session.connection().execute(
        insert(PublicationModeRow)
        .values(**values)
        .on_conflict_do_nothing()
        .returning(PublicationModeRow.category)
    )
    if created.first() is not None:
        return None
    row = session.scalars(
        select(PublicationModeRow).where(PublicationModeRow.category == category).with_for_update()
    ).one()
    before = row.approval
    row.approval, row.changed_at, row.changed_by, row.reason = approval, at, by, reason
    session.flush()
    return before
