"""Bulk writes for the set-based work (a period close writes thousands of entries and
calculations at once): COPY on PostgreSQL, one executemany INSERT elsewhere.

Both run inside the caller's transaction and never commit.
"""

from __future__ import annotations

import operator
import queue
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

import psycopg
from psycopg import sql
from psycopg.copy import LibpqWriter
from sqlalchemy import Boolean, Column, FromClause, Table, insert, inspect
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session


def bulk_insert(
    session: Session, table: FromClause | type[Any], rows: Sequence[Mapping[str, Any]]
) -> int:
    """Insert ``rows`` (column key -> value, the same keys in every row) into ``table`` (a Table
    or a mapped class) in the session's transaction; returns the number of rows.

    Columns left out get their server default. Values go through the columns' types as in any
    SQLAlchemy statement, and a failure is raised as the usual SQLAlchemy exception
    (``IntegrityError`` ...) on every database; the transaction then has to be rolled back.
    """
    target = table if isinstance(table, FromClause) else inspect(table).local_table
    if not isinstance(target, Table):
        raise TypeError(f"cannot bulk insert into {table!r}: not a table")
    if not rows:
        return 0
    columns = _columns(target, rows)
    dialect = session.get_bind().dialect
    if dialect.name == "postgresql" and dialect.driver == "psycopg":
        _copy(session, target, columns, rows)
    else:
        session.execute(insert(target), [dict(row) for row in rows])
    return len(rows)


#: Rows per executemany on databases without COPY: bounded memory for streamed rows.
EXECUTEMANY_CHUNK = 50_000


def bulk_insert_rows(
    session: Session,
    table: FromClause | type[Any],
    keys: Sequence[str],
    rows: Iterable[Sequence[Any]],
) -> int:
    """Like :func:`bulk_insert`, for rows given as tuples in the order of ``keys`` and streamed
    (a generator is consumed once): a close of two million players never holds its rows twice.
    """
    target = table if isinstance(table, FromClause) else inspect(table).local_table
    if not isinstance(target, Table):
        raise TypeError(f"cannot bulk insert into {table!r}: not a table")
    unknown = [key for key in keys if key not in target.c]
    if unknown:
        raise ValueError(f"{target.name} has no column {', '.join(unknown)}")
    columns = [target.c[key] for key in keys]
    dialect = session.get_bind().dialect
    if dialect.name == "postgresql" and dialect.driver == "psycopg":
        return _copy_tuples(session, target, columns, rows)
    count = 0
    statement = insert(target)
    chunk: list[dict[str, Any]] = []
    for row in rows:
        chunk.append(dict(zip(keys, row, strict=True)))
        if len(chunk) == EXECUTEMANY_CHUNK:
            session.execute(statement, chunk)
            count += len(chunk)
            chunk = []
    if chunk:
        session.execute(statement, chunk)
        count += len(chunk)
    return count


def _columns(table: Table, rows: Sequence[Mapping[str, Any]]) -> list[Column[Any]]:
    keys = list(rows[0])
    unknown = [key for key in keys if key not in table.c]
    if unknown:
        raise ValueError(f"{table.name} has no column {', '.join(unknown)}")
    expected = set(keys)
    for index, row in enumerate(rows):
        if set(row) != expected:
            raise ValueError(
                f"bulk insert into {table.name}: row {index} has columns {sorted(row)}, "
                f"row 0 has {sorted(expected)}"
            )
    columns = [table.c[key] for key in keys]
    # COPY cannot run Python-side defaults: refuse rather than silently store NULL.
    missing = [c.key for c in table.c if c.key not in expected and c.default is not None]
    if missing:
        raise ValueError(
            f"bulk insert into {table.name}: give {', '.join(missing)} (Python-side defaults)"
        )
    return columns


def _copy(
    session: Session, table: Table, columns: list[Column[Any]], rows: Sequence[Mapping[str, Any]]
) -> None:
    keys = [column.key for column in columns]
    values_of = operator.itemgetter(*keys) if len(keys) > 1 else _single(keys[0])
    _copy_tuples(session, table, columns, (values_of(row) for row in rows))


