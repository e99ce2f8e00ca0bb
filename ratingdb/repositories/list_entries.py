"""The rows that make a published list: its entries, the standing of players kept off it
(player_statuses) and, for a computed list, every game's calculation. Written in bulk (COPY on
PostgreSQL, see ratingdb.db.bulk), read back per list."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.db.bulk import bulk_insert, bulk_insert_rows
from ratingdb.db.chunks import CHUNK_SIZE, lines, pack, parse, unpack
from ratingdb.models import CalculationRow, ListChunkRow, ListEntryRow, PlayerRow, PlayerStatusRow
from ratingdb.repositories.players import chunks, one_of

#: The columns of the rows a close writes, in the order of its tuples.
ENTRY_KEYS = (
    "list_id", "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating",
)  # fmt: skip
STATUS_KEYS = ("list_id", "player_id", "rated_games", "peak_rating", "pool")
CALCULATION_KEYS = (
    "list_id", "player_id", "game_id", "tournament_id", "rating_used", "opponent_id",
    "opponent_rating_used", "difference", "difference_used", "expected", "score", "delta",
    "rated", "reason", "rule_version",
)  # fmt: skip

#: Chunks a whole-list read fetches at a time, and reads the players of at once (5,000
#: entries).
CHUNKS_PER_BATCH = 25

CHUNK_KEYS = ("list_id", "chunk", "top_rating", "bottom_rating", "size", "entries")


def write_computed(
    session: Session,
    entries: Iterable[Sequence[Any]],
    statuses: Iterable[Sequence[Any]],
    calculations: Iterable[Sequence[Any]],
) -> int:
    """A computed list's entries, statuses and calculations (tuples of ENTRY_KEYS,
    STATUS_KEYS, CALCULATION_KEYS), streamed into the database in that order; returns the rows
    written."""
    written = bulk_insert_rows(session, ListEntryRow, ENTRY_KEYS, entries)
    written += bulk_insert_rows(session, PlayerStatusRow, STATUS_KEYS, statuses)
    written += bulk_insert_rows(session, CalculationRow, CALCULATION_KEYS, calculations)
    return written


def insert_entries(session: Session, entries: Sequence[Mapping[str, Any]]) -> int:
    """Entries given as column -> value (an imported list)."""
    return bulk_insert(session, ListEntryRow, entries)


def insert_statuses(session: Session, statuses: Sequence[Mapping[str, Any]]) -> int:
    """Players kept off a list, as column -> value (an imported list's unrated players)."""
    return bulk_insert(session, PlayerStatusRow, statuses)


def write_chunks(session: Session, list_id: int, entries: Iterable[Sequence[Any]]) -> int:
    """The list's chunks (list_chunks) from its entries (tuples of ENTRY_KEYS but list_id, as
    ratingdb.db.chunks.ENTRY), given in list order: rating descending, then player_id; returns
    the chunks written. Every list has its chunks: the whole-list reads read nothing else."""
    return bulk_insert_rows(session, ListChunkRow, CHUNK_KEYS, _chunks(list_id, entries))


def _chunks(list_id: int, entries: Iterable[Sequence[Any]]) -> Iterator[tuple[Any, ...]]:
    iterator = iter(entries)
    previous: tuple[int, str] | None = None
    for chunk in itertools.count():
        part = list(itertools.islice(iterator, CHUNK_SIZE))
        if not part:
            return
        for entry in part:
            key = (-int(entry[1]), str(entry[0]))
            if previous is not None and key <= previous:
                raise ValueError(f"list {list_id}: entries not in list order at {entry[0]}")
            previous = key
        yield (list_id, chunk, int(part[0][1]), int(part[-1][1]), len(part), pack(part))


def write_chunks_of_entries(session: Session, list_id: int) -> int:
    """The list's chunks from its rows in list_entries (an imported list, whose entries are
    all written there first)."""
    order = ListEntryRow.player_id
    if session.get_bind().dialect.name == "postgresql":
        order = order.collate("C")  # type: ignore[assignment]
    # Read whole before the chunks are written: a streamed read cannot feed COPY on the same
    # connection (the driver would wait for itself).
    rows = session.execute(
        select(*(ListEntryRow.__table__.c[key] for key in ENTRY_KEYS[1:]))
        .where(ListEntryRow.list_id == list_id)
        .order_by(ListEntryRow.rating.desc(), order)
    ).all()
    return write_chunks(session, list_id, [tuple(row) for row in rows])


def chunk_count(session: Session, list_id: int) -> int:
    """How many chunks the list has."""
    return int(session.scalar(select(func.count()).where(ListChunkRow.list_id == list_id)) or 0)


def read_chunks(
    session: Session, list_id: int, first: int = 0, last: int | None = None
) -> Iterator[tuple[int, list[tuple[Any, ...]]]]:
    """(chunk number, its entries) of the list's chunks ``first`` to ``last`` (None: to the
    end), in list order; each entry a tuple of ratingdb.db.chunks.ENTRY. Read
    CHUNKS_PER_BATCH chunks a query (no server-side cursor: the API reads in autocommit)."""
    start = first
    while last is None or start <= last:
        end = (
            start + CHUNKS_PER_BATCH - 1
            if last is None
            else min(last, start + CHUNKS_PER_BATCH - 1)
        )
        rows = (
            session.connection()
            .execute(
                select(ListChunkRow.chunk, ListChunkRow.entries)
                .where(
                    ListChunkRow.list_id == list_id,
                    ListChunkRow.chunk >= start,
                    ListChunkRow.chunk <= end,
                )
                .order_by(ListChunkRow.chunk)
            )
            .all()
        )
        for chunk, packed in rows:
            yield int(chunk), list(unpack(packed))
        if len(rows) < end - start + 1:
            return
        start = end + 1


def page_of(session: Session, list_id: int, offset: int, limit: int) -> list[tuple[Any, ...]]:
    """Entries ``offset`` to ``offset + limit`` of the list in list order: one or two chunks
    read, only the page's entries parsed."""
    if limit <= 0:
        return []
    first, last = offset // CHUNK_SIZE, (offset + limit - 1) // CHUNK_SIZE
    rows = session.connection().execute(
        select(ListChunkRow.entries)
        .where(
            ListChunkRow.list_id == list_id,
            ListChunkRow.chunk >= first,
            ListChunkRow.chunk <= last,
        )
        .order_by(ListChunkRow.chunk)
    )
    text = [line for (packed,) in rows for line in lines(packed)]
    start = offset - first * CHUNK_SIZE
    return [parse(line) for line in text[start : start + limit]]


def whole_list(session: Session, list_id: int) -> Iterator[tuple[Any, ...]]:
    """Every entry of the list in list order (tuples of ratingdb.db.chunks.ENTRY), read from
    its chunks."""
    for _, entries in read_chunks(session, list_id):
        yield from entries


def with_players(
    session: Session,
    list_id: int,
    columns: Sequence[Any],
    first: int = 0,
    last: int | None = None,
) -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """(entry, the player's ``columns``) of every entry of the list's chunks ``first`` to
    ``last``, in list order; the players read by id, one query per CHUNKS_PER_BATCH chunks."""
    batch: list[tuple[Any, ...]] = []
    for number, entries in read_chunks(session, list_id, first, last):
        batch.extend(entries)
        if (number + 1) % CHUNKS_PER_BATCH == 0:
            yield from _joined(session, batch, columns)
            batch = []
    yield from _joined(session, batch, columns)


def _joined(
    session: Session, entries: Sequence[tuple[Any, ...]], columns: Sequence[Any]
) -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    players = players_by_id(session, [entry[0] for entry in entries], columns)
    for entry in entries:
        found = players.get(entry[0])
        if found is None:
            raise AssertionError(f"list entry of unknown player {entry[0]}")
        yield entry, found


def players_by_id(
    session: Session, player_ids: Sequence[str], columns: Sequence[Any]
) -> dict[str, tuple[Any, ...]]:
    """player_id -> the player's ``columns`` (columns of PlayerRow), for ``player_ids``."""
    found: dict[str, tuple[Any, ...]] = {}
    for part in chunks(sorted(player_ids)):
        rows = session.connection().execute(
            select(PlayerRow.player_id, *columns).where(one_of(session, PlayerRow.player_id, part))
        )
        found.update((row[0], tuple(row[1:])) for row in rows)
    return found


def ratings_on(session: Session, list_id: int, player_ids: Iterable[str]) -> dict[str, int]:
    """The ratings of ``player_ids`` on a list (those who have an entry): a per-player read."""
    ratings: dict[str, int] = {}
    for part in chunks(sorted(set(player_ids))):
        rows = session.connection().execute(
            select(ListEntryRow.player_id, ListEntryRow.rating).where(
                ListEntryRow.list_id == list_id, one_of(session, ListEntryRow.player_id, part)
            )
        )
        ratings.update((row[0], int(row[1])) for row in rows)
    return ratings


def entries_in_chunks_above(session: Session, list_id: int, rating: int) -> int:
    """How many entries the list's chunks wholly rated above ``rating`` hold."""
    found = session.connection().execute(
        select(func.coalesce(func.sum(ListChunkRow.size), 0)).where(
            ListChunkRow.list_id == list_id, ListChunkRow.bottom_rating > rating
        )
    )
    return int(found.scalar_one())


def chunks_across(session: Session, list_id: int, rating: int) -> list[tuple[Any, ...]]:
    """The entries of the list's chunks that hold ``rating`` or a rating on both sides of it
    (top above or at it, bottom at or below it): where a rank falls."""
    rows = session.connection().execute(
        select(ListChunkRow.entries)
        .where(
            ListChunkRow.list_id == list_id,
            ListChunkRow.top_rating >= rating,
            ListChunkRow.bottom_rating <= rating,
        )
        .order_by(ListChunkRow.chunk)
    )
    return [entry for (packed,) in rows for entry in unpack(packed)]


def chunk_bounds(session: Session, list_id: int) -> list[tuple[int, int, int, int]]:
    """(chunk, top_rating, bottom_rating, size) of every chunk of the list, in order."""
    return [
        (int(c), int(top), int(bottom), int(size))
        for c, top, bottom, size in session.execute(
            select(
                ListChunkRow.chunk,
                ListChunkRow.top_rating,
                ListChunkRow.bottom_rating,
                ListChunkRow.size,
            )
            .where(ListChunkRow.list_id == list_id)
            .order_by(ListChunkRow.chunk)
        )
    ]


def canonical_entries(session: Session, list_id: int) -> list[tuple[Any, ...]]:
    """(player_id, rating, previous_rating, change, games, k_factor) of every entry, in
    player_id byte order (as Python sorts): what a list's digest is computed from. Read from
    the list's chunks."""
    return sorted(entry[:6] for entry in whole_list(session, list_id))


def canonical_rows(session: Session, list_id: int) -> list[tuple[Any, ...]]:
    """The same as :func:`canonical_entries`, read from the list's rows in list_entries (the
    other stored form of the list: ``periods verify`` checks both against the digest)."""
    order = ListEntryRow.player_id
    if session.get_bind().dialect.name == "postgresql":
        order = order.collate("C")  # type: ignore[assignment]
    rows = session.connection().execute(
        select(*(ListEntryRow.__table__.c[key] for key in ENTRY_KEYS[1:7]))
        .where(ListEntryRow.list_id == list_id)
        .order_by(order)
    )
    return [tuple(row) for row in rows]


def entries_by_player(session: Session, list_id: int) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rating, previous_rating, change, games, k_factor, rated_games, peak),
    read from the list's chunks."""
    return {entry[0]: (*entry[1:6], *entry[8:10]) for entry in whole_list(session, list_id)}


def k_factors(session: Session, list_id: int) -> dict[str, int]:
    """player_id -> K factor of every entry of the list (from its chunks)."""
    return {entry[0]: int(entry[5]) for entry in whole_list(session, list_id)}


def statuses_of(session: Session, list_id: int) -> list[tuple[Any, ...]]:
    """(player_id, rated_games, peak_rating, pool) of the players kept off a list."""
    rows = session.execute(
        select(
            PlayerStatusRow.player_id,
            PlayerStatusRow.rated_games,
            PlayerStatusRow.peak_rating,
            PlayerStatusRow.pool,
        ).where(PlayerStatusRow.list_id == list_id)
    ).all()
    return [tuple(row) for row in rows]
