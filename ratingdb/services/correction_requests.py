"""Corrections as the back office receives them: a game's result, a tournament replaced by a
corrected file, two players merged, an imported list replaced by a corrected file.

Each request runs through the same service as the command line (``services.corrections``),
with the signed-in user as the audit actor. A dry run is that same run inside a SAVEPOINT
rolled back: nothing of it stays. Its report, the *impact*, names the lists that would get a
new revision and who changes in each, by how much, with their names.

The web pages keep a previewed correction server-side until the officer confirms it
(``correction_previews``): the request's fields, its reason, the uploaded file's bytes and the
impact shown, with its digest. A confirmation applies exactly that request and only if its
impact is still the one shown: it re-runs the correction and compares; when anything moved in
between (another correction, a close), nothing is applied and the preview is updated with the
new impact for the officer to read and confirm again. A preview belongs to the officer who made
it (nobody else may confirm it), is applied once, and expires after ``PREVIEW_LIFETIME``.

Errors name the request's fields (``tournament``, ``round``, ``white``, ``black``,
``result``, ``keep``, ``drop``, ``category``, ``period``, ``format``, ``file``, ``reason``),
not the command line's options; an error in a file names the uploaded file, its line and
column.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Final

from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind, PreviewState
from ratingdb.errors import InputError
from ratingdb.formats.games_csv import RESULTS
from ratingdb.models import CorrectionPreviewRow
from ratingdb.models.correction_preview import REASON_LENGTH
from ratingdb.repositories import correction_previews as repo
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period
from ratingdb.services.accounts import Principal
from ratingdb.services.corrections import (
    CorrectionOutcome,
    correct_game,
    merge_players,
    replace_list,
    replace_tournament,
)
from ratingdb.services.lists import IMPORT_FORMATS
from ratingdb.services.submissions import MAX_UPLOAD_BYTES, safe_filename
from ratingdb.services.tournaments import FORMATS as TOURNAMENT_FORMATS

GAME: Final = CorrectionKind.GAME
TOURNAMENT: Final = CorrectionKind.TOURNAMENT
MERGE: Final = CorrectionKind.MERGE
LIST: Final = CorrectionKind.LIST_REPLACE
KINDS: Final = (GAME, TOURNAMENT, MERGE, LIST)
#: The request's fields of each kind (besides ``reason``; ``file`` is the upload).
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    GAME: ("tournament", "round", "white", "black", "result"),
    TOURNAMENT: ("tournament", "format"),
    MERGE: ("keep", "drop"),
    LIST: ("category", "period", "format"),
}
#: Fields that may be left empty (the format: from the file's name).
OPTIONAL: Final = frozenset({"format"})
WITH_FILE: Final = frozenset({TOURNAMENT, LIST})
LIST_FORMATS: Final = IMPORT_FORMATS
RESULT_CHOICES: Final = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--")
#: How long a preview may wait for its confirmation.
PREVIEW_LIFETIME: Final = timedelta(hours=24)


class PreviewNotFound(InputError):
    """No such preview, or one of another user (the same answer: 404)."""


class PreviewConflict(Exception):
    """The preview cannot be confirmed or discarded (decided already, expired, or the page
    confirmed is not its latest impact): 409."""


@dataclass(frozen=True, slots=True)
class CorrectionRequest:
    """A correction as asked for: its kind, its fields as text (a form's or a JSON body's),
    and for a corrected file the uploaded bytes and the file's name."""

    kind: str
    inputs: Mapping[str, str]
    content: bytes | None = None
    filename: str | None = None


