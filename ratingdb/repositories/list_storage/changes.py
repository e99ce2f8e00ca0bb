"""A list's rows in list_entries: for a list without a parent (an import) every entry; for a
computed list only its changes against its parent (a row where a player's entry differs from
the parent's carried forward, a marker row, every field but the player None, where a player
of the parent is not on it). They index the list by player (list_entries' key starts with the
player id): a player's entry on any list is found by :func:`resolve`, under the carry-forward
rule (ratingdb.rules.carry_forward), without reading the list's chunks. The chunks are the
list; these rows follow from them and the parent's (`ratingdb periods rebuild-changes`
writes them again from the chunks: ratingdb.services.list_rows).

Also written here with a computed list: the standing of the players kept off it
(player_statuses) and every game's calculation. Written in bulk (COPY on PostgreSQL, see
ratingdb.db.bulk)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import delete, insert, literal, select
from sqlalchemy.orm import Session

from ratingdb.db.bulk import bulk_insert, bulk_insert_rows
from ratingdb.db.chunks import ENTRY
from ratingdb.db.raw import raw_rows
from ratingdb.models import ListEntryRow, PlayerCalculationsRow, PlayerStatusRow, RatingListRow
from ratingdb.repositories.list_storage.calculations import PLAYER_CALCULATION_KEYS
from ratingdb.repositories.list_storage.chunk_reads import list_columns
from ratingdb.repositories.players import chunks, one_of
from ratingdb.rules.carry_forward import Entry, ancestry_of, carried, nearest_shown

#: The columns of the rows a close writes, in the order of its tuples.
ENTRY_KEYS = (
    "list_id", "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating", "last_rated", "active",
)  # fmt: skip
STATUS_KEYS = ("list_id", "player_id", "rated_games", "peak_rating", "pool")


# --- writes --------------------------------------------------------------------------------


def write_computed(
    session: Session,
    entries: Iterable[Sequence[Any]],
    statuses: Iterable[Sequence[Any]],
    calculations: Iterable[Sequence[Any]],
) -> int:
    """A computed list's entries, statuses and calculations (tuples of ENTRY_KEYS,
    STATUS_KEYS, PLAYER_CALCULATION_KEYS), streamed into the database in that order; returns
    the rows written (a calculation counted as a row)."""
    written = write_entries_and_statuses(session, entries, statuses)
    return written + write_calculations(session, calculations)


def write_entries_and_statuses(
    session: Session, entries: Iterable[Sequence[Any]], statuses: Iterable[Sequence[Any]]
) -> int:
    """A computed list's entries and statuses (tuples of ENTRY_KEYS, STATUS_KEYS), streamed
    into the database in that order; returns the rows written."""
    written = bulk_insert_rows(session, ListEntryRow, ENTRY_KEYS, entries)
    return written + bulk_insert_rows(session, PlayerStatusRow, STATUS_KEYS, statuses)


def write_calculations(session: Session, calculations: Iterable[Sequence[Any]]) -> int:
    """A computed list's calculations (rows of PLAYER_CALCULATION_KEYS: a player's packed),
    streamed into the database: an iterator's made as they are sent (ratingdb.db.bulk);
    returns the calculations written (games, not rows)."""
    games = 0

    def counted() -> Iterator[Sequence[Any]]:
        nonlocal games
        for row in calculations:
            games += row[2]
            yield row

    bulk_insert_rows(session, PlayerCalculationsRow, PLAYER_CALCULATION_KEYS, counted())
    return games


def insert_entries(session: Session, entries: Sequence[Mapping[str, Any]]) -> int:
    """Entries given as column -> value (an imported list)."""
    return bulk_insert(session, ListEntryRow, entries)


def own_rows(session: Session, list_id: int) -> dict[str, tuple[Any, ...]]:
    """player_id -> the list's own row in list_entries (the fields of ENTRY, player_id first;
    a marker's every field but the player None), as the ORM reads them."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    found = session.connection().execute(
        select(*(ListEntryRow.__table__.c[key] for key in ENTRY)).where(
            ListEntryRow.list_id == list_id
        )
    )
    return {row[0]: _typed_fields(tuple(row), ENTRY, postgresql) for row in found}


