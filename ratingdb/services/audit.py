"""The audit log: every import, close, correction and merge, with the file's digest, the
actor, the time and the counts; written in the same transaction as the work it records."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratingdb import origin
from ratingdb.repositories import audit as audit_repo


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
    """One entry, with the channel and credential of the action (``ratingdb.origin``)."""
    came = origin.current()
    audit_repo.add(
        session, action, actor, at, file_digest=file_digest, counts=counts or {},
        details=details or {}, channel=came.channel, credential=came.credential,
    )  # fmt: skip


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
    return [
        {
            "id": row.id,
            "action": row.action,
            "actor": row.actor,
            "channel": row.channel,
            "credential": row.credential,
            "at": row.at.isoformat(),
            "file_digest": row.file_digest,
            "counts": row.counts,
            "details": row.details,
        }
        for row in audit_repo.latest(
            session, limit=limit, action=action, actor=actor, since=since, until=until
        )
    ]
