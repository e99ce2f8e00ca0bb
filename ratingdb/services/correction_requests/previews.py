"""Previews kept server-side for the web pages, until the officer who made one confirms or
discards it (or it expires)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import PreviewState
from ratingdb.models import CorrectionPreviewRow
from ratingdb.repositories import correction_previews as repo
from ratingdb.rules.messages import N_, Message
from ratingdb.services import audit
from ratingdb.services.accounts import Principal
from ratingdb.services.correction_requests.requests import (
    PREVIEW_LIFETIME,
    Confirmation,
    CorrectionRequest,
    PreviewConflict,
    PreviewNotFound,
    _check,
    _Checked,
)
from ratingdb.services.correction_requests.running import (
    _dry,
    _run,
    document,
    impact_digest,
)


def preview(
    session: Session, request: CorrectionRequest, reason: str | None, caller: Principal,
    now: datetime,
) -> int:  # fmt: skip
    """Run the correction dry and keep the request with its impact until the officer confirms
    it; the preview's id. The caller's previews older than ``PREVIEW_LIFETIME`` expire (their
    files dropped)."""
    checked = _check(request, reason)
    impact = _dry(session, checked, caller.username, now)
    repo.expire(session, now - PREVIEW_LIFETIME, now, user_id=caller.user_id)
    content = checked.content
    row = repo.add(
        session,
        CorrectionPreviewRow(
            kind=checked.kind, user_id=caller.user_id, state=PreviewState.PREVIEWED,
            inputs=dict(checked.values), reason=checked.reason,
            filename=checked.filename, content=content,
            file_digest=None if content is None else hashlib.sha256(content).hexdigest(),
            impact=impact, impact_digest=impact_digest(impact), created_at=now,
        ),
    )  # fmt: skip
    return row.id


def expire_previews(session: Session, now: datetime) -> int:
    """Every preview still waiting ``PREVIEW_LIFETIME`` after it was made, whoever made it:
    expired, its uploaded file dropped (the scheduled job ``expire-previews``; an officer's own
    are also expired when they preview again). Returns how many."""
    return repo.expire(session, now - PREVIEW_LIFETIME, now)


def _own(
    session: Session, preview_id: str | int, caller: Principal, *, for_update: bool = False
) -> CorrectionPreviewRow:
    text = str(preview_id)
    row = (
        repo.get(session, int(text), for_update=for_update)
        if text.isdigit() and len(text) < 12
        else None
    )
    if row is None or row.user_id != caller.user_id:
        raise PreviewNotFound(Message(N_("no correction preview %(id)s"), {"id": text}),
                              field="preview")  # fmt: skip
    return row


def _state(row: CorrectionPreviewRow, now: datetime) -> str:
    if row.state == PreviewState.PREVIEWED and now - row.created_at > PREVIEW_LIFETIME:
        return PreviewState.EXPIRED
    return row.state


def _as_json(row: CorrectionPreviewRow, now: datetime) -> dict[str, Any]:
    return {
        "preview_id": row.id,
        "kind": row.kind,
        "state": _state(row, now),
        "inputs": row.inputs,
        "reason": row.reason,
        "filename": row.filename,
        "file_digest": row.file_digest,
        "impact": row.impact,
        "impact_digest": row.impact_digest,
        "created_at": row.created_at.isoformat(),
        "decided_at": None if row.decided_at is None else row.decided_at.isoformat(),
        "correction_id": row.correction_id,
    }


def show_preview(
    session: Session, preview_id: str | int, caller: Principal, now: datetime
) -> dict[str, Any]:
    return _as_json(_own(session, preview_id, caller), now)


def list_previews(
    session: Session, caller: Principal, now: datetime, limit: int = 20
) -> list[dict[str, Any]]:
    """The caller's latest previews, newest first."""
    return [_as_json(row, now) for row in repo.of_user(session, caller.user_id, limit=limit)]


def _waiting(
    session: Session, preview_id: str | int, caller: Principal, now: datetime
) -> CorrectionPreviewRow:
    row = _own(session, preview_id, caller, for_update=True)
    state = _state(row, now)
    if state == PreviewState.EXPIRED:
        hours = int(PREVIEW_LIFETIME.total_seconds() // 3600)
        raise PreviewConflict(
            Message(N_("correction preview %(id)s is over %(hours)s hours old: make the "
                       "correction again to see its impact now"),
                    {"id": row.id, "hours": hours})
        )  # fmt: skip
    if state != PreviewState.PREVIEWED:
        raise PreviewConflict(
            Message(N_("correction preview %(id)s is already %(state)s"),
                    {"id": row.id, "state": Message(str(state))})
        )  # fmt: skip
    return row


def confirm(
    session: Session, preview_id: str | int, caller: Principal, now: datetime, shown: str
) -> Confirmation:
    """Apply the previewed correction if its impact is still ``shown`` (the digest of the
    impact the confirming page showed); otherwise apply nothing and keep the new impact in the
    preview (``applied`` false)."""
    row = _waiting(session, preview_id, caller, now)
    if shown != row.impact_digest:
        raise PreviewConflict(
            Message(N_("the page confirmed does not show correction preview %(id)s's latest "
                       "impact: reload it and read the impact again"), {"id": row.id})
        )  # fmt: skip

    checked = _Checked(row.kind, dict(row.inputs), row.reason, row.content, row.filename)
    savepoint = session.begin_nested()
    try:
        ran = _run(session, checked, caller.username, now)
    except BaseException:
        savepoint.rollback()
        raise
    if impact_digest(ran.impact) != row.impact_digest:
        savepoint.rollback()
        session.expire_all()
        row.impact = ran.impact
        row.impact_digest = impact_digest(ran.impact)
        session.flush()
        return Confirmation(False, row.id)
    savepoint.commit()
    row.state = PreviewState.APPLIED
    row.correction_id = ran.correction_id
    row.decided_at = now
    row.content = None
    session.flush()
    return Confirmation(True, row.id, document(ran.impact, dry_run=False,
                                               correction_id=ran.correction_id))  # fmt: skip


def discard(session: Session, preview_id: str | int, caller: Principal, now: datetime) -> None:
    """Drop a preview waiting for confirmation (its file too); audited."""
    row = _waiting(session, preview_id, caller, now)
    row.state = PreviewState.DISCARDED
    row.decided_at = now
    row.content = None
    session.flush()
    audit.record(session, "correction-preview-discard", caller.username, now,
                 details={"preview_id": row.id, "kind": row.kind})  # fmt: skip
