"""Players: bulk upsert from imported lists, lookups by player id, FIDE id and national id,
and the local ids of players who have neither."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import date
from functools import cache
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    any_,
    bindparam,
    distinct,
    func,
    or_,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import InstrumentedAttribute, Session, aliased

from ratingdb.db import bulk_insert
from ratingdb.formats.names import search_key
from ratingdb.models import GameRow, PlayerRow, TournamentRow
from ratingdb.models.player import LOCAL_ID_LENGTH, LOCAL_ID_PREFIX, is_local_id
from ratingdb.rules import Category

#: Parameters per IN (...) query, below every database's limit.
CHUNK = 5000

PLAYER_FIELDS = ("name", "federation", "sex", "birth_year", "title")
#: A game's two players, in the joins that name both. One alias each for the process: their
#: columns are adapted once, where aliases made at each call were adapted again (~1 ms each).
WHITE = aliased(PlayerRow)
BLACK = aliased(PlayerRow)
#: pg_advisory_xact_lock key of imports: 'RD' 'IMP'.
IMPORT_LOCK_KEY = (0x5244 << 40) | 0x494D50


def chunks(items: Sequence[Any], size: int = CHUNK) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def rows_by_key(
    session: Session, key: InstrumentedAttribute[Any], wanted: Collection[Any], *columns: Any
) -> dict[Any, tuple[Any, ...]]:
    """key -> the ``columns`` of the row whose ``key`` (a unique column) is one of ``wanted``,
    CHUNK keys a query, the statement built once (:func:`_by_key_statement`)."""
    statement = _by_key_statement(session.get_bind().dialect.name, key, columns)
    found: dict[Any, tuple[Any, ...]] = {}
    for part in chunks(sorted(wanted)):
        rows = session.connection().execute(statement, {"wanted": list(part)})
        found.update((row[0], tuple(row[1:])) for row in rows)
    return found


@cache
def _by_key_statement(
    dialect: str, key: InstrumentedAttribute[Any], columns: tuple[Any, ...]
) -> Select[Any]:
    """``SELECT key, columns ... WHERE key IN :wanted``, as :func:`one_of` writes it, built
    once per process (building it took as long as running it on a page)."""
    return select(key, *columns).where(_member_of(dialect, key, "wanted"))


def one_of(
    session: Session, column: InstrumentedAttribute[Any], values: Collection[Any]
) -> ColumnElement[bool]:
    """``column IN values``. On PostgreSQL ``column = ANY(:values)``, one array parameter: the
    statement's text is the same whatever the number of values, where an IN list is rendered
    by SQLAlchemy and parsed by the driver and the server again for every number of values (a
    fifth of a FIDE list import's time at 5,000; a player page's data, whose few hundred game
    ids were such a list, takes a fifth less CPU as one array, 2026-12-05)."""
    dialect = session.get_bind().dialect.name
    return _member_of(dialect, column, "values", value=list(values), unique=True)


def _member_of(
    dialect: str, column: InstrumentedAttribute[Any], name: str, **parameter: Any
) -> ColumnElement[bool]:
    """``column = ANY(:name)`` on PostgreSQL (one array parameter), ``column IN (:name)``
    elsewhere (expanded into a parameter a value); ``parameter``: bindparam's value, unique."""
    if dialect == "postgresql":
        return column == any_(bindparam(name, type_=ARRAY(column.type), **parameter))
    return column.in_(bindparam(name, expanding=True, **parameter))


def existing_ids(session: Session, player_ids: Collection[str]) -> set[str]:
    found: set[str] = set()
    for chunk in chunks(sorted(player_ids)):
        found.update(
            session.scalars(
                select(PlayerRow.player_id).where(one_of(session, PlayerRow.player_id, chunk))
            )
        )
    return found


