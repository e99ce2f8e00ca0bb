"""Submissions: a tournament file an arbiter uploads, checked at once, rated only once an officer
accepts it.

The check is the import itself, run in a SAVEPOINT that is rolled back: the file is read and
its players matched by the same code as ``ratingdb tournaments import`` and nothing of it stays.
Accepting stores the kept bytes through ``import_tournament_file``, the command's own call.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import Role, SubmissionState, TournamentFormat
from ratingdb.errors import InputError
from ratingdb.formats.games_csv import TournamentFile
from ratingdb.formats.trf import TrfPlayer
from ratingdb.models import PlayerRow, SubmissionRow
from ratingdb.models.submission import FILENAME_LENGTH, REASON_LENGTH
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import submissions as repo
from ratingdb.rules import Category, Period
from ratingdb.rules.rate_of_play import NoRateOfPlayRule, RateOfPlayCheck, parse_time_control
from ratingdb.services import audit
from ratingdb.services.accounts import Principal
from ratingdb.services.tournament_trf import TournamentDetails
from ratingdb.services.tournaments import (
    FORMATS,
    assign_period,
    check_categories,
    format_of,
    import_tournament_file,
    late_bound,
    read_tournament,
    refuse_unknown_players,
)

#: The names a warning lists before it says how many more.
NAMES_SHOWN = 10
#: The largest upload the back office receives (a corrected FIDE list file included).
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
#: The largest tournament file (TRF or games CSV) checked or stored: the largest real TRF, a
#: 280-player open, is under 100 KB, and reading a TRF holds about 36 times the file
#: (benchmarks/README.md, upload_memory.py): 4 MB bounds one check near 150 MB.
MAX_TOURNAMENT_BYTES = 4 * 1024 * 1024


def check_tournament_size(content: bytes) -> None:
    """A tournament file within MAX_TOURNAMENT_BYTES, else InputError naming the file."""
    if len(content) > MAX_TOURNAMENT_BYTES:
        raise InputError(
            f"a tournament file of {len(content):,} bytes is larger than the "
            f"{MAX_TOURNAMENT_BYTES // (1024 * 1024)} MB a tournament file may have",
            field="file",
        )


_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


class SubmissionNotFound(InputError):
    """No such submission, or not one the caller may see (the same answer: 404)."""


class SubmissionConflict(Exception):
    """The submission is not in a state that allows this (accepting twice, ...): 409."""


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
        raise InputError(str(error), field="category") from None


def _period(text: str | None) -> Period | None:
    if text is None or not text.strip():
        return None
    try:
        return Period.parse(text.strip())
    except ValueError as error:
        raise InputError(str(error), field="period") from None


def safe_filename(name: str | None, file_format: str) -> str:
    """The uploaded file's own name (no folders, no odd characters): the import names a TRF
    without an 012 record after it, as the command does with its file."""
    base = _UNSAFE.sub("_", Path((name or "").replace("\\", "/")).name).strip(" .")
    if not base:
        base = f"upload.{file_format}"
    return base[-FILENAME_LENGTH:]


@contextmanager
def _as_file(content: bytes, filename: str) -> Iterator[Path]:
    """The bytes as a file named ``filename`` (the import service reads files)."""
    with tempfile.TemporaryDirectory(prefix="ratingdb-submission-") as folder:
        path = Path(folder) / filename
        path.write_bytes(content)
        yield path


def _located(error: InputError, path: Path, filename: str) -> InputError:
    """The error naming the uploaded file, not the temporary copy."""
    message = error.message.replace(str(path), filename)
    return InputError(
        message, field=error.field, source=filename, line=error.line, column=error.column
    )


def describe(error: InputError) -> str:
    """An error as the API and the pages answer it: file, line, column and field in words."""
    parts = [part for part in (error.source,) if part]
    if error.line is not None:
        parts.append(f"line {error.line}")
    if error.column is not None:
        parts.append(f"column {error.column}")
    if error.field:
        parts.append(f"field {error.field}")
    return (", ".join(parts) + ": " if parts else "") + error.message


def _same_name(text: str) -> str:
    return re.sub(r"[\s,]+", " ", text).strip().casefold()


def _mismatches(
    session: Session,
    known: Sequence[tuple[TrfPlayer, str]],
    category: Category,
    start: Any,
) -> list[dict[str, Any]]:
    """The file against the database for the players already stored: name, federation, birth
    year, sex (when both say something), and the file's rating against the list in force on
    the start date (when there is one)."""
    rows: dict[str, PlayerRow] = repo.players_by_ids(session, {pid for _, pid in known})
    in_force = period_repo.in_force(period_repo.lists_of(session, category), start)
    ratings = {} if in_force is None else repo.ratings_on(session, in_force.id, rows.keys())
    found: list[dict[str, Any]] = []
    for player, player_id in known:
        row = rows[player_id]
        pairs: list[tuple[str, Any, Any]] = [
            ("name", player.name, row.name),
            ("federation", player.federation, row.federation),
            ("birth_year", player.birth_year, row.birth_year),
            ("sex", player.sex, row.sex),
        ]
        for name, in_file, stored in pairs:
            if in_file is None or stored is None:
                continue
            same = (
                _same_name(in_file) == _same_name(stored) if name == "name" else in_file == stored
            )
            if not same:
                found.append(
                    {"player_id": player_id, "field": name, "file": in_file, "database": stored}
                )
        if in_force is not None and player.rating is not None:
            listed = ratings.get(player_id)
            if listed != player.rating:
                found.append({"player_id": player_id, "field": "rating", "file": player.rating,
                              "database": listed})  # fmt: skip
    return found


@dataclass(frozen=True, slots=True)
class Checked:
    report: dict[str, Any]
    digest: str
    name: str
    start: Any
    end: Any
    source_format: TournamentFormat


def check(
    session: Session,
    path: Path,
    filename: str,
    categories: Sequence[Category],
    forced: Period | None,
    file_format: str,
    submitter_id: int,
) -> Checked:
    """The check report of a file, as the import would take it; nothing is left written. Its
    warnings are the uploader's (``submitter_id``): see ``_warnings``."""
    savepoint = session.begin_nested()
    try:
        read = read_tournament(session, path, categories, forced, file_format)
        players = refuse_unknown_players(
            session, read.tournament, hint=" (import a list or a TRF with this player first)"
        )
        planned = [
            (category, *assign_period(session, category, read.tournament.end_date, forced))
            for category in categories
        ]
        unregistered = _unregistered(session, read.tournament, categories)
    except InputError as error:
        savepoint.rollback()
        raise _located(error, path, filename) from None
    savepoint.rollback()
    session.expire_all()
    tournament = read.tournament
    if read.source_format == TournamentFormat.TRF:
        matched, new = len(read.known), read.created
    else:
        matched, new = len(players), 0
    mismatches = _mismatches(session, read.known, categories[0], tournament.start_date)
    warnings = _warnings(session, read.digest, tournament.name, tournament.start_date,
                         tournament.end_date, submitter_id)  # fmt: skip
    warnings += rate_of_play_warnings(categories, tournament.start_date, read.details)
    warnings += [
        f"too late for FIDE: {bound}; an officer accepts it only with a reason"
        for category, period, _ in planned
        if (bound := late_bound(category, tournament.end_date, period)) is not None
    ]
    if unregistered:
        shown = "; ".join(unregistered[:NAMES_SHOWN])
        more = len(unregistered) - NAMES_SHOWN
        warnings.append(
            f"{len(unregistered)} player(s) need a FIDE id before FIDE rating (FIDE's lists "
            f"leave them out; their games count as against an unrated player): {shown}"
            + (f"; and {more} more (players export-unregistered lists them)" if more > 0 else "")
        )
    first = planned[0]
    report = {
        "name": tournament.name,
        "start_date": tournament.start_date.isoformat(),
        "end_date": tournament.end_date.isoformat(),
        "period": str(first[1]),
        "late": first[2],
        "games": len(tournament.games),
        "rated_games": sum(1 for game in tournament.games if game.played),
        "players": {"matched": matched, "new": new, "mismatches": mismatches},
        "warnings": warnings,
        "categories": [
            {"category": c.value, "period": str(p), "late": late} for c, p, late in planned
        ],
        "notes": [line.replace(str(path), filename) for line in read.report],
    }
    return Checked(report, read.digest, tournament.name, tournament.start_date,
                   tournament.end_date, read.source_format)  # fmt: skip


