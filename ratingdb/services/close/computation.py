"""A period computed in memory from its stored inputs, and what a close reports of it."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.models import RatingListRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import periods as period_repo
from ratingdb.rules import (
    Category,
    Period,
    PeriodResult,
    PeriodResults,
    PeriodRules,
    PlayerStatus,
    rating,
)
from ratingdb.services.close.inputs import Loaded, load
from ratingdb.services.progress import Track, no_progress

#: The categories whose periods read the standard list (the seed and the 2022 uplift).
STANDARD_SEEDED = frozenset({Category.FIDE_RAPID, Category.FIDE_BLITZ})


class CloseState(StrEnum):
    """What a close did (``state`` in its report), spelt as the period states are
    (``awaiting-approval`` is ``periods.state``'s too)."""

    PUBLISHED = "published"
    #: The period was published already (by an earlier close, or one that got there first).
    ALREADY_PUBLISHED = "already-published"
    #: Computed, nothing written.
    DRY_RUN = "dry-run"
    #: Computed by the scheduled close of a category published with approval; not published.
    AWAITING_APPROVAL = "awaiting-approval"


@dataclass(frozen=True, slots=True)
class CloseOutcome:
    category: Category
    period: Period
    #: ``awaiting-approval``: computed by the scheduled close of a category published with
    #: approval, not published (``digest``).
    state: CloseState
    rule_version: str | None = None
    list_id: int | None = None
    entries: int = 0
    first_ratings: int = 0
    below_floor: int = 0
    players_with_games: int = 0
    games: int = 0
    changes: tuple[tuple[str, int | None, int | None], ...] = field(default=())
    # Seconds per phase and rows written, for the benchmark and the logs.
    load_s: float = 0.0
    compute_s: float = 0.0
    write_s: float = 0.0
    rows_written: int = 0
    revision: int | None = None  # of the list published, or found already published
    digest: str | None = None  # of the entries held for approval

    @property
    def awaiting_approval(self) -> bool:
        return self.state == CloseState.AWAITING_APPROVAL

    @property
    def already_published(self) -> bool:
        return self.state == CloseState.ALREADY_PUBLISHED

    def as_json(self) -> dict[str, Any]:
        """A period found published reports its list (id, revision, entries, rule version);
        the counts of a computation it did not run are null, not zero."""
        computed = not self.already_published
        out: dict[str, Any] = {
            "category": self.category.value,
            "period": str(self.period),
            "state": self.state,
            "rule_version": self.rule_version,
            "list_id": self.list_id,
            "revision": self.revision,
            "entries": self.entries,
            "first_ratings": self.first_ratings if computed else None,
            "below_floor": self.below_floor if computed else None,
            "players_with_games": self.players_with_games if computed else None,
            "games": self.games if computed else None,
        }
        if self.awaiting_approval:
            out["digest"] = self.digest
        if self.state == CloseState.DRY_RUN:
            out["changes"] = [
                {"player_id": p, "previous_rating": before, "rating": after}
                for p, before, after in self.changes
            ]
        return out


@dataclass(slots=True)
class Computation:
    """A period computed in memory from its stored inputs, not yet written: what a close, a
    recalculation after a correction and a verification share."""

    rules: PeriodRules
    period_id: int
    lists: Sequence[RatingListRow]  # the category's lists before the period, as used
    previous: RatingListRow | None
    corrections: int  # the last correction the inputs include
    loaded: Loaded
    results: PeriodResults
    load_s: float
    compute_s: float

    @property
    def entry_count(self) -> int:
        return self.results.entries

    def outcome(self, state: CloseState) -> CloseOutcome:
        results = self.results
        return CloseOutcome(
            self.rules.category,
            self.rules.period,
            state,
            rule_version=self.rules.version.name,
            entries=self.entry_count,
            first_ratings=results.first_ratings,
            below_floor=results.below_floor,
            players_with_games=len(self.loaded.events),
            games=self.loaded.game_count,
            load_s=self.load_s,
            compute_s=self.compute_s,
        )


@dataclass(slots=True)
class PeriodInputs:
    """A period's inputs loaded, not yet rated (:func:`load_inputs`): rated at once
    (:func:`compute`), or as a close streams the calculations (:meth:`rating`)."""

    rules: PeriodRules
    period_id: int
    lists: Sequence[RatingListRow]
    previous: RatingListRow | None
    corrections: int
    statuses: dict[str, PlayerStatus]  # taken over by the rating
    loaded: Loaded
    load_s: float

    def rating(
        self, track: Track = no_progress
    ) -> tuple[PeriodResults, Iterator[tuple[str, PeriodResult]]]:
        """The results, filled as the iterator rates the players, giving each who moved as
        soon as rated (ratingdb.rules.rating)."""
        label = f"{self.rules.category.value} {self.rules.period}: players"
        count = len(self.statuses)
        return rating(
            self.rules, self.statuses, self.loaded.events, lambda items: track(items, label, count)
        )

    def computed(self, results: PeriodResults, compute_s: float) -> Computation:
        """The computation, once ``results`` are complete."""
        return Computation(
            self.rules, self.period_id, self.lists, self.previous, self.corrections, self.loaded,
            results, self.load_s, compute_s,
        )  # fmt: skip


def load_inputs(
    session: Session,
    rules: PeriodRules,
    period_id: int,
    lists: Sequence[RatingListRow],
    *,
    corrections: int | None = None,
    written_before: int | None = None,
) -> PeriodInputs:
    """Load the period's inputs in a few set-based queries (the arguments: :func:`compute`'s)."""
    started = time.perf_counter()
    if corrections is None:
        corrections = latest_correction(session)
    previous = previous_list(rules, lists)
    standard_lists = (
        period_repo.lists_of(session, Category.FIDE_STANDARD, written_before=written_before)
        if rules.category in STANDARD_SEEDED
        else []
    )
    statuses, loaded = load(session, rules, period_id, previous, lists, corrections,
                            standard_lists)  # fmt: skip
    return PeriodInputs(
        rules, period_id, lists, previous, corrections, statuses, loaded,
        time.perf_counter() - started,
    )  # fmt: skip


def compute(
    session: Session,
    rules: PeriodRules,
    period_id: int,
    lists: Sequence[RatingListRow],
    *,
    corrections: int | None = None,
    written_before: int | None = None,
    track: Track = no_progress,
) -> Computation:
    """Load the period's inputs in a few set-based queries and compute every player.

    ``lists`` are the category's published lists before the period (one revision each, oldest
    first): the last is the list the period starts from, and each tournament is rated with the
    one in force at its start. ``corrections``: the games as they were after that correction
    (default: as they are now, every correction included). ``written_before``: the standard
    lists a rapid or blitz period reads, as they were before that list id (verification).
    """
    inputs = load_inputs(
        session, rules, period_id, lists, corrections=corrections, written_before=written_before
    )
    started = time.perf_counter()
    # The map of statuses becomes the map of results (no second map of every player).
    results, moved = inputs.rating(track)
    for _ in moved:
        pass
    return inputs.computed(results, time.perf_counter() - started)


def latest_correction(session: Session) -> int:
    """The id of the latest correction (0 before any): what a computation of now includes."""
    return correction_repo.latest_id(session)


def changes(results: Mapping[str, PeriodResult]) -> tuple[tuple[str, int | None, int | None], ...]:
    """What a dry run shows: every player whose rating moves or who played."""
    return tuple(
        (player_id, r.base_rating if r.published_rating is not None else None, r.new_rating)
        for player_id, r in sorted(results.items())
        if r.rated_games or r.new_rating != r.published_rating
    )


def previous_list(rules: PeriodRules, lists: Sequence[RatingListRow]) -> RatingListRow | None:
    """The list the period starts from; refusing to skip a period that has not been closed."""
    if not lists:
        return None
    latest = lists[-1]
    expected = rules.previous_period
    if expected is None or latest.list_date != expected.list_date:
        raise InputError(
            f"{rules.category.value} {expected} is not published yet: close the periods in order "
            f"(the latest published list is {Period.of_list_date(latest.list_date)})",
            field="period",
        )
    return latest
