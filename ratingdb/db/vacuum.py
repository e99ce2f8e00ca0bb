"""Tables vacuumed once the transaction that rewrote part of them commits (PostgreSQL).

A close rewrites the rows of latest_entries of the players whose entry changed (a tenth or more
of the table): their old versions are dead rows, and the pages holding them are no longer
all-visible. Until autovacuum gets to the table, a count over its index (a rank on the latest
list) has to visit the table's pages too, instead of being an index-only scan: measured at
20,000 players, ``ranks_on`` 6.4 ms against 4.7 once vacuumed (benchmarks/README.md, "Entries
as changes, stage (a)"). ``VACUUM (ANALYZE)`` of the table right after the commit avoids it,
and renews its planner statistics.

It runs after the commit, on a connection of its own: VACUUM cannot run inside a transaction
block. Nothing on SQLite, where a count reads the index alone anyway (and VACUUM rewrites the
whole database file). An error of the VACUUM is raised from the commit (the writes are
committed by then). Nothing either when the session's commit ends only a SAVEPOINT of a
transaction it was given (``make_sessionmaker`` on a connection in a transaction): nothing is
committed yet, the VACUUM would find no dead row and wait on the transaction's locks.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, Engine, event
from sqlalchemy.orm import Session

_KEY = "ratingdb.vacuum_after_commit"


def vacuum_after_commit(session: Session, tables: Iterable[str]) -> None:
    """``VACUUM (ANALYZE)`` ``tables`` (PostgreSQL) once the session's transaction commits;
    nothing if it rolls back, nothing on SQLite."""
    if session.get_bind().dialect.name != "postgresql":
        return
    session.info.setdefault(_KEY, set()).update(tables)


def vacuum(engine: Engine, tables: Iterable[str]) -> None:
    """``VACUUM (ANALYZE)`` ``tables`` now, on a connection of its own in autocommit."""
    statement = "VACUUM (ANALYZE) " + ", ".join(sorted(tables))  # table names, not values
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql(statement)


@event.listens_for(Session, "after_commit")
def _vacuum(session: Session) -> None:
    tables = session.info.pop(_KEY, None)
    if not tables:
        return
    bind = session.get_bind()
    if isinstance(bind, Connection) and bind.in_transaction():
        return  # a SAVEPOINT released: the transaction it was given commits later, or not
    engine = bind.engine if isinstance(bind, Connection) else bind
    if not isinstance(engine, Engine):
        raise TypeError(f"cannot vacuum through {bind!r}")
    vacuum(engine, tables)


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop(_KEY, None)
