"""The output of a computed period: its list, entries, statuses and calculations as rows,
streamed into the database (repositories.list_storage), and the digest of its entries."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import ListSource
from ratingdb.models import RatingListRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import player_history
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.list_storage import chunks as list_chunks
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.rules import PeriodResult, PeriodResults, PooledEvent, Score, activity, carry_forward
from ratingdb.services.close.computation import Computation
from ratingdb.services.close.inputs import Loaded
from ratingdb.services.lists import DIGEST_SLICE, DIGEST_VERSION, SortedDigest, digest_of_sorted

_POINTS = {score: score.points for score in Score}


def publish(
    session: Session,
    computation: Computation,
    *,
    revision: int,
    now: datetime,
    cause: int | None = None,
) -> tuple[RatingListRow, int]:
    """Write a computed period as revision ``revision`` of its list (for the correction
    ``cause``); returns the list and the number of rows written."""
    rules = computation.rules
    results, loaded = computation.results, computation.loaded
    # The entries' player ids in player_id order, then in list order: one list of ids, sorted
    # twice in place, rather than a sorted list of (rating, id) tuples (46 MB at 500,000).
    listed = _listed(results)
    rating_list = period_repo.add_list(
        session,
        period_id=computation.period_id,
        category=rules.category,
        list_date=rules.period.list_date,
        revision=revision,
        source=ListSource.CLOSE,
        rule_version=rules.version.name,
        published_at=now,
        entry_count=computation.entry_count,
        digest=None,  # computed as the entries are written, below
        cause_correction_id=cause,
        corrections_applied=computation.corrections,
        parent_list_id=None if computation.previous is None else computation.previous.id,
    )
    # Only the entries that differ from the parent's carried forward go to list_entries, and
    # a marker for each player of the parent not on the list (issue 16, stage (b)).
    against = (
        None
        if computation.previous is None
        else _against_parent(session, computation.previous.id, computation)
    )
    # The entries go to list_entries in player_id order, the digest's, computed on the way:
    # the order its keys are in (COPY in list order cost the server 15-25 % more at 500,000).
    digest = SortedDigest()
    rows = list_changes.write_computed(
        session,
        itertools.chain(
            _entriesdigested(results, listed, rating_list.id, digest, against),
            _markers(rating_list.id, against),
        ),
        _statuses_to_keep(results, rating_list.id),
        # A player who played has moved.
        calculation_rows(results.moved(), rating_list.id, rules.version.name, loaded),
    )
    if against is not None:
        against.check()
    rating_list.digest = digest.hexdigest()
    # Then the chunks, each packed as the entries are made again in list order.
    _into_list_order(results, listed)
    rows += list_chunks.insert_chunks(
        session, list_chunks.packed_chunks(rating_list.id, _entries_of(results, listed))
    )
    list_latest.write_latest(session, rating_list.id, _changes(session, computation))
    return rating_list, rows


def _listed(results: Mapping[str, PeriodResult]) -> list[str]:
    """The ids of the players on the list, in player_id order."""
    return sorted(player_id for player_id, r in results.items() if r.new_rating is not None)


def _into_list_order(results: Mapping[str, PeriodResult], listed: list[str]) -> None:
    """``listed`` (in player_id order) sorted into list order, in place: rating descending,
    then player_id (a stable sort keeps the player_id order of equal ratings)."""

    def new_rating(player_id: str) -> int:
        return results[player_id].new_rating or 0  # never None: the player is listed

    listed.sort(key=new_rating, reverse=True)


class AgainstParent:
    """What a close's list changes against its parent (the list it was computed from), found
    from the parent's chunks (:func:`_against_parent`).

    ``differs``: the players on both whose entry is not the parent's carried forward;
    ``gone``: the players of the parent not on the list (a marker each); ``merged``: both
    players of each merge applied (their rows are always written: a kept player's standing
    may be a merged record's). A listed player is on the parent exactly when their result has
    a published rating (the close read their standing from it), merges aside: ``claimed``
    counts those results as the entries are written and :meth:`check` refuses a list where
    they are not the ``seen`` entries of the parent (a row would be missing)."""

    __slots__ = ("claimed", "differs", "gone", "merged", "seen")

    def __init__(self, merged: set[str]) -> None:
        self.differs: set[str] = set()
        self.gone: list[str] = []
        self.merged = merged
        self.seen = 0
        self.claimed = 0

    def written(self, player_id: str, r: PeriodResult) -> bool:
        """Whether the listed player's entry is written (else it is the parent's, carried)."""
        if player_id in self.merged or r.published_rating is None:
            return True
        self.claimed += 1
        return player_id in self.differs

    def check(self) -> None:
        if self.claimed != self.seen:
            raise AssertionError(
                f"{self.claimed} listed players read their standing from the parent list, "
                f"which has {self.seen} of them: entries would be left unwritten"
            )


def _against_parent(session: Session, parent_id: int, computation: Computation) -> AgainstParent:
    """Every entry of the parent (its chunks, a batch at a time: none held) against the
    player's result: its carried form compared with the entry the close writes."""
    results: PeriodResults = computation.results
    merged = {
        player_id
        for pair in correction_repo.merges(session, computation.corrections).items()
        for player_id in pair
    }
    against = AgainstParent(merged)
    fields = ("player_id", "rating", "k_factor", "rated_games", "peak_rating", "last_rated",
              "active")  # fmt: skip
    unmoved = results.unmoved
    earliest = activity.earliest_active(computation.rules.category, computation.rules.period)
    for batch in chunk_reads.column_batches(session, parent_id, fields):
        for player_id, rating, k_factor, rated_games, peak, last_rated, active in zip(
            *batch, strict=True
        ):
            held = unmoved(player_id)
            if held is not None and player_id not in merged:
                # Its entry made as entry_row makes it: the same rating as the base, change 0,
                # no game (no K used nor sum), the K after the list, the status' games, peak
                # and last rated list, active as that list makes it now.
                status, next_k = held
                against.seen += 1
                if (
                    (status.rating, next_k, status.rated_games) != (rating, k_factor, rated_games)
                    or (status.rating if status.peak_rating is None else status.peak_rating) != peak
                    or (status.last_rated is not None and status.last_rated.index >= earliest)
                    != active
                ):
                    against.differs.add(player_id)
                continue
            r = results.get(player_id)
            if r is None or r.new_rating is None:
                against.gone.append(player_id)
                continue
            if player_id not in merged and r.published_rating is not None:
                against.seen += 1
            parents = (player_id, rating, None, None, None, k_factor, None, None, rated_games, peak,
                       last_rated, active)  # fmt: skip
            if entry_row(0, player_id, r)[2:] != carry_forward.carried(parents)[1:]:
                against.differs.add(player_id)
    against.gone.sort()
    return against


