"""The rows that make a published list: its entries, the standing of players kept off it
(player_statuses) and, for a computed list, every game's calculation. Written in bulk (COPY on
PostgreSQL, see ratingdb.db.bulk), read back per list."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import Integer, String, delete, func, insert, select, text, update
from sqlalchemy.orm import Session

from ratingdb.db.bulk import bulk_insert, bulk_insert_rows
from ratingdb.db.chunks import CHUNK_SIZE, ENTRY, Packed, pack, pack_columns
from ratingdb.db.vacuum import vacuum_after_commit
from ratingdb.models import (
    CalculationRow,
    LatestEntryRow,
    LatestListRow,
    ListChunkRow,
    ListEntryRow,
    PlayerRow,
    PlayerStatusRow,
    RatingListRow,
)
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

#: Chunks a whole-list read fetches at a time, and reads the players of at once (20,000
#: entries: a batch's players are one join in the database, which reads the players table
#: once a batch).
CHUNKS_PER_BATCH = 100

#: Up to this many players (a page's), player_columns reads them by id (an index probe each),
#: not with a join over the players table.
FEW_PLAYERS = 1000

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
    the chunks written. Every list has its chunks: the whole-list reads read nothing else.
    Then latest_entries are made to hold the list when it is its category's latest
    (:func:`write_latest`, from the chunks just written)."""
    written = insert_chunks(session, packed_chunks(list_id, entries))
    write_latest(session, list_id)
    return written


def insert_chunks(session: Session, rows: Iterable[Sequence[Any]]) -> int:
    """Chunks already packed (tuples of CHUNK_KEYS: :func:`packed_chunks` makes them)."""
    return bulk_insert_rows(session, ListChunkRow, CHUNK_KEYS, rows)


#: The columns of latest_entries but category.
LATEST_KEYS = ("player_id", "rating", "rated_games", "peak_rating")


class LatestChanges(NamedTuple):
    """What a close knows of its list against the list it started from (its parent): the only
    players whose entries may differ. ``entries``: (player_id, rating, rated_games,
    peak_rating) of those on the list; ``gone``: the ids of those not on it."""

    entries: Sequence[tuple[str, int, int, int]]
    gone: Sequence[str]


#: The upsert of latest_entries: a row inserted, or its player's row updated where a field
#: differs (no row written for an entry that did not change). ``{source}``: a SELECT of
#: (player_id, rating, rated_games, peak_rating) with a WHERE clause (SQLite's upsert needs it).
_UPSERT_LATEST = (
    "INSERT INTO latest_entries (category, player_id, rating, rated_games, peak_rating) "
    "SELECT :category, s.player_id, s.rating, s.rated_games, s.peak_rating FROM {source} "
    "ON CONFLICT (category, player_id) DO UPDATE SET rating = excluded.rating, "
    "rated_games = excluded.rated_games, peak_rating = excluded.peak_rating "
    "WHERE latest_entries.rating <> excluded.rating "
    "OR latest_entries.rated_games <> excluded.rated_games "
    "OR latest_entries.peak_rating <> excluded.peak_rating"
)
#: Every entry of a list without a parent (which stores them all), as the upsert's source.
_LIST_SOURCE = "list_entries AS s WHERE s.list_id = :list_id"
#: Every entry of a computed list, resolved in the database: each player's row on the nearest
#: list of its ancestry (the recursive CTE of :data:`_RESOLVE`), left out at a marker. A
#: carried entry keeps the rating, rated games and peak of the row it carries: those are read
#: as they are.
_RESOLVED_SOURCE = (
    "(WITH RECURSIVE chain(id, parent, depth) AS ("
    "SELECT id, parent_list_id, 0 FROM rating_lists WHERE id = :list_id "
    "UNION ALL SELECT r.id, r.parent_list_id, c.depth + 1 FROM rating_lists AS r "
    "JOIN chain AS c ON r.id = c.parent) "
    "SELECT e.player_id, e.rating, e.rated_games, e.peak_rating, "
    "row_number() OVER (PARTITION BY e.player_id ORDER BY c.depth) AS nearness "
    "FROM list_entries AS e JOIN chain AS c ON c.id = e.list_id) AS s "
    "WHERE s.nearness = 1 AND s.rating IS NOT NULL"
)
#: The rows of the players not on a list ({source}: its entries) deleted. NOT IN, not NOT
#: EXISTS: PostgreSQL hashes the list's ids once whatever it estimates of them, where an
#: anti-join planned on the statistics of a list just written (none: one row estimated)
#: rescans the list for every row.
_DELETE_GONE = (
    "DELETE FROM latest_entries WHERE category = :category AND player_id NOT IN "
    "(SELECT s.player_id FROM {source})"
)
#: A close's changed entries as the upsert's source (PostgreSQL: arrays, one parameter each).
_ARRAY_SOURCE = (
    "unnest(CAST(:ids AS text[]), CAST(:ratings AS integer[]), CAST(:games AS integer[]), "
    "CAST(:peaks AS integer[])) AS s(player_id, rating, rated_games, peak_rating) WHERE true"
)
#: One changed entry as the upsert's source (SQLite: a statement per entry, in one executemany).
_VALUES_SOURCE = (
    "(SELECT :player_id AS player_id, :rating AS rating, :rated_games AS rated_games, "
    ":peak_rating AS peak_rating) AS s WHERE true"
)