def birth_years(session: Session, player_ids: Collection[str]) -> dict[str, int | None]:
    years: dict[str, int | None] = {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.execute(
            select(PlayerRow.player_id, PlayerRow.birth_year).where(
                one_of(session, PlayerRow.player_id, chunk)
            )
        )
        years.update(dict(rows.all()))
    return years


def identities(
    session: Session, player_ids: Collection[str]
) -> dict[str, tuple[str, bool, str | None]]:
    """Player id -> (name, a birth year or date known, sex), in chunks (the quality flags of a
    period's new players)."""
    found: dict[str, tuple[str, bool, str | None]] = {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.execute(
            select(
                PlayerRow.player_id, PlayerRow.name, PlayerRow.birth_year, PlayerRow.birth_date,
                PlayerRow.sex,
            ).where(one_of(session, PlayerRow.player_id, chunk))
        )  # fmt: skip
        for player_id, name, year, day, sex in rows:
            found[player_id] = (name, year is not None or day is not None, sex)
    return found


def all_birth_years(session: Session) -> dict[str, int | None]:
    """Every player's birth year (what a list import may change)."""
    return {
        row[0]: row[1]
        for row in session.connection().execute(select(PlayerRow.player_id, PlayerRow.birth_year))
    }


def with_search_name(player: Mapping[str, Any]) -> dict[str, Any]:
    """A player's columns, with the search key of the name among them (when they hold the
    name): every insert and update of a name goes through here, so that the two never
    differ."""
    row = dict(player)
    if "name" in row:
        row["search_name"] = search_key(row["name"])
    return row


def upsert(
    session: Session, players: Sequence[Mapping[str, Any]], *, keep: Collection[str] = ()
) -> tuple[int, int]:
    """Insert new players and update the known ones; returns (created, updated). A field in
    ``keep`` that is empty or None in ``players`` leaves a known player's value as stored (a
    FIDE list's record without a name or a year of birth)."""
    known = existing_ids(session, [p["player_id"] for p in players])
    new = [with_search_name(p) for p in players if p["player_id"] not in known]
    changed = [
        with_search_name(
            {key: value for key, value in p.items() if key not in keep or value not in ("", None)}
        )
        for p in players
        if p["player_id"] in known
    ]
    bulk_insert(session, PlayerRow, new)
    if changed:
        session.execute(update(PlayerRow), changed)
    return len(new), len(changed)


# --- identities: FIDE ids, national ids, local ids -------------------------------------------


def lock_imports(session: Session) -> None:
    """Serialise imports that create players or tournaments (new local ids and tournament ids
    are the highest stored plus one). PostgreSQL: a transaction-scoped advisory lock; SQLite
    writers already hold the database's write lock (BEGIN IMMEDIATE)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": IMPORT_LOCK_KEY})


def lock_players(session: Session, player_ids: Collection[str]) -> None:
    """Lock the players' rows until the transaction ends, in player id order (PostgreSQL:
    ``SELECT ... FOR UPDATE``; SQLite writers already take turns): a correction of their games
    or a merge of them waits for one running, then reads what it left. The first locks of the
    global order (repositories.periods)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    session.execute(
        select(PlayerRow.player_id)
        .where(PlayerRow.player_id.in_(sorted(set(player_ids))))
        .order_by(PlayerRow.player_id)
        .with_for_update()
    ).all()


def by_fide_ids(session: Session, fide_ids: Collection[str]) -> dict[str, PlayerRow]:
    """Players known by these FIDE ids: by ``fide_id``, else a player whose ``player_id`` is
    the id (a list CSV names players by their FIDE id) and whose FIDE id is not recorded."""
    found: dict[str, PlayerRow] = {}
    for chunk in chunks(sorted(fide_ids)):
        for row in session.scalars(
            select(PlayerRow).where(one_of(session, PlayerRow.fide_id, chunk))
        ):
            if row.fide_id is not None:
                found[row.fide_id] = row
    missing = sorted(set(fide_ids) - found.keys())
    for chunk in chunks(missing):
        for row in session.scalars(
            select(PlayerRow).where(one_of(session, PlayerRow.player_id, chunk))
        ):
            found[row.player_id] = row
    return found


def by_national_ids(
    session: Session, keys: Collection[tuple[str, str]]
) -> dict[tuple[str, str], PlayerRow]:
    """Players known by (national federation, national id)."""
    found: dict[tuple[str, str], PlayerRow] = {}
    by_federation: dict[str, list[str]] = {}
    for federation, national_id in keys:
        by_federation.setdefault(federation, []).append(national_id)
    for federation, ids in sorted(by_federation.items()):
        for chunk in chunks(sorted(ids)):
            rows = session.scalars(
                select(PlayerRow).where(
                    PlayerRow.national_federation == federation,
                    one_of(session, PlayerRow.national_id, chunk),
                )
            )
            for row in rows:
                if row.national_id is not None:
                    found[(federation, row.national_id)] = row
    return found


def new_local_ids(session: Session, count: int) -> list[str]:
    """``count`` unused local player ids: 12 digits starting with 9 (longer than any FIDE id),
    following the highest stored."""
    pattern = LOCAL_ID_PREFIX + "_" * (LOCAL_ID_LENGTH - len(LOCAL_ID_PREFIX))
    highest = session.scalar(
        select(func.max(PlayerRow.player_id)).where(PlayerRow.player_id.like(pattern))
    )
    first = (
        int(LOCAL_ID_PREFIX + "0" * (LOCAL_ID_LENGTH - 1)) + 1
        if highest is None
        else (int(highest) + 1)
    )
    return [str(first + offset) for offset in range(count)]


def unidentified(session: Session, player_ids: Collection[str]) -> set[str]:
    """Of ``player_ids``, the players known by neither a FIDE id nor a national id (a local
    id and no national id): their games are stored and shown, never rated."""
    return _local_without(session, player_ids, PlayerRow.national_id)


def without_fide_id(session: Session, player_ids: Collection[str]) -> set[str]:
    """Of ``player_ids``, the players FIDE does not know: a local id and no FIDE id recorded
    (any other player id is a FIDE id or was imported as one, from a FIDE-category list)."""
    return _local_without(session, player_ids, PlayerRow.fide_id)


def _local_without(
    session: Session, player_ids: Collection[str], column: InstrumentedAttribute[str | None]
) -> set[str]:
    """Of ``player_ids``, those with a local id and nothing in ``column``."""
    local = sorted(p for p in player_ids if is_local_id(p))
    found: set[str] = set()
    for chunk in chunks(local):
        found.update(
            session.scalars(
                select(PlayerRow.player_id).where(
                    one_of(session, PlayerRow.player_id, chunk), column.is_(None)
                )
            )
        )
    return found


def by_ids(session: Session, player_ids: Collection[str]) -> dict[str, PlayerRow]:
    """Players by player id (a handful: one IN query)."""
    return {
        row.player_id: row
        for row in session.scalars(
            select(PlayerRow).where(PlayerRow.player_id.in_(list(player_ids)))
        )
    }


def names(session: Session, player_ids: Collection[str]) -> dict[str, str]:
    """Player id -> name, in chunks (a list correction may name thousands of players)."""
    found: dict[str, str] = {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.execute(
            select(PlayerRow.player_id, PlayerRow.name).where(
                one_of(session, PlayerRow.player_id, chunk)
            )
        )
        found.update((player_id, name) for player_id, name in rows)
    return found


def insert_players(session: Session, rows: Sequence[Mapping[str, Any]]) -> int:
    """New players (column -> value, the same columns in every row) in one bulk write."""
    return bulk_insert(session, PlayerRow, [with_search_name(row) for row in rows])


def unregistered_with_fide_games(
    session: Session, categories: Collection[Category]
) -> list[tuple[PlayerRow, int, date]]:
    """The players without a FIDE id (a local id, no FIDE id recorded) who have a stored game
    in a tournament of one of ``categories``: each with how many such tournaments and the end
    of the latest, by name."""
    side = union_all(
        select(GameRow.white_id.label("player_id"), GameRow.tournament_id).where(
            GameRow.superseded_by.is_(None)
        ),
        select(GameRow.black_id.label("player_id"), GameRow.tournament_id).where(
            GameRow.superseded_by.is_(None)
        ),
    ).subquery()
    played = (
        select(
            side.c.player_id,
            func.count(distinct(side.c.tournament_id)).label("tournaments"),
            func.max(TournamentRow.end_date).label("last_played"),
        )
        .join(TournamentRow, TournamentRow.tournament_id == side.c.tournament_id)
        .where(TournamentRow.category.in_(list(categories)))
        .group_by(side.c.player_id)
        .subquery()
    )
    rows = session.execute(
        select(PlayerRow, played.c.tournaments, played.c.last_played)
        .join(played, played.c.player_id == PlayerRow.player_id)
        .where(
            PlayerRow.fide_id.is_(None),
            PlayerRow.merged_into.is_(None),
            func.length(PlayerRow.player_id) == LOCAL_ID_LENGTH,
            PlayerRow.player_id.startswith(LOCAL_ID_PREFIX),
        )
        .order_by(PlayerRow.name, PlayerRow.player_id)
    )
    return [(player, tournaments, last) for player, tournaments, last in rows]


def fide_ids_of_local_players(session: Session) -> dict[str, str]:
    """Local id -> FIDE id of the players met without a FIDE id whose FIDE id was recorded
    later (a handful): a FIDE list written out names them by their FIDE id."""
    rows = session.execute(
        select(PlayerRow.player_id, PlayerRow.fide_id).where(
            PlayerRow.fide_id.is_not(None),
            func.length(PlayerRow.player_id) == LOCAL_ID_LENGTH,
            PlayerRow.player_id.startswith(LOCAL_ID_PREFIX),
        )
    )
    return {player_id: fide_id for player_id, fide_id in rows if fide_id is not None}


def same_names_born(
    session: Session, words_of: Collection[tuple[str, ...]], years: Collection[int]
) -> list[tuple[str, str, int | None, str]]:
    """(player_id, name, birth_year, search_name) of the stored players born in ``years``
    whose search key starts with one of the first words of ``words_of`` or has it as a later
    word: the candidates of a duplicate check (the caller compares the keys). One query per
    NAME_BATCH first words (a file of thousands of new players stays within the drivers'
    parameter limits)."""
    if not words_of or not years:
        return []
    key = PlayerRow.search_name
    firsts = sorted({words[0] for words in words_of if words})
    found: dict[str, tuple[str, str, int | None, str]] = {}  # a player once, whatever batch
    for batch in chunks(firsts, NAME_BATCH):
        matches = [cond for w in batch for cond in (key.like(f"{w}%"), key.like(f"% {w}%"))]
        rows = session.execute(
            select(PlayerRow.player_id, PlayerRow.name, PlayerRow.birth_year, key).where(
                PlayerRow.birth_year.in_(sorted(years)),
                PlayerRow.merged_into.is_(None),
                or_(*matches),
            )
        )
        found.update((row[0], (row[0], row[1], row[2], row[3])) for row in rows)
    return list(found.values())


#: First words of names looked up at once by same_names_born (two LIKE patterns each).
NAME_BATCH = 100