def _markers(list_id: int, against: AgainstParent | None) -> Iterator[tuple[Any, ...]]:
    """A marker row (ENTRY_KEYS, every field None) for each player of the parent not on the
    list."""
    if against is None:
        return
    for player_id in against.gone:
        yield (list_id, player_id, *_NO_FIELDS)


_NO_FIELDS = (None,) * (len(list_changes.ENTRY_KEYS) - 2)


def _entriesdigested(
    results: Mapping[str, PeriodResult],
    listed: Sequence[str],
    list_id: int,
    digest: SortedDigest,
    against: AgainstParent | None,
) -> Iterator[tuple[Any, ...]]:
    """The entries (ENTRY_KEYS) of the players ``listed`` (in player_id order) to write, in
    that order: all of them for a list without a parent, else those ``against`` keeps
    (:meth:`AgainstParent.written`). Made DIGEST_SLICE at a time, each slice's every entry
    fed to ``digest``."""
    players = iter(listed)
    while part := list(itertools.islice(players, DIGEST_SLICE)):
        results_of = [results[player_id] for player_id in part]
        rows = [
            entry_row(list_id, player_id, r) for player_id, r in zip(part, results_of, strict=True)
        ]
        digest.update([digested(row) for row in rows])
        if against is None:
            yield from rows
            continue
        written = against.written
        yield from (
            row
            for row, player_id, r in zip(rows, part, results_of, strict=True)
            if written(player_id, r)
        )


def _entries_of(
    results: Mapping[str, PeriodResult], listed: Sequence[str]
) -> Iterator[tuple[Any, ...]]:
    """The entries (ENTRY_KEYS but list_id) of the players ``listed``, in that order, each
    made as it is packed."""
    for player_id in listed:
        yield entry_row(0, player_id, results[player_id])[1:]


def _changes(session: Session, computation: Computation) -> list_latest.LatestChanges:
    """The entries that may differ from the ones their players had on the list the period
    starts from, and who may have left it: the players who moved (who played, or whose
    standing moved: the others' results are their statuses as read from that list, made again),
    and both players of each merge (a merged-away player's standing passes to the one kept).
    Everyone else's entry is that list's, as it was."""
    results = computation.results
    players = [player_id for player_id, _ in results.moved()]
    for drop, keep in correction_repo.merges(session, computation.corrections).items():
        players += (drop, keep)
    # The players the close left out as deceased (close.inputs.load): off the list now.
    players += sorted(player_history.deceased_on(session, computation.rules.period.list_date))
    entries: list[tuple[str, int, int, int, date | None]] = []
    gone: list[str] = []
    for player_id in dict.fromkeys(players):
        r = results.get(player_id)
        if r is None or r.new_rating is None:
            gone.append(player_id)
            continue
        row = entry_row(0, player_id, r)  # the entry as written
        entries.append((player_id, row[2], row[9], row[10], row[11]))
    return list_latest.LatestChanges(entries, gone)


