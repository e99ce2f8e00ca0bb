"""Submissions: a tournament file an arbiter uploads, checked at once, rated only once an officer
accepts it.

The check is the import itself, run in a SAVEPOINT that is rolled back: the file is read and
its players matched by the same code as ``ratingdb tournaments import`` and nothing of it stays.
Accepting stores the kept bytes through ``import_tournament_file``, the command's own call.
The check is checks.py's, the warnings of a possible duplicate duplicates.py's; this module
keeps the submissions' course: submitted, shown, accepted or rejected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import Role, SubmissionState
from ratingdb.errors import InputError
from ratingdb.models import SubmissionRow
from ratingdb.models.submission import REASON_LENGTH
from ratingdb.repositories import submissions as repo
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message, one_of, worded
from ratingdb.services import audit
from ratingdb.services.accounts import Principal
from ratingdb.services.submissions.checks import (
    MAX_TOURNAMENT_BYTES,
    MAX_UPLOAD_BYTES,
    Checked,
    as_file,
    check,
    check_tournament_size,
    describe,
    described,
    located,
    safe_filename,
)
from ratingdb.services.submissions.duplicates import shown_warnings
from ratingdb.services.tournaments import (
    FORMATS,
    check_categories,
    format_of,
    import_tournament_file,
)


class SubmissionNotFound(InputError):
    """No such submission, or not one the caller may see (the same answer: 404)."""


class SubmissionConflict(Exception):
    """The submission is not in a state that allows this (accepting twice, ...): 409.
    ``text`` is the message the back office words; ``str()`` its English, as the API says."""

    def __init__(self, text: Message) -> None:
        super().__init__(text.english())
        self.text = text


@dataclass(frozen=True, slots=True)
class Upload:
    """A file as received, and what the uploader asked for (query or form fields)."""

    content: bytes
    filename: str | None
    categories: Sequence[str]
    period: str | None = None
    file_format: str | None = None


def _category(text: str) -> Category:
    try:
        return Category.parse(text)
    except ValueError as error:
        raise InputError(worded(error), field="category") from None


def _period(text: str | None) -> Period | None:
    if text is None or not text.strip():
        return None
    try:
        return Period.parse(text.strip())
    except ValueError as error:
        raise InputError(worded(error), field="period") from None


def submit(
    session: Session, upload: Upload, caller: Principal, now: datetime, *, accept: bool = False
) -> dict[str, Any]:
    """Check and keep an uploaded file as a submission ``submitted`` (an officer may accept
    their own at once); bad input raises InputError and stores nothing."""
    check_tournament_size(upload.content)
    if not upload.content:
        raise InputError(Message(N_("the file is empty")), field="file")
    categories = [_category(text.strip()) for text in upload.categories if text.strip()]
    check_categories(categories)
    forced = _period(upload.period)
    given = upload.file_format or None
    if given is not None and given not in FORMATS:
        raise InputError(one_of(FORMATS), field="format")
    file_format = format_of(Path(upload.filename or ""), given)
    filename = safe_filename(upload.filename, file_format)
    if accept and caller.role != Role.OFFICER:
        raise InputError(Message(N_("only an officer may accept a submission")), field="accept")
    with as_file(upload.content, filename) as path:
        checked = check(session, path, filename, categories, forced, file_format, caller.user_id)
    row = repo.add(
        session,
        SubmissionRow(
            submitter_id=caller.user_id,
            state=SubmissionState.SUBMITTED,
            categories=[c.value for c in categories],
            period=None if forced is None else str(forced),
            source_format=checked.source_format,
            content=upload.content,
            digest=checked.digest,
            filename=filename,
            tournament_name=checked.name[:200],
            start_date=checked.start,
            end_date=checked.end,
            report=checked.report,
            submitted_at=now,
        ),
    )
    audit.record(
        session, "submission-upload", caller.username, now, file_digest=checked.digest,
        counts={"games": checked.report["games"]},
        details={"submission_id": row.id, "file": filename,
                 "categories": row.categories, "warnings": checked.report["warnings"]},
    )  # fmt: skip
    answer: dict[str, Any] = {"submission_id": str(row.id), "state": row.state, **checked.report}
    answer |= _warnings(shown_warnings(session, row, caller))
    if accept:
        accepted = accept_submission(session, row.id, caller, now)
        answer |= accepted
    return answer


def _visible(
    session: Session, submission_id: str | int, viewer: Principal, *, for_update: bool = False
) -> SubmissionRow:
    """The submission if the viewer may see it: an officer all, others only their own."""
    text = str(submission_id)
    row = (
        repo.get(session, int(text), for_update=for_update)
        if text.isdigit() and len(text) < 12
        else None
    )
    if row is None or (viewer.role != Role.OFFICER and row.submitter_id != viewer.user_id):
        raise SubmissionNotFound(Message(N_("no submission %(id)s"), {"id": text}), field="id")
    return row


def _as_json(row: SubmissionRow, names: dict[int, str], *, full: bool) -> dict[str, Any]:
    document: dict[str, Any] = {
        "submission_id": str(row.id),
        "state": row.state,
        "filename": row.filename,
        "format": row.source_format,
        "categories": row.categories,
        "forced_period": row.period,
        "name": row.tournament_name,
        "start_date": row.start_date.isoformat(),
        "end_date": row.end_date.isoformat(),
        "digest": row.digest,
        "submitter": names.get(row.submitter_id),
        "submitted_at": row.submitted_at.isoformat(),
        "reviewer": None if row.reviewer_id is None else names.get(row.reviewer_id),
        "reviewed_at": None if row.reviewed_at is None else row.reviewed_at.isoformat(),
        "reason": row.reason,
        "tournament_ids": row.tournament_ids or [],
    }
    if full:
        document["report"] = row.report
    return document


def list_submissions(
    session: Session, viewer: Principal, state: str | None = None
) -> list[dict[str, Any]]:
    """Newest first: an officer's view has everyone's, anyone else's only their own."""
    rows = repo.listed(
        session,
        submitter_id=None if viewer.role == Role.OFFICER else viewer.user_id,
        state=None if state is None else _state(state),
    )
    names = repo.usernames(session, {r.submitter_id for r in rows} | {
        r.reviewer_id for r in rows if r.reviewer_id is not None})  # fmt: skip
    return [_as_json(row, names, full=False) for row in rows]


