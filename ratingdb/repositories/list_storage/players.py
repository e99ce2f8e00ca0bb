"""The players of a list's entries (columns of the players table), read in the order of the
entries: a page's few by id, a whole list's in as few statements as the database allows."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Integer, String, select, text
from sqlalchemy.orm import Session

from ratingdb.models import PlayerRow
from ratingdb.repositories.list_storage.chunk_reads import column_batches
from ratingdb.repositories.players import chunks, one_of

#: Up to this many players (a page's), player_columns reads them by id (an index probe each),
#: not with a join over the players table.
FEW_PLAYERS = 1000


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