def write_latest(session: Session, list_id: int, changes: LatestChanges | None = None) -> int:
    """Make latest_entries hold the list's entries when the list is its category's latest
    written: no list of the category in latest_lists, or that list's (list date, revision) not
    after this one's (a revision of an earlier period, written within a cascade, leaves it
    alone). Set-based, in the database: only the rows that change are written (players who
    came, whose fields differ, who left).

    By default every row compared in the database (an upsert and a delete): for a list without
    a parent (an import), its rows in list_entries (every entry); for a computed list (its
    rows only its changes), its entries resolved there through its ancestry.
    ``changes``: a close's, when latest_entries hold the list it started from (its parent):
    only those players' rows are written; otherwise ``changes`` are not used.

    Returns the rows inserted, updated or deleted. Once they are committed, latest_entries
    are vacuumed on PostgreSQL (ratingdb.db.vacuum), so that counts over them stay
    index-only scans."""
    connection = session.connection()
    category, list_date, revision, parent = connection.execute(
        select(
            RatingListRow.category,
            RatingListRow.list_date,
            RatingListRow.revision,
            RatingListRow.parent_list_id,
        ).where(RatingListRow.id == list_id)
    ).one()
    current = connection.execute(
        select(LatestListRow.list_id, RatingListRow.list_date, RatingListRow.revision)
        .join(RatingListRow, LatestListRow.list_id == RatingListRow.id)
        .where(LatestListRow.category == category)
    ).one_or_none()
    if current is not None and (current[1], current[2]) > (list_date, revision):
        return 0
    if changes is not None and current is not None and parent is not None and current[0] == parent:
        written = _write_changes(session, str(category), changes)
    else:
        # A list without a parent (an import) stores every entry in list_entries; a computed
        # list's entries are resolved there: compared in the database, set-based.
        source = _LIST_SOURCE if parent is None else _RESOLVED_SOURCE
        values = {"category": str(category), "list_id": list_id}
        written = max(
            0, connection.execute(text(_UPSERT_LATEST.format(source=source)), values).rowcount
        )
        written += max(
            0, connection.execute(text(_DELETE_GONE.format(source=source)), values).rowcount
        )
    if current is None:
        connection.execute(insert(LatestListRow).values(category=category, list_id=list_id))
    elif current[0] != list_id:
        connection.execute(
            update(LatestListRow).where(LatestListRow.category == category).values(list_id=list_id)
        )
    if written:
        vacuum_after_commit(session, ("latest_entries",))
    return written


def _write_changes(session: Session, category: str, changes: LatestChanges) -> int:
    """A close's changes upserted and its players gone deleted, CHUNK players a statement."""
    connection = session.connection()
    written = 0
    if session.get_bind().dialect.name == "postgresql":
        upsert = text(_UPSERT_LATEST.format(source=_ARRAY_SOURCE))
        for part in chunks(changes.entries):
            ids, ratings, games, peaks = (list(column) for column in zip(*part, strict=True))
            found = connection.execute(
                upsert,
                {"category": category, "ids": ids, "ratings": ratings, "games": games,
                 "peaks": peaks},
            )  # fmt: skip
            written += max(0, found.rowcount)
    elif changes.entries:
        # One executemany: SQLite runs the statement per row in C.
        found = connection.execute(
            text(_UPSERT_LATEST.format(source=_VALUES_SOURCE)),
            [
                {"category": category, "player_id": player_id, "rating": rating,
                 "rated_games": rated_games, "peak_rating": peak}
                for player_id, rating, rated_games, peak in changes.entries
            ],
        )  # fmt: skip
        written += max(0, found.rowcount)
    for part in chunks(sorted(set(changes.gone))):
        found = connection.execute(
            delete(LatestEntryRow).where(
                LatestEntryRow.category == category,
                one_of(session, LatestEntryRow.player_id, part),
            )
        )
        written += max(0, found.rowcount)
    return written


