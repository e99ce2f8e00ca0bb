"""What is read of a list from its chunks (ratingdb.repositories.list_storage.chunks): a page,
the entries around a rating (ranks), the whole list or some of its columns. Only the fields
asked for are decoded (ratingdb.db.chunks.Packed)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.db.chunks import CHUNK_SIZE, ENTRY, Packed
from ratingdb.db.raw import raw_rows
from ratingdb.models import ListChunkRow
from ratingdb.rules.carry_forward import Entry

#: Chunks a whole-list read fetches at a time, and reads the players of at once (20,000
#: entries: a batch's players are one join in the database, which reads the players table
#: once a batch).
CHUNKS_PER_BATCH = 100


# --- the whole list ------------------------------------------------------------------------


def _packed_batches(
    session: Session, list_id: int, first: int = 0, last: int | None = None
) -> Iterator[list[bytes]]:
    """The packed values of the list's chunks ``first`` to ``last`` (None: to the end), in
    list order, CHUNKS_PER_BATCH chunks a query (no server-side cursor: the API reads in
    autocommit)."""
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
                select(ListChunkRow.entries)
                .where(
                    ListChunkRow.list_id == list_id,
                    ListChunkRow.chunk >= start,
                    ListChunkRow.chunk <= end,
                )
                .order_by(ListChunkRow.chunk)
            )
            .scalars()
            .all()
        )
        if rows:
            yield [bytes(packed) for packed in rows]
        if len(rows) < end - start + 1:
            return
        start = end + 1


def _joined_columns(packed: Sequence[bytes], fields: Sequence[str]) -> list[list[Any]]:
    opened = [Packed(value) for value in packed]
    return [list(itertools.chain.from_iterable(o.column(f) for o in opened)) for f in fields]


def packed_batches(session: Session, list_id: int) -> list[list[bytes]]:
    """Every packed chunk of the list, in list order, read whole (CHUNKS_PER_BATCH chunks a
    query and a batch), to be decoded later without the database (:func:`columns_of_batches`):
    a close reads its parent's before its calculations stream in (2.6 MB at 500,000 entries)."""
    return list(_packed_batches(session, list_id))


def columns_of_batches(
    batches: Iterable[Sequence[bytes]], fields: Sequence[str]
) -> Iterator[list[list[Any]]]:
    """:func:`column_batches` of packed chunks read already (:func:`packed_batches`)."""
    for packed in batches:
        yield _joined_columns(packed, fields)


def column_batches(
    session: Session,
    list_id: int,
    fields: Sequence[str],
    first: int = 0,
    last: int | None = None,
) -> Iterator[list[list[Any]]]:
    """The columns ``fields`` (names of ratingdb.db.chunks.ENTRY) of the list's chunks
    ``first`` to ``last`` (None: to the end), in list order, CHUNKS_PER_BATCH chunks at a time:
    each batch a list per field. Only the fields asked for are decoded."""
    for packed in _packed_batches(session, list_id, first, last):
        yield _joined_columns(packed, fields)


def list_columns(
    session: Session,
    list_id: int,
    fields: Sequence[str],
    first: int = 0,
    last: int | None = None,
) -> list[list[Any]]:
    """The columns ``fields`` of the list's chunks ``first`` to ``last`` (None: to the end;
    by default the whole list), in list order: one list per field."""
    found: list[list[Any]] = [[] for _ in fields]
    for batch in column_batches(session, list_id, fields, first, last):
        for whole, part in zip(found, batch, strict=True):
            whole.extend(part)
    return found


def whole_list(session: Session, list_id: int) -> Iterator[Entry]:
    """Every entry of the list in list order, read from its chunks."""
    for batch in column_batches(session, list_id, ENTRY):
        yield from map(Entry._make, zip(*batch, strict=True))


def canonical_entries(
    session: Session, list_id: int, fields: Sequence[str] = ENTRY[:6]
) -> list[tuple[Any, ...]]:
    """``fields`` (player_id first) of every entry, in player_id byte order (as Python
    sorts): what a list's digest is computed from. Read from the list's chunks."""
    return sorted(zip(*list_columns(session, list_id, fields), strict=True))


#: The fields of entries_by_player's values.
BY_PLAYER = ("rating", "previous_rating", "change", "games", "k_factor", "rated_games",
             "peak_rating", "last_rated", "active")  # fmt: skip