def encode_pool(pool: Sequence[PooledEvent]) -> list[dict[str, Any]]:
    return [
        {
            "period": str(pooled.period),
            "tournament_id": pooled.event_id,
            "games": [
                {
                    "opponent_rating": g.opponent_rating,
                    "score": str(g.score.points),
                    "opponent_id": g.opponent_id,
                }
                for g in pooled.games
            ],
        }
        for pooled in pool
    ]


def entry_rows(results: Mapping[str, PeriodResult], list_id: int) -> Iterator[tuple[Any, ...]]:
    """The list's entries as rows of ENTRY_KEYS, produced as they are written."""
    for player_id, r in results.items():
        if r.new_rating is not None:
            yield entry_row(list_id, player_id, r)


def entry_row(list_id: int, player_id: str, r: PeriodResult) -> tuple[Any, ...]:
    on_previous_list = r.published_rating is not None
    peak = r.status.peak_rating
    last_rated = r.status.last_rated
    return (
        list_id,
        player_id,
        r.new_rating,
        r.base_rating if on_previous_list else None,
        r.change if on_previous_list else None,
        r.rated_games,
        r.next_k_factor,
        r.k_factor if r.rated_games else None,
        r.sum_delta if r.rated_games and on_previous_list else None,
        r.status.rated_games,
        r.new_rating if peak is None else peak,
        None if last_rated is None else last_rated.list_date,
        last_rated is not None
        and last_rated.index >= activity.earliest_active(r.version.category, r.period),
    )


def digested(row: tuple[Any, ...], version: int = DIGEST_VERSION) -> tuple[Any, ...]:
    """The fields of an entry row (entry_row) a digest of ``version`` covers
    (services.lists.digest.DIGEST_FIELDS): from the player id to the K, and (version 2) the
    activity flag."""
    return row[1:7] if version == 1 else (*row[1:7], row[12])


def entries_digest(results: Mapping[str, PeriodResult], version: int = DIGEST_VERSION) -> str:
    """The digest of the list's canonical content (as services.lists.list_digest computes it
    for an imported list), in digest ``version``."""
    # Sorted by player id alone (each player once, so the order of the whole tuples): only the
    # ids are held sorted, each entry made as it is encoded (a sorted list of two million
    # tuples was the close's peak of memory).
    return digest_of_sorted(_canonical(results, _listed(results), version))


def _canonical(
    results: Mapping[str, PeriodResult], listed: list[str], version: int
) -> Iterator[tuple[Any, ...]]:
    """The fields of digest ``version`` of each player of ``listed``: the entry's row as
    written."""
    for player_id in listed:
        yield digested(entry_row(0, player_id, results[player_id]), version)


def _statuses_to_keep(results: PeriodResults, list_id: int) -> Iterator[tuple[Any, ...]]:
    """Players off the list who have a history: pooling for a first rating, or below the floor.
    (A player whose standing did not move is on the list.)"""
    for player_id, r in results.moved():
        status = r.status
        if r.new_rating is None and (
            status.pool or status.rated_games or status.peak_rating is not None
        ):
            yield (list_id, player_id, status.rated_games, status.peak_rating,
                   encode_pool(status.pool))  # fmt: skip


def calculation_rows(
    results: Iterable[tuple[str, PeriodResult]], list_id: int, version: str, loaded: Loaded
) -> Iterator[tuple[Any, ...]]:
    """The calculations (CALCULATION_KEYS) of the games of the players' results (player_id,
    result), made as they are written."""
    for player_id, r in results:
        for index, event in enumerate(r.events):
            ids = loaded.game_ids[(player_id, index)]
            tournament_id = loaded.tournament_of[(player_id, index)]
            for game_id, calc in zip(ids, event.games, strict=True):
                game = calc.game
                if game.opponent_id is None:
                    raise AssertionError("every stored game names its opponent")
                reason = calc.not_rated_reason
                yield (
                    list_id, player_id, game_id, tournament_id, event.rating_used,
                    game.opponent_id, game.opponent_rating, calc.difference, calc.difference_used,
                    calc.expected, _POINTS[game.score], calc.delta, calc.rated,
                    None if reason is None else str(reason), version,
                )  # fmt: skip