def _copy_tuples(
    session: Session, table: Table, columns: list[Column[Any]], rows: Iterable[Sequence[Any]]
) -> int:
    """COPY ``rows``. Rows given as an iterator are made as they are sent (a close rates its
    players as their calculations stream in): they are queued (:class:`_ThreadedWriter`) and
    sent by a thread, so that the server stores them while the next ones are made, on
    another core, instead of each side waiting for the other."""
    # Rows the ORM still holds (e.g. players these rows refer to) must reach the database first.
    session.flush()
    connection = session.connection()
    dialect = connection.dialect
    driver_connection = cast("psycopg.Connection[Any]", connection.connection.driver_connection)
    processors = [_bind_processor(column, dialect) for column in columns]
    target = (
        sql.Identifier(table.schema, table.name) if table.schema else sql.Identifier(table.name)
    )
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        target, sql.SQL(", ").join(sql.Identifier(column.name) for column in columns)
    )
    converted = [(i, process) for i, process in enumerate(processors) if process is not None]
    count = 0
    try:
        with (
            driver_connection.cursor() as cursor,
            cursor.copy(statement, writer=_writer_for(cursor, rows)) as copy,
        ):
            if not converted:
                # The hot path of a close: plain ints, strings, Decimals; no per-value Python.
                for row in rows:
                    copy.write_row(row)
                    count += 1
            else:
                for row in rows:
                    values = list(row)
                    for i, process in converted:
                        values[i] = process(values[i])
                    copy.write_row(values)
                    count += 1
    except psycopg.Error as error:
        raise DBAPIError.instance(
            statement.as_string(driver_connection),
            None,
            error,
            psycopg.Error,
            dialect=dialect,
        ) from error
    return count


def _writer_for(cursor: Any, rows: Iterable[Sequence[Any]]) -> LibpqWriter | None:
    """psycopg's own writer for rows already made; a thread's for rows made as they go."""
    return None if isinstance(rows, Sequence) else _ThreadedWriter(cursor)


class _ThreadedWriter(LibpqWriter):
    """A COPY's data sent by a thread, fed through a bounded queue of SEND_SIZE buffers:
    the rows are made (and formatted by psycopg) in the caller's thread while the server
    stores the ones before, and the caller waits only when QUEUED_SENDS buffers are waiting.

    Not psycopg's QueuedLibpqWriter: it queues each 32 kB buffer, and a thread that wakes
    while the caller's thread is busy making rows (a close rating its players) may wait for
    the GIL up to the interpreter's switch interval (5 ms) before each send: 32 kB per 5 ms
    would be 6.4 MB a second, where a close at 500,000 players makes 65 MB of calculations in
    a few seconds. With 1 MB buffers that wait is per megabyte."""

    def __init__(self, cursor: Any) -> None:
        super().__init__(cursor)
        self._pending = bytearray()
        self._queue: queue.Queue[bytes] = queue.Queue(maxsize=QUEUED_SENDS)
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def write(self, data: Any) -> None:
        if self._error is not None:
            raise self._error
        self._pending += data
        if len(self._pending) >= SEND_SIZE:
            self._send(bytes(self._pending))
            self._pending = bytearray()

    def _send(self, data: bytes) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._sender, name="ratingdb-copy", daemon=True)
            self._thread.start()
        self._queue.put(data)

    def _sender(self) -> None:
        try:
            while data := self._queue.get():
                LibpqWriter.write(self, data)
        except BaseException as error:  # raised again in the caller's thread (write, finish)
            self._error = error
            while self._queue.get():  # so that the caller's put never waits for ever
                pass

    def finish(self, exc: BaseException | None = None) -> None:
        if exc is None and self._pending:
            self._send(bytes(self._pending))
        self._pending = bytearray()
        if self._thread is not None:
            self._queue.put(b"")
            self._thread.join()
            self._thread = None
        if self._error is not None and exc is None:
            raise self._error
        # (With ``exc``, the caller's own failure is the one raised; the COPY is cancelled.)
        super().finish(exc)


#: What the thread of a streamed COPY sends at a time, and how many such buffers may wait.
SEND_SIZE = 1 << 20
QUEUED_SENDS = 32


def _single(key: str) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    def values_of(row: Mapping[str, Any]) -> tuple[Any, ...]:
        return (row[key],)

    return values_of


def _bind_processor(column: Column[Any], dialect: Dialect) -> Callable[[Any], Any] | None:
    """What SQLAlchemy would do to a value before handing it to psycopg (type decorators, JSON
    serialisation), so that COPY stores what an INSERT would. Booleans go as they are:
    PostgreSQL reads True/False (and 1/0) itself, and a close writes a million of them."""
    if isinstance(column.type, Boolean) and dialect.supports_native_boolean:
        return None
    return column.type.dialect_impl(dialect).bind_processor(dialect)