def _state(text: str) -> SubmissionState:
    try:
        return SubmissionState(text)
    except ValueError:
        raise InputError(one_of(SubmissionState), field="state") from None


def show_submission(session: Session, submission_id: str, viewer: Principal) -> dict[str, Any]:
    row = _visible(session, submission_id, viewer)
    ids = {row.submitter_id} | ({row.reviewer_id} if row.reviewer_id is not None else set())
    document = _as_json(row, repo.usernames(session, ids), full=True)
    document["report"] = dict(row.report) | _warnings(shown_warnings(session, row, viewer))
    return document


def _warnings(warnings: Sequence[Message]) -> dict[str, Any]:
    """A report's ``warnings`` in English (the API's, as ever) and ``warnings_i18n``, the same
    as messages with their values (``rules.messages``: the back office words them)."""
    return {
        "warnings": [warning.english() for warning in warnings],
        "warnings_i18n": [warning.as_json() for warning in warnings],
    }


def _pending(session: Session, submission_id: str | int, officer: Principal) -> SubmissionRow:
    """The submission, still waiting for a decision, locked until the transaction ends (the
    first lock of the global order, repositories.periods): of two officers deciding it at
    once, the second waits, then is told it is decided (409), never decides it again."""
    row = _visible(session, submission_id, officer, for_update=True)
    if row.state != SubmissionState.SUBMITTED:
        raise SubmissionConflict(
            Message(
                N_("submission %(id)s is already %(state)s"),
                {"id": row.id, "state": Message(str(row.state))},
            )
        )
    return row


def accept_submission(
    session: Session,
    submission_id: str | int,
    officer: Principal,
    now: datetime,
    late_reason: str | None = None,
) -> dict[str, Any]:
    """Store the kept file as ``ratingdb tournaments import`` does (the same call, the same
    audit entry) and mark the submission accepted. ``late_reason``: the officer's reason to
    rate a tournament reported too late for FIDE (kept in the audit entry)."""
    late_reason = (late_reason or "").strip() or None
    row = _pending(session, submission_id, officer)
    categories = [Category(c) for c in row.categories]
    forced = None if row.period is None else Period.parse(row.period)
    with as_file(row.content, row.filename) as path:
        try:
            outcome = import_tournament_file(
                session, path, categories, forced, row.source_format, late_reason=late_reason
            )
        except InputError as error:
            # The file was valid when checked; what is stored since (the same file imported,
            # a list published) now refuses it.
            raise SubmissionConflict(described(located(error, path, row.filename))) from None
    tournament_ids = [t.tournament_id for t in outcome.tournaments]
    audit.record(
        session, "tournament-import", officer.username, now, file_digest=row.digest,
        counts={"tournaments": len(outcome.tournaments),
                "games": sum(t.games for t in outcome.tournaments)},
        details={"file": row.filename, "submission_id": row.id,
                 "tournaments": [t.as_json() for t in outcome.tournaments]}
        | ({"late_reason": late_reason} if late_reason else {}),
    )  # fmt: skip
    row.state = SubmissionState.ACCEPTED
    row.reviewer_id = officer.user_id
    row.reviewed_at = now
    row.tournament_ids = tournament_ids
    audit.record(session, "submission-accept", officer.username, now, file_digest=row.digest,
                 details={"submission_id": row.id, "tournament_ids": tournament_ids})  # fmt: skip
    return {"state": row.state, "tournament_ids": tournament_ids}


def reject_submission(
    session: Session, submission_id: str | int, officer: Principal, reason: str, now: datetime
) -> dict[str, Any]:
    """Refuse it with a reason the submitter sees; nothing is rated."""
    reason = reason.strip()
    if not reason:
        raise InputError(Message(N_("give the reason the submitter will read")), field="reason")
    if len(reason) > REASON_LENGTH:
        raise InputError(Message(N_("at most %(count)s characters"), {"count": REASON_LENGTH}),
                         field="reason")  # fmt: skip
    row = _pending(session, submission_id, officer)
    row.state = SubmissionState.REJECTED
    row.reviewer_id = officer.user_id
    row.reviewed_at = now
    row.reason = reason
    session.flush()
    audit.record(session, "submission-reject", officer.username, now, file_digest=row.digest,
                 details={"submission_id": row.id, "reason": reason})  # fmt: skip
    return {"state": row.state}


__all__ = [
    "MAX_TOURNAMENT_BYTES",
    "MAX_UPLOAD_BYTES",
    "Checked",
    "SubmissionConflict",
    "SubmissionNotFound",
    "Upload",
    "accept_submission",
    "check",
    "check_tournament_size",
    "describe",
    "described",
    "list_submissions",
    "reject_submission",
    "safe_filename",
    "show_submission",
    "submit",
]
