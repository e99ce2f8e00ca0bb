"""The audit log: adding an entry, reading the latest."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.enums import AuditChannel
from ratingdb.models import AuditRow


def add(
    session: Session,
    action: str,
    actor: str,
    at: datetime,
    *,
    file_digest: str | None,
    counts: Mapping[str, Any],
    details: Mapping[str, Any],
    channel: AuditChannel,
    credential: str | None,
) -> None:
    session.add(
        AuditRow(
            action=action,
            actor=actor,
            at=at,
            file_digest=file_digest,
            counts=dict(counts),
            details=dict(details),
            channel=channel,
            credential=credential,
        )
    )
    session.flush()


def latest(
    session: Session,
    *,
    limit: int,
    action: str | None = None,
    actor: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> Sequence[AuditRow]:
    """The latest ``limit`` entries, newest first, of ``action`` and ``actor`` when given;
    ``since`` inclusive, ``until`` exclusive."""
    statement = select(AuditRow).order_by(AuditRow.id.desc()).limit(limit)
    if action is not None:
        statement = statement.where(AuditRow.action == action)
    if actor is not None:
        statement = statement.where(AuditRow.actor == actor)
    if since is not None:
        statement = statement.where(AuditRow.at >= since)
    if until is not None:
        statement = statement.where(AuditRow.at < until)
    return session.scalars(statement).all()
