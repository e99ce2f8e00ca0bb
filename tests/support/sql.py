"""Reading a database back with plain SQL: what is stored, seen without the code under test."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, inspect, text

from tests.support import rolled_back


def query(url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (with ``:name`` parameters) on the database at ``url`` (in the
    test's rolled-back transaction when it holds that database: tests/support/rolled_back.py)."""
    held = rolled_back.held_for(url)
    if held is not None:
        return held.rows(sql, **params)
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql), params)]
    finally:
        engine.dispose()


def table_names(url: str) -> set[str]:
    """The tables of the database at ``url``."""
    held = rolled_back.held_for(url)
    if held is not None:
        return set(inspect(held.connection).get_table_names())
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


#: The fields of a list entry, in the order of ratingdb.db.chunks.ENTRY.
ENTRY_FIELDS = (
    "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating", "last_rated", "active",
)  # fmt: skip


def listed(url: str, where: str, **params: Any) -> dict[int, list[dict[str, Any]]]:
    """Every entry (field -> value) of the lists ``where`` selects (a condition on
    ``rating_lists AS l``), per list id, in list order: unpacked from the lists' chunks, which
    hold every entry of a list (list_entries holds only a computed list's changes)."""
    from ratingdb.db.chunks import unpack  # the packed format, tested on its own

    rows = query(
        url,
        "SELECT l.id, c.entries FROM rating_lists AS l "
        f"JOIN list_chunks AS c ON c.list_id = l.id WHERE {where} ORDER BY l.id, c.chunk",
        **params,
    )
    found: dict[int, list[dict[str, Any]]] = {}
    for list_id, packed in rows:
        found.setdefault(list_id, []).extend(
            dict(zip(ENTRY_FIELDS, entry, strict=True)) for entry in unpack(bytes(packed))
        )
    return found


def entries_where(
    url: str, where: str, fields: tuple[str, ...], **params: Any
) -> list[tuple[Any, ...]]:
    """(``fields``) of every entry of the lists ``where`` selects (see :func:`listed`)."""
    return [
        tuple(entry[field] for field in fields)
        for entries in listed(url, where, **params).values()
        for entry in entries
    ]
