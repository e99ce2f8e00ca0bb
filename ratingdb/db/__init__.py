"""Engines, sessions, migrations and bulk writes: how ratingdb reaches its database."""

from ratingdb.db.bulk import bulk_insert
from ratingdb.db.engine import (
    ReadOnlySessionError,
    ReadSession,
    is_sqlite,
    make_engine,
    make_read_only_engine,
    make_sessionmaker,
    read_only_session,
)
from ratingdb.db.migrate import (
    alembic_config,
    current_revision,
    downgrade,
    head_revision,
    migration_scripts,
    upgrade,
)
from ratingdb.db.naming import NAMING_CONVENTION, make_metadata
from ratingdb.db.types import UtcDateTime

__all__ = [
    "NAMING_CONVENTION",
    "ReadOnlySessionError",
    "ReadSession",
    "UtcDateTime",
    "alembic_config",
    "bulk_insert",
    "current_revision",
    "downgrade",
    "head_revision",
    "is_sqlite",
    "make_engine",
    "make_metadata",
    "make_read_only_engine",
    "make_sessionmaker",
    "migration_scripts",
    "read_only_session",
    "upgrade",
]
