"""latest_entries vacuumed once a rewrite of them commits (ratingdb.db.vacuum): ``VACUUM
(ANALYZE)`` on a connection of its own after the commit on PostgreSQL, nothing after a
rollback, nothing on SQLite, nothing when only a SAVEPOINT of a given transaction is released;
a list written by a close's changes asks for it, a list that changes nothing does not."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, event, text
from sqlalchemy.orm import Session

from ratingdb.db.vacuum import vacuum_after_commit
from tests.support.rolled_back import RolledBack


def vacuumed(engine: Engine) -> tuple[int, int]:
    """(VACUUMs, ANALYZEs) run on latest_entries by hand (PostgreSQL's statistics views)."""
    with engine.connect() as connection:
        found = connection.execute(
            text(
                "SELECT vacuum_count, analyze_count FROM pg_stat_user_tables "
                "WHERE relname = 'latest_entries'"
            )
        ).one()
    return int(found[0]), int(found[1])


def test_vacuumed_after_a_commit_not_after_a_rollback(engine: Engine, own_session: Session) -> None:
    if engine.dialect.name != "postgresql":
        vacuum_after_commit(own_session, ["latest_entries"])
        assert not own_session.info  # nothing to do on SQLite
        own_session.commit()
        return
    before = vacuumed(engine)
    with own_session.begin():
        vacuum_after_commit(own_session, ["latest_entries"])
    after_commit = vacuumed(engine)
    assert after_commit == (before[0] + 1, before[1] + 1)
    own_session.begin()
    vacuum_after_commit(own_session, ["latest_entries"])
    own_session.rollback()
    with own_session.begin():  # a later commit does not vacuum for the rolled-back work
        pass
    assert vacuumed(engine) == after_commit


def test_nothing_vacuumed_when_a_savepoint_of_a_given_transaction_is_released(
    database: RolledBack,
) -> None:
    """A session inside a transaction it was given commits a SAVEPOINT only: nothing is
    committed, so no VACUUM (it would wait on that transaction's locks)."""
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(args[2])

    engine = database.connection.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        with database.sessions.begin() as session:
            session.execute(text("SELECT 1"))  # the SAVEPOINT is taken
            vacuum_after_commit(session, ["latest_entries"])
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert any(s.startswith("RELEASE SAVEPOINT") for s in statements), statements
    assert not [s for s in statements if "VACUUM" in s]
    assert database.connection.in_transaction()