def latest_category(session: Session, list_id: int) -> str | None:
    """The category whose latest_entries hold the list's entries; None: they hold another's."""
    found = session.connection().execute(
        select(LatestListRow.category).where(LatestListRow.list_id == list_id)
    )
    category = found.scalar_one_or_none()
    return None if category is None else str(category)


def latest_differs(session: Session, list_id: int) -> bool:
    """Whether latest_entries, holding the list, differ from its chunks (player_id, rating,
    rated_games, peak_rating of every entry); False where they hold another list."""
    category = latest_category(session, list_id)
    if category is None:
        return False
    held = session.connection().execute(
        select(*(LatestEntryRow.__table__.c[key] for key in LATEST_KEYS)).where(
            LatestEntryRow.category == category
        )
    )
    listed = zip(*list_columns(session, list_id, LATEST_KEYS), strict=True)
    return sorted(tuple(row) for row in held) != sorted(listed)


def raw_rows(session: Session, sql: str, parameters: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (placeholders written ``?``) as the driver's plain tuples, through
    the session's connection (its transaction): no row object per row, for reads of a whole
    list's rows that only unpack them."""
    if session.get_bind().dialect.name == "postgresql":
        sql = sql.replace("?", "%s")
    cursor = session.connection().connection.cursor()
    try:
        cursor.execute(sql, tuple(parameters))
        return list(cursor.fetchall())
    finally:
        cursor.close()


_CURSORS = itertools.count()


def raw_row_batches(
    session: Session, sql: str, parameters: Sequence[Any], batch: int
) -> Generator[list[tuple[Any, ...]], None, None]:
    """:func:`raw_rows` ``batch`` rows at a time, for a read of a whole list that need not be
    held at once: on PostgreSQL through a server-side cursor in the session's transaction (in
    autocommit, where there is none, the rows are fetched whole), on SQLite as its cursor
    steps. Neither the driver nor this process then holds every row (read whole, at 500,000
    players, they left the close's RSS at 291 MB after its statuses were made, 178 MB
    streamed)."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    if postgresql:
        sql = sql.replace("?", "%s")
    driver = session.connection().connection
    streamed = not postgresql or not getattr(driver.driver_connection, "autocommit", False)
    cursor = (
        driver.cursor(name="ratingdb_row_batches") if postgresql and streamed else driver.cursor()
    )
    try:
        cursor.execute(sql, tuple(parameters))
        if not streamed:
            yield list(cursor.fetchall())
            return
        while rows := cursor.fetchmany(batch):
            yield list(rows)
    finally:
        cursor.close()


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


def chunk_count(session: Session, list_id: int) -> int:
    """How many chunks the list has."""
    return int(session.scalar(select(func.count()).where(ListChunkRow.list_id == list_id)) or 0)


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


def page_of(session: Session, list_id: int, offset: int, limit: int) -> list[tuple[Any, ...]]:
    """Entries ``offset`` to ``offset + limit`` of the list in list order (tuples of
    ratingdb.db.chunks.ENTRY): one or two chunks read."""
    return list(zip(*page_columns(session, list_id, offset, limit, ENTRY), strict=True))


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


def whole_list(session: Session, list_id: int) -> Iterator[tuple[Any, ...]]:
    """Every entry of the list in list order (tuples of ratingdb.db.chunks.ENTRY), read from
    its chunks."""
    for batch in column_batches(session, list_id, ENTRY):
        yield from zip(*batch, strict=True)


def with_players(
    session: Session,
    list_id: int,
    fields: Sequence[str],
    columns: Sequence[Any],
    first: int = 0,
    last: int | None = None,
) -> Iterator[list[list[Any]]]:
    """The columns ``fields`` of the list's chunks ``first`` to ``last`` (as
    :func:`column_batches`), each batch followed by the columns ``columns`` (of PlayerRow) of
    its entries' players, in the same order: one query for a batch's players."""
    for batch in column_batches(session, list_id, ("player_id", *fields), first, last):
        yield [*batch[1:], *player_columns(session, batch[0], columns)]


def player_columns(
    session: Session, player_ids: Sequence[str], columns: Sequence[Any]
) -> list[list[Any]]:
    """The ``columns`` (of PlayerRow) of the players ``player_ids``, each a list in the order
    of ``player_ids``. More than FEW_PLAYERS that are a quarter of the players table or more
    (a whole list, as a rule): every player's columns read as one row
    (:func:`_every_player_joined`) and put in order here. Else, on PostgreSQL, more than
    FEW_PLAYERS are one query: the ids sent as one value (joined by line breaks), joined there
    and each column aggregated in their order. Else (a page, or SQLite), the players read by
    id, 5,000 at a time."""
    if not player_ids:
        return [[] for _ in columns]
    many = len(player_ids) > FEW_PLAYERS
    most = many and _most_players(session, len(player_ids))
    if most:
        joined = _every_player_joined(session, columns)
        if joined is not None:
            return _in_order(joined, player_ids)
    if many and session.get_bind().dialect.name == "postgresql":
        return _player_columns_postgresql(session, player_ids, columns)
    by_id: dict[str, Sequence[Any]] = {}
    if most:
        by_id = {row[0]: row for row in _every_player(session, columns)}
    else:
        for part in chunks(list(set(player_ids))):
            by_id.update((row[0], row) for row in _players_by_id(session, part, columns))
    try:
        rows_in_order = list(map(by_id.__getitem__, player_ids))
    except KeyError as unknown:
        raise AssertionError(f"list entry of unknown player {unknown}") from None
    return [list(column) for column in zip(*rows_in_order, strict=True)][1:]


def _most_players(session: Session, count: int) -> bool:
    """Whether ``count`` players are a quarter or more of the players table (its size: on
    SQLite its largest rowid, one index step; on PostgreSQL the planner's estimate, counted
    when the table was never analyzed). A whole list's players then cost less read in one
    scan of the table than looked up one by one (measured at 20,000: SQLite 11 ms against 30,
    PostgreSQL 7-17 ms against 34-90 for the join of the list's ids)."""
    connection = session.connection()
    if session.get_bind().dialect.name == "postgresql":
        estimate = connection.exec_driver_sql(
            "SELECT reltuples FROM pg_class WHERE oid = 'players'::regclass"
        ).scalar()
        size = float(estimate) if estimate is not None else -1.0
        if size < 0:
            size = float(connection.exec_driver_sql("SELECT count(*) FROM players").scalar_one())
        return 4 * count >= size
    largest = connection.exec_driver_sql("SELECT max(rowid) FROM players").scalar()
    return 4 * count >= int(largest or 0)


def _every_player_joined(
    session: Session, columns: Sequence[Any]
) -> tuple[list[str], list[list[Any]]] | None:
    """(every player id, each column's values in their order), read as one row: each column's
    values joined by line breaks in the database (the same scan feeds every aggregate, so they
    come in one order), split here, without a row object per player, for text and integer
    columns; None (read them row by row) when another type is asked for, or a value is '' or
    holds a line break, or an id does."""
    kinds = [
        "text" if isinstance(c.type, String) else "integer" if isinstance(c.type, Integer) else ""
        for c in columns
    ]
    if not all(kinds):
        return None
    postgresql = session.get_bind().dialect.name == "postgresql"
    if postgresql:
        joined, holds_break = "string_agg({}, E'\\n')", "strpos({}, E'\\n') > 0"
        any_of = "coalesce(bool_or({}), false)"
    else:
        joined, holds_break = "group_concat({}, char(10))", "instr({}, char(10)) > 0"
        any_of = "coalesce(max({}), 0)"
    parts = [joined.format("player_id"), any_of.format(holds_break.format("player_id"))]
    for column, kind in zip(columns, kinds, strict=True):
        name = str(column.key)
        if kind == "text":
            parts.append(joined.format(f"coalesce({name}, '')"))
            parts.append(any_of.format(f"{name} = '' OR {holds_break.format(name)}"))
        elif postgresql:  # an integer array, parsed by the driver
            parts.append(f"array_agg({name})")
        else:
            parts.append(joined.format(f"coalesce({name}, '')"))
    row = (
        session.connection()
        .exec_driver_sql(f"SELECT {', '.join(parts)} FROM players")  # column names only
        .one()
    )
    if (
        row[0] is None
        or row[1]
        or any(row[index + 1] for index, kind in _text_flags(kinds) if kind == "text")
    ):
        return None
    ids = str(row[0]).split("\n")
    values: list[list[Any]] = []
    index = 2
    for kind in kinds:
        if kind == "text":
            split = str(row[index]).split("\n")
            values.append(list(map(_EMPTY_IS_NONE.get, split, split)))
            index += 2
        elif postgresql:
            values.append(list(row[index]))
            index += 1
        else:
            split = str(row[index]).split("\n")
            values.append([int(value) if value else None for value in split])
            index += 1
    return ids, values


def _text_flags(kinds: Sequence[str]) -> Iterator[tuple[int, str]]:
    """(index in the joined row of the column's values, kind) of each column."""
    index = 2
    for kind in kinds:
        yield index, kind
        index += 2 if kind == "text" else 1


def _in_order(
    joined: tuple[list[str], list[list[Any]]], player_ids: Sequence[str]
) -> list[list[Any]]:
    ids, values = joined
    position = dict(zip(ids, range(len(ids)), strict=True))
    try:
        places = list(map(position.__getitem__, player_ids))
    except KeyError as unknown:
        raise AssertionError(f"list entry of unknown player {unknown}") from None
    return [list(map(column.__getitem__, places)) for column in values]


def _every_player(session: Session, columns: Sequence[Any]) -> Sequence[Sequence[Any]]:
    """(player_id, *columns) of every player."""
    names = ", ".join(str(column.key) for column in columns)
    return (
        session.connection()
        .exec_driver_sql(f"SELECT player_id, {names} FROM players")  # column names only
        .all()
    )


def _players_by_id(
    session: Session, player_ids: Sequence[str], columns: Sequence[Any]
) -> Sequence[Sequence[Any]]:
    """(player_id, *columns) of those of ``player_ids`` that exist. On SQLite
    the statement is written here with a placeholder per id: SQLAlchemy would render its
    expanding IN parameter anew for every id of every query (~1 us each)."""
    if session.get_bind().dialect.name != "sqlite":
        statement = select(PlayerRow.player_id, *columns).where(
            one_of(session, PlayerRow.player_id, player_ids)
        )
        return session.connection().execute(statement).all()
    names = ", ".join(str(column.key) for column in columns)
    placeholders = ", ".join("?" * len(player_ids))
    return (
        session.connection()
        .exec_driver_sql(
            f"SELECT player_id, {names} FROM players "  # column names and placeholders only
            f"WHERE player_id IN ({placeholders})",
            tuple(player_ids),
        )
        .all()
    )


def _player_columns_postgresql(
    session: Session, player_ids: Sequence[str], columns: Sequence[Any]
) -> list[list[Any]]:
    """player_columns on PostgreSQL: a text column comes back as one string, its values
    joined by line breaks ('' for None: split in C here, where an array of strings is parsed
    value by value), unless one of its values is '' or holds a line break (then, and for the
    other columns, an array)."""
    texts = [isinstance(column.type, String) for column in columns]
    parts = []
    for column, is_text in zip(columns, texts, strict=True):
        name = f"p.{column.key}"
        if is_text:
            parts.append(
                f"string_agg(coalesce({name}, ''), :separator ORDER BY u.n), "
                f"coalesce(bool_or({name} = '' OR strpos({name}, :separator) > 0), false)"
            )
        else:
            parts.append(f"array_agg({name} ORDER BY u.n)")
    statement = text(
        f"SELECT count(p.player_id), {', '.join(parts)} "  # column names, not values
        "FROM unnest(string_to_array(:ids, :separator)) WITH ORDINALITY AS u(id, n) "
        "LEFT JOIN players AS p ON p.player_id = u.id"
    )
    values = {"ids": "\n".join(player_ids), "separator": "\n"}
    found, *row = session.connection().execute(statement, values).one()
    if found != len(player_ids):
        raise AssertionError(f"list entries of {len(player_ids) - found} unknown players")
    result: list[list[Any]] = []
    for is_text in texts:
        if not is_text:
            result.append(list(row.pop(0)))
            continue
        joined, unsafe = row[:2]
        del row[:2]
        if unsafe:
            result.append(_text_column_as_array(session, player_ids, columns[len(result)]))
        else:
            split = joined.split("\n")
            result.append(list(map(_EMPTY_IS_NONE.get, split, split)))
    return result


_EMPTY_IS_NONE: dict[str, None] = {"": None}


def _text_column_as_array(session: Session, player_ids: Sequence[str], column: Any) -> list[Any]:
    statement = text(
        f"SELECT array_agg(p.{column.key} ORDER BY u.n) "  # a column name, not a value
        "FROM unnest(string_to_array(:ids, :separator)) WITH ORDINALITY AS u(id, n) "
        "LEFT JOIN players AS p ON p.player_id = u.id"
    )
    values = {"ids": "\n".join(player_ids), "separator": "\n"}
    return list(session.connection().execute(statement, values).scalar_one())


def players_by_id(
    session: Session, player_ids: Sequence[str], columns: Sequence[Any]
) -> dict[str, tuple[Any, ...]]:
    """player_id -> the player's ``columns`` (columns of PlayerRow), for ``player_ids``."""
    unique = sorted(set(player_ids))
    found = player_columns(session, unique, columns)
    return dict(zip(unique, zip(*found, strict=True), strict=True)) if columns else {}


def count_of_federation(session: Session, player_ids: Sequence[str], federation: str) -> int:
    """How many of ``player_ids`` are players of ``federation``: the federation's player ids
    read (one query), the two sets intersected here."""
    if not player_ids:
        return 0
    members = session.connection().execute(
        select(PlayerRow.player_id).where(PlayerRow.federation == federation)
    )
    return len(set(members.scalars().all()).intersection(player_ids))


def ratings_on(session: Session, list_id: int, player_ids: Iterable[str]) -> dict[str, int]:
    """The ratings of ``player_ids`` on a list (those who have an entry): each one's rating
    on the nearest row of the list's ancestry (a carried entry keeps it; a marker: none), only
    the rating read, 5,000 players a statement."""
    nearest = _nearest_rows(session, list_id, player_ids, "e.rating")
    return {player_id: int(row[2]) for player_id, (_, row) in nearest.items() if row[2] is not None}


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


def canonical_entries(session: Session, list_id: int) -> list[tuple[Any, ...]]:
    """(player_id, rating, previous_rating, change, games, k_factor) of every entry, in
    player_id byte order (as Python sorts): what a list's digest is computed from. Read from
    the list's chunks."""
    return sorted(zip(*list_columns(session, list_id, ENTRY[:6]), strict=True))


def canonical_rows(session: Session, list_id: int) -> list[tuple[Any, ...]]:
    """The same as :func:`canonical_entries`, resolved from the list's own rows in list_entries
    (the other stored form of the list: ``periods verify`` checks both against the digest)
    over its parent's entries as the parent's chunks hold them, carried forward: each list's
    rows read once (by the list_id index), not its whole ancestry's. The parent's chunks are
    checked against the parent's digest, and its rows against them, when the parent is
    verified (``periods verify --all`` checks every list: each ancestry's rows once)."""
    parent = (
        session.connection()
        .execute(select(RatingListRow.parent_list_id).where(RatingListRow.id == list_id))
        .scalar_one()
    )
    entries: dict[str, tuple[Any, ...]] = {}
    if parent is not None:
        for entry in zip(*list_columns(session, parent, ENTRY[:6]), strict=True):
            player_id, rating, _, _, _, k_factor = entry
            entries[player_id] = (player_id, rating, rating, 0, 0, k_factor)  # as carried()
    own = session.connection().execute(
        select(*(ListEntryRow.__table__.c[key] for key in ENTRY[:6])).where(
            ListEntryRow.list_id == list_id
        )
    )
    for row in own:
        if row[1] is None:
            entries.pop(row[0], None)  # a marker: off the list (as resolve reads one)
        else:
            entries[row[0]] = tuple(row)
    return [entries[player_id] for player_id in sorted(entries)]


#: The fields of entries_by_player's values.
BY_PLAYER = ("rating", "previous_rating", "change", "games", "k_factor", "rated_games",
             "peak_rating")  # fmt: skip


def entries_by_player(session: Session, list_id: int) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rating, previous_rating, change, games, k_factor, rated_games, peak),
    read from the list's chunks."""
    ids, *values = list_columns(session, list_id, ("player_id", *BY_PLAYER))
    return dict(zip(ids, zip(*values, strict=True), strict=True))


