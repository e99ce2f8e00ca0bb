"""A corrected file for an imported list (``lists import --replace``): published as the list's
next revision, the later periods recomputed from it."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind, ListSource, PeriodState
from ratingdb.errors import InputError
from ratingdb.models import RatingListRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message
from ratingdb.services import audit, impact
from ratingdb.services.corrections.outcome import CORRECTION, CorrectionOutcome, require_reason
from ratingdb.services.corrections.recomputation import Replaced, hold_off_closes, recompute_from
from ratingdb.services.lists import ImportedList, Replacement, check_period, import_list_file
from ratingdb.services.progress import Track, no_progress
from ratingdb.services.revisions import Revision, list_changes


def replace_list(
    session: Session,
    path: Path,
    category: Category,
    period: Period,
    *,
    file_format: str,
    reason: str,
    actor: str,
    now: datetime,
    track: Track = no_progress,
    source_name: str | None = None,
    dry_run: bool = False,
) -> tuple[CorrectionOutcome, ImportedList]:
    """``lists import --replace``: a corrected file for a list published by an import. The file
    is read and its players created or updated as any list import does; it is published as the
    next revision of the list (the earlier revisions stay as they were), and the later published
    periods of the category are recomputed from it, with the rapid and blitz lists that read a
    standard list, as a tournament correction does. ``source_name``: the file's name as the
    correction and the audit log record it (default: ``path``; the back office gives the
    uploaded file's name, not its temporary copy's). ``dry_run``: the later revisions are
    computed (services.impact), not written (the corrected list's own revision is); the
    caller rolls everything back.

    A list published by a close is refused: it is computed from the period's tournaments, and a
    file put in its place would hide them; correct the tournaments instead."""
    require_reason(reason, CORRECTION)
    check_period(category, period)
    # The import lock first (the global order, repositories.periods): the file's players are
    # written after the close locks below, and an import writing the same players before it
    # takes a close lock must not be waiting for this.
    player_repo.lock_imports(session)
    # Before the list is read: no period may be closed beside this from the old revision.
    hold_off_closes(session, {category})
    current = _imported_list_to_replace(session, category, period)
    years_before = player_repo.all_birth_years(session) if dry_run else {}
    digest = audit.file_digest(path) if path.is_file() else None
    correction = correction_repo.add(
        session, CorrectionKind.LIST_REPLACE, category=category, tournament_id=None, reason=reason,
        actor=actor, now=now,
        before={"list_id": current.id, "revision": current.revision,
                "entries": current.entry_count, "digest": current.digest},
    )  # fmt: skip
    imported = import_list_file(
        session, path, category, period, now, file_format, track=track,
        replaces=Replacement(current.revision + 1, correction.id),
    )  # fmt: skip
    revised, changed = _revision_written(session, category, period, current, imported.list_id, path)
    correction.after = {
        "list_id": revised.id, "revision": revised.revision, "entries": revised.entry_count,
        "digest": revised.digest, "file": source_name or str(path), "file_digest": digest,
        "format": file_format,
    }  # fmt: skip
    own = Revision(category, period, current.revision, revised.revision, changed)
    replaced = None
    if dry_run:
        years_after = player_repo.all_birth_years(session)
        replaced = Replaced(
            category,
            period,
            impact.changed_players(session, current, revised, changed),
            {p for p, year in years_after.items() if years_before.get(p, year) != year},
        )
    later = recompute_from(
        session, correction, {category: period}, now=now, track=track, list_replaced=True,
        dry_run=dry_run, replaced=replaced,
    )  # fmt: skip
    outcome = CorrectionOutcome(correction.id, correction.kind, (own, *later), ())
    audit.record(
        session, "correction", actor, now, file_digest=digest,
        counts={"entries": imported.rated, "unrated": imported.unrated,
                "players_created": imported.players_created,
                "players_updated": imported.players_updated,
                "players_changed": len(changed), "revisions": len(outcome.revisions)},
        details={"correction_id": correction.id, "kind": correction.kind,
                 "category": category.value, "period": str(period), "list_id": revised.id,
                 "revision": revised.revision, "file": source_name or str(path),
                 "format": file_format,
                 "reason": reason},
    )  # fmt: skip
    return outcome, imported


def _imported_list_to_replace(
    session: Session, category: Category, period: Period
) -> RatingListRow:
    """The period's published list, refused unless it was imported."""
    period_row = period_repo.get_period(session, category, period)
    current = period_repo.list_for(session, category, period)
    if period_row is None or period_row.state != PeriodState.PUBLISHED or current is None:
        raise InputError(
            Message(N_("%(category)s %(period)s has no published list to replace; import the "
                       "list as a new one instead"),
                    {"category": category.value, "period": str(period)}),
            field="period",
        )  # fmt: skip
    if current.source != ListSource.IMPORT:
        raise InputError(
            Message(N_("%(category)s %(period)s was computed by a close from its tournaments, "
                       "not imported: correct its games instead (a game's result, a corrected "
                       "tournament file, a merge of two players)"),
                    {"category": category.value, "period": str(period)}),
            field="replacement",
        )  # fmt: skip
    return current


def _revision_written(
    session: Session,
    category: Category,
    period: Period,
    current: RatingListRow,
    list_id: int,
    path: Path,
) -> tuple[RatingListRow, tuple[tuple[str, int | None, int | None], ...]]:
    """The revision just written from the corrected file, and who moved from ``current``;
    refused when nobody did."""
    revised = period_repo.get_list(session, list_id)
    if revised is None:
        raise AssertionError(f"the list {list_id} just written is not found")
    changed = list_changes(session, current, revised)
    if changed is None:
        raise InputError(
            Message(
                N_(
                    "the file gives the list of %(category)s %(period)s as published "
                    "(revision %(revision)s): nothing to correct"
                ),
                {"category": category.value, "period": str(period), "revision": current.revision},
            ),
            source=str(path),
            field="replacement",
        )
    return revised, changed
