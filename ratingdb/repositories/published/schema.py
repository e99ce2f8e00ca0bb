"""The schema revision the database is at (``/health``)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import column, inspect, select, table, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

_VERSION = table("alembic_version", column("version_num"))

#: PostgreSQL: the revision, and in the same query whether the database is a standby and,
#: only if it is, how many seconds its replay is behind: 0 when it has replayed all the WAL it
#: received, else the age of the last transaction it replayed (NULL: none replayed since it
#: started). Never negative, whatever the clocks of the primary and the standby say.
_STATE_POSTGRESQL = text(
    "SELECT version_num, in_recovery, "
    "CASE WHEN NOT in_recovery THEN NULL "
    "WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
    "ELSE greatest(0, extract(epoch FROM now() - pg_last_xact_replay_timestamp())) "
    "END::float8 AS lag_seconds "
    "FROM alembic_version, pg_is_in_recovery() AS in_recovery"
)


@dataclass(frozen=True, slots=True)
class Standby:
    """The database read is a PostgreSQL standby (a streaming replica)."""

    #: Seconds its replay is behind what it received (None: nothing replayed yet).
    lag_seconds: float | None


def schema_revision(session: Session) -> str | None:
    """The Alembic revision the database is at (None: never migrated).

    One query where Alembic's own reading takes several (it looks the table up first): the
    API's ``/health`` asks on every call. Only when that query fails is the table looked up,
    to tell a database never migrated (None) from one that cannot be read (the error). The
    session must be one a failed statement does not end (the API's: autocommit on PostgreSQL;
    SQLite)."""
    connection = session.connection()
    try:
        return connection.execute(select(_VERSION.c.version_num)).scalar()
    except DBAPIError:
        if inspect(connection).has_table("alembic_version"):
            raise
        return None


def schema_state(session: Session) -> tuple[str | None, Standby | None]:
    """:func:`schema_revision`, and whether the database is a standby and how far behind (None:
    a primary, or SQLite), in the same one query."""
    connection = session.connection()
    if connection.dialect.name != "postgresql":
        return schema_revision(session), None
    try:
        row = connection.execute(_STATE_POSTGRESQL).first()
    except DBAPIError:
        if inspect(connection).has_table("alembic_version"):
            raise
        return None, None
    if row is None:
        return None, None
    revision, in_recovery, lag_seconds = row
    return revision, Standby(lag_seconds) if in_recovery else None