def k_factors(session: Session, list_id: int) -> dict[str, int]:
    """player_id -> K factor of every entry of the list (from its chunks)."""
    ids, ks = list_columns(session, list_id, ("player_id", "k_factor"))
    return dict(zip(ids, ks, strict=True))


# --- entries as changes (issue 16, stage (b)): a list's entries through its ancestry -----------
#
# A computed list stores only the entries that differ from its parent's carried forward (and a
# marker row, rating None, where a player leaves it): a player's entry on a list is their row
# on the nearest list of its ancestry.


def ancestry_of(parents: Mapping[int, int | None], list_id: int) -> list[int]:
    """``list_id`` and the lists it was computed from, nearest first, from ``parents`` (list
    id -> parent id, None for an imported list or a category's first): the walk up to a list
    without a parent."""
    chain: list[int] = []
    current: int | None = list_id
    while current is not None:
        if current in chain:
            raise ValueError(f"list {list_id}: its parents make a loop at list {current}")
        if current not in parents:
            raise LookupError(f"list {list_id}: list {current} of its ancestry is unknown")
        chain.append(current)
        current = parents[current]
    return chain


def ancestry(session: Session, list_id: int) -> list[int]:
    """The list and the lists it was computed from, nearest first (parent_list_id walked up
    to an imported list or the category's first): the parents of the list's category read
    in one query."""
    category = session.scalar(select(RatingListRow.category).where(RatingListRow.id == list_id))
    if category is None:
        raise LookupError(f"no list {list_id}")
    rows = session.connection().execute(
        select(RatingListRow.id, RatingListRow.parent_list_id).where(
            RatingListRow.category == category
        )
    )
    return ancestry_of({int(row[0]): row[1] for row in rows}, list_id)


