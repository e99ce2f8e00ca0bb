"""The test databases' names, templates and clean-up (used by tests/conftest.py and the module-
and session-scoped database fixtures).

Migrating is done once per run and per pytest-xdist worker: a SQLite template file is copied
for each test, and a PostgreSQL template database is cloned for each test with ``CREATE
DATABASE ... TEMPLATE``. Every test still has its own database.

On PostgreSQL every database is named ``<prefix><run>_<worker>_...`` where the prefix comes from
``RATINGDB_TEST_DB_PREFIX`` (default ``ratingdb_t_``), ``run`` identifies this pytest run (the
same on all its workers) and ``worker`` the xdist worker (``main`` without xdist). Each database
is dropped by its fixture's finalizer, and at the end of the session each worker drops whatever
is left under its own ``<prefix><run>_<worker>_`` (a test that made a copy and failed before
dropping it): never a database outside that stem, so two runs sharing a server (two checkouts,
two engineers) never drop each other's databases.
"""

from __future__ import annotations

import os
import queue
import re
import secrets
import shutil
import socket
import threading
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url

from ratingdb.db import upgrade

PREFIX_VARIABLE = "RATINGDB_TEST_DB_PREFIX"
DEFAULT_PREFIX = "ratingdb_t_"
#: Lower-case letters, digits and underscores (no quoting surprises), short enough that the
#: longest name a test makes (a copy of a copy) stays under PostgreSQL's 63 bytes.
PREFIX_PATTERN = re.compile(r"[a-z_][a-z0-9_]{0,19}")
SQLITE_FILE = "ratingdb.sqlite3"
#: How many test databases a worker drops at once (see PostgreSQLDatabases): at most this many
#: finished tests' databases wait on the server (a migrated one is about 8.5 MB).
DROP_BATCH = 8


def database_prefix(value: str | None) -> str:
    """The prefix of every test database (``RATINGDB_TEST_DB_PREFIX``), checked."""
    prefix = DEFAULT_PREFIX if value is None else value
    if not PREFIX_PATTERN.fullmatch(prefix):
        raise ValueError(
            f"{PREFIX_VARIABLE}={prefix!r}: use 1 to 20 lower-case letters, digits or "
            "underscores, starting with a letter or an underscore"
        )
    return prefix


