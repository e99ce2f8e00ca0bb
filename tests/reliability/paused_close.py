"""``python -m tests.reliability.paused_close ARGS``: ``python -m ratingdb ARGS`` whose close
stops once its calculations are written, before the rest of its list, in its transaction: a
test acts on it there (kills it, or reads beside it) whatever the machine's speed, then, if it
named a file in RESUME_VARIABLE, creates that file and the close goes on; otherwise it stops
for good. Once stopped, it creates the file PAUSED_VARIABLE names: what it shows the database
then (its last statement, latest_entries' upsert on PostgreSQL) is no sign of where it is.

Waiting for a plain close to be seen writing raced with it: on a fast host the commit of the
tests' federation overwrites the SQLite file for a few milliseconds, which a look every 5 ms
missed (2026-12-05). With SPILL_VARIABLE set, SQLite's page cache is made small
(CACHE_PAGES), so that the pages written spill into the database file before the commit, as a
large close's do: the close then holds the exclusive lock and its journal is hot from the first
spill (readers are shut out until it ends). On PostgreSQL its backend sits in its transaction
after ``COPY player_calculations``. What the close writes and how is unchanged; it only waits,
at a point it passes anyway.
"""

from __future__ import annotations

import os
import runpy
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session

from ratingdb.services.close import writing

#: Set (to anything): SQLite's pages spill into the file before the commit.
SPILL_VARIABLE = "RATINGDB_TEST_SPILL"
#: A file's path: the close creates the file once it has stopped (in its transaction).
PAUSED_VARIABLE = "RATINGDB_TEST_PAUSED_FILE"
#: A file's path: the close goes on once the file exists.
RESUME_VARIABLE = "RATINGDB_TEST_RESUME_FILE"
#: SQLite's page cache of the close's connections with SPILL_VARIABLE, in pages (the default
#: holds 2 MB).
CACHE_PAGES = 10
#: How often the stopped close looks for the file that lets it go on.
LOOK_EVERY_S = 0.01

_finish = writing._ListWriting.finish


def _small_cache(dbapi_connection: Any, _record: Any) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.execute(f"PRAGMA cache_size = {CACHE_PAGES}")


def _stopped(self: Any, session: Session) -> int:
    paused = os.environ.get(PAUSED_VARIABLE)
    if paused is not None:
        Path(paused).touch()
    resume = os.environ.get(RESUME_VARIABLE)
    if resume is None:
        threading.Event().wait()  # until killed
        raise AssertionError("unreachable")
    while not Path(resume).exists():  # the test's signal, however long it takes
        time.sleep(LOOK_EVERY_S)
    rows: int = _finish(self, session)
    return rows


def main() -> None:
    """The close changed as the docstring says (only here: importing this module for its
    names changes nothing), then the command."""
    if os.environ.get(SPILL_VARIABLE):
        event.listen(Engine, "connect", _small_cache)
    writing._ListWriting.finish = _stopped  # type: ignore[method-assign]
    runpy.run_module("ratingdb", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
