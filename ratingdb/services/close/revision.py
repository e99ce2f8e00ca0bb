"""A correction's revision of a list, written from its impact: only what the correction changed.

A correction reaches a few players of a period (services.impact computes exactly whom, and
their new results), so the revision that replaces the period's list stores only them: their
rows in list_entries against the revision it replaces (its parent, a list of the same date,
whose entries it shows as they are: ratingdb.rules.carry_forward), their calculations (the
players it recomputed, named in revised_players; everyone else's are read through the revision
replaced), and the statuses of the players off the list. Its chunks, the list in list order,
are the replaced revision's with those entries changed, and its digest is computed from them.
``periods verify`` recomputes such a revision whole from its inputs, as any other.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.db.chunks import ENTRY
from ratingdb.enums import ListSource
from ratingdb.models import RatingListRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.list_storage import calculations as stored_calculations
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.list_storage import chunks as list_chunks
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.rules import PeriodResult, PeriodRules
from ratingdb.services.close.inputs import Loaded
from ratingdb.services.close.output import calculation_rows, digested, encode_pool, entry_row
from ratingdb.services.lists import digest_of_sorted


@dataclass(frozen=True, slots=True)
class PeriodImpact:
    """What the impact computed of a period: the players it recomputed (``reached``), their
    results, and the games those were computed from."""

    rules: PeriodRules
    period_id: int
    reached: frozenset[str]
    results: Mapping[str, PeriodResult]
    loaded: Loaded


def publish_revision(
    session: Session,
    impact: PeriodImpact,
    current: RatingListRow,
    *,
    cause: int,
    now: datetime,
) -> tuple[RatingListRow, int]:
    """Write the revision that replaces ``current`` (the period's list) for the correction
    ``cause``, from ``impact``; returns the list and the number of rows written."""
    reached = sorted(impact.reached)
    before = list_changes.resolve(session, current.id, reached)
    after: dict[str, tuple[Any, ...]] = {}
    for player_id in reached:
        result = impact.results.get(player_id)
        if result is not None and result.new_rating is not None:
            after[player_id] = entry_row(0, player_id, result)[1:]
    changed = [after[p] for p in reached if p in after and tuple(before.get(p) or ()) != after[p]]
    gone = [p for p in reached if p in before and p not in after]

    # The whole list: the replaced revision's entries with the changed ones put in.
    whole = {
        row[0]: row
        for row in zip(*chunk_reads.list_columns(session, current.id, ENTRY), strict=True)
    }
    whole.update((row[0], row) for row in changed)
    for player_id in gone:
        del whole[player_id]
    by_player = sorted(whole)
    digest = digest_of_sorted(digested((0, *whole[p])) for p in by_player)

    rules = impact.rules
    if rules.version.name != current.rule_version:
        raise AssertionError(
            f"{current.category} {current.list_date}: a revision from the impact keeps the "
            f"rule version of the revision it replaces ({current.rule_version})"
        )
    rating_list = period_repo.add_list(
        session,
        period_id=impact.period_id,
        category=rules.category,
        list_date=rules.period.list_date,
        revision=current.revision + 1,
        source=ListSource.CLOSE,
        rule_version=rules.version.name,
        published_at=now,
        entry_count=len(whole),
        digest=digest,
        cause_correction_id=cause,
        corrections_applied=cause,
        parent_list_id=current.id,
    )
    new_id = rating_list.id
    # The statuses of the players kept off the list: the replaced revision's, but the
    # recomputed players', whose own are written with their entries and calculations.
    rows = list_changes.copy_statuses(session, current.id, new_id, reached)
    markers = [(new_id, p, *(None,) * (len(ENTRY) - 1)) for p in gone]
    rows += list_changes.write_computed(
        session,
        [*((new_id, *row) for row in changed), *markers],
        _statuses(impact, new_id),
        calculation_rows(_recomputed(impact), new_id, rules.version.name, impact.loaded),
    )
    rows += stored_calculations.write_revised(session, new_id, reached)
    by_rating = sorted(by_player, key=lambda p: whole[p][1], reverse=True)
    rows += list_chunks.insert_chunks(
        session, list_chunks.packed_chunks(new_id, (whole[p] for p in by_rating))
    )
    list_latest.write_latest(
        session,
        new_id,
        list_latest.LatestChanges([(e[0], e[1], e[8], e[9], e[10]) for e in changed], gone),
    )
    return rating_list, rows


def _recomputed(impact: PeriodImpact) -> Iterator[tuple[str, PeriodResult]]:
    for player_id in sorted(impact.reached):
        result = impact.results.get(player_id)
        if result is not None:
            yield player_id, result


def _statuses(impact: PeriodImpact, list_id: int) -> Iterator[tuple[Any, ...]]:
    """The statuses of the recomputed players kept off the list with a history (as a close
    keeps them: services.close.output)."""
    for player_id, result in _recomputed(impact):
        status = result.status
        if result.new_rating is None and (
            status.pool or status.rated_games or status.peak_rating is not None
        ):
            yield (list_id, player_id, status.rated_games, status.peak_rating,
                   encode_pool(status.pool))  # fmt: skip


__all__ = ["PeriodImpact", "publish_revision"]
