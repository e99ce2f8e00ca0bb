"""``ratingdb periods rebuild-changes``: a list's rows in list_entries written again from the
chunks, the stored form that is the list (docs/storage.md §3).

The rows are an index of the list by player: its entries that are not its parent's carried
forward, and a marker for each player of the parent it leaves off
(ratingdb.rules.carry_forward.changes_against). A restore that lost them, a tool that wrote
them wrong, or a close of an earlier ratingdb that wrote more than it needed (a merged
player's row that equals the carried one) leave the chunks, and so the list, whole: this
makes the index follow from them again, and proves it does (every field of every entry, read
both ways) before the transaction ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.db.chunks import ENTRY
from ratingdb.models import RatingListRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.rules import Category, Period
from ratingdb.rules.carry_forward import changes_against
from ratingdb.services import audit


class RowsDisagree(RuntimeError):
    """The rows written do not give the list's chunks back: nothing is kept."""


@dataclass(frozen=True, slots=True)
class Rebuilt:
    category: Category
    period: Period
    revision: int
    #: The list's rows before, and as the chunks make them (markers included).
    rows_before: int
    rows_after: int
    markers: int
    #: Whether the stored rows differed from the ones the chunks make (and were replaced,
    #: unless a dry run).
    differed: bool

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "period": str(self.period),
            "revision": self.revision,
            "rows_before": self.rows_before,
            "rows_after": self.rows_after,
            "markers": self.markers,
            "differed": self.differed,
        }


def rebuild_rows(
    session: Session, rating_list: RatingListRow, *, actor: str, now: datetime, dry_run: bool
) -> Rebuilt:
    """The list's rows made from its chunks and its parent's; written in place of the stored
    ones when they differ (not in a dry run; audited), then read back: every field of every
    entry, resolved from the rows over the parent's chunks, must equal the list's chunks
    (RowsDisagree otherwise, and the caller's transaction is rolled back). The list is locked
    first: two rebuilds of one list at once take turns."""
    if not dry_run:
        list_changes.lock_list(session, rating_list.id)
    entries = list(chunk_reads.whole_list(session, rating_list.id))
    parent_id, revises = list_changes.parent_of(session, rating_list.id)
    parent = (
        None
        if parent_id is None
        else {e.player_id: e for e in chunk_reads.whole_list(session, parent_id)}
    )
    rows, markers = changes_against(parent, entries, carry=not revises)
    marker_fields = (None,) * (len(ENTRY) - 1)
    wanted = {entry.player_id: tuple(entry) for entry in rows}
    wanted.update({player_id: (player_id, *marker_fields) for player_id in markers})
    stored = list_changes.own_rows(session, rating_list.id)
    differed = stored != wanted
    if differed and not dry_run:
        list_changes.replace_rows(session, rating_list.id, wanted.values())
        from_rows = list_changes.canonical_rows(session, rating_list.id, ENTRY)
        if from_rows != chunk_reads.canonical_entries(session, rating_list.id, ENTRY):
            raise RowsDisagree(
                f"list {rating_list.category.value} {Period.of_list_date(rating_list.list_date)} "
                f"revision {rating_list.revision}: the rows made from the chunks do not give "
                "the chunks back; nothing was written"
            )
        audit.record(session, "list-rows-rebuild", actor, now, details={
            "category": rating_list.category.value,
            "period": str(Period.of_list_date(rating_list.list_date)),
            "revision": rating_list.revision,
            "rows_before": len(stored),
            "rows_after": len(wanted),
        })  # fmt: skip
    return Rebuilt(
        rating_list.category,
        Period.of_list_date(rating_list.list_date),
        rating_list.revision,
        rows_before=len(stored),
        rows_after=len(wanted),
        markers=len(markers),
        differed=differed,
    )


def lists_to_rebuild(
    session: Session, category: Category | None, period: Period | None
) -> list[RatingListRow]:
    """Every revision of every list (of ``category`` and ``period`` when given), in the order
    they were written."""
    return sorted(period_repo.lists_matching(session, category, period), key=lambda r: r.id)