def _unregistered(
    session: Session, tournament: TournamentFile, categories: Sequence[Category]
) -> list[str]:
    """The file's players a FIDE category will not rate (no FIDE id), by name."""
    if not any(category.needs_fide_id for category in categories):
        return []
    players = {g.white_id for g in tournament.games} | {g.black_id for g in tournament.games}
    missing = player_repo.without_fide_id(session, players)
    return sorted(row.name for row in player_repo.by_ids(session, missing).values())


def rate_of_play_warnings(
    categories: Sequence[Category], start: date, details: TournamentDetails | None
) -> list[str]:
    """What the officer must know of the file's rate of play before accepting it: none given
    (its games cannot be checked), or games the category will not rate (rules.rate_of_play)."""
    code = None if details is None else details.time_control_code
    if code is None:
        written = None if details is None else details.time_control
        shown = f" (it says {written!r})" if written else ""
        return [
            "no encoded time control (TRF26 222 or a time_control column)" + shown + ": the rate "
            "of play cannot be checked and every played game will be rated; give it on import"
        ]
    control = parse_time_control(code)
    warnings = []
    for category in categories:
        try:
            check = RateOfPlayCheck(category, start, control)
        except NoRateOfPlayRule:
            continue
        lowest = check.game(None, None)
        if not lowest.rated:
            warnings.append(f"{category.value}: no game will be rated: {lowest.reason}")
            continue
        for rating in check.bands:
            refused = check.game(rating, None)
            if not refused.rated:
                warnings.append(
                    f"{category.value}: games with a player rated {rating} or more will not be "
                    f"rated: {refused.reason}"
                )
                break
    return warnings


