"""The schema revision the database is at (``/health``)."""

from __future__ import annotations

from sqlalchemy import column, inspect, select, table
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

_VERSION = table("alembic_version", column("version_num"))


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