def lock_list(session: Session, list_id: int) -> None:
    """The list's row locked until the transaction ends (PostgreSQL; SQLite's writers take
    turns anyway): whoever rewrites its rows next waits."""
    session.execute(
        select(RatingListRow.id).where(RatingListRow.id == list_id).with_for_update()
    ).scalar_one()


def replace_rows(session: Session, list_id: int, rows: Iterable[Sequence[Any]]) -> int:
    """The list's rows in list_entries replaced by ``rows`` (the fields of ENTRY each, player_id
    first; a marker's every field but the player None); returns the rows written."""
    session.execute(delete(ListEntryRow).where(ListEntryRow.list_id == list_id))
    return bulk_insert_rows(session, ListEntryRow, ENTRY_KEYS, ((list_id, *row) for row in rows))


def copy_statuses(
    session: Session, from_list: int, to_list: int, leaving_out: Sequence[str]
) -> int:
    """The statuses of the players kept off ``from_list`` copied to ``to_list`` (in the
    database), but those of ``leaving_out`` (whose new ones the caller writes); returns the
    rows kept."""
    connection = session.connection()
    copied = connection.execute(
        insert(PlayerStatusRow).from_select(
            list(STATUS_KEYS),
            select(
                literal(to_list),
                PlayerStatusRow.player_id,
                PlayerStatusRow.rated_games,
                PlayerStatusRow.peak_rating,
                PlayerStatusRow.pool,
            ).where(PlayerStatusRow.list_id == from_list),
        )
    ).rowcount
    for part in chunks(sorted(set(leaving_out))):
        copied -= connection.execute(
            delete(PlayerStatusRow).where(
                PlayerStatusRow.list_id == to_list,
                one_of(session, PlayerStatusRow.player_id, part),
            )
        ).rowcount
    return max(0, int(copied))


def insert_statuses(session: Session, statuses: Sequence[Mapping[str, Any]]) -> int:
    """Players kept off a list, as column -> value (an imported list's unrated players)."""
    return bulk_insert(session, PlayerStatusRow, statuses)


class Status(NamedTuple):
    """The standing of a player kept off a list (a row of player_statuses but list_id)."""

    player_id: str
    rated_games: int
    peak_rating: int | None
    pool: Any


def statuses_of(session: Session, list_id: int) -> list[Status]:
    """The players kept off a list."""
    rows = session.execute(
        select(
            PlayerStatusRow.player_id,
            PlayerStatusRow.rated_games,
            PlayerStatusRow.peak_rating,
            PlayerStatusRow.pool,
        ).where(PlayerStatusRow.list_id == list_id)
    ).all()
    return [Status._make(row) for row in rows]


# --- reads: a list's entries through its ancestry -------------------------------------------


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


#: The list's ancestry (a recursive CTE over rating_lists' parents), each list with ``own``: 1
#: for the list and the revisions of it that it replaces (its same-date parents: a
#: correction's revision stores its changes against the revision it replaces), whose rows are
#: shown as they are; 0 for the lists of earlier dates, whose rows are carried forward.
_CHAIN = (
    "WITH RECURSIVE chain(id, parent, list_date, own) AS ("
    "SELECT id, parent_list_id, list_date, 1 FROM rating_lists WHERE id = ? "
    "UNION ALL SELECT r.id, r.parent_list_id, r.list_date, "
    "CASE WHEN c.own = 1 AND r.list_date = c.list_date THEN 1 ELSE 0 END "
    "FROM rating_lists AS r JOIN chain AS c ON r.id = c.parent) "
)
#: The rows of some players on a list and the lists it was computed from, each with its list's
#: ``own`` and id, joined to the players' rows (list_entries' key starts with the player).
#: ``{players}``: the condition on e.player_id (placeholders: SQLite's; PostgreSQL reads
#: :data:`_RESOLVE_NEAREST`).
_RESOLVE = (
    _CHAIN + "SELECT c.own, e.list_id, e.player_id, {fields} "
    "FROM list_entries AS e JOIN chain AS c ON c.id = e.list_id WHERE e.player_id {players}"
)
#: PostgreSQL's: for each player (an array), only the nearest row read, by a backward scan of
#: list_entries' key (player_id, list_id) from the list down, stopping at the first row on a
#: list of the ancestry. Nearest is highest: a list's parent was written before it, so every
#: list of an ancestry has a smaller id than the lists below it (the database guards it:
#: migration 0013). Where :data:`_RESOLVE` reads every row of a player across a long history
#: (a third of 120 lists: 20 ms for 100 players at 121 lists of 200,000), this reads one or
#: two (3 ms; benchmarks/README.md, "Years of history").
_RESOLVE_NEAREST = (
    _CHAIN + "SELECT (SELECT own FROM chain WHERE chain.id = n.list_id), n.* "
    "FROM unnest(CAST(? AS text[])) AS p(player_id) CROSS JOIN LATERAL ("
    "SELECT e.list_id, e.player_id, {fields} FROM list_entries AS e "
    "WHERE e.player_id = p.player_id AND e.list_id <= ? AND e.list_id IN (SELECT id FROM chain) "
    "ORDER BY e.list_id DESC LIMIT 1) AS n"
)
_ENTRY_FIELDS = (
    "e.rating, e.previous_rating, e.change, e.games, e.k_factor, e.k_used, e.sum_delta, "
    "e.rated_games, e.peak_rating, e.last_rated, e.active"
)