def carried(entry: Sequence[Any]) -> tuple[Any, ...]:
    """An entry (a tuple of ratingdb.db.chunks.ENTRY) carried forward to a later list, as a
    close writes a player who did not play: the same rating as before it (change 0), no games,
    no K used nor sum of deltas, the same K, rated games and peak."""
    player_id, rating, _, _, _, k_factor, _, _, rated_games, peak = entry
    return (player_id, rating, rating, 0, 0, k_factor, None, None, rated_games, peak)


def resolved(chain: Sequence[int], rows: Iterable[Sequence[Any]]) -> dict[str, tuple[Any, ...]]:
    """player_id -> entry (a tuple of ratingdb.db.chunks.ENTRY) on the list ``chain[0]``, from
    ``rows`` ((list_id, *ENTRY) on lists of ``chain``, its ancestry nearest first): each
    player's row on the nearest list; a marker there (rating None): off the list (left out);
    a row of an older list: carried forward."""
    depth = {list_id: index for index, list_id in enumerate(chain)}
    nearest: dict[str, tuple[int, Sequence[Any]]] = {}
    for row in rows:
        where = depth[row[0]]
        found = nearest.get(row[1])
        if found is None or where < found[0]:
            nearest[row[1]] = (where, row)
    entries: dict[str, tuple[Any, ...]] = {}
    for player_id, (where, row) in nearest.items():
        if row[2] is None:
            continue
        entry = tuple(row[1:])
        entries[player_id] = entry if where == 0 else carried(entry)
    return entries


