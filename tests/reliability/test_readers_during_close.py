"""Readers during a close see the period as it was before it or as it is after it, never in
between: a list without all its entries, or a published period without its list.

``ratingdb periods close`` runs in another process on a federation whose close takes a second
or two (tests.reliability.test_sigkill_close), and waits in its transaction once its
calculations are written until MIN_READS reads have fallen inside it (paused_close), while this
process reads again and again, each time in a fresh short read-only transaction
(``make_read_only_engine`` + ``read_only_session``, as the API reads): the number of lists of
2026-12, the entries of that list, and the period's state.

On PostgreSQL the reader's transactions are REPEATABLE READ: under READ COMMITTED each of the
three statements would take its own snapshot, and a reader straddling the commit would combine
two states by itself, whatever the close does. SQLite's read transaction is one snapshot already.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from ratingdb.db import is_sqlite, make_read_only_engine, read_only_session
from ratingdb.models import ListChunkRow, PeriodRow, RatingListRow
from tests.reliability import paused_close
from tests.reliability.test_sigkill_close import (
    CATEGORY,
    PERIOD,
    TIMEOUT,
    Databases,
    build_federation,
    new_tag,
    start_close,
    stop,
)

# Slow: a 10,000-player federation closed while readers poll it.
pytestmark = pytest.mark.slow

#: Reads inside the close's transaction, at least (the close waits for them).
MIN_READS = 50
#: Reads once the close's process has exited.
READS_AFTER_EXIT = 20


@dataclass(frozen=True, slots=True)
class Observation:
    lists: int
    entries: int
    state: str | None
    #: When the read began: the close's process was running / its transaction was open.
    close_running: bool
    close_in_transaction: bool

    @property
    def seen(self) -> tuple[int, int, str | None]:
        return (self.lists, self.entries, self.state)


def read(engine: Engine) -> tuple[int, int, str | None]:
    """One observation, in one short read-only transaction."""
    with read_only_session(engine) as session:
        list_ids = session.scalars(
            select(RatingListRow.id).where(
                RatingListRow.category == CATEGORY.value,
                RatingListRow.list_date == PERIOD.list_date,
            )
        ).all()
        # Every entry of the list: its chunks' sizes (list_entries holds only its changes).
        entries = session.scalar(
            select(func.sum(ListChunkRow.size)).where(ListChunkRow.list_id.in_(list_ids))
        )
        state = session.scalar(
            select(PeriodRow.state).where(
                PeriodRow.category == CATEGORY.value, PeriodRow.list_date == PERIOD.list_date
            )
        )
    return len(list_ids), int(entries or 0), state


def test_readers_see_the_period_before_or_after_the_close_never_half_closed(
    database_url: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    admin = None if is_sqlite(database_url) else request.getfixturevalue("postgresql_admin")
    databases = Databases(database_url, admin, tmp_path)
    build_federation(database_url)
    options = {} if databases.sqlite else {"isolation_level": "REPEATABLE READ"}
    engine = make_read_only_engine(database_url, **options)
    assert read(engine) == (0, 0, "open")

    tag = new_tag()
    observations: list[Observation] = []
    started = time.perf_counter()
    # The close waits in its transaction, its calculations written, until MIN_READS reads have
    # fallen inside it (tests/reliability/paused_close.py): a plain close on a fast host could
    # commit before any read did.
    paused, resume = tmp_path / "paused", tmp_path / "resume"
    process = start_close(
        database_url, tag, module="tests.reliability.paused_close",
        env={paused_close.PAUSED_VARIABLE: str(paused),
             paused_close.RESUME_VARIABLE: str(resume)},
    )  # fmt: skip
    try:
        after_exit = 0
        while after_exit < READS_AFTER_EXIT:
            running = process.poll() is None
            # The close's write transaction is open: it has stopped in it and waits for this
            # test, or what the database shows of it says so (SQLite: it holds the file's
            # write lock; PostgreSQL: its backend is in a transaction on the close's tables).
            stopped = paused.exists() and not resume.exists()
            seen = databases.where_is(database_url, tag, process.pid)
            open_transaction = stopped or seen.stage != "outside"
            observations.append(Observation(*read(engine), running, open_transaction))
            if not running:
                after_exit += 1
            if stopped and sum(o.close_in_transaction for o in observations) >= MIN_READS:
                resume.touch()
            assert time.perf_counter() - started < TIMEOUT, "the close did not end"
        out, err = process.communicate(timeout=TIMEOUT)
    finally:
        stop(process)
        engine.dispose()
    assert process.returncode == 0, err
    outcome = json.loads(out.splitlines()[-1])
    assert outcome["state"] == "published", outcome
    final = outcome["entries"]
    assert final > 0

    before, after = (0, 0, "open"), (1, final, "published")
    wrong = [o for o in observations if o.seen not in (before, after)]
    assert not wrong, f"{len(wrong)} reads saw a half-closed period, first {wrong[0]}"
    first_after = next(
        (i for i, o in enumerate(observations) if o.seen == after), len(observations)
    )
    assert all(o.seen == after for o in observations[first_after:]), "a published list went away"

    during = [o for o in observations if o.close_running]
    before_commit = observations[:first_after]
    in_close_transaction = [o for o in before_commit if o.close_in_transaction]
    after_commit = observations[first_after:]
    after_commit_running = [o for o in after_commit if o.close_running]
    print(
        f"\n[{'sqlite' if databases.sqlite else 'postgresql'}] close of {final} entries in "
        f"{time.perf_counter() - started:.2f}s; {len(during)} reads while it ran: "
        f"{len(before_commit)} before the commit ({len(in_close_transaction)} of them while "
        f"the close's transaction was open), {len(after_commit_running)} after the commit "
        f"before the process exited; {len(after_commit) - len(after_commit_running)} after"
    )
    assert len(during) >= MIN_READS
    assert in_close_transaction, "no read fell inside the close's transaction: make it longer"
    assert after_commit
