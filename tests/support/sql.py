"""Reading a database back with plain SQL: what is stored, seen without the code under test."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, inspect, text


def query(url: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (with ``:name`` parameters) on the database at ``url``."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql), params)]
    finally:
        engine.dispose()


def table_names(url: str) -> set[str]:
    """The tables of the database at ``url``."""
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