#: The rows of some players on a list and the lists it was computed from: the ancestry walked
#: in the database (a recursive CTE over rating_lists' parents, depth 0 for the list), joined
#: to the players' rows (list_entries' key starts with the player). ``{players}``: the
#: condition on e.player_id (placeholders: SQLite's; PostgreSQL reads :data:`_RESOLVE_NEAREST`).
_RESOLVE = (
    "WITH RECURSIVE chain(id, parent, depth) AS ("
    "SELECT id, parent_list_id, 0 FROM rating_lists WHERE id = ? "
    "UNION ALL SELECT r.id, r.parent_list_id, c.depth + 1 FROM rating_lists AS r "
    "JOIN chain AS c ON r.id = c.parent) "
    "SELECT c.depth, e.player_id, {fields} "
    "FROM list_entries AS e JOIN chain AS c ON c.id = e.list_id WHERE e.player_id {players}"
)
#: PostgreSQL's: for each player (an array), only the nearest row read, by a backward scan of
#: list_entries' key (player_id, list_id) from the list down, stopping at the first row on a
#: list of the ancestry. Nearest is highest: a list's parent was written before it, so every
#: list of an ancestry has a smaller id than the lists below it (the close and the corrections
#: name an existing list as parent; migration 0010 derived parents among earlier ids). Where
#: :data:`_RESOLVE` reads every row of a player across a long history (a third of 120 lists:
#: 20 ms for 100 players at 121 lists of 200,000), this reads one or two (3 ms; benchmarks/
#: README.md, "Years of history").
_RESOLVE_NEAREST = (
    "WITH RECURSIVE chain(id, parent) AS ("
    "SELECT id, parent_list_id FROM rating_lists WHERE id = ? "
    "UNION ALL SELECT r.id, r.parent_list_id FROM rating_lists AS r "
    "JOIN chain AS c ON r.id = c.parent) "
    "SELECT n.* FROM unnest(CAST(? AS text[])) AS p(player_id) CROSS JOIN LATERAL ("
    "SELECT e.list_id, e.player_id, {fields} FROM list_entries AS e "
    "WHERE e.player_id = p.player_id AND e.list_id <= ? AND e.list_id IN (SELECT id FROM chain) "
    "ORDER BY e.list_id DESC LIMIT 1) AS n"
)
_ENTRY_FIELDS = (
    "e.rating, e.previous_rating, e.change, e.games, e.k_factor, e.k_used, e.sum_delta, "
    "e.rated_games, e.peak_rating"
)