@dataclass(frozen=True, slots=True)
class Ran:
    """A correction run: its impact (no row id in it: a dry run and the real run of the same
    request on the same database give the same impact) and the correction's id."""

    impact: dict[str, Any]
    correction_id: int


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A preview confirmed: ``applied`` with the correction's document, or not applied because
    the impact changed since it was shown (``impact`` is the new one, now the preview's)."""

    applied: bool
    preview_id: int
    document: dict[str, Any] = field(default_factory=dict)


# --- the requests ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Checked:
    kind: str
    values: dict[str, Any]
    reason: str
    content: bytes | None
    filename: str | None


def _text(inputs: Mapping[str, str], name: str) -> str:
    value = str(inputs.get(name) or "").strip()
    if not value and name not in OPTIONAL:
        raise InputError("is required", field=name)
    return value


def check_reason(reason: str | None) -> str:
    """The reason, stripped; refused when empty or too long."""
    text = (reason or "").strip()
    if not text:
        raise InputError("a correction needs a reason", field="reason")
    if len(text) > REASON_LENGTH:
        raise InputError(f"at most {REASON_LENGTH} characters, got {len(text)}", field="reason")
    return text


def _check(request: CorrectionRequest, reason: str | None) -> _Checked:
    """The request's fields read and checked before anything runs."""
    if request.kind not in KINDS:
        raise InputError(f"must be one of {', '.join(KINDS)}", field="kind")
    values: dict[str, Any] = {name: _text(request.inputs, name) for name in FIELDS[request.kind]}
    if request.kind == GAME:
        text = values["round"]
        if not (text.isdigit() and 0 < int(text) < 10_000):
            raise InputError(f"must be a round number (1, 2, ...), got {text!r}", field="round")
        values["round"] = int(text)
        if values["result"] not in RESULTS:
            raise InputError(f"must be one of {', '.join(RESULT_CHOICES)}; got "
                             f"{values['result']!r}", field="result")  # fmt: skip
    if request.kind == LIST:
        try:
            values["category"] = Category.parse(values["category"]).value
        except ValueError as error:
            raise InputError(str(error), field="category") from None
        try:
            values["period"] = str(Period.parse(values["period"]))
        except ValueError as error:
            raise InputError(str(error), field="period") from None
    if request.kind in WITH_FILE:
        formats = TOURNAMENT_FORMATS if request.kind == TOURNAMENT else LIST_FORMATS
        if values["format"] and values["format"] not in formats:
            raise InputError(f"must be one of {', '.join(formats)}, or empty (from the file's "
                             "name)", field="format")  # fmt: skip
        if not request.content:
            raise InputError("choose the corrected file", field="file")
        if len(request.content) > MAX_UPLOAD_BYTES:
            raise InputError(f"the file is larger than {MAX_UPLOAD_BYTES} bytes", field="file")
    checked_reason = check_reason(reason)
    filename = None
    if request.kind in WITH_FILE:
        filename = safe_filename(request.filename, _format(request.kind, values, None))
        values["format"] = _format(request.kind, values, filename)
    return _Checked(request.kind, values, checked_reason, request.content, filename)


def _format(kind: str, values: Mapping[str, Any], filename: str | None) -> str:
    """The file's format: as given, else from its name (as the command line does)."""
    given = str(values.get("format") or "")
    if given:
        return given
    suffix = Path(filename or "").suffix.lower()
    if kind == TOURNAMENT:
        return "csv" if suffix == ".csv" else "trf"
    return {".xml": "fide-xml", ".txt": "fide-txt"}.get(suffix, "csv")


@contextmanager
def _as_file(content: bytes, filename: str) -> Iterator[Path]:
    """The bytes as a file named ``filename`` (the correction services read files)."""
    with tempfile.TemporaryDirectory(prefix="ratingdb-correction-") as folder:
        path = Path(folder) / filename
        path.write_bytes(content)
        yield path


def _located(kind: str, error: InputError, path: Path | None, filename: str | None) -> InputError:
    """The service's error in the request's words: the uploaded file's name instead of its
    temporary copy's, the request's fields for the replaced tournament or list."""
    message = error.message
    source = error.source
    if path is not None and filename is not None:
        message = message.replace(str(path), filename)
        if source is not None:
            source = source.replace(str(path), filename)
    name = error.field
    if name == "replacement":
        # The tournament or list replaced (its id, its period), or the file that cannot replace it.
        name = "file" if source is not None else ("tournament" if kind == TOURNAMENT else "period")
    elif name == "period" and kind == TOURNAMENT:
        name = "file"  # a file without dates asks for a period; a replacement keeps its own
    return InputError(message, field=name, source=source, line=error.line, column=error.column)


def form_field(error: InputError) -> str | None:
    """The form's field an error belongs to: the file for an error inside the file."""
    return "file" if error.source is not None else error.field


# --- running one ---------------------------------------------------------------------------


def _run(session: Session, checked: _Checked, actor: str, now: datetime) -> Ran:
    """Apply the correction in the caller's transaction; its impact."""
    values = checked.values
    if checked.kind in WITH_FILE:
        if checked.content is None or checked.filename is None:
            raise AssertionError("a corrected file's request without its file")
        with _as_file(checked.content, checked.filename) as path:
            try:
                outcome, extra = _run_file(session, checked, path, actor, now)
            except InputError as error:
                raise _located(checked.kind, error, path, checked.filename) from None
    else:
        try:
            if checked.kind == GAME:
                outcome = correct_game(
                    session, tournament_id=values["tournament"], round_number=values["round"],
                    white_id=values["white"], black_id=values["black"], result=values["result"],
                    reason=checked.reason, actor=actor, now=now,
                )  # fmt: skip
            else:
                outcome = merge_players(session, values["keep"], values["drop"],
                                        reason=checked.reason, actor=actor, now=now)  # fmt: skip
        except InputError as error:
            raise _located(checked.kind, error, None, None) from None
        extra = {}
    return Ran(_impact(session, checked, outcome, extra), outcome.correction_id)


def _run_file(
    session: Session, checked: _Checked, path: Path, actor: str, now: datetime
) -> tuple[CorrectionOutcome, dict[str, Any]]:
    values = checked.values
    if checked.kind == TOURNAMENT:
        outcome, read = replace_tournament(
            session, values["tournament"], path, file_format=values["format"],
            reason=checked.reason, actor=actor, now=now,
        )  # fmt: skip
        notes = [line.replace(str(path), str(checked.filename)) for line in read.report]
        return outcome, {"notes": notes, "file_digest": read.digest}
    outcome, imported = replace_list(
        session, path, Category(values["category"]), Period.parse(values["period"]),
        file_format=values["format"], reason=checked.reason, actor=actor, now=now,
        source_name=checked.filename,
    )  # fmt: skip
    return outcome, {
        "file_digest": hashlib.sha256(path.read_bytes()).hexdigest(),
        "revision": imported.revision,
        "entries": imported.rated,
        "unrated": imported.unrated,
        "players_created": imported.players_created,
        "players_updated": imported.players_updated,
    }


def _impact(
    session: Session, checked: _Checked, outcome: CorrectionOutcome, extra: dict[str, Any]
) -> dict[str, Any]:
    """What the correction changes, with the players' names: the lists revised (who, from
    which rating to which) and the open periods whose games change (computed at their close)."""
    (correction,) = correction_repo.with_ids(session, [outcome.correction_id])
    before, after = correction.before, correction.after
    revisions = [revision.as_json() for revision in outcome.revisions]
    values = checked.values
    people = {c["player_id"] for r in revisions for c in r["changes"]}
    people |= {values[n] for n in ("white", "black", "keep", "drop") if n in values}
    names = player_repo.names(session, people)
    for revision in revisions:
        for change in revision["changes"]:
            change["name"] = names.get(change["player_id"])
    summary: dict[str, Any]
    if checked.kind == GAME:
        summary = {"result_before": before["result"], "result_after": after["result"],
                   "white_name": names.get(values["white"]),
                   "black_name": names.get(values["black"])}  # fmt: skip
    elif checked.kind == TOURNAMENT:
        summary = {"name_before": before["name"], "name_after": after["name"],
                   "games_before": len(before["game_ids"]), "games_after": after["games"],
                   "file_digest": extra["file_digest"], "notes": extra["notes"]}  # fmt: skip
    elif checked.kind == MERGE:
        summary = {"games": after["games"], "keep_name": names.get(values["keep"]),
                   "drop_name": names.get(values["drop"])}  # fmt: skip
    else:
        summary = {"entries_before": before["entries"], "revision_before": before["revision"]}
        summary |= extra
    return {
        "kind": checked.kind,
        "request": dict(values) | (
            {"filename": checked.filename} if checked.filename is not None else {}),
        "summary": summary,
        "revisions": revisions,
        "open_periods_changed": list(outcome.pending),
        "players_changed": len({c["player_id"] for r in revisions for c in r["changes"]}),
    }  # fmt: skip


def impact_digest(impact: Mapping[str, Any]) -> str:
    """Hex SHA-256 of the impact as canonical JSON."""
    text = json.dumps(impact, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def document(
    impact: Mapping[str, Any], *, dry_run: bool, correction_id: int | None
) -> dict[str, Any]:
    """The answer of the API: ``dry_run``, the correction's id (null for a dry run: nothing
    was written), then the impact."""
    return {"dry_run": dry_run, "correction_id": None if dry_run else correction_id, **impact}


def _dry(session: Session, checked: _Checked, actor: str, now: datetime) -> dict[str, Any]:
    savepoint = session.begin_nested()
    try:
        ran = _run(session, checked, actor, now)
    finally:
        savepoint.rollback()
        session.expire_all()
    return ran.impact


def dry_run(
    session: Session, request: CorrectionRequest, reason: str | None, caller: Principal,
    now: datetime,
) -> dict[str, Any]:  # fmt: skip
    """The correction's impact; nothing written."""
    checked = _check(request, reason)
    return document(_dry(session, checked, caller.username, now), dry_run=True,
                    correction_id=None)  # fmt: skip


def apply(
    session: Session, request: CorrectionRequest, reason: str | None, caller: Principal,
    now: datetime,
) -> dict[str, Any]:  # fmt: skip
    """Apply the correction, recorded with the caller's user name; its document."""
    checked = _check(request, reason)
    ran = _run(session, checked, caller.username, now)
    return document(ran.impact, dry_run=False, correction_id=ran.correction_id)


# --- previews (the web pages) ----------------------------------------------------------------


def preview(
    session: Session, request: CorrectionRequest, reason: str | None, caller: Principal,
    now: datetime,
) -> int:  # fmt: skip
    """Run the correction dry and keep the request with its impact until the officer confirms
    it; the preview's id. The caller's previews older than ``PREVIEW_LIFETIME`` expire (their
    files dropped)."""
    checked = _check(request, reason)
    impact = _dry(session, checked, caller.username, now)
    repo.expire(session, caller.user_id, now - PREVIEW_LIFETIME, now)
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
        raise PreviewNotFound(f"no correction preview {text}", field="preview")
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
            f"correction preview {row.id} is over {hours} hours old: make the correction again "
            "to see its impact now"
        )
    if state != PreviewState.PREVIEWED:
        raise PreviewConflict(f"correction preview {row.id} is already {state}")
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
            f"the page confirmed does not show correction preview {row.id}'s latest impact: "
            "reload it and read the impact again"
        )
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
    """Drop a preview waiting for confirmation (its file too)."""
    row = _waiting(session, preview_id, caller, now)
    row.state = PreviewState.DISCARDED
    row.decided_at = now
    row.content = None
    session.flush()


__all__ = [
    "FIELDS",
    "KINDS",
    "LIST_FORMATS",
    "PREVIEW_LIFETIME",
    "RESULT_CHOICES",
    "TOURNAMENT_FORMATS",
    "Confirmation",
    "CorrectionRequest",
    "PreviewConflict",
    "PreviewNotFound",
    "apply",
    "check_reason",
    "confirm",
    "discard",
    "document",
    "dry_run",
    "form_field",
    "impact_digest",
    "list_previews",
    "preview",
    "show_preview",
]
