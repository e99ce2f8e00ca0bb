"""The warnings of a submission that may be a duplicate: the same file, or a tournament of the
same name and dates, stored already or submitted before. An uploader reads those of their own
submissions (kept with the report); an officer also reads everyone else's, as they stand when
they look."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import Role
from ratingdb.models import SubmissionRow
from ratingdb.repositories import submissions as repo
from ratingdb.services.accounts import Principal


def uploader_warnings(
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


def shown_warnings(session: Session, row: SubmissionRow, viewer: Principal) -> list[str]:
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
