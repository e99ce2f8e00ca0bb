"""Operational failures on the command line: one line saying what went wrong and what to do.

The edges (``ratingdb``, ``python -m jobs``) call :func:`explain` on an exception that ended a
command; it maps the failures an operator can act on (database not migrated, unreachable,
read-only, damaged, an unusable setting, a connection lost while working, a file that cannot be
read) to a sentence, explicitly, by exception type and driver error code. Anything else is
"unexpected" and says how to see the traceback (``--debug`` or ``RATINGDB_DEBUG=1``), which
re-raises instead.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

import psycopg
from alembic.runtime.migration import MigrationContext
from alembic.util import CommandError
from sqlalchemy import Connection
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from ratingdb.config import ConfigurationError, Settings
from ratingdb.db import make_engine, migration_scripts
from ratingdb.defaults import debug_enabled

DEBUG_VARIABLE = "RATINGDB_DEBUG"
EXIT_FAILURE = 1
UPGRADE = "run `ratingdb db upgrade`"
DEMO = "`ratingdb demo`"


class OperationalFailure(Exception):
    """A failure of the environment, not of the input; its message says what to do."""


def debug_wanted(option: bool | None, environ: Mapping[str, str]) -> bool:
    """``--debug``, or ``RATINGDB_DEBUG`` set to anything but empty or ``0`` (read here, not
    from Settings: a failure to build the settings is shown this way too)."""
    return bool(option) or debug_enabled(environ.get(DEBUG_VARIABLE, ""))


def database_named(option: str | None, environ: Mapping[str, str]) -> str | None:
    """The database a failed command used, to name it in the message; None when the setting
    itself is what failed (its own message says so)."""
    try:
        return Settings.from_env(environ, database_url=option).database_url
    except ConfigurationError:
        return None


def shown(url: str) -> str:
    """The database as an operator recognises it: the SQLite file, or the URL without password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return parsed.database or ":memory:"
    return parsed.render_as_string(hide_password=True)


