"""Alembic environment: the target schema is ratingdb.models' metadata.

The database is ``sqlalchemy.url`` when the caller set it (ratingdb.db.migrate does), else the
RATINGDB_ settings. A caller may also lend an open connection as ``config.attributes
["connection"]``. SQLite runs with batch mode (ALTER by table copy) and, thanks to the BEGIN hook
of ratingdb.db.make_engine, with each upgrade in one transaction.
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy.engine import Connection

import ratingdb.models
from ratingdb.config import Settings
from ratingdb.db.engine import is_sqlite, make_engine

config = context.config
target_metadata = ratingdb.models.Base.metadata


def database_url() -> str:
    # The `alembic` command line has no .ini section at all: ask the parser, not get_main_option.
    if config.file_config.has_option(config.config_ini_section, "sqlalchemy.url"):
        url = config.get_main_option("sqlalchemy.url")
        if url:
            return url
    # An edge (the `alembic` command line): the environment is read here, once.
    return Settings.from_env(os.environ).database_url


def run_migrations_offline() -> None:
    """``alembic upgrade --sql``: print the SQL instead of running it."""
    url = database_url()
    context.configure(
        url=url,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        target_metadata=target_metadata,
        render_as_batch=is_sqlite(url),
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # `alembic check` compares column types and server defaults too.
        compare_type=True,
        compare_server_default=True,
        # SQLite cannot ALTER most things: batch operations copy the table instead.
        render_as_batch=connection.dialect.name == "sqlite",
        # SQLite can roll back DDL once SQLAlchemy emits BEGIN (Alembic assumes it cannot), so
        # a failed upgrade leaves nothing half-done on either database.
        transactional_ddl=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    lent = config.attributes.get("connection")
    if lent is not None:
        run_on(lent)
        return
    engine = make_engine(database_url())
    try:
        with engine.connect() as connection:
            run_on(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