def _warnings(
    session: Session, digest: str, name: str, start: Any, end: Any, submitter_id: int
) -> list[str]:
    """The warnings an uploader reads, and the report keeps: the stored tournaments made from
    this file or named so (public data), and the uploader's own earlier submissions of it. An
    arbiter learns nothing of another's submissions; an officer reads those too, computed when
    they look (``_others_warnings``)."""
    warnings = [
        f"this file is already stored as tournament {tournament_id} ({category}): accepting "
        "it again will be refused"
        for tournament_id, category in repo.tournaments_with_digest(session, digest)
    ]
    warnings += [
        f"this file was already submitted as submission {row.id} ({row.state})"
        for row in repo.submissions_with_digest(session, digest)
        if row.submitter_id == submitter_id
    ]
    same = repo.tournaments_named(session, name, start, end)
    if same:
        warnings.append(
            f"a tournament named {name!r} from {start} to {end} is already stored: "
            + ", ".join(same)
        )
    others = [row for row in repo.submissions_named(session, name, start, end)
              if row.digest != digest and row.submitter_id == submitter_id]  # fmt: skip
    if others:
        warnings.append(
            f"a tournament named {name!r} from {start} to {end} was already submitted: "
            + ", ".join(f"submission {row.id} ({row.state})" for row in others)
        )
    return warnings


def _others_warnings(session: Session, row: SubmissionRow) -> list[str]:
    """For an officer: the submissions of the same file, or of a tournament of the same name
    and dates, by anyone but ``row``'s submitter (before or after it), as they stand now."""
    same_file = [other for other in repo.submissions_with_digest(session, row.digest)
                 if other.submitter_id != row.submitter_id]  # fmt: skip
    same_name = [
        other
        for other in repo.submissions_named(
            session, row.tournament_name, row.start_date, row.end_date
        )
        if other.submitter_id != row.submitter_id and other.digest != row.digest
    ]
    names = repo.usernames(session, {other.submitter_id for other in same_file + same_name})
    warnings = [
        f"this file was also submitted by {names.get(other.submitter_id)} as submission "
        f"{other.id} ({other.state})"
        for other in same_file
    ]
    if same_name:
        warnings.append(
            f"a tournament named {row.tournament_name!r} from {row.start_date} to "
            f"{row.end_date} was also submitted by others: "
            + ", ".join(
                f"submission {other.id} ({other.state}) by {names.get(other.submitter_id)}"
                for other in same_name
            )
        )
    return warnings


