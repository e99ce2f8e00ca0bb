"""Reading a database back with plain SQL: what is stored, seen without the code under test.

Each helper reads ``where``: the test's hold on its worker's database (tests/support/
rolled_back.py), whose transaction it reads, or a database's URL, which it opens an engine on
(unless the running test holds that database: then its transaction, as ``run_cli`` does)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, create_engine, inspect, text

from tests.support import rolled_back
from tests.support.rolled_back import RolledBack

#: What a helper reads: a test's rolled-back hold, or a database's URL.
Where = RolledBack | str


@contextmanager
def _connection(where: Where, *, write: bool = False) -> Iterator[Connection]:
    held = where if isinstance(where, RolledBack) else rolled_back.held_for(where)
    if held is not None:
        if not write:
            yield held.connection
            return
        with held.sessions.begin() as session:  # a SAVEPOINT, released: as committed
            yield session.connection()
        return
    assert isinstance(where, str)
    engine = create_engine(where)
    try:
        with engine.begin() as connection:
            yield connection
    finally:
        engine.dispose()


def query(where: Where, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (with ``:name`` parameters)."""
    with _connection(where) as connection:
        return [tuple(row) for row in connection.execute(text(sql), params)]


def execute(where: Where, sql: str, **params: Any) -> int:
    """The rows ``sql`` changed, committed (in the test's transaction: its other sessions and
    the commands see them)."""
    with _connection(where, write=True) as connection:
        return int(connection.execute(text(sql), params).rowcount)


def table_names(where: Where) -> set[str]:
    """The tables of the database."""
    with _connection(where) as connection:
        return set(inspect(connection).get_table_names())


def row_counts(where: Where) -> dict[str, int]:
    """The number of rows of every table of the database."""
    with _connection(where) as connection:
        names = sorted(inspect(connection).get_table_names())
        return {
            name: connection.execute(text(f'SELECT count(*) FROM "{name}"')).scalar_one()
            for name in names
        }


#: The fields of a list entry, in the order of ratingdb.db.chunks.ENTRY.
ENTRY_FIELDS = (
    "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating", "last_rated", "active",
)  # fmt: skip


def listed(where: Where, condition: str, **params: Any) -> dict[int, list[dict[str, Any]]]:
    """Every entry (field -> value) of the lists ``condition`` selects (a condition on
    ``rating_lists AS l``), per list id, in list order: unpacked from the lists' chunks, which
    hold every entry of a list (list_entries holds only a computed list's changes)."""
    from ratingdb.db.chunks import unpack  # the packed format, tested on its own

    rows = query(
        where,
        "SELECT l.id, c.entries FROM rating_lists AS l "
        f"JOIN list_chunks AS c ON c.list_id = l.id WHERE {condition} ORDER BY l.id, c.chunk",
        **params,
    )
    found: dict[int, list[dict[str, Any]]] = {}
    for list_id, packed in rows:
        found.setdefault(list_id, []).extend(
            dict(zip(ENTRY_FIELDS, entry, strict=True)) for entry in unpack(bytes(packed))
        )
    return found


def entries_where(
    where: Where, condition: str, fields: tuple[str, ...], **params: Any
) -> list[tuple[Any, ...]]:
    """(``fields``) of every entry of the lists ``condition`` selects (see :func:`listed`)."""
    return [
        tuple(entry[field] for field in fields)
        for entries in listed(where, condition, **params).values()
        for entry in entries
    ]
