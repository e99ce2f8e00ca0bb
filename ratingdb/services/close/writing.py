"""A computed period written as a list, its calculations first, streamed as the players are
rated; the rest of the list made while the server writes.

The calculations are most of what a close writes (594,000 game sides at 500,000 players and
300,000 games). They go first, as an iterator (ratingdb.db.bulk sends it from a thread): a close
rates its players in that iterator (:func:`publish_rating`), and the calculations of each player
who moved are sent as soon as the player is rated, the server storing them on one core while
this process rates on the other. What the rest needs of the database is read before the stream
opens (the parent's packed chunks, the merges, the players deceased): nothing can be asked of
the connection while the COPY runs. This process's Python is the critical path (it holds one
core), so each of the server's writes goes beside a part of the list made in Python: once every
player is rated, a thread has the server upsert latest_entries (from the players who moved, in
a few large statements) while this thread works out which entries differ from the parent's,
the digest and the list order; then the entries that differ and the statuses are written
while a thread packs the chunks (benchmarks/README.md, ``close_period.py``).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime
from typing import Any, cast

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
from ratingdb.repositories.list_storage.calculations import packed_row
from ratingdb.rules import (
    Event,
    PeriodResult,
    PeriodResults,
    PeriodRules,
    activity,
    carry_forward,
)
from ratingdb.rules.results import Unmoved
from ratingdb.services.close.computation import Computation, PeriodInputs
from ratingdb.services.close.inputs import Loaded
from ratingdb.services.close.output import (
    calculation_fields_of,
    digested_fields,
    entry_fields,
    entry_fields_of,
    entry_rows_of,
    last_rated_fields,
    list_order,
    listed_of,
    markers,
    statuses_to_keep,
)
from ratingdb.services.lists import DIGEST_SLICE, SortedDigest
from ratingdb.services.progress import Track, no_progress


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
    writing = _ListWriting(
        session, computation.rules, computation.period_id, computation.previous,
        computation.corrections, computation.loaded.game_ids, computation.loaded.tournament_of,
        revision=revision, now=now, cause=cause, entry_count=computation.entry_count,
    )  # fmt: skip
    rows = writing.stream(session, computation.results.moved(), lambda: computation)
    return writing.rating_list, rows + writing.finish(session)


def publish_rating(
    session: Session,
    inputs: PeriodInputs,
    *,
    revision: int,
    now: datetime,
    track: Track = no_progress,
) -> tuple[Computation, RatingListRow, int]:
    """Rate the period's players as their calculations stream into the database, then write
    the list as :func:`publish` does; returns the computation (its ``compute_s``: the rating
    with the calculations made and queued as it goes), the list and the rows written."""
    loaded = inputs.loaded
    writing = _ListWriting(
        session, inputs.rules, inputs.period_id, inputs.previous, inputs.corrections,
        loaded.game_ids, loaded.tournament_of, revision=revision, now=now, cause=None,
        entry_count=0,  # known once rated (finish)
    )  # fmt: skip
    started = time.perf_counter()
    results, moved = inputs.rating(track)
    rows = writing.stream(
        session,
        _letting_go(results, loaded, moved),
        lambda: inputs.computed(results, time.perf_counter() - started),
    )
    computation = writing.computation
    if computation is None:  # stream() checked it; for the type checker
        raise AssertionError("the calculations were not all written")
    writing.rating_list.entry_count = computation.entry_count
    return computation, writing.rating_list, rows + writing.finish(session)


def _letting_go(
    results: PeriodResults, loaded: Loaded, moved: Iterator[tuple[str, PeriodResult]]
) -> Iterator[tuple[str, PeriodResult]]:
    """``moved``, each player's games let go of once their calculations are written (when
    the next player is asked for): their events' calculations in the results, their events
    and where their games come from in the inputs. Nothing after reads them (the list's
    entries, statuses and counts do not), and at two million players they are about 400 MB
    of the close's peak. The player's key in the events stays (it counts the players with
    games)."""
    events, game_ids, tournament_of = loaded.events, loaded.game_ids, loaded.tournament_of
    for player_id, r in moved:
        yield player_id, r
        results.drop_events(player_id)
        if player_id in events:  # (a player moves without games too: K, activity)
            events[player_id] = _LET_GO
        for index in range(len(r.events)):
            del game_ids[(player_id, index)]
            del tournament_of[(player_id, index)]


#: The events of a player let go of (:func:`_letting_go`): one empty list for all, never
#: appended to.
_LET_GO: list[Event] = []


class _ListWriting:
    """One list being written: what is read before its calculations stream (its row, its
    parent's packed chunks, the merges, the players deceased on its date), and what is made
    while they stream and written after."""

    def __init__(
        self,
        session: Session,
        rules: PeriodRules,
        period_id: int,
        previous: RatingListRow | None,
        corrections: int,
        game_ids: Mapping[tuple[str, int], Sequence[int]],
        tournament_of: Mapping[tuple[str, int], str],
        *,
        revision: int,
        now: datetime,
        cause: int | None,
        entry_count: int,
    ) -> None:
        self.rules = rules
        self.game_ids = game_ids
        self.tournament_of = tournament_of
        self.rating_list = period_repo.add_list(
            session,
            period_id=period_id,
            category=rules.category,
            list_date=rules.period.list_date,
            revision=revision,
            source=ListSource.CLOSE,
            rule_version=rules.version.name,
            published_at=now,
            entry_count=entry_count,
            digest=None,  # made while the calculations stream
            cause_correction_id=cause,
            corrections_applied=corrections,
            parent_list_id=None if previous is None else previous.id,
        )
        self.parent: list[list[bytes]] | None = (
            None if previous is None else chunk_reads.packed_batches(session, previous.id)
        )
        self.merges = correction_repo.merges(session, corrections)
        self.deceased = player_history.deceased_on(session, rules.period.list_date)
        self.computation: Computation | None = None
        # Made once every player is rated (_made), written after (finish).
        self.against: AgainstParent | None = None
        self.written_ids: list[str] = []
        #: The ids of the players on the list by rating, each rating's in player_id order.
        self.by_rating: dict[int, list[str]] = {}
        #: The rows of latest_entries written from the close's changes; None: not written
        #: (they hold another list than the parent), written from the chunks (finish).
        self.latest_written: int | None = None

    def stream(
        self,
        session: Session,
        moved: Iterator[tuple[str, PeriodResult]],
        computation: Callable[[], Computation],
    ) -> int:
        """Write the calculations of the players ``moved`` gives (all of them rated once it is
        exhausted, ``computation`` then complete), and make the rest of the list while the
        last of them are stored; returns the calculations written."""
        written = list_changes.write_calculations(session, self._streamed(moved, computation))
        if self.computation is None:
            raise AssertionError("the calculations were not all written")
        # latest_entries need only the results (where they hold the parent): the server
        # upserts them while this thread makes the list, which asks nothing of the session.
        changes = latest_changes(self.computation, self.merges, self.deceased)
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ratingdb-latest") as pool:
            latest = pool.submit(
                list_latest.write_latest_changes, session, self.rating_list.id, changes
            )
            digest = self._made(self.computation)
            self.latest_written = latest.result()
        self.rating_list.digest = digest
        return written

    def _streamed(
        self,
        moved: Iterator[tuple[str, PeriodResult]],
        computation: Callable[[], Computation],
    ) -> Iterator[tuple[Any, ...]]:
        list_id, game_ids = self.rating_list.id, self.game_ids
        for player_id, r in moved:  # a player who played has moved
            calculations = calculation_fields_of(player_id, r, game_ids)
            if calculations:  # moved without a game: a status only
                yield packed_row(list_id, player_id, calculations)
        self.computation = computation()  # every player rated: the COPY ends

    def _made(self, computation: Computation) -> str:
        """What the list writes after its calculations, made from the computation and what was
        read before they streamed (no database, no session object: a thread writes
        latest_entries meanwhile): the entries that differ from the parent's, the ids by
        rating; returns the list's digest."""
        results = computation.results
        listed = listed_of(results)  # in player_id order: the digest's and list_entries'
        against = (
            None
            if self.parent is None
            else against_parent(self.parent, computation, _merged_players(self.merges))
        )
        digest, pick = SortedDigest(), digested_fields()
        written = self.written_ids
        by_rating = self.by_rating
        ids = iter(listed)
        while part := list(itertools.islice(ids, DIGEST_SLICE)):
            entries = list(entry_fields_of(results, part))
            digest.update(list(map(pick, entries)))
            for entry in entries:  # in player_id order: each rating's ids in list order
                found = by_rating.get(entry[1])
                if found is None:
                    by_rating[entry[1]] = [entry[0]]
                else:
                    found.append(entry[0])
            if against is None:
                written += part
                continue
            keeps = against.written
            # (An entry with a previous rating: the result has a published one.)
            written += (entry[0] for entry in entries if keeps(entry[0], entry[2] is not None))
        if against is not None:
            against.check()
        self.against = against
        return digest.hexdigest()

    def _packed(self, results: PeriodResults) -> list[tuple[Any, ...]]:
        """The list's chunks, each packed as the entries are made again in list order."""
        ordered = list_order(self.by_rating)
        return list(
            list_chunks.packed_chunks(self.rating_list.id, entry_fields_of(results, ordered))
        )

    def finish(self, session: Session) -> int:
        """Write the rest of the list: the entries that differ from the parent's and the
        statuses, while a thread packs the chunks; then the chunks (and latest_entries, from
        the chunks, where the close's changes could not be used); returns the rows written."""
        if self.computation is None:
            raise AssertionError("the list's calculations were not all written")
        results, list_id = self.computation.results, self.rating_list.id
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="ratingdb-chunks") as pool:
            packing = pool.submit(self._packed, results)
            rows = list_changes.write_entries_and_statuses(
                session,
                itertools.chain(
                    entry_rows_of(results, self.written_ids, list_id),
                    markers(list_id, () if self.against is None else self.against.gone),
                ),
                statuses_to_keep(results, list_id),
            )
            chunks = packing.result()
        rows += list_chunks.insert_chunks(session, chunks)
        if self.latest_written is None:  # latest_entries held another list than the parent
            list_latest.write_latest(session, list_id)
        return rows