def resolve(session: Session, list_id: int, player_ids: Iterable[str]) -> dict[str, Entry]:
    """player_id -> entry on the list of those of ``player_ids`` on it: each one's row on the
    nearest list of its ancestry, carried forward when of an earlier date, left out at a
    marker (ratingdb.rules.carry_forward.nearest_shown). One plain statement for 5,000 players
    (:func:`_nearest_rows`), the driver's tuples."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    nearest = _nearest_rows(session, list_id, player_ids, _ENTRY_FIELDS)
    entries: dict[str, Entry] = {}
    for player_id, row in nearest.items():
        entry = nearest_shown(not row[0], _typed(row[2:], postgresql))
        if entry is not None:
            entries[player_id] = entry
    return entries


def resolve_one(session: Session, list_id: int, player_id: str) -> Entry | None:
    """The player's entry on the list (None: not on it), resolved through its ancestry."""
    return resolve(session, list_id, (player_id,)).get(player_id)


def ratings_on(session: Session, list_id: int, player_ids: Iterable[str]) -> dict[str, int]:
    """The ratings of ``player_ids`` on a list (those who have an entry): as :func:`resolve`
    (a carried entry keeps the rating; a marker: none), only the rating read."""
    nearest = _nearest_rows(session, list_id, player_ids, "e.rating")
    return {player_id: int(row[3]) for player_id, row in nearest.items() if row[3] is not None}


def ratings_and_k_on(
    session: Session, list_id: int, player_ids: Iterable[str]
) -> dict[str, tuple[int, int | None]]:
    """As :func:`ratings_on`, each rating with the K the entry gives for the next period."""
    nearest = _nearest_rows(session, list_id, player_ids, "e.rating, e.k_factor")
    return {
        player_id: (int(row[3]), None if row[4] is None else int(row[4]))
        for player_id, row in nearest.items()
        if row[3] is not None
    }


