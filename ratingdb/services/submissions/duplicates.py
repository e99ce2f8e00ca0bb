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
from ratingdb.rules.messages import N_, Day, Message, from_json
from ratingdb.services.accounts import Principal


def _submission(row_id: int, state: str) -> Message:
    state_word = Message(str(state))
    return Message(N_("submission %(id)s (%(state)s)"), {"id": row_id, "state": state_word})


def uploader_warnings(
    session: Session, digest: str, name: str, start: Any, end: Any, submitter_id: int
) -> list[Message]:
    """The warnings an uploader reads, and the report keeps: the stored tournaments made from
    this file or named so (public data), and the uploader's own earlier submissions of it. An
    arbiter learns nothing of another's submissions; an officer reads those too, computed when
    they look (``_others_warnings``)."""
    warnings = [
        Message(
            N_("this file is already stored as tournament %(tournament)s (%(category)s): "
               "accepting it again will be refused"),
            {"tournament": tournament_id, "category": category},
        )
        for tournament_id, category in repo.tournaments_with_digest(session, digest)
    ]  # fmt: skip
    warnings += [
        Message(N_("this file was already submitted as %(submission)s"),
                {"submission": _submission(row.id, row.state)})
        for row in repo.submissions_with_digest(session, digest)
        if row.submitter_id == submitter_id
    ]  # fmt: skip
    same = repo.tournaments_named(session, name, start, end)
    if same:
        warnings.append(Message(
            N_("a tournament named %(name)s from %(start)s to %(end)s is already stored: "
               "%(tournaments)s"),
            {"name": repr(name), "start": Day(start), "end": Day(end),
             "tournaments": ", ".join(same)},
        ))  # fmt: skip
    others = [row for row in repo.submissions_named(session, name, start, end)
              if row.digest != digest and row.submitter_id == submitter_id]  # fmt: skip
    if others:
        warnings.append(_listing(
            N_("a tournament named %(name)s from %(start)s to %(end)s was already submitted: "
               "%(submissions)s"),
            name, start, end, [_submission(row.id, row.state) for row in others],
        ))  # fmt: skip
    return warnings


def _listing(text: str, name: str, start: Any, end: Any, items: list[Message]) -> Message:
    """A warning naming a tournament and listing submissions (each a message, joined by
    commas: ``%(submissions)s`` is ``%(s0)s, %(s1)s``... built here)."""
    joined = Message(", ".join(f"%(s{i})s" for i in range(len(items))),
                     {f"s{i}": item for i, item in enumerate(items)})  # fmt: skip
    return Message(text, {"name": repr(name), "start": Day(start), "end": Day(end),
                          "submissions": joined})  # fmt: skip


def _others_warnings(session: Session, row: SubmissionRow) -> list[Message]:
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
        Message(N_("this file was also submitted by %(user)s as %(submission)s"),
                {"user": str(names.get(other.submitter_id)),
                 "submission": _submission(other.id, other.state)})
        for other in same_file
    ]  # fmt: skip
    if same_name:
        warnings.append(_listing(
            N_("a tournament named %(name)s from %(start)s to %(end)s was also submitted by "
               "others: %(submissions)s"),
            row.tournament_name, row.start_date, row.end_date,
            [Message(N_("%(submission)s by %(user)s"),
                     {"submission": _submission(other.id, other.state),
                      "user": str(names.get(other.submitter_id))})
             for other in same_name],
        ))  # fmt: skip
    return warnings


def kept_warnings(report: dict[str, Any]) -> list[Message]:
    """The warnings kept with a report: as messages (``warnings_i18n``); a report kept before
    they were (English words only) gives each as a message without values, shown as kept."""
    words: list[str] = list(report.get("warnings", []))
    stored = report.get("warnings_i18n")
    if stored is None:
        return [Message(text) for text in words]
    return [from_json(message) for message in stored]


def shown_warnings(session: Session, row: SubmissionRow, viewer: Principal) -> list[Message]:
    """The report's warnings as ``viewer`` reads them: the uploader's, kept with the report;
    for an officer also the other submitters' submissions of the same tournament, as of now."""
    kept = kept_warnings(row.report)
    if viewer.role != Role.OFFICER:
        return _own_only(session, kept, row.submitter_id)
    return kept + _others_warnings(session, row)


_NAMED_SUBMISSION = re.compile(r"\bsubmission (\d+)\b")


def _own_only(session: Session, warnings: list[Message], submitter_id: int) -> list[Message]:
    """Reports kept before warnings were the uploader's may name others' submissions: those
    warnings are left out for anyone but an officer."""
    words = [w.english() for w in warnings]
    named = {int(n) for w in words for n in _NAMED_SUBMISSION.findall(w) if len(n) < 12}
    theirs = repo.submitters(session, named)
    return [
        warning
        for warning, w in zip(warnings, words, strict=True)
        if all(theirs.get(int(n)) == submitter_id for n in _NAMED_SUBMISSION.findall(w))
    ]
