"""What every database command shares: the --database-url option, the --actor option of the
writing commands, a write transaction per command on a database at the latest schema, and the
parsing of categories and periods into errors that name the option."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from ratingdb.config import ACTOR_VARIABLE, ConfigurationError, Settings, resolve_actor
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.errors import InputError
from ratingdb.failures import require_latest_schema, require_sqlite_file
from ratingdb.rules import Category, Period


def database_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--database-url",
        help="database URL (default: RATINGDB_DATABASE_URL, else sqlite:///ratingdb.sqlite3)",
    )
    return parent


def actor_options() -> argparse.ArgumentParser:
    """``--actor`` for every writing command: the person the audit log names."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--actor",
        metavar="NAME",
        help=f"who does this, for the audit log (default: {ACTOR_VARIABLE}, else the "
        "operating system user)",
    )
    return parent


def actor(args: argparse.Namespace) -> str:
    """The person behind a writing command (``--actor``, ``RATINGDB_ACTOR``, the OS user); a
    name that is unusable or cannot be found is bad usage (exit 2)."""
    try:
        return resolve_actor(args.actor, os.environ, source="--actor")
    except ConfigurationError as error:
        raise InputError(str(error)) from None  # the message names the option or variable


def settings(args: argparse.Namespace) -> Settings:
    return Settings.from_env(os.environ, database_url=args.database_url)


@contextmanager
def transaction(args: argparse.Namespace) -> Iterator[Session]:
    """One transaction for the whole command: committed on success, rolled back on any error,
    so a failed command changes nothing. The database must exist and be at the latest schema."""
    url = settings(args).database_url
    require_sqlite_file(url)
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine).begin() as session:
            require_latest_schema(session.connection(), url)
            yield session
    finally:
        engine.dispose()


def category(text: str, option: str = "--category") -> Category:
    try:
        return Category.parse(text)
    except ValueError as error:
        raise InputError(str(error), field=option) from None


def period(text: str, option: str = "--period") -> Period:
    try:
        return Period.parse(text)
    except ValueError as error:
        raise InputError(str(error), field=option) from None


def utc_now() -> datetime:
    return datetime.now(UTC)
