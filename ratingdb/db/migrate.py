"""Alembic, run from Python: the ``db upgrade`` command, the test fixtures and the health check
use these instead of the ``alembic`` command line (both read ``[tool.alembic]`` in pyproject.toml).
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import URL, make_url

from ratingdb.db.engine import make_engine

#: The Alembic scripts: migrations/ at the top of the repository, shipped in the wheel as the
#: package ratingdb.migrations (pyproject.toml [tool.setuptools.package-dir]).
MIGRATIONS_PACKAGE = "ratingdb.migrations"


def migrations_directory() -> Path:
    """Where the installed ratingdb keeps its Alembic scripts: found by import, so it is the
    same for a wheel, an editable install and a container, never guessed from a checkout."""
    spec = importlib.util.find_spec(MIGRATIONS_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            f"ratingdb's migrations ({MIGRATIONS_PACKAGE}) are not installed: reinstall ratingdb"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def alembic_config(url: str | URL | None = None) -> Config:
    """The Alembic configuration of the installed migrations, pointed at ``url`` when given
    (migrations/env.py otherwise falls back to the RATINGDB_ settings). The `alembic` command
    run in a checkout reads the same location from [tool.alembic] in pyproject.toml."""
    config = Config()
    config.set_main_option("script_location", str(migrations_directory()))
    if url is not None:
        text = make_url(url).render_as_string(hide_password=False)
        # The option goes through configparser interpolation: a literal % must be doubled.
        config.set_main_option("sqlalchemy.url", text.replace("%", "%%"))
    return config


def upgrade(url: str | URL, revision: str = "head") -> None:
    """Create or migrate the database at ``url`` to ``revision`` (the latest by default)."""
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str | URL, revision: str) -> None:
    """Migrate the database at ``url`` down to ``revision`` (``"base"``: an empty database)."""
    command.downgrade(alembic_config(url), revision)


def current_revision(url: str | URL) -> str | None:
    """The revision the database is at; None for a database Alembic has never touched."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


@functools.cache
def migration_scripts() -> ScriptDirectory:
    """The installed migrations, read once per process: loading them executes every revision
    file, and a process that checks the schema before each command (a test run, a server)
    would do it again each time. The installed files do not change under a running process."""
    scripts = ScriptDirectory.from_config(alembic_config())
    scripts.revision_map.heads  # noqa: B018 (parse every revision file now, once)
    return scripts


def head_revision() -> str | None:
    """The latest revision in migrations/ (None if there is none)."""
    return migration_scripts().get_current_head()
