"""The audit log: every import, close, correction and merge, with the file's digest, the
actor, the time and the counts; written in the same transaction as the work it records."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import AuditRow


def file_digest(path: Path) -> str:
    """SHA-256 of an imported file, as the audit log keeps it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def record(
    session: Session,
    action: str,
    actor: str,
    at: datetime,
    *,
    file_digest: str | None = None,
    counts: Mapping[str, Any] | None = None,
    details: Mapping[str, Any] | None = None,
) -> None:
    session.add(
        AuditRow(
            action=action,
            actor=actor,
            at=at,
            file_digest=file_digest,
            counts=dict(counts or {}),
            details=dict(details or {}),
        )
    )
    session.flush()


def entries(
    session: Session,
    *,
    limit: int,
    action: str | None = None,
    actor: str | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> list[dict[str, Any]]:
    """The latest ``limit`` entries, newest first; ``since`` inclusive, ``until`` exclusive."""
    statement = select(AuditRow).order_by(AuditRow.id.desc()).limit(limit)
    if action is not None:
        statement = statement.where(AuditRow.action == action)
    if actor is not None:
        statement = statement.where(AuditRow.actor == actor)
    if since is not None:
        statement = statement.where(AuditRow.at >= since)
    if until is not None:
        statement = statement.where(AuditRow.at < until)
    return [
        {
            "id": row.id,
            "action": row.action,
            "actor": row.actor,
            "at": row.at.isoformat(),
            "file_digest": row.file_digest,
            "counts": row.counts,
            "details": row.details,
        }
        for row in session.scalars(statement)
    ]
