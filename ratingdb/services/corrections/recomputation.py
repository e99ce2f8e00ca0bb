"""What a correction recomputes: per category, every published period from the earliest it
touches (services.revisions.recalculate, the rapid and blitz lists after a revised standard
list), with the closes of those categories held off; in a dry run, the revisions that would be
published, computed by services.impact instead."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ratingdb.enums import PeriodState
from ratingdb.models import CorrectionRow, RatingListRow, TournamentRow
from ratingdb.repositories import periods as period_repo
from ratingdb.rules import Category, Period
from ratingdb.services import events, impact
from ratingdb.services.close import STANDARD_SEEDED
from ratingdb.services.close.revision import PeriodImpact, publish_revision
from ratingdb.services.corrections.outcome import CorrectionOutcome
from ratingdb.services.progress import Track
from ratingdb.services.revisions import Revision, recalculate


def recompute(
    session: Session,
    correction: CorrectionRow,
    tournaments: list[TournamentRow],
    *,
    now: datetime,
    track: Track,
    dry_run: bool,
    games_changed: Sequence[tuple[str, str, str]],
) -> CorrectionOutcome:
    """Recalculate, per category, from the earliest published period the correction touches.
    ``games_changed``: (tournament, player, player) of every game it superseded or created."""
    periods = period_repo.with_ids(session, {t.period_id for t in tournaments})
    first: dict[Category, Period] = {}
    pending: list[str] = []
    for tournament in tournaments:
        period_row = periods[tournament.period_id]
        category = period_row.category
        period = Period.of_list_date(period_row.list_date)
        if period_row.state != PeriodState.PUBLISHED:
            pending.append(f"{category.value} {period}")
            continue
        if category not in first or period < first[category]:
            first[category] = period
    game_players: dict[int, set[str]] = {}
    period_of = {t.tournament_id: t.period_id for t in tournaments}
    for tournament_id, white, black in games_changed:
        game_players.setdefault(period_of[tournament_id], set()).update((white, black))
    revisions = recompute_from(
        session, correction, first, now=now, track=track, dry_run=dry_run,
        game_players=game_players,
    )  # fmt: skip
    return CorrectionOutcome(correction.id, correction.kind, tuple(revisions),
                             tuple(sorted(set(pending))))  # fmt: skip


def hold_off_closes(session: Session, categories: set[Category]) -> None:
    """The lists a correction recomputes (with the rapid and blitz lists a standard list seeds)
    must not gain a period closed beside it from the revisions it replaces."""
    if Category.FIDE_STANDARD in categories:
        categories = categories | STANDARD_SEEDED
    for category in sorted(categories, key=lambda c: c.value):
        period_repo.hold_off_closes(session, category)


@dataclass(frozen=True, slots=True)
class Replaced:
    """A replaced imported list, for the dry run's impact: the players whose entry or status
    differs from the revision replaced, and the players the import gave another birth year."""

    category: Category
    period: Period
    players: set[str]
    birth_years_changed: set[str]


def recompute_from(
    session: Session,
    correction: CorrectionRow,
    first: dict[Category, Period],
    *,
    now: datetime,
    track: Track,
    list_replaced: bool = False,
    dry_run: bool = False,
    replaced: Replaced | None = None,
    game_players: Mapping[int, set[str]] | None = None,
) -> list[Revision]:
    """Recalculate each category of ``first`` from its period on, then the rapid and blitz
    lists when a standard list was revised. ``list_replaced``: the list of ``first`` is an
    imported list whose new revision is written already (lists import --replace): imported
    lists are passed over (revisions.recalculate's ``skip_imported``), and a replaced standard
    list is revised even when no later standard list changes.

    The revisions are computed by services.impact from the players the correction reaches
    (``game_players``: period id -> the players of the games the correction superseded or
    created there; ``replaced``: the list replaced, with a list_replaced) and each stores only
    what it changes (services.close.revision); in a dry run nothing is written. Each period
    is recomputed whole (services.revisions.recalculate, a revision storing every entry and
    calculation of its period) when a list to recompute was published under another rule
    version than its period's rules now (services.impact.needs_cascade: every entry may
    change, and the impact does not guess), and for a replaced imported list written for good
    (the players its file changed are not given)."""
    hold_off_closes(session, set(first))
    by_impact = dry_run or not list_replaced
    if by_impact and not impact.needs_cascade(session, first):
        return _impact_of(
            session, correction, first, list_replaced, replaced, game_players or {},
            now=None if dry_run else now,
        )  # fmt: skip
    revisions: list[Revision] = []
    for category, period in sorted(first.items(), key=lambda item: item[0].value):
        revisions.extend(
            recalculate(
                session, category, period, now=now, cause=correction.id,
                skip_imported=list_replaced, track=track,
            )
        )  # fmt: skip
    if Category.FIDE_STANDARD in first and (revisions or list_replaced):
        # Rapid and blitz periods rate players without a rating of their own with the standard
        # list (and the 2022 uplift read it): a revised standard list reaches them.
        for category in sorted(STANDARD_SEEDED - first.keys(), key=lambda c: c.value):
            revisions.extend(
                recalculate(
                    session,
                    category,
                    first[Category.FIDE_STANDARD],
                    now=now,
                    cause=correction.id,
                    through_all=True,
                    skip_imported=list_replaced,
                    track=track,
                )
            )
    return revisions


def _impact_of(
    session: Session,
    correction: CorrectionRow,
    first: dict[Category, Period],
    list_replaced: bool,
    replaced: Replaced | None,
    game_players: Mapping[int, set[str]],
    *,
    now: datetime | None,
) -> list[Revision]:
    """The revisions of recompute_from, the same categories in the same order, computed by
    services.impact; each written as it is computed (services.close.revision) unless ``now``
    is None (a dry run)."""
    if list_replaced and replaced is None:
        raise AssertionError("a replaced list's dry run needs the players the file changed")
    cascade = impact.Cascade.of(
        session,
        correction.id,
        game_players,
        () if replaced is None else replaced.birth_years_changed,
    )
    if replaced is not None:
        cascade.seeds[(replaced.category, replaced.period.list_date)] = replaced.players
    written = _Written(session, correction.id, now)
    found: list[tuple[Category, Period, int, int, tuple[tuple[str, int | None, int | None], ...]]]
    found = []
    for category, period in sorted(first.items(), key=lambda item: item[0].value):
        with written.cascade(category):
            found.extend(
                impact.recalculate_impact(
                    session, cascade, category, period, skip_imported=list_replaced,
                    publish=written.publish,
                )
            )  # fmt: skip
    if Category.FIDE_STANDARD in first and (found or list_replaced):
        for category in sorted(STANDARD_SEEDED - first.keys(), key=lambda c: c.value):
            with written.cascade(category):
                found.extend(
                    impact.recalculate_impact(
                        session,
                        cascade,
                        category,
                        first[Category.FIDE_STANDARD],
                        through_all=True,
                        skip_imported=list_replaced,
                        publish=written.publish,
                    )
                )
    return [Revision(*revision) for revision in found]


class _Written:
    """Writes each revision the impact computes (none in a dry run: ``now`` None), and tells
    what a category's cascade wrote (services.events.ListsWritten, as
    services.revisions.recalculate does)."""

    def __init__(self, session: Session, cause: int, now: datetime | None) -> None:
        self.session = session
        self.cause = cause
        self.now = now
        self.lists = self.entries = self.rows = 0

    @contextmanager
    def cascade(self, category: Category) -> Iterator[None]:
        started = time.perf_counter()
        self.lists = self.entries = self.rows = 0
        yield
        if self.now is not None and self.lists:
            events.tell(
                events.ListsWritten(
                    "cascade", category, time.perf_counter() - started, self.lists,
                    self.entries, self.rows,
                )
            )  # fmt: skip

    @property
    def publish(self) -> Callable[[RatingListRow, PeriodImpact], None] | None:
        return None if self.now is None else self._publish

    def _publish(self, current: RatingListRow, computed: PeriodImpact) -> None:
        if self.now is None:
            raise AssertionError("a dry run writes nothing")
        rating_list, rows = publish_revision(
            self.session, computed, current, cause=self.cause, now=self.now
        )
        self.lists += 1
        self.entries += rating_list.entry_count
        self.rows += rows
