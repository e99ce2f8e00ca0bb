"""A list's chunks (list_chunks): its entries in list order (rating descending, then
player_id), CHUNK_SIZE at a time, each chunk packed as one value (ratingdb.db.chunks). The
chunks are the list: every whole-list read reads them (ratingdb.repositories.list_storage.
chunk_reads), and every list has them."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import delete, insert, literal, select
from sqlalchemy.orm import Session

from ratingdb.db.bulk import bulk_insert_rows
from ratingdb.db.chunks import CHUNK_SIZE, ENTRY, pack, pack_columns
from ratingdb.models import ListChunkRow, ListEntryRow, RatingListRow
from ratingdb.repositories.list_storage.changes import ENTRY_KEYS
from ratingdb.repositories.players import chunks

#: The columns of list_chunks, in the order of :func:`packed_chunks`' tuples.
CHUNK_KEYS = ("list_id", "chunk", "top_rating", "bottom_rating", "size", "entries")


def write_chunks(session: Session, list_id: int, entries: Iterable[Sequence[Any]]) -> int:
    """The list's chunks from its entries (tuples of ENTRY_KEYS but list_id, as
    ratingdb.db.chunks.ENTRY), given in list order: rating descending, then player_id; returns
    the chunks written. latest_entries are not written here: the caller that publishes the
    list does (ratingdb.repositories.list_storage.latest.write_latest)."""
    return insert_chunks(session, packed_chunks(list_id, entries))


def insert_chunks(session: Session, rows: Iterable[Sequence[Any]]) -> int:
    """Chunks already packed (tuples of CHUNK_KEYS: :func:`packed_chunks` makes them)."""
    return bulk_insert_rows(session, ListChunkRow, CHUNK_KEYS, rows)


def write_chunks_of_entries(session: Session, list_id: int) -> int:
    """The list's chunks from its rows in list_entries (an imported list, whose entries are
    all written there first: a list without a parent, which stores every entry)."""
    parent = session.scalar(select(RatingListRow.parent_list_id).where(RatingListRow.id == list_id))
    if parent is not None:
        raise ValueError(
            f"list {list_id} has a parent (list {parent}): its rows in list_entries are only "
            "its changes, not its entries"
        )
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


def packed_chunks(list_id: int, entries: Iterable[Sequence[Any]]) -> Iterator[tuple[Any, ...]]:
    """The list's chunks (tuples of CHUNK_KEYS, for :func:`insert_chunks`) from its entries
    (tuples of ENTRY_KEYS but list_id), given in list order, each packed as its CHUNK_SIZE
    entries come: no entry held beyond its chunk."""
    iterator = iter(entries)
    last: tuple[Any, Any] | None = None
    for chunk in itertools.count():
        part = list(itertools.islice(iterator, CHUNK_SIZE))
        if not part:
            return
        if {len(entry) for entry in part} != {len(ENTRY)}:
            pack(part)  # refuses it, saying which entry
        fields = list(zip(*part, strict=True))
        last = _check_order(list_id, fields[0], fields[1], last)
        yield _chunk_row(list_id, chunk, fields)


def packed_chunk(list_id: int, chunk: int, entries: Sequence[Sequence[Any]]) -> tuple[Any, ...]:
    """One chunk (a tuple of CHUNK_KEYS) of the list, number ``chunk``, from its entries
    (tuples of ENTRY_KEYS but list_id) in list order: a revision rewriting only the chunks a
    correction moved entries in."""
    if not 0 < len(entries) <= CHUNK_SIZE or {len(entry) for entry in entries} != {len(ENTRY)}:
        pack(list(entries))  # refuses it, saying which entry
        raise ValueError(
            f"list {list_id} chunk {chunk}: 1 to {CHUNK_SIZE} entries, not {len(entries)}"
        )
    fields = list(zip(*entries, strict=True))
    _check_order(list_id, fields[0], fields[1], None)
    return _chunk_row(list_id, chunk, fields)


def copy_chunks(
    session: Session, from_list: int, to_list: int, count: int, leaving_out: Iterable[int]
) -> int:
    """The chunks 0 to ``count`` - 1 of ``from_list`` copied to ``to_list`` in the database, but
    ``leaving_out`` (the caller writes those); returns the chunks kept."""
    connection = session.connection()
    columns = [ListChunkRow.__table__.c[key] for key in CHUNK_KEYS[1:]]
    copied = connection.execute(
        insert(ListChunkRow).from_select(
            list(CHUNK_KEYS),
            select(literal(to_list), *columns).where(
                ListChunkRow.list_id == from_list, ListChunkRow.chunk < count
            ),
        )
    ).rowcount
    for part in chunks(sorted(set(leaving_out))):
        copied -= connection.execute(
            delete(ListChunkRow).where(
                ListChunkRow.list_id == to_list, ListChunkRow.chunk.in_(part)
            )
        ).rowcount
    return max(0, int(copied))


def _chunk_row(list_id: int, chunk: int, fields: Sequence[Sequence[Any]]) -> tuple[Any, ...]:
    """The list_chunks row (CHUNK_KEYS) of entries given as columns (in the order of ENTRY)."""
    ratings = fields[1]
    return (list_id, chunk, int(ratings[0]), int(ratings[-1]), len(ratings), pack_columns(fields))


def _check_order(
    list_id: int,
    ids: Sequence[Any],
    ratings: Sequence[Any],
    last: tuple[Any, Any] | None,
) -> tuple[Any, Any]:
    """Refuse entries not in list order (rating descending, then player_id ascending), after
    ``last`` (the (player_id, rating) of the entry before them); returns their last one's.
    Compared a column at a time in C; entry by entry only where that finds one out of order."""
    if last is not None:
        ids, ratings = (last[0], *ids), (last[1], *ratings)
    later_ids, later_ratings = ids[1:], ratings[1:]
    try:
        ordered = all(
            map(
                operator.or_,
                map(operator.gt, ratings, later_ratings),
                map(
                    operator.and_,
                    map(operator.eq, ratings, later_ratings),
                    map(operator.lt, ids, later_ids),
                ),
            )
        )
    except TypeError:
        ordered = False
    if not ordered:
        previous: tuple[int, str] | None = None
        for player_id, rating in zip(ids, ratings, strict=True):
            key = (-int(rating), str(player_id))
            if previous is not None and key <= previous:
                raise ValueError(f"list {list_id}: entries not in list order at {player_id}")
            previous = key
    return ids[-1], ratings[-1]