def _merged_players(merges: Mapping[str, str]) -> set[str]:
    return {player_id for pair in merges.items() for player_id in pair}


class AgainstParent:
    """What a close's list changes against its parent (the list it was computed from), found
    from the parent's chunks (:func:`against_parent`).

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

    def written(self, player_id: str, on_parent: bool) -> bool:
        """Whether the listed player's entry is written (else it is the parent's, carried);
        ``on_parent``: the result has a published rating (the entry a previous rating)."""
        if player_id in self.merged or not on_parent:
            return True
        self.claimed += 1
        return player_id in self.differs

    def check(self) -> None:
        if self.claimed != self.seen:
            raise AssertionError(
                f"{self.claimed} listed players read their standing from the parent list, "
                f"which has {self.seen} of them: entries would be left unwritten"
            )


_PARENT_FIELDS = ("player_id", "rating", "k_factor", "rated_games", "peak_rating", "last_rated",
                  "active")  # fmt: skip


def against_parent(
    parent: Sequence[Sequence[bytes]], computation: Computation, merged: set[str]
) -> AgainstParent:
    """Every entry of the parent (its packed chunks, read before: decoded a batch at a time)
    against the player's result: its carried form compared with the entry the close writes."""
    results: PeriodResults = computation.results
    against = AgainstParent(merged)
    held = results.held().get
    earliest = activity.earliest_active(computation.rules.category, computation.rules.period)
    seen = 0  # (against.seen, counted here: most of a list's entries come this way)
    for batch in chunk_reads.columns_of_batches(parent, _PARENT_FIELDS):
        for player_id, rating, k_factor, rated_games, peak, last_rated, active in zip(
            *batch, strict=True
        ):
            found = held(player_id)
            if type(found) is tuple and player_id not in merged:
                # Held unmoved: its entry made as entry_fields_of makes it: the same rating as
                # the base, change 0, no game (no K used nor sum), the K after the list, the
                # status' games, peak and last rated list, active as that list makes it now.
                status, _, _, next_k = cast(Unmoved, found)
                seen += 1
                own, own_peak = status.rating, status.peak_rating
                now_active = last_rated_fields(status.last_rated, earliest)[1]
                if (
                    own != rating
                    or next_k != k_factor
                    or status.rated_games != rated_games
                    or (own if own_peak is None else own_peak) != peak
                    or now_active != active
                ):
                    against.differs.add(player_id)
                continue
            r = found if found is None or type(found) is PeriodResult else results[player_id]
            if r is None or r.new_rating is None:
                against.gone.append(player_id)
                continue
            if player_id not in merged and r.published_rating is not None:
                against.seen += 1
            parents = (player_id, rating, None, None, None, k_factor, None, None, rated_games, peak,
                       last_rated, active)  # fmt: skip
            if entry_fields(player_id, r, earliest)[1:] != carry_forward.carried(parents)[1:]:
                against.differs.add(player_id)
    against.seen += seen
    against.gone.sort()
    return against


def latest_changes(
    computation: Computation, merges: Mapping[str, str], deceased: Collection[str]
) -> list_latest.LatestChanges:
    """The entries that may differ from the ones their players had on the list the period
    starts from, and who may have left it: the players who moved (who played, or whose
    standing moved: the others' results are their statuses as read from that list, made again),
    and both players of each merge (a merged-away player's standing passes to the one kept).
    Everyone else's entry is that list's, as it was."""
    results = computation.results
    earliest = activity.earliest_active(computation.rules.category, computation.rules.period)
    players = [player_id for player_id, _ in results.moved()]
    for drop, keep in merges.items():
        players += (drop, keep)
    # The players the close left out as deceased (close.inputs.load): off the list now.
    players += sorted(deceased)
    entries: list[tuple[str, int, int, int, date | None]] = []
    gone: list[str] = []
    for player_id in dict.fromkeys(players):
        r = results.get(player_id)
        if r is None or r.new_rating is None:
            gone.append(player_id)
            continue
        entry = entry_fields(player_id, r, earliest)  # the entry as written
        entries.append((player_id, entry[1], entry[8], entry[9], entry[10]))
    return list_latest.LatestChanges(entries, gone)
