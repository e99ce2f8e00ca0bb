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

import bisect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.db.chunks import CHUNK_SIZE, ENTRY
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
from ratingdb.services.close.output import (
    calculation_rows,
    digested_fields,
    encode_pool,
    entry_row,
)
from ratingdb.services.lists import DIGEST_FIELDS, DIGEST_VERSION, digest_of_sorted


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

    digest, order = _digest_and_order(session, current.id, changed, gone)

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
        entry_count=len(order),
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
        calculation_rows(_recomputed(impact), new_id, impact.loaded),
    )
    rows += stored_calculations.write_revised(session, new_id, reached)
    rows += _write_chunks(session, current.id, new_id, order, changed, gone)
    list_latest.write_latest(
        session,
        new_id,
        list_latest.LatestChanges([(e[0], e[1], e[8], e[9], e[10]) for e in changed], gone),
    )
    return rating_list, rows


def _digest_and_order(
    session: Session, list_id: int, changed: list[tuple[Any, ...]], gone: list[str]
) -> tuple[str, _Order]:
    """The digest of the list that replaces ``list_id`` with the ``changed`` entries (ENTRY's
    fields) and without the players ``gone``, and its order. Only the digest's columns of the
    replaced list are decoded; its entries are patched and sorted by player id as tuples."""
    columns = chunk_reads.list_columns(session, list_id, DIGEST_FIELDS[DIGEST_VERSION])
    ids, ratings = columns[0], columns[1]
    moved = {entry[0] for entry in changed} | set(gone)
    old_at = {player_id: at for at, player_id in enumerate(ids) if player_id in moved}
    canonical = [row for row in zip(*columns, strict=True) if row[0] not in moved]
    canonical.extend(map(digested_fields(), changed))
    canonical.sort()
    # The new list order: the others' keys (rating descending, then player_id) as they were,
    # each changed entry put in its place.
    keys = [(-rating, player_id) for player_id, rating in zip(ids, ratings, strict=True)
            if player_id not in moved]  # fmt: skip
    for entry in changed:
        bisect.insort(keys, (-entry[1], entry[0]))
    new_at = {key[1]: at for at, key in enumerate(keys) if key[1] in moved}
    return digest_of_sorted(canonical), _Order([key[1] for key in keys], old_at, new_at, len(ids))


@dataclass(frozen=True, slots=True)
class _Order:
    """The new list's player ids in list order, and where the moved players were (in the
    replaced list of ``old_count`` entries) and are."""

    ids: list[str]
    old_at: dict[str, int]
    new_at: dict[str, int]
    old_count: int

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def shifted(self) -> bool:
        """Whether players come or go: every entry after the first place touched moves."""
        return len(self.ids) != self.old_count or self.old_at.keys() != self.new_at.keys()

    def rewritten(self) -> set[int]:
        """The chunks whose entries differ from the replaced list's chunk of that number:
        those between each changed entry's old and new place; when players come or go, every
        chunk from the first place touched on."""
        if self.shifted:
            first = min((*self.old_at.values(), *self.new_at.values()))
            return set(range(first // CHUNK_SIZE, -(-len(self.ids) // CHUNK_SIZE)))
        found: set[int] = set()
        for player_id, was in self.old_at.items():
            now = self.new_at[player_id]
            found.update(range(min(was, now) // CHUNK_SIZE, max(was, now) // CHUNK_SIZE + 1))
        return found


def _write_chunks(
    session: Session,
    list_id: int,
    new_id: int,
    order: _Order,
    changed: list[tuple[Any, ...]],
    gone: list[str],
) -> int:
    """The new list's chunks: the replaced list's copied in the database, but those a changed
    entry moved entries in, packed again from the replaced list's entries there and the
    changed ones."""
    rewritten = order.rewritten()
    count = -(-len(order) // CHUNK_SIZE)
    written = list_chunks.copy_chunks(session, list_id, new_id, count, rewritten)
    entries = {entry[0]: tuple(entry) for entry in changed}
    # The same chunks of the replaced list hold every entry the new ones hold but the changed
    # (they only moved within them); players coming or going, every chunk from the first
    # rewritten to the replaced list's end.
    runs: list[tuple[int, int | None]] = list(_runs(rewritten))
    if order.shifted and runs:
        runs = [(runs[0][0], None)]
    for first, last in runs:
        old = chunk_reads.list_columns(session, list_id, ENTRY, first, last)
        for row in zip(*old, strict=True):
            entries.setdefault(row[0], row)
    rows = [
        list_chunks.packed_chunk(
            new_id,
            chunk,
            [entries[p] for p in order.ids[chunk * CHUNK_SIZE : (chunk + 1) * CHUNK_SIZE]],
        )
        for chunk in sorted(rewritten)
    ]
    return written + list_chunks.insert_chunks(session, rows)


def _runs(chunks: set[int]) -> list[tuple[int, int]]:
    """``chunks`` as runs of consecutive numbers (first, last)."""
    runs: list[tuple[int, int]] = []
    for chunk in sorted(chunks):
        if runs and runs[-1][1] == chunk - 1:
            runs[-1] = (runs[-1][0], chunk)
        else:
            runs.append((chunk, chunk))
    return runs


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