def _nearest_rows(
    session: Session, list_id: int, player_ids: Iterable[str], fields: str
) -> dict[str, tuple[Any, ...]]:
    """player_id -> (own, list_id, player_id, *fields) of each player's row on the nearest list
    of the list's ancestry (own: 1 on the list or a revision it replaces, 0 on a list of an
    earlier date), 5,000 players a statement: :data:`_RESOLVE_NEAREST` on PostgreSQL,
    :data:`_RESOLVE` on SQLite (each player's rows on every list of the ancestry, the nearest,
    the highest id, kept here)."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    nearest: dict[str, tuple[Any, ...]] = {}
    for part in chunks(sorted(set(player_ids))):
        if postgresql:
            sql = _RESOLVE_NEAREST.format(fields=fields)
            for row in raw_rows(session, sql, (list_id, list(part), list_id)):
                nearest[row[2]] = tuple(row)
            continue
        placeholders = ", ".join("?" * len(part))
        sql = _RESOLVE.format(fields=fields, players=f"IN ({placeholders})")
        for row in raw_rows(session, sql, (list_id, *part)):
            found = nearest.get(row[2])
            if found is None or row[1] > found[1]:
                nearest[row[2]] = tuple(row)
    return nearest


def _typed(entry: Sequence[Any], postgresql: bool) -> tuple[Any, ...]:
    """An entry read by the driver as the ORM reads it: sum_delta a Decimal of four places,
    last_rated a date, active a bool (SQLite's driver gives a NUMERIC back as a float, a DATE
    as text and a BOOLEAN as 0 or 1)."""
    if postgresql:
        return tuple(entry)
    delta, last_rated, active = entry[7], entry[10], entry[11]
    if delta is not None:
        delta = Decimal(str(delta)).quantize(_FOUR_PLACES)
    if isinstance(last_rated, str):
        last_rated = date.fromisoformat(last_rated)
    if active is not None:
        active = bool(active)
    return (*entry[:7], delta, *entry[8:10], last_rated, active)


_FOUR_PLACES = Decimal("0.0001")


def _typed_fields(row: tuple[Any, ...], fields: Sequence[str], postgresql: bool) -> tuple[Any, ...]:
    """A row of ``fields`` as the ORM reads them (SQLite's driver: a BOOLEAN as 0 or 1, a DATE
    as text, a NUMERIC as a float)."""
    if postgresql:
        return row
    typed = list(row)
    for index, name in enumerate(fields):
        value = typed[index]
        if value is None:
            continue
        if name == "active":
            typed[index] = bool(value)
        elif name == "last_rated" and isinstance(value, str):
            typed[index] = date.fromisoformat(value)
        elif name == "sum_delta":
            typed[index] = Decimal(str(value)).quantize(_FOUR_PLACES)
    return tuple(typed)


def parent_of(session: Session, list_id: int) -> tuple[int | None, bool]:
    """The list's parent (None: it has none) and whether the list is a revision of it (the
    same list date: a correction's revision, storing its changes against the revision it
    replaces) rather than the next period computed from it."""
    row = (
        session.connection()
        .execute(
            select(RatingListRow.parent_list_id, RatingListRow.list_date).where(
                RatingListRow.id == list_id
            )
        )
        .one()
    )
    if row.parent_list_id is None:
        return None, False
    parent_date = (
        session.connection()
        .execute(select(RatingListRow.list_date).where(RatingListRow.id == row.parent_list_id))
        .scalar_one()
    )
    return int(row.parent_list_id), parent_date == row.list_date


def canonical_rows(
    session: Session, list_id: int, fields: Sequence[str] = ENTRY[:6]
) -> list[tuple[Any, ...]]:
    """``fields`` (names of ENTRY, player_id first; a digest's: the first six, and
    ``active``) of every entry, in player_id byte order, as chunk_reads.canonical_entries reads
    them from the list's chunks, but resolved from the list's own rows in list_entries (the
    other stored form of the list: ``periods verify`` checks both against the digest) over its
    parent's entries as the parent's chunks hold them (ratingdb.rules.carry_forward.shown):
    each list's rows read once (by the list_id index), not its whole ancestry's. The parent's
    chunks are checked against the parent's digest, and its rows against them, when the parent
    is verified (``periods verify --all`` checks every list: each ancestry's rows once)."""
    if fields[0] != "player_id":
        raise ValueError(f"canonical rows start with the player id, not {fields[0]!r}")
    parent, revises = parent_of(session, list_id)
    entries: dict[str, tuple[Any, ...]] = {}
    at = [ENTRY.index(name) for name in fields]
    if parent is not None and revises:
        # A revision of its parent: the parent's entries as they are.
        for values in zip(*list_columns(session, parent, fields), strict=True):
            entries[values[0]] = tuple(values)
    elif parent is not None:
        # Only the fields asked for read, and placed where an entry has them; carried() makes
        # the entry carried forward (the other fields it passes through or leaves None).
        read = [ENTRY.index(name) for name in dict.fromkeys((*ENTRY[:6], *fields))]
        for values in zip(*list_columns(session, parent, [ENTRY[i] for i in read]), strict=True):
            entry: list[Any] = [None] * len(ENTRY)
            for index, value in zip(read, values, strict=True):
                entry[index] = value
            shown = carried(entry)
            entries[shown[0]] = tuple(shown[i] for i in at)
    own = session.connection().execute(
        select(*(ListEntryRow.__table__.c[key] for key in fields)).where(
            ListEntryRow.list_id == list_id
        )
    )
    postgresql = session.get_bind().dialect.name == "postgresql"
    for row in own:
        if row[1] is None:
            entries.pop(row[0], None)  # a marker: off the list (shown() reads it so)
        else:
            entries[row[0]] = _typed_fields(tuple(row), fields, postgresql)
    return [entries[player_id] for player_id in sorted(entries)]