def require_sqlite_file(url: str, setting: str = "--database-url") -> None:
    """A SQLite database that does not exist yet is not created by a command that expects one
    (SQLite would create an empty file, and the command would then fail on a missing table).
    ``setting``: where the URL came from, for the message."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.query.get("uri"):
        return
    if parsed.database in (None, "", ":memory:"):
        return
    if not Path(parsed.database).exists():
        raise OperationalFailure(
            f"there is no database at {parsed.database}: {UPGRADE} to create it ({DEMO} "
            f"creates one holding the sample federation), or give the right {setting}"
        )


def not_set_up(url: str) -> OperationalFailure:
    """A database that answers but was never migrated (an empty SQLite file, say)."""
    return OperationalFailure(f"the database at {shown(url)} is not set up: {UPGRADE}")


def require_latest_schema(connection: Connection, url: str) -> None:
    """Refuse to work on a database that is not at the schema of this ratingdb."""
    current = MigrationContext.configure(connection).get_current_revision()
    scripts = migration_scripts()
    head = scripts.get_current_head()
    if current == head:
        return
    if current is None:
        raise not_set_up(url)
    try:
        scripts.get_revision(current)
    except CommandError:
        raise OperationalFailure(
            f"the database at {shown(url)} is at schema revision {current}, which this ratingdb "
            f"does not know (it needs {head}): use the newer ratingdb that migrated it"
        ) from None
    raise OperationalFailure(
        f"the database at {shown(url)} is at schema revision {current}, this ratingdb needs "
        f"{head}: {UPGRADE}"
    )


def require_ready_database(url: str) -> None:
    """The database exists and is at the latest schema, checked on a connection of its own
    (for the jobs, which open a transaction per period)."""
    require_sqlite_file(url)
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            require_latest_schema(connection, url)
    finally:
        engine.dispose()


def require_database_to_serve(url: str, setting: str, *, latest: bool) -> None:
    """What a server checks once before it listens, so that it never starts on no database:
    the database exists (no SQLite file is created), answers, and has been set up. ``latest``
    (the back office, a writer, as the scheduler): at this ratingdb's schema. Otherwise (the
    read-only API) any revision will do: a replica still replaying a migration is served, and
    ``/health`` answers 503 naming the revision until it is at the latest."""
    require_sqlite_file(url, setting)
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            if latest:
                require_latest_schema(connection, url)
            elif MigrationContext.configure(connection).get_current_revision() is None:
                raise not_set_up(url)
    finally:
        engine.dispose()


def explain(error: BaseException, url: str | None) -> str | None:
    """The one line for a known operational failure; None when the failure is not one."""
    if isinstance(error, (OperationalFailure, ConfigurationError)):
        return str(error)
    database_error = _first_database_error(error)
    if database_error is not None:
        where = "the database" if url is None else f"the database at {shown(url)}"
        if isinstance(database_error.orig, sqlite3.Error):
            return _sqlite(database_error.orig, where)
        if isinstance(database_error.orig, psycopg.Error):
            return _postgresql(database_error, database_error.orig, where)
        return None
    if isinstance(error, OSError) and error.filename is not None:
        return f"{error.filename}: {error.strerror}: check the path and its permissions"
    return None


def _first_database_error(error: BaseException) -> DBAPIError | None:
    """The driver error that started it: a lost connection fails the statement, then the
    rollback, whose error (raised last) has the first one as its context."""
    found: DBAPIError | None = None
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, DBAPIError):
            found = current
        current = current.__cause__ or current.__context__
    return found


def unexpected(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    first = f": {lines[0]}" if lines else ""
    return (
        f"unexpected {type(error).__name__}{first} (run again with --debug, or "
        f"{DEBUG_VARIABLE}=1, to see the traceback)"
    )


def _sqlite(error: sqlite3.Error, where: str) -> str | None:
    code = getattr(error, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    message = str(error)
    if primary == sqlite3.SQLITE_READONLY:
        return (
            f"{where} cannot be written ({message}): the file or its folder is read-only; give "
            "this user write access to both (SQLite writes its journal beside the file)"
        )
    if primary == sqlite3.SQLITE_CANTOPEN:
        return (
            f"{where} cannot be opened ({message}): check that its folder exists and that this "
            "user may read and write the file and the folder"
        )
    if primary in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT):
        return (
            f"{where} is not a SQLite database or is damaged ({message}): restore it from a "
            "backup, or give the right --database-url"
        )
    if primary == sqlite3.SQLITE_FULL:
        return f"{where}: the disk is full ({message}): free some space and run again"
    if primary == sqlite3.SQLITE_BUSY:
        return f"{where} is locked by another writer ({message}): run again when it is done"
    if primary == sqlite3.SQLITE_ERROR and message.startswith("no such table"):
        return f"{where} is not set up ({message}): {UPGRADE}"
    return None


def _postgresql(error: DBAPIError, orig: psycopg.Error, where: str) -> str | None:
    message = " ".join(str(orig).split())
    if isinstance(orig, (psycopg.errors.UndefinedTable, psycopg.errors.UndefinedColumn)):
        return f"{where} is not at this ratingdb's schema ({message}): {UPGRADE}"
    if isinstance(orig, psycopg.errors.InsufficientPrivilege):
        return f"{where} refused ({message}): give the role the rights it needs, or use another"
    if isinstance(orig, psycopg.errors.ReadOnlySqlTransaction):
        return f"{where} is read-only ({message}): point --database-url at the primary server"
    lost = error.connection_invalidated or (orig.sqlstate or "").startswith(("08", "57"))
    if isinstance(orig, psycopg.OperationalError) and error.statement is None:
        return (
            f"cannot reach {where} ({message}): check that the server is running and that "
            "the host, port and database name are right (a database not created yet: create "
            f"it, e.g. with PostgreSQL's createdb, then {UPGRADE})"
        )
    if lost or isinstance(orig, psycopg.OperationalError):
        return (
            f"the connection to {where} was lost while the command ran ({message}): what it "
            "had not committed was rolled back; check the server, then run the command again"
        )
    return None
