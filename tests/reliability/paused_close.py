"""``python -m tests.reliability.paused_close ARGS``: ``python -m ratingdb ARGS`` whose close
stops for good once its calculations are written, before the rest of its list: killed there, it
dies in the middle of its write whatever the machine's speed.

Waiting for a plain close to be seen writing raced with it: on a fast host the commit of the
test's federation overwrites the SQLite file for a few milliseconds, which a look every 5 ms
missed (2026-12-05). Here SQLite's page cache is made small (CACHE_PAGES), so that the pages
written spill into the database file before the commit, as a large close's do: the close holds
the exclusive lock and its journal is hot from the first spill. On PostgreSQL its backend sits
in its transaction after ``COPY player_calculations``. What the close writes and how is
unchanged; it only stops, at a point it passes anyway.
"""

from __future__ import annotations

import runpy
import sqlite3
import sys
import threading
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session

from ratingdb.services.close import writing

#: SQLite's page cache of the close's connections, in pages (the default holds 2 MB).
CACHE_PAGES = 10
#: What the close prints on its standard error once it stops.
PAUSED = "paused before the rest of the list"


@event.listens_for(Engine, "connect")
def _small_cache(dbapi_connection: Any, _record: Any) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        dbapi_connection.execute(f"PRAGMA cache_size = {CACHE_PAGES}")


def _stopped(self: Any, session: Session) -> int:
    print(PAUSED, file=sys.stderr, flush=True)
    threading.Event().wait()  # until killed
    raise AssertionError("unreachable")


writing._ListWriting.finish = _stopped  # type: ignore[method-assign]

if __name__ == "__main__":
    runpy.run_module("ratingdb", run_name="__main__", alter_sys=True)
