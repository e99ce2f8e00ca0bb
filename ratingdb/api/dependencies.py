"""What a request gets: a reader that runs its reads in a read-only session (never a write
session), and today's date.

A route hands its whole read, a function of the session, to :class:`Reader`: the session is
opened, used, rolled back and closed in one worker thread, and the route itself is ``async``.
One thread hand-off per request, where sync routes with a session dependency take three or
four (dependency, route, response validation, dependency exit), each waiting for the GIL behind
the others. And the connection goes back to the pool before the thread is free: a route thread
never holds the pool's last connection while waiting for a thread, so any number of requests at
once cannot wedge the server.

Connections are not tested before use (a ping is one more round trip per request): a read that
finds its connection dead (the database restarted, a network blip) is run once more, on a new
connection — reads are safe to repeat.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Annotated, TypeVar, cast

from fastapi import Depends, Request
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ratingdb.db import ReadSession, read_only_session

T = TypeVar("T")
logger = logging.getLogger("ratingdb.api")


def read_engine(request: Request) -> Engine:
    """The app's engine on ``settings.read_database_url``, made by ``make_read_only_engine``."""
    engine = request.app.state.read_engine
    if not isinstance(engine, Engine):
        raise TypeError("the app has no read engine (build it with create_app)")
    return engine


class Reader:
    """Runs reads for one request, each in a read-only session of its own: it refuses to
    flush, its connection is read-only (PostgreSQL: every transaction on it, ``SET SESSION
    CHARACTERISTICS``; SQLite: ``PRAGMA query_only``), and whatever it began is rolled back."""

    def __init__(self, engine: Engine, async_engine: AsyncEngine | None = None) -> None:
        self.engine = engine
        self.async_engine = async_engine

    async def __call__(self, read: Callable[[ReadSession], T]) -> T:
        """``read(session)``: on PostgreSQL on the event loop (SQLAlchemy runs the sync code in
        a greenlet, its queries awaited on psycopg's asyncio connection), elsewhere on a worker
        thread; its result (or its exception). On the loop there is no thread hand-off and no
        tug of war for the interpreter lock around every call into libpq, which took half of a
        player history's time: 580 -> 890 histories per second at 50 clients
        (benchmarks/README.md)."""
        if self.async_engine is not None:
            try:
                return await self._once_on_loop(read, self.async_engine)
            except DBAPIError as error:
                if not error.connection_invalidated:
                    raise
                logger.warning("a database connection was lost; reading again: %s", error.orig)
                return await self._once_on_loop(read, self.async_engine)
        return await run_in_threadpool(self.run, read)

    @staticmethod
    async def _once_on_loop(read: Callable[[ReadSession], T], engine: AsyncEngine) -> T:
        async with AsyncSession(engine, sync_session_class=ReadSession, autoflush=False) as session:
            try:
                return await session.run_sync(cast(Callable[[Session], T], read))
            finally:
                await session.rollback()

    def run(self, read: Callable[[ReadSession], T]) -> T:
        """``read(session)`` in this thread; once more if its connection was found dead (the
        pool has then let go of it and of every connection opened before)."""
        try:
            return self._once(read)
        except DBAPIError as error:
            if not error.connection_invalidated:
                raise
            logger.warning("a database connection was lost; reading again: %s", error.orig)
            return self._once(read)

    def _once(self, read: Callable[[ReadSession], T]) -> T:
        with read_only_session(self.engine) as session:
            return read(session)


async def reader(request: Request) -> Reader:
    # async: a plain function dependency would itself be run on a worker thread.
    return Reader(read_engine(request), request.app.state.read_async_engine)


async def today() -> date:
    """Which rule versions are "in force": the UTC date (a dependency, so tests can fix it)."""
    return datetime.now(UTC).date()


ReaderDep = Annotated[Reader, Depends(reader)]
TodayDep = Annotated[date, Depends(today)]
