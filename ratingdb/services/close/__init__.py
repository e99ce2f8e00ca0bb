"""The monthly close: load the period in a few set-based queries, compute every player with the
rules core, write the list, its entries and every calculation in bulk, in the caller's
transaction (docs/rules.md §3-§13; docs/cli.md §5.1).
"""

from __future__ import annotations

import dataclasses
import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy.orm import Session

from ratingdb.enums import PeriodState
from ratingdb.errors import InputError
from ratingdb.models import PeriodRow
from ratingdb.repositories import periods as period_repo
from ratingdb.rules import Category, Period, PeriodRules
from ratingdb.rules.calendar import NotAListPeriod
from ratingdb.rules.versions import NoRuleVersion
from ratingdb.services import audit, events
from ratingdb.services.close.computation import (
    STANDARD_SEEDED,
    CloseOutcome,
    CloseState,
    Computation,
    changes,
    compute,
    latest_correction,
    load_inputs,
)
from ratingdb.services.close.output import (
    calculation_rows,
    calculations_of,
    encode_pool,
    entries_digest,
    entry_rows,
)
from ratingdb.services.close.statuses import decode_pool
from ratingdb.services.close.writing import publish, publish_rating
from ratingdb.services.progress import Track, no_progress


def close_period(
    session: Session,
    category: Category,
    period: Period,
    *,
    now: datetime,
    closed_by: str,
    dry_run: bool = False,
    track: Track = no_progress,
    before_publishing: Callable[[Computation], None] | None = None,
) -> CloseOutcome:
    """Compute and publish the list of ``period``. A published period is left as it is.

    ``before_publishing`` is given the computed period before anything of it is written (in a
    dry run too): the back office's approval checks that the list is the one previewed there,
    and raising stops the close (the caller's transaction then rolls back its claim)."""
    try:
        rules = PeriodRules.for_period(category, period)
    except (NotAListPeriod, NoRuleVersion) as error:
        raise InputError(str(error), field="period") from None
    period_row = period_repo.get_period(session, category, period)
    if period_row is not None and period_row.state == PeriodState.PUBLISHED:
        return _already_published(session, category, period)
    if period_row is None:
        if dry_run:
            period_row = PeriodRow(id=-1, category=category, list_date=period.list_date)
        else:
            period_row = period_repo.get_or_create_period(session, category, period)
    if not dry_run and not period_repo.claim(session, period_row, closed_by, now):
        # Another closer got there first (its transaction has committed: the lock waited).
        return _already_published(session, category, period)

    started = time.perf_counter()
    with _collector_paused():
        outcome = _close(session, rules, period_row, now=now, dry_run=dry_run, track=track,
                         before_publishing=before_publishing)  # fmt: skip
    if outcome.state == CloseState.PUBLISHED:
        audit.record(
            session, "close", closed_by, now,
            counts={"entries": outcome.entries, "games": outcome.games,
                    "first_ratings": outcome.first_ratings, "rows": outcome.rows_written},
            details={"category": category.value, "period": str(period),
                     "list_id": outcome.list_id, "rule_version": outcome.rule_version},
        )  # fmt: skip
        events.tell(
            events.ListsWritten("close", category, time.perf_counter() - started, 1,
                                outcome.entries, outcome.rows_written)
        )  # fmt: skip
    return outcome


def _already_published(session: Session, category: Category, period: Period) -> CloseOutcome:
    """What a close of a published period reports: the list in force for it (its latest
    revision), not a computation that did not happen."""
    published = period_repo.list_for(session, category, period)
    if published is None:
        raise RuntimeError(f"{category.value} {period} is marked published but has no list")
    return CloseOutcome(
        category,
        period,
        CloseState.ALREADY_PUBLISHED,
        rule_version=published.rule_version,
        list_id=published.id,
        entries=published.entry_count,
        revision=published.revision,
    )


@contextmanager
def _collector_paused() -> Iterator[None]:
    """A close builds millions of small acyclic objects; Python's cyclic collector would rescan
    the growing heap again and again (more than half the compute time of a FIDE-size close).
    Reference counting still frees everything; the collector runs again afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _close(
    session: Session,
    rules: PeriodRules,
    period_row: PeriodRow,
    *,
    now: datetime,
    dry_run: bool,
    track: Track,
    before_publishing: Callable[[Computation], None] | None,
) -> CloseOutcome:
    lists = [
        rating_list
        for rating_list in period_repo.lists_of(session, rules.category)
        if rating_list.list_date < rules.period.list_date
    ]
    if dry_run or before_publishing is not None:
        # The computation whole first: a dry run writes nothing, and the check is given it
        # before anything is written (it may ask the database: no COPY may be open).
        computation = compute(session, rules, period_row.id, lists, track=track)
        if before_publishing is not None:
            before_publishing(computation)
        outcome = computation.outcome(CloseState.DRY_RUN if dry_run else CloseState.PUBLISHED)
        if dry_run:
            return dataclasses.replace(outcome, changes=changes(computation.results))
        started = time.perf_counter()
        rating_list, rows = publish(session, computation, revision=1, now=now)
        write_s = time.perf_counter() - started
    else:
        # The players rated as their calculations stream in (services.close.writing).
        inputs = load_inputs(session, rules, period_row.id, lists)
        started = time.perf_counter()
        computation, rating_list, rows = publish_rating(
            session, inputs, revision=1, now=now, track=track
        )
        # The rating (with the calculations made and queued as it goes) is compute_s; the
        # rest, the list made and written, is write_s.
        write_s = time.perf_counter() - started - computation.compute_s
        outcome = computation.outcome(CloseState.PUBLISHED)
    period_repo.mark_published(session, period_row, now)
    return dataclasses.replace(
        outcome,
        list_id=rating_list.id,
        revision=rating_list.revision,
        write_s=write_s,
        rows_written=rows,
    )


__all__ = [
    "STANDARD_SEEDED",
    "CloseOutcome",
    "CloseState",
    "Computation",
    "calculation_rows",
    "calculations_of",
    "close_period",
    "compute",
    "decode_pool",
    "encode_pool",
    "entries_digest",
    "entry_rows",
    "latest_correction",
    "load_inputs",
    "publish",
    "publish_rating",
]