def worker_id() -> str:
    """The pytest-xdist worker running this process (``gw0``...), ``main`` without xdist."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


#: This run, the same on all its workers (pytest-xdist shares one id); without xdist, new.
RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID", secrets.token_hex(3))[:6]


def worker_stem(prefix: str) -> str:
    """``<prefix><run>_<worker>_``: the start of every database name this worker makes."""
    return f"{prefix}{RUN_ID}_{worker_id()}_"


class PostgreSQLDatabases:
    """Creates and drops this worker's PostgreSQL databases, all named under ``stem``.

    A test's database is dropped by a background thread (``drop_soon``) while the next tests
    run, in batches: every DROP DATABASE makes the server take a checkpoint and waits for it (a
    median 0.75 s, up to seconds on a busy server, one after the other), but drops issued
    together wait for the same checkpoint (measured: 8 drops one after the other 12-18 s, the
    same 8 at once under 1 s). So the thread waits until DROP_BATCH databases are queued (or
    ``close`` is called) and drops them at once. ``close`` drops what is left, waits, and raises
    the first failure, if any, so none goes unnoticed."""

    def __init__(self, admin: Engine, stem: str) -> None:
        self.admin = admin
        self.stem = stem
        self._template: str | None = None
        self._to_drop: queue.Queue[str | None] = queue.Queue()
        self._dropper: threading.Thread | None = None
        self._failures: list[BaseException] = []

    def url(self, name: str) -> str:
        return self.admin.url.set(database=name).render_as_string(hide_password=False)

    def new_name(self, kind: str) -> str:
        return f"{self.stem}{kind}_{secrets.token_hex(4)}"

    def create(self, kind: str, *, migrated: bool) -> str:
        """A new database (a clone of the migrated template when ``migrated``); its URL."""
        name = self.new_name(kind)
        template = f' TEMPLATE "{self.template()}"' if migrated else ""
        self._execute(f'CREATE DATABASE "{name}"{template}')
        return self.url(name)

    def drop(self, url: str) -> None:
        """Drop the database at ``url`` now."""
        self._execute(f'DROP DATABASE IF EXISTS "{self._own(url)}" WITH (FORCE)')

    def drop_soon(self, url: str) -> None:
        """Have the background thread drop the database at ``url`` (with the next batch)."""
        name = self._own(url)
        if self._failures:
            raise RuntimeError("dropping a test database failed") from self._failures[0]
        if self._dropper is None:
            self._dropper = threading.Thread(target=self._drop_queued, daemon=True)
            self._dropper.start()
        self._to_drop.put(name)

    def close(self) -> None:
        """Drop every database given to ``drop_soon`` and wait until they are gone; raise the
        first failure."""
        if self._dropper is not None:
            self._to_drop.put(None)
            self._dropper.join()
            self._dropper = None
        if self._failures:
            raise RuntimeError("dropping a test database failed") from self._failures[0]

    def _drop_queued(self) -> None:
        batch: list[str] = []
        closing = False
        while not closing:
            name = self._to_drop.get()
            if name is None:
                closing = True
            else:
                batch.append(name)
            if batch and (closing or len(batch) >= DROP_BATCH):
                self._failures.extend(self._drop_all(batch))
                batch = []

    def _drop_all(self, names: list[str]) -> list[BaseException]:
        """Drop ``names`` at once, one connection each (they share the server's checkpoint);
        the failures."""
        failures: list[BaseException] = []

        def drop(name: str) -> None:
            try:
                self._execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except Exception as failure:  # returned: raised by the caller
                failures.append(failure)

        for start in range(0, len(names), DROP_BATCH):  # within the admin engine's pool
            droppers = [
                threading.Thread(target=drop, args=(name,))
                for name in names[start : start + DROP_BATCH]
            ]
            for dropper in droppers:
                dropper.start()
            for dropper in droppers:
                dropper.join()
        return failures

    def _own(self, url: str) -> str:
        name = make_url(url).database
        if name is None or not name.startswith(self.stem):
            raise ValueError(f"{name!r} is not one of this worker's databases ({self.stem}...)")
        return name

    def template(self) -> str:
        """The worker's migrated template (made on first use). Nothing stays connected to it:
        ``upgrade`` disposes its engine, and PostgreSQL refuses to copy a database in use."""
        if self._template is None:
            name = f"{self.stem}template"
            self._execute(f'CREATE DATABASE "{name}"')
            upgrade(self.url(name))
            self._template = name
        return self._template

    def sweep(self) -> list[str]:
        """Drop every database left under this worker's stem (the template included); the
        names dropped."""
        with self.admin.connect() as connection:
            names = connection.execute(
                text("SELECT datname FROM pg_database WHERE starts_with(datname, :stem)"),
                {"stem": self.stem},
            ).scalars()
            left = [name for name in names if name.startswith(self.stem)]
        failures = self._drop_all(left)
        if failures:
            raise RuntimeError(f"sweeping {self.stem}* failed") from failures[0]
        self._template = None
        return left

    def _execute(self, statement: str) -> None:
        with self.admin.connect() as connection:
            connection.exec_driver_sql(statement)


def migrated_sqlite_file(folder: Path) -> Path:
    """A SQLite file at the latest migration in ``folder`` (the worker's template)."""
    path = folder / SQLITE_FILE
    upgrade(f"sqlite:///{path}")
    return path


def copy_sqlite(template: Path, folder: Path, name: str = SQLITE_FILE) -> str:
    """A copy of the migrated template in ``folder`` (as ``name``); its URL. The template has
    no journal beside it: ``upgrade`` committed and closed its connection."""
    target = folder / name
    shutil.copyfile(template, target)
    return f"sqlite:///{target}"


#: Ports handed to servers the tests start: each xdist worker takes its own slice of a range
#: below Linux's ephemeral ports (32768-60999), so a port picked free by one worker is never
#: picked by another, nor taken in the meantime by some client's outgoing connection.
PORTS_START = 20000
PORTS_PER_WORKER = 1000
_next_port: dict[str, int] = {}


def free_port() -> int:
    """A port on 127.0.0.1 nobody is listening on, from this worker's own slice."""
    worker = worker_id()
    index = int(worker[2:]) + 1 if worker.startswith("gw") and worker[2:].isdigit() else 0
    first = PORTS_START + (index % 12) * PORTS_PER_WORKER
    start = _next_port.get(worker, first)
    for offset in range(PORTS_PER_WORKER):
        port = first + (start - first + offset) % PORTS_PER_WORKER
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _next_port[worker] = port + 1
        return port
    raise RuntimeError(f"no free port in {first}-{first + PORTS_PER_WORKER - 1}")