def submit(
    session: Session, upload: Upload, caller: Principal, now: datetime, *, accept: bool = False
) -> dict[str, Any]:
    """Check and keep an uploaded file as a submission ``submitted`` (an officer may accept
    their own at once); bad input raises InputError and stores nothing."""
    check_tournament_size(upload.content)
    if not upload.content:
        raise InputError("the file is empty", field="file")
    categories = [_category(text.strip()) for text in upload.categories if text.strip()]
    check_categories(categories)
    forced = _period(upload.period)
    given = upload.file_format or None
    if given is not None and given not in FORMATS:
        raise InputError(f"must be one of {', '.join(FORMATS)}", field="format")
    file_format = format_of(Path(upload.filename or ""), given)
    filename = safe_filename(upload.filename, file_format)
    if accept and caller.role != Role.OFFICER:
        raise InputError("only an officer may accept a submission", field="accept")
    with _as_file(upload.content, filename) as path:
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
    answer["warnings"] = _shown_warnings(session, row, caller)
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
        raise SubmissionNotFound(f"no submission {text}", field="id")
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
        raise InputError(f"must be one of {', '.join(SubmissionState)}", field="state") from None


def _shown_warnings(session: Session, row: SubmissionRow, viewer: Principal) -> list[str]:
    """The report's warnings as ``viewer`` reads them: the uploader's, kept with the report;
    for an officer also the other submitters' submissions of the same tournament, as of now."""
    kept: list[str] = list(row.report.get("warnings", []))
    if viewer.role != Role.OFFICER:
        return _own_only(session, kept, row.submitter_id)
    return kept + _others_warnings(session, row)


_NAMED_SUBMISSION = re.compile(r"\bsubmission (\d+)\b")


def _own_only(session: Session, warnings: list[str], submitter_id: int) -> list[str]:
    """Reports kept before warnings were the uploader's may name others' submissions: those
    warnings are left out for anyone but an officer."""
    named = {int(n) for w in warnings for n in _NAMED_SUBMISSION.findall(w) if len(n) < 12}
    theirs = repo.submitters(session, named)
    return [
        w
        for w in warnings
        if all(theirs.get(int(n)) == submitter_id for n in _NAMED_SUBMISSION.findall(w))
    ]


def show_submission(session: Session, submission_id: str, viewer: Principal) -> dict[str, Any]:
    row = _visible(session, submission_id, viewer)
    ids = {row.submitter_id} | ({row.reviewer_id} if row.reviewer_id is not None else set())
    document = _as_json(row, repo.usernames(session, ids), full=True)
    document["report"] = dict(row.report) | {"warnings": _shown_warnings(session, row, viewer)}
    return document


def _pending(session: Session, submission_id: str | int, officer: Principal) -> SubmissionRow:
    """The submission, still waiting for a decision, locked until the transaction ends (the
    first lock of the global order, repositories.periods): of two officers deciding it at
    once, the second waits, then is told it is decided (409), never decides it again."""
    row = _visible(session, submission_id, officer, for_update=True)
    if row.state != SubmissionState.SUBMITTED:
        raise SubmissionConflict(f"submission {row.id} is already {row.state}")
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
    with _as_file(row.content, row.filename) as path:
        try:
            outcome = import_tournament_file(
                session, path, categories, forced, row.source_format, late_reason=late_reason
            )
        except InputError as error:
            # The file was valid when checked; what is stored since (the same file imported,
            # a list published) now refuses it.
            raise SubmissionConflict(describe(_located(error, path, row.filename))) from None
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
        raise InputError("give the reason the submitter will read", field="reason")
    if len(reason) > REASON_LENGTH:
        raise InputError(f"at most {REASON_LENGTH} characters", field="reason")
    row = _pending(session, submission_id, officer)
    row.state = SubmissionState.REJECTED
    row.reviewer_id = officer.user_id
    row.reviewed_at = now
    row.reason = reason
    session.flush()
    audit.record(session, "submission-reject", officer.username, now, file_digest=row.digest,
                 details={"submission_id": row.id, "reason": reason})  # fmt: skip
    return {"state": row.state}