def resolve(
    session: Session, list_id: int, player_ids: Iterable[str]
) -> dict[str, tuple[Any, ...]]:
    """player_id -> entry (a tuple of ratingdb.db.chunks.ENTRY) on the list of those of
    ``player_ids`` on it: each one's row on the nearest list of its ancestry, carried forward
    when older, left out at a marker (as :func:`resolved`). One plain statement for 5,000
    players (:func:`_nearest_rows`), the driver's tuples."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    nearest = _nearest_rows(session, list_id, player_ids, _ENTRY_FIELDS)
    entries: dict[str, tuple[Any, ...]] = {}
    for player_id, (depth, row) in nearest.items():
        if row[2] is None:
            continue
        entry = _typed(row[1:], postgresql)
        entries[player_id] = entry if depth == 0 else carried(entry)
    return entries


def _nearest_rows(
    session: Session, list_id: int, player_ids: Iterable[str], fields: str
) -> dict[str, tuple[int, Any]]:
    """player_id -> (depth, (depth, player_id, *fields)) of each player's row on the nearest
    list of the list's ancestry (depth 0: the list; on PostgreSQL 1 for any older list), 5,000
    players a statement: :data:`_RESOLVE_NEAREST` on PostgreSQL, :data:`_RESOLVE` on SQLite
    (each player's rows on every list of the ancestry, the nearest kept here)."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    nearest: dict[str, tuple[int, Any]] = {}
    for part in chunks(sorted(set(player_ids))):
        if postgresql:
            sql = _RESOLVE_NEAREST.format(fields=fields)
            for row in raw_rows(session, sql, (list_id, list(part), list_id)):
                depth = 0 if row[0] == list_id else 1
                nearest[row[1]] = (depth, (depth, *row[1:]))
            continue
        placeholders = ", ".join("?" * len(part))
        sql = _RESOLVE.format(fields=fields, players=f"IN ({placeholders})")
        for row in raw_rows(session, sql, (list_id, *part)):
            found = nearest.get(row[1])
            if found is None or row[0] < found[0]:
                nearest[row[1]] = (row[0], row)
    return nearest


def _typed(entry: Sequence[Any], postgresql: bool) -> tuple[Any, ...]:
    """An entry read by the driver as the ORM reads it: sum_delta a Decimal of four places
    (SQLite's driver gives a NUMERIC back as a float)."""
    delta = entry[7]
    if delta is None or (postgresql and isinstance(delta, Decimal)):
        return tuple(entry)
    return (*entry[:7], Decimal(str(delta)).quantize(_FOUR_PLACES), *entry[8:])


_FOUR_PLACES = Decimal("0.0001")


def entries_on_lists(
    parents: Mapping[int, int | None], rows: Iterable[Sequence[Any]]
) -> dict[int, tuple[Any, ...]]:
    """One player's entry (a tuple of ENTRY) on every list of ``parents`` (list id -> parent
    id, every list of a category) they are on, from their ``rows`` ((list_id, *ENTRY)): on each
    list its own row, a marker there leaving it off; else the parent's entry carried forward.
    Each list resolved once, its parent before it."""
    own = {int(row[0]): tuple(row[1:]) for row in rows}
    found: dict[int, tuple[Any, ...] | None] = {}
    for list_id in parents:
        path: list[int] = []
        current: int | None = list_id
        while current is not None and current not in found:
            if current in path:
                raise ValueError(f"list {list_id}: its parents make a loop at list {current}")
            if current not in parents:
                raise LookupError(f"list {list_id}: list {current} of its ancestry is unknown")
            path.append(current)
            current = None if current in own else parents[current]
        below = None if current is None else found[current]
        for step in reversed(path):
            if step in own:
                row = own[step]
                below = None if row[1] is None else row
            elif below is not None:
                below = carried(below)
            found[step] = below
    return {list_id: entry for list_id, entry in found.items() if entry is not None}


class Entry(NamedTuple):
    """A player's entry on a list (the fields of ratingdb.db.chunks.ENTRY), resolved."""

    player_id: str
    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    k_used: int | None
    sum_delta: Decimal | None
    rated_games: int
    peak_rating: int


def resolve_one(session: Session, list_id: int, player_id: str) -> Entry | None:
    """The player's entry on the list (None: not on it), resolved through its ancestry."""
    found = resolve(session, list_id, (player_id,)).get(player_id)
    return None if found is None else Entry(*found)


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
