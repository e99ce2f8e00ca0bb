"""What every database command shares: the --database-url option, a write transaction per
command, and the parsing of categories and periods into errors that name the option."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.errors import InputError
from ratingdb.rules import Category, Period


def database_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--database-url",
        help="database URL (default: RATINGDB_DATABASE_URL, else sqlite:///ratingdb.sqlite3)",
    )
    return parent


def settings(args: argparse.Namespace) -> Settings:
    return Settings.from_env(os.environ, database_url=args.database_url)


@contextmanager
def transaction(args: argparse.Namespace) -> Iterator[Session]:
    """One transaction for the whole command: committed on success, rolled back on any error,
    so a failed command changes nothing."""
    engine = make_engine(settings(args).database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
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


def who() -> str:
    """Who closes or imports: the command and its process, for the claim and the audit."""
    return f"ratingdb cli pid {os.getpid()}"