def entries_by_player(session: Session, list_id: int) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rating, previous_rating, change, games, k_factor, rated_games, peak,
    last_rated, active), the fields BY_PLAYER, read from the list's chunks."""
    ids, *values = list_columns(session, list_id, ("player_id", *BY_PLAYER))
    return dict(zip(ids, zip(*values, strict=True), strict=True))


def k_factors(session: Session, list_id: int) -> dict[str, int]:
    """player_id -> K factor of every entry of the list (from its chunks)."""
    ids, ks = list_columns(session, list_id, ("player_id", "k_factor"))
    return dict(zip(ids, ks, strict=True))


# --- pages ---------------------------------------------------------------------------------


def chunk_columns(
    session: Session, list_id: int, numbers: Sequence[int], fields: Sequence[str]
) -> dict[int, list[list[Any]]]:
    """chunk number -> the columns ``fields`` of that chunk of the list, for the chunks
    ``numbers`` only (one query)."""
    if not numbers:
        return {}
    rows = session.connection().execute(
        select(ListChunkRow.chunk, ListChunkRow.entries).where(
            ListChunkRow.list_id == list_id, ListChunkRow.chunk.in_(sorted(set(numbers)))
        )
    )
    found: dict[int, list[list[Any]]] = {}
    for number, packed in rows:
        opened = Packed(bytes(packed))
        found[int(number)] = [opened.column(name) for name in fields]
    return found


def page_columns(
    session: Session, list_id: int, offset: int, limit: int, fields: Sequence[str]
) -> list[list[Any]]:
    """The columns ``fields`` (names of ratingdb.db.chunks.ENTRY) of entries ``offset`` to
    ``offset + limit`` of the list in list order: its one or two chunks read in one plain
    statement (no statement built per page), only those fields decoded, each cut to the
    page before any tuple is made."""
    if limit <= 0:
        return [[] for _ in fields]
    first, last = offset // CHUNK_SIZE, (offset + limit - 1) // CHUNK_SIZE
    rows = raw_rows(
        session,
        "SELECT entries FROM list_chunks WHERE list_id = ? AND chunk >= ? AND chunk <= ? "
        "ORDER BY chunk",
        (list_id, first, last),
    )
    start = offset - first * CHUNK_SIZE
    return [
        column[start : start + limit]
        for column in _joined_columns([bytes(row[0]) for row in rows], fields)
    ]


# --- ranks ---------------------------------------------------------------------------------


def entries_in_chunks_above(session: Session, list_id: int, rating: int) -> int:
    """How many entries the list's chunks wholly rated above ``rating`` hold."""
    found = session.connection().execute(
        select(func.coalesce(func.sum(ListChunkRow.size), 0)).where(
            ListChunkRow.list_id == list_id, ListChunkRow.bottom_rating > rating
        )
    )
    return int(found.scalar_one())


def ratings_across(session: Session, list_id: int, rating: int) -> list[int]:
    """The ratings of the entries of the list's chunks that hold ``rating`` or a rating on
    both sides of it (top above or at it, bottom at or below it): where a rank falls."""
    rows = session.connection().execute(
        select(ListChunkRow.entries)
        .where(
            ListChunkRow.list_id == list_id,
            ListChunkRow.top_rating >= rating,
            ListChunkRow.bottom_rating <= rating,
        )
        .order_by(ListChunkRow.chunk)
    )
    return [r for (packed,) in rows for r in Packed(bytes(packed)).column("rating")]


def ids_rated_above(session: Session, list_id: int, rating: int) -> list[str]:
    """The player ids of the list's entries rated above ``rating``, in list order: the chunks
    whose top is above it (one query), the last of them cut where the ratings reach it."""
    packed = (
        session.connection()
        .execute(
            select(ListChunkRow.entries)
            .where(ListChunkRow.list_id == list_id, ListChunkRow.top_rating > rating)
            .order_by(ListChunkRow.chunk)
        )
        .scalars()
        .all()
    )
    if not packed:
        return []
    ids, ratings = _joined_columns([bytes(p) for p in packed], ("player_id", "rating"))
    cut = len(ratings)
    while cut and ratings[cut - 1] <= rating:
        cut -= 1
    return ids[:cut]
