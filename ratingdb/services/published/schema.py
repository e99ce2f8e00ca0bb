"""The schema revision of the database (``/health``)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ratingdb.repositories import published as repo


def schema_revision(session: Session) -> str | None:
    """The schema revision of the database the session reads."""
    return repo.schema_revision(session)


def schema_state(session: Session) -> tuple[str | None, repo.Standby | None]:
    """The schema revision of the database the session reads, and its replay lag if it is a
    standby (None: a primary, or SQLite), in one query."""
    return repo.schema_state(session)
