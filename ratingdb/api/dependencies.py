"""What a request gets: a read-only session (never a write session) and today's date."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine

from ratingdb.db import ReadSession, read_only_session


def read_engine(request: Request) -> Engine:
    """The app's engine on ``settings.read_database_url``, made by ``make_read_only_engine``."""
    engine = request.app.state.read_engine
    if not isinstance(engine, Engine):
        raise TypeError("the app has no read engine (build it with create_app)")
    return engine


def read_session(request: Request) -> Iterator[ReadSession]:
    """One read-only session per request: it refuses to flush, its transaction is read-only
    (PostgreSQL) or its connection is (SQLite ``PRAGMA query_only``), and it is always rolled
    back."""
    with read_only_session(read_engine(request)) as session:
        yield session


def today() -> date:
    """Which rule versions are "in force": the UTC date (a dependency, so tests can fix it)."""
    return datetime.now(UTC).date()


ReadSessionDep = Annotated[ReadSession, Depends(read_session)]
TodayDep = Annotated[date, Depends(today)]
