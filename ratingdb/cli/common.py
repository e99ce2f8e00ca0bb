"""What every database command shares: the --database-url option, the --actor option of the
writing commands, the settings of a command, a write transaction per command on a database at
the latest schema, and the parsing of categories and periods into errors that name the option.

Light on purpose: building the parser imports only this and argparse; the rules core, the
database, pydantic and the rest are imported when a command runs (``ratingdb --help`` starts in
a blink).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ratingdb import defaults
from ratingdb.errors import InputError

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from ratingdb.config import Settings
    from ratingdb.rules import Category, Period

ACTOR_VARIABLE = defaults.variable("actor")
DATABASE_URL_VARIABLE = defaults.variable("database_url")


def database_options() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--database-url",
        help=f"database URL (default: {DATABASE_URL_VARIABLE}, else {defaults.DATABASE_URL})",
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


def writing_options() -> list[argparse.ArgumentParser]:
    """The parents of a command that writes: ``--database-url`` and ``--actor``."""
    return [database_options(), actor_options()]


def command_group(commands: Any, name: str, help: str) -> Any:
    """``ratingdb NAME ACTION ...``: the group's sub-commands, to add each action to; the
    action's name is ``args.action`` (ratingdb.cli.fields keys its table on it)."""
    parser: argparse.ArgumentParser = commands.add_parser(name, help=help)
    return parser.add_subparsers(dest="action", required=True, metavar="ACTION")


def setting_help(name: str, text: str, default: object = None) -> str:
    """An option's help: what it is, then what applies without it: the variable of the setting
    (the option's destination is the setting's name), else the default."""
    fallback = defaults.variable(name) + ("" if default is None else f", else {default}")
    return f"{text} (default: {fallback})".lstrip()


def setting_option(
    parser: argparse.ArgumentParser,
    name: str,
    text: str = "",
    unset: object = None,
    **options: Any,
) -> None:
    """The option of the setting ``name``: the option defaults.OPTIONS gives it, the setting
    as its destination (what ``settings`` reads), its help from ``setting_help`` (``unset``:
    what applies without the option nor the variable)."""
    parser.add_argument(
        defaults.OPTIONS[name], dest=name, help=setting_help(name, text, unset), **options
    )


#: Where a command's settings are kept on its arguments, once built.
_SETTINGS = "_settings"
#: Where the sessions a caller gave ``main`` are kept on the arguments (``given_sessions``).
_SESSIONS = "_sessions"


def given_sessions(args: argparse.Namespace, sessions: sessionmaker[Session]) -> None:
    """Have the command's transaction come from ``sessions`` instead of an engine made on its
    database URL (which is still checked, and named in messages)."""
    setattr(args, _SESSIONS, sessions)


def settings(args: argparse.Namespace) -> Settings:
    """The command's settings, built once (the first call; kept on ``args``): its options (the
    settings' names as destinations, None when not given) over the RATINGDB_ environment. A
    value out of range given as an option is bad usage (exit 2, naming the option); an
    unusable database URL or variable is a configuration failure (exit 1, naming the option
    or the variable)."""
    from ratingdb.config import ConfigurationError, Settings

    built = getattr(args, _SETTINGS, None)
    if isinstance(built, Settings):
        return built
    given: dict[str, Any] = {
        name: getattr(args, name) for name in defaults.OPTIONS if hasattr(args, name)
    }
    try:
        built = Settings.from_env(os.environ, **given)
    except ConfigurationError as error:
        if error.option is None or error.setting == "database_url":
            raise
        message = str(error).removeprefix(f"{error.option}: ")
        raise InputError(message, field=error.option) from None
    setattr(args, _SETTINGS, built)
    return built


def actor(args: argparse.Namespace) -> str:
    """The person behind a writing command (``--actor``, ``RATINGDB_ACTOR``, the OS user); a
    name that is unusable or cannot be found is bad usage (exit 2)."""
    from ratingdb.config import ConfigurationError

    try:
        return settings(args).audit_actor()
    except ConfigurationError as error:
        raise InputError(str(error)) from None  # the message names the option or variable


@contextmanager
def transaction(args: argparse.Namespace) -> Iterator[Session]:
    """One transaction for the whole command: committed on success, rolled back on any error,
    so a failed command changes nothing. The database must exist and be at the latest schema."""
    from ratingdb.db import make_engine, make_sessionmaker
    from ratingdb.failures import require_latest_schema, require_sqlite_file

    url = settings(args).database_url
    require_sqlite_file(url)
    sessions: sessionmaker[Session] | None = getattr(args, _SESSIONS, None)
    engine = None
    if sessions is None:
        engine = make_engine(url)
        sessions = make_sessionmaker(engine)
    try:
        with sessions.begin() as session:
            require_latest_schema(session.connection(), url)
            yield session
    finally:
        if engine is not None:
            engine.dispose()


def category(text: str, option: str = "--category") -> Category:
    from ratingdb.rules import Category

    try:
        return Category.parse(text)
    except ValueError as error:
        raise InputError(str(error), field=option) from None


def period(text: str, option: str = "--period") -> Period:
    from ratingdb.rules import Period

    try:
        return Period.parse(text)
    except ValueError as error:
        raise InputError(str(error), field=option) from None


def utc_now() -> datetime:
    return datetime.now(UTC)
