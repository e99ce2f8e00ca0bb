"""latest_entries: a copy of each category's latest list (player_id, rating, rated_games,
peak_rating of every entry), which the list pages filter and rank and the next close reads as
one table, and latest_lists: which list they hold. Written by an explicit call of whoever
publishes a list (:func:`write_latest`: the close, an import), never as a side effect of
writing one; they follow the list's chunks and can be written again from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.orm import Session

from ratingdb.db.vacuum import vacuum_after_commit
from ratingdb.models import LatestEntryRow, LatestListRow, RatingListRow
from ratingdb.repositories.list_storage.chunk_reads import list_columns
from ratingdb.repositories.players import chunks, one_of

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
#: list of its ancestry (the recursive CTE of changes._RESOLVE), left out at a marker. A
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
