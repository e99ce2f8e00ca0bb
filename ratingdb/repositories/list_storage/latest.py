"""latest_entries: a copy of each category's latest list (player_id, rating, rated_games,
peak_rating, last_rated of every entry), which the list pages filter and rank and the next
close reads as one table, and latest_lists: which list they hold. Written by an explicit call
of whoever publishes a list (:func:`write_latest`: the close, an import), never as a side effect of
writing one; they follow the list's chunks and can be written again from them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import NamedTuple

from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.orm import Session

from ratingdb.db.raw import raw_rows
from ratingdb.db.vacuum import vacuum_after_commit
from ratingdb.models import LatestEntryRow, LatestListRow, RatingListRow
from ratingdb.repositories.list_storage.chunk_reads import column_batches, list_columns
from ratingdb.repositories.players import chunks, one_of
from ratingdb.rules import Category

#: Entries a statement upserts on PostgreSQL (five arrays of this many values). A close
#: upserts beside its list's making (services/close/writing.py), and each statement's
#: arrays are Python work that takes turns with it: at 2,000,000 players (330,000 rows)
#: statements of 20,000 let the close end in 39.9-41.6 s, one statement of them all in
#: 42.1-44.9 s (benchmarks/README.md, close_period.py).
UPSERT_CHUNK = 20_000
#: The columns of latest_entries but category.
LATEST_KEYS = ("player_id", "rating", "rated_games", "peak_rating", "last_rated")


class LatestChanges(NamedTuple):
    """What a close knows of its list against the list it started from (its parent): the only
    players whose entries may differ. ``entries``: (player_id, rating, rated_games,
    peak_rating, last_rated) of those on the list; ``gone``: the ids of those not on it."""

    entries: Sequence[tuple[str, int, int, int, date | None]]
    gone: Sequence[str]


#: The upsert of latest_entries: a row inserted, or its player's row updated where a field
#: differs (no row written for an entry that did not change). ``{source}``: a SELECT of
#: (player_id, rating, rated_games, peak_rating, last_rated) with a WHERE clause (SQLite's
#: upsert needs it).
_UPSERT_LATEST = (
    "INSERT INTO latest_entries (category, player_id, rating, rated_games, peak_rating, "
    "last_rated) "
    "SELECT :category, s.player_id, s.rating, s.rated_games, s.peak_rating, s.last_rated "
    "FROM {source} "
    "ON CONFLICT (category, player_id) DO UPDATE SET rating = excluded.rating, "
    "rated_games = excluded.rated_games, peak_rating = excluded.peak_rating, "
    "last_rated = excluded.last_rated "
    "WHERE latest_entries.rating <> excluded.rating "
    "OR latest_entries.rated_games <> excluded.rated_games "
    "OR latest_entries.peak_rating <> excluded.peak_rating "
    "OR latest_entries.last_rated IS DISTINCT FROM excluded.last_rated"
)
#: Every entry of a list without a parent (which stores them all), as the upsert's source.
_LIST_SOURCE = "list_entries AS s WHERE s.list_id = :list_id"
#: The rows of the players not on a list ({source}: its entries) deleted. NOT IN, not NOT
#: EXISTS: PostgreSQL hashes the list's ids once whatever it estimates of them, where an
#: anti-join planned on the statistics of a list just written (none: one row estimated)
#: rescans the list for every row.
_DELETE_GONE = (
    "DELETE FROM latest_entries WHERE category = :category AND player_id NOT IN "
    "(SELECT s.player_id FROM {source})"
)
#: Entries sent as the upsert's source (PostgreSQL: arrays, one parameter each).
_ARRAY_SOURCE = (
    "unnest(CAST(:ids AS text[]), CAST(:ratings AS integer[]), CAST(:games AS integer[]), "
    "CAST(:peaks AS integer[]), CAST(:lasts AS date[])) "
    "AS s(player_id, rating, rated_games, peak_rating, last_rated) WHERE true"
)
#: The upsert of one entry, its placeholders the driver's (SQLite: a statement per entry, in
#: one executemany of plain tuples: (category, player_id, rating, rated_games, peak_rating,
#: last_rated as ISO text)).
_UPSERT_ONE = _UPSERT_LATEST.replace(":category", "?").format(
    source="(SELECT ? AS player_id, ? AS rating, ? AS rated_games, ? AS peak_rating, "
    "? AS last_rated) AS s WHERE true"
)


def write_latest(session: Session, list_id: int, changes: LatestChanges | None = None) -> int:
    """Make latest_entries hold the list's entries when the list is its category's latest
    written: no list of the category in latest_lists, or that list's (list date, revision) not
    after this one's (a revision of an earlier period, written within a cascade, leaves it
    alone). Only the rows that change are written (players who came, whose fields differ, who
    left).

    By default every entry compared: for a list without a parent (an import), its rows in
    list_entries (every entry) in the database, set-based (an upsert and a delete); for a
    computed list (its rows only its changes), its entries read from its chunks (written
    first) and sent a batch at a time, then the players not on it deleted.
    ``changes``: a close's, when latest_entries hold the list it started from (its parent):
    only those players' rows are written; otherwise ``changes`` are not used.

    Returns the rows inserted, updated or deleted. Once they are committed, latest_entries
    are vacuumed on PostgreSQL (ratingdb.db.vacuum), so that counts over them stay
    index-only scans."""
    if changes is not None:
        found = write_latest_changes(session, list_id, changes)
        if found is not None:
            return found
    target = _target(session, list_id)
    if target.later:
        return 0
    if target.parent is None:
        # A list without a parent (an import) stores every entry in list_entries: compared
        # in the database, set-based.
        connection = session.connection()
        values = {"category": str(target.category), "list_id": list_id}
        upsert = _UPSERT_LATEST.format(source=_LIST_SOURCE)
        written = max(0, connection.execute(text(upsert), values).rowcount)
        remove = _DELETE_GONE.format(source=_LIST_SOURCE)
        written += max(0, connection.execute(text(remove), values).rowcount)
    else:
        written = _write_from_chunks(session, str(target.category), list_id)
    _held(session, target, written)
    return written


def write_latest_changes(session: Session, list_id: int, changes: LatestChanges) -> int | None:
    """:func:`write_latest` with a close's ``changes``, before the list's chunks are written (a
    close has a thread run it while it makes the list: the upsert is the server's work);
    returns the rows written, or
    None where the changes cannot be used (latest_entries hold another list than the parent):
    then nothing was done, and :func:`write_latest` is called once the chunks are written."""
    target = _target(session, list_id)
    if target.later:
        return 0
    if not target.holds_parent:
        return None
    written = _write_changes(session, str(target.category), changes)
    _held(session, target, written)
    return written


class _Target(NamedTuple):
    """A list as write_latest sees it: its category (as stored), its parent, which list
    latest_entries hold (None: none of the category), and whether that list comes after it
    (its list date and revision): then latest_entries are left alone."""

    list_id: int
    category: Category
    parent: int | None
    current: int | None
    later: bool

    @property
    def holds_parent(self) -> bool:
        return self.current is not None and self.parent is not None and self.current == self.parent


def _target(session: Session, list_id: int) -> _Target:
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
    later = current is not None and (current[1], current[2]) > (list_date, revision)
    return _Target(list_id, category, parent, None if current is None else current[0], later)


def _write_changes(session: Session, category: str, changes: LatestChanges) -> int:
    return _upsert(session, category, changes.entries) + _delete(session, category, changes.gone)


def _held(session: Session, target: _Target, written: int) -> None:
    """latest_lists names the list as the one latest_entries hold (``written`` rows)."""
    connection = session.connection()
    if target.current is None:
        connection.execute(
            insert(LatestListRow).values(category=target.category, list_id=target.list_id)
        )
    elif target.current != target.list_id:
        connection.execute(
            update(LatestListRow)
            .where(LatestListRow.category == target.category)
            .values(list_id=target.list_id)
        )
    if written:
        vacuum_after_commit(session, ("latest_entries",))


def _write_from_chunks(session: Session, category: str, list_id: int) -> int:
    """Every entry of a computed list, read from its chunks a batch at a time (the chunks are
    the list), upserted; then the rows of the players not on it deleted."""
    listed: set[str] = set()
    written = 0
    for ids, *fields in column_batches(session, list_id, LATEST_KEYS):
        listed.update(ids)
        written += _upsert(session, category, list(zip(ids, *fields, strict=True)))
    held = raw_rows(session, "SELECT player_id FROM latest_entries WHERE category = ?", (category,))
    return written + _delete(session, category, [p for (p,) in held if p not in listed])


def _upsert(
    session: Session, category: str, entries: Sequence[tuple[str, int, int, int, date | None]]
) -> int:
    """``entries`` (player_id, rating, rated_games, peak_rating, last_rated) upserted: only the
    rows that differ written. On PostgreSQL CHUNK players a statement (arrays); on SQLite one
    executemany (SQLite runs the statement per row in C)."""
    connection = session.connection()
    written = 0
    if session.get_bind().dialect.name == "postgresql":
        upsert = text(_UPSERT_LATEST.format(source=_ARRAY_SOURCE))
        for part in chunks(entries, UPSERT_CHUNK):
            ids, ratings, games, peaks, lasts = (list(c) for c in zip(*part, strict=True))
            found = connection.execute(
                upsert,
                {"category": category, "ids": ids, "ratings": ratings, "games": games,
                 "peaks": peaks, "lasts": lasts},
            )  # fmt: skip
            written += max(0, found.rowcount)
    elif entries:
        # The driver's executemany, straight: SQLAlchemy would build each entry's parameters
        # (6 us an entry).
        rows = [
            (category, *entry[:4], None if entry[4] is None else entry[4].isoformat())
            for entry in entries
        ]
        written += max(0, connection.exec_driver_sql(_UPSERT_ONE, rows).rowcount)
    return written


def _delete(session: Session, category: str, gone: Sequence[str]) -> int:
    """The rows of the players ``gone`` deleted, CHUNK players a statement."""
    written = 0
    for part in chunks(sorted(set(gone))):
        found = session.connection().execute(
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
    rated_games, peak_rating, last_rated of every entry); False where they hold another list."""
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
