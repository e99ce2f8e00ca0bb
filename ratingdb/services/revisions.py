"""Revisions of published lists: recalculation after a correction, the differences between two
revisions, and the proof that a published revision is what its stored inputs give.

A published list is never changed. A correction to a tournament of a published period
recomputes that period and every later published period of the category, in order, and each
list that comes out different is published as a new revision; the first revision (the
original list) stays as it was.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.db.calculation_format_v1 import StoredCalculation
from ratingdb.db.chunks import ENTRY
from ratingdb.enums import ListSource
from ratingdb.errors import InputError
from ratingdb.models import PeriodRow, RatingListRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories.list_storage import calculations as stored_calculations
from ratingdb.repositories.list_storage import changes as change_rows
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.rules import Category, Period, PeriodRules
from ratingdb.services import events
from ratingdb.services.close import (
    Computation,
    calculations_of,
    compute,
    encode_pool,
    entries_digest,
    entry_rows,
    publish,
)
from ratingdb.services.lists import digest_of_sorted, stored_digest, stored_rows_digest
from ratingdb.services.progress import Track, no_progress


@dataclass(frozen=True, slots=True)
class Revision:
    category: Category
    period: Period
    from_revision: int
    to_revision: int
    changed: tuple[tuple[str, int | None, int | None], ...]  # player, rating before, after

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "period": str(self.period),
            "from_revision": self.from_revision,
            "to_revision": self.to_revision,
            "players_changed": len(self.changed),
            "changes": [
                {"player_id": p, "from_rating": before, "to_rating": after,
                 "difference": None if before is None or after is None else after - before}
                for p, before, after in self.changed
            ],
        }  # fmt: skip


def _lists_before(
    session: Session, category: Category, period: Period, *, written_before: int | None = None
) -> list[RatingListRow]:
    """The lists a computation of ``period`` starts from: one revision each, oldest first."""
    return [
        row
        for row in period_repo.lists_of(session, category, written_before=written_before)
        if row.list_date < period.list_date
    ]


def lists_to_recompute(
    session: Session, category: Category, first: Period, *, skip_imported: bool
) -> Iterator[tuple[Period, RatingListRow, PeriodRow]]:
    """``first`` and every later published period of the category, in order, each with its
    current list and its period; an imported list is passed over (``skip_imported``) or, when
    it is reached, refused: nothing computes it, so a correction cannot reach through it."""
    periods = sorted(p for p in period_repo.published_periods(session, category) if p >= first)
    for period in periods:
        current = period_repo.list_for(session, category, period)
        period_row = period_repo.get_period(session, category, period)
        if current is None or period_row is None:
            raise AssertionError(f"published period {category.value} {period} has no list")
        if current.source != ListSource.CLOSE:
            if skip_imported:
                continue
            raise InputError(
                f"{category.value} {period} is an imported list: it cannot be recomputed; "
                "correct the tournaments of later periods only",
                field="tournament",
            )
        yield period, current, period_row


def recalculate(
    session: Session,
    category: Category,
    first: Period,
    *,
    now: datetime,
    cause: int,
    through_all: bool = False,
    skip_imported: bool = False,
    track: Track = no_progress,
) -> list[Revision]:
    """Recompute ``first`` and every later published period of the category, in order, and
    publish a new revision of each list that changes; stop at the first that does not (the
    lists after it cannot change either) — unless ``through_all``: a category that reads another
    one's lists (rapid and blitz read the standard list) may change further on even when one of
    its lists did not. ``skip_imported``: an imported list is computed from nothing, so nothing
    changes it; it is passed over (a replaced imported list, the periods after it), where a
    tournament correction refuses it. A dry run computes what this would publish without it
    (services.impact)."""
    started = time.perf_counter()
    revisions: list[Revision] = []
    computed = entries = rows = 0
    for period, current, period_row in lists_to_recompute(
        session, category, first, skip_imported=skip_imported
    ):
        rules = PeriodRules.for_period(category, period)
        computation = compute(
            session, rules, period_row.id, _lists_before(session, category, period),
            corrections=cause, track=track,
        )  # fmt: skip
        computed += 1
        changed = _changed(session, current, computation)
        if changed is None:
            if through_all:
                continue
            break
        rating_list, written = publish(
            session, computation, revision=current.revision + 1, now=now, cause=cause
        )
        entries += computation.entry_count
        rows += written
        revisions.append(
            Revision(category, period, current.revision, rating_list.revision, changed)
        )
    if computed:  # a category with no published list to recompute is no cascade
        events.tell(
            events.ListsWritten(
                "cascade", category, time.perf_counter() - started, len(revisions), entries, rows
            )
        )
    return revisions


def _changed(
    session: Session, current: RatingListRow, computation: Computation
) -> tuple[tuple[str, int | None, int | None], ...] | None:
    """Who moved between the stored revision and the computation (rating, games, K, rated
    games so far, peak, last rated list and activity: what the next periods start from); None
    when nothing did, entries and the statuses of the players off the list alike."""
    stored = chunk_reads.entries_by_player(session, current.id)
    fresh = {
        player_id: (rating, previous, change, games, k, rated_games, peak, last_rated, active)
        for (
            _,
            player_id,
            rating,
            previous,
            change,
            games,
            k,
            _,
            _,
            rated_games,
            peak,
            last_rated,
            active,
        ) in entry_rows(computation.results, 0)
    }
    same_statuses = _stored_statuses_digest(session, current.id) == _statuses_digest(computation)
    if stored == fresh and same_statuses:
        return None
    players = sorted(set(stored) | set(fresh))
    return tuple(
        (p, _rating(stored.get(p)), _rating(fresh.get(p)))
        for p in players
        if stored.get(p) != fresh.get(p)
    )


def list_changes(
    session: Session, before: RatingListRow, after: RatingListRow
) -> tuple[tuple[str, int | None, int | None], ...] | None:
    """Who moved between two stored revisions of a list (player, rating before, after; an
    entry's every column compared), or None when they hold the same entries and the same
    statuses of the players off the list."""
    old, new = (
        chunk_reads.entries_by_player(session, before.id),
        chunk_reads.entries_by_player(session, after.id),
    )
    same_statuses = _stored_statuses_digest(session, before.id) == _stored_statuses_digest(
        session, after.id
    )
    if old == new and same_statuses:
        return None
    return tuple(
        (p, _rating(old.get(p)), _rating(new.get(p)))
        for p in sorted(set(old) | set(new))
        if old.get(p) != new.get(p)
    )


def _rating(entry: tuple[Any, ...] | None) -> int | None:
    return None if entry is None else int(entry[0])


def _statuses_digest(computation: Computation) -> str:
    return digest_of_sorted(
        sorted(
            (p, r.status.rated_games, r.status.peak_rating, encode_pool(r.status.pool))
            for p, r in computation.results.items()
            if r.new_rating is None
            and (r.status.pool or r.status.rated_games or r.status.peak_rating is not None)
        )
    )


def _stored_statuses_digest(session: Session, list_id: int) -> str:
    return digest_of_sorted(sorted(change_rows.statuses_of(session, list_id)))


# --- verification ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verification:
    category: Category
    period: Period
    revision: int
    source: ListSource
    ok: bool
    detail: str

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "period": str(self.period),
            "revision": self.revision,
            "source": self.source,
            "ok": self.ok,
            "detail": self.detail,
        }


def verify(session: Session, rating_list: RatingListRow) -> Verification:
    """Recompute a published revision from the stored inputs as they were when it was
    published (the games as of its corrections, the lists it started from) with the rule
    version it was published under, and compare digests: the stored one, the stored rows', and
    the recomputed list's (the stored entries: both the list's chunks and its rows); and, for
    the list latest_entries hold, those against its chunks. (That a list's parent was written
    before it, and is of its category, the database guards: migration 0013.)"""
    category = rating_list.category
    period = Period.of_list_date(rating_list.list_date)

    def result(ok: bool, detail: str) -> Verification:
        return Verification(category, period, rating_list.revision, rating_list.source, ok, detail)

    version = rating_list.digest_version
    stored = {
        stored_digest(session, rating_list.id, version),
        stored_rows_digest(session, rating_list.id, version),
    }
    if stored != {rating_list.digest}:
        return result(False, "the stored entries do not match the list's digest")
    if list_latest.latest_differs(session, rating_list.id):
        return result(False, "the latest entries (latest_entries) do not match the list")
    if rating_list.source != ListSource.CLOSE:
        return result(True, "imported list: the stored entries match the digest")
    rules = PeriodRules.for_period(category, period)
    if rules.version.name != rating_list.rule_version:
        return result(
            False,
            f"published under {rating_list.rule_version}, the rules now give {rules.version.name}",
        )
    lists = _lists_before(session, category, period, written_before=rating_list.id)
    computation = compute(
        session, rules, rating_list.period_id, lists,
        corrections=rating_list.corrections_applied, written_before=rating_list.id,
    )  # fmt: skip
    recomputed = entries_digest(computation.results, version)
    if recomputed != rating_list.digest:
        return result(False, "recomputed from its stored inputs, the list differs")
    # The digest covers an entry up to its K; what the next periods start from (K used, sum
    # of deltas, rated games, peak) and the statuses of the players off the list are compared
    # field by field.
    differs = _first_field_differing(session, rating_list.id, computation)
    if differs is not None:
        return result(False, f"recomputed from its stored inputs, {differs}")
    if _stored_statuses_digest(session, rating_list.id) != _statuses_digest(computation):
        return result(False, "recomputed from its stored inputs, the players off the list differ")
    differs = _first_calculation_differing(session, rating_list, computation)
    if differs is not None:
        return result(False, f"recomputed from its stored inputs, {differs}")
    return result(True, f"recomputed identical ({computation.entry_count} entries)")


def _first_calculation_differing(
    session: Session, rating_list: RatingListRow, computation: Computation
) -> str | None:
    """The first game (by player, then game id) whose stored calculation, read where it is
    stored (a correction's revision holds only the players it recomputed), differs from the
    recomputed one in any field; None when all agree."""
    stored = stored_calculations.calculations_of(session, rating_list.id)
    fresh = {
        player_id: calculations_of(player_id, r, computation.loaded.game_ids)
        for player_id, r in computation.results.moved()
    }
    was_of, now_of = _by_game(stored), _by_game(fresh)
    for key in sorted(was_of.keys() | now_of.keys()):
        was, now = was_of.get(key), now_of.get(key)
        if was is None or now is None:
            where = "not stored" if was is None else "not recomputed"
            return f"player {key[0]}'s calculation of game {key[1]} is {where}"
        for field, old, new in zip(StoredCalculation._fields, was, now, strict=True):
            if old != new:
                return (
                    f"player {key[0]}'s calculation of game {key[1]}: {field} is {old} "
                    f"stored, {new} recomputed"
                )
    return None


def _by_game(
    held: dict[str, list[StoredCalculation]],
) -> dict[tuple[str, int], StoredCalculation]:
    return {
        (player_id, calculation.game_id): calculation
        for player_id, calculations in held.items()
        for calculation in calculations
    }


def _first_field_differing(session: Session, list_id: int, computation: Computation) -> str | None:
    """The first player (by id) and field whose stored value differs from the recomputed
    one, every field of an entry compared; None when all agree."""
    stored_columns = chunk_reads.list_columns(session, list_id, ENTRY)
    stored = {row[0]: row[1:] for row in zip(*stored_columns, strict=True)}
    fresh = {row[1]: row[2:] for row in entry_rows(computation.results, 0)}
    for player_id in sorted(set(stored) | set(fresh)):
        old, new = stored.get(player_id), fresh.get(player_id)
        if old is None or new is None:
            return f"player {player_id} is {'not ' if old is None else ''}on the stored list"
        for field, was, now in zip(ENTRY[1:], old, new, strict=True):
            if was != now:
                return f"player {player_id}'s {field} is {was} stored, {now} recomputed"
    return None


def lists_to_verify(
    session: Session, category: Category | None, period: Period | None
) -> Sequence[RatingListRow]:
    return period_repo.lists_matching(session, category, period)


# --- differences -----------------------------------------------------------------------------


def diff(
    session: Session, category: Category, period: Period, from_revision: int, to_revision: int
) -> dict[str, Any]:
    """Who changed between two revisions of a list, by how much, and the corrections between."""
    rows = period_repo.revisions_of(session, category, period)
    for revision, field in ((from_revision, "from"), (to_revision, "to")):
        if revision not in rows:
            raise InputError(
                f"{category.value} {period} has no revision {revision} "
                f"(revisions: {', '.join(str(r) for r in sorted(rows)) or 'none'})",
                field=field,
            )
    width = len(_ENTRY_FIELDS)
    before = {
        p: e[:width]
        for p, e in chunk_reads.entries_by_player(session, rows[from_revision].id).items()
    }
    after = {
        p: e[:width]
        for p, e in chunk_reads.entries_by_player(session, rows[to_revision].id).items()
    }
    names = player_repo.names(session, set(before) | set(after)) if before or after else {}
    low, high = sorted((from_revision, to_revision))
    causes = [rows[r].cause_correction_id for r in range(low + 1, high + 1) if r in rows]
    corrections = correction_repo.with_ids(session, [c for c in causes if c]) if any(causes) else []
    changes = []
    for player in sorted(set(before) | set(after)):
        old, new = before.get(player), after.get(player)
        if old == new:
            continue
        changes.append(
            {
                "player_id": player,
                "name": names.get(player),
                "from": None if old is None else dict(zip(_ENTRY_FIELDS, old, strict=True)),
                "to": None if new is None else dict(zip(_ENTRY_FIELDS, new, strict=True)),
                "rating_difference": (None if old is None or new is None else new[0] - old[0]),
            }
        )
    return {
        "category": category.value,
        "period": str(period),
        "from_revision": from_revision,
        "to_revision": to_revision,
        "corrections": [
            {"correction_id": c.id, "kind": c.kind, "reason": c.reason, "actor": c.actor,
             "created_at": c.created_at.isoformat(), "tournament_id": c.tournament_id,
             "withdrawn": bool(c.after.get("withdrawn", False))}
            for c in corrections
        ],
        "changes": changes,
    }  # fmt: skip


_ENTRY_FIELDS = ("rating", "previous_rating", "change", "games", "k_factor")


__all__ = [
    "Revision",
    "Verification",
    "diff",
    "list_changes",
    "lists_to_verify",
    "recalculate",
    "verify",
]
