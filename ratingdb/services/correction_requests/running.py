"""Running a request through the corrections service: for real, or as a dry run inside a
SAVEPOINT rolled back, and the impact it reports."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period
from ratingdb.services.accounts import Principal
from ratingdb.services.correction_requests.requests import (
    GAME,
    MERGE,
    TOURNAMENT,
    WITH_FILE,
    CorrectionRequest,
    Ran,
    _as_file,
    _check,
    _Checked,
    _located,
    is_withdrawal,
)
from ratingdb.services.corrections import (
    CorrectionOutcome,
    correct_game,
    merge_players,
    replace_list,
    replace_tournament,
    withdraw_tournament,
)
from ratingdb.services.corrections.merges import MergeConflicts
from ratingdb.services.submissions.checks import renamed


def _run(
    session: Session, checked: _Checked, actor: str, now: datetime, *, dry_run: bool = False
) -> Ran:
    """Apply the correction in the caller's transaction; its impact. ``dry_run``: the later
    lists' revisions computed by services.impact, not written (the caller rolls back)."""
    values = checked.values
    if checked.kind in WITH_FILE and not is_withdrawal(values):
        if checked.content is None or checked.filename is None:
            raise AssertionError("a corrected file's request without its file")
        with _as_file(checked.content, checked.filename) as path:
            try:
                outcome, extra = _run_file(session, checked, path, actor, now, dry_run)
            except InputError as error:
                raise _located(checked.kind, error, path, checked.filename) from None
    else:
        try:
            if checked.kind == GAME:
                outcome = correct_game(
                    session, tournament_id=values["tournament"], round_number=values["round"],
                    white_id=values["white"], black_id=values["black"], result=values["result"],
                    reason=checked.reason, actor=actor, now=now, dry_run=dry_run,
                )  # fmt: skip
            elif checked.kind == TOURNAMENT:  # a withdrawal: its games replaced by none
                outcome = withdraw_tournament(
                    session, values["tournament"], reason=checked.reason, actor=actor,
                    now=now, dry_run=dry_run,
                )  # fmt: skip
            else:
                outcome = merge_players(session, values["keep"], values["drop"],
                                        reason=checked.reason, actor=actor, now=now,
                                        dry_run=dry_run,
                                        override=values.get("override"))  # fmt: skip
        except MergeConflicts:
            raise  # with both records and their conflicts, for the form to show
        except InputError as error:
            raise _located(checked.kind, error, None, None) from None
        extra = {}
    return Ran(_impact(session, checked, outcome, extra), outcome.correction_id)


def _run_file(
    session: Session, checked: _Checked, path: Path, actor: str, now: datetime, dry_run: bool
) -> tuple[CorrectionOutcome, dict[str, Any]]:
    values = checked.values
    if checked.kind == TOURNAMENT:
        outcome, read = replace_tournament(
            session, values["tournament"], path, file_format=values["format"],
            reason=checked.reason, actor=actor, now=now, dry_run=dry_run,
        )  # fmt: skip
        notes = [renamed(line, str(path), str(checked.filename)) for line in read.report]
        return outcome, {"notes": [line.english() for line in notes],
                         "notes_i18n": [line.as_json() for line in notes],
                         "file_digest": read.digest}  # fmt: skip
    outcome, imported = replace_list(
        session, path, Category(values["category"]), Period.parse(values["period"]),
        file_format=values["format"], reason=checked.reason, actor=actor, now=now,
        source_name=checked.filename, dry_run=dry_run,
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
                   "file_digest": extra.get("file_digest"),
                   "notes": extra.get("notes", []),
                   "notes_i18n": extra.get("notes_i18n", [])}  # fmt: skip
        if after.get("withdrawn"):
            summary["withdrawn"] = True
    elif checked.kind == MERGE:
        # With both records as they were, their conflicts and the override (merges).
        summary = {"games": after["games"], "keep_name": names.get(values["keep"]),
                   "drop_name": names.get(values["drop"]), **outcome.extra}  # fmt: skip
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
        ran = _run(session, checked, actor, now, dry_run=True)
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
