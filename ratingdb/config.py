"""Settings from the RATINGDB_ environment, built once at an edge (CLI, job, migration env) and
passed down: nothing else in ratingdb reads ``os.environ``.
"""

from __future__ import annotations

import getpass
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

DATABASE_URL_VARIABLE = "RATINGDB_DATABASE_URL"
READ_DATABASE_URL_VARIABLE = "RATINGDB_READ_DATABASE_URL"
ACTOR_VARIABLE = "RATINGDB_ACTOR"

#: The audit log's ``actor`` column holds at most this many characters.
ACTOR_LENGTH = 100

#: The databases ratingdb runs on: the scheme of their SQLAlchemy URLs.
SUPPORTED_SCHEMES = ("sqlite", "sqlite+pysqlite", "postgresql+psycopg")

#: A SQLite file in the current directory (contract, "Configuration").
DEFAULT_DATABASE_URL = "sqlite:///ratingdb.sqlite3"

# The DSN spellings of libpq and of hosting providers, mapped to SQLAlchemy's psycopg 3 driver
# (SQLAlchemy would otherwise pick psycopg2, which is not installed).
_POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
_PSYCOPG_SCHEME = "postgresql+psycopg://"


class ConfigurationError(ValueError):
    """A setting is present but unusable; the message names the setting."""


def normalize_database_url(url: str, *, source: str = "database URL") -> str:
    """``postgresql://`` and ``postgres://`` become ``postgresql+psycopg://``; the result must
    parse as a SQLAlchemy URL."""
    text = url.strip()
    for scheme in _POSTGRESQL_SCHEMES:
        if text.startswith(scheme):
            text = _PSYCOPG_SCHEME + text[len(scheme) :]
            break
    try:
        parsed = make_url(text)
    except ArgumentError:
        raise ConfigurationError(
            f"{source}: not a database URL: {url!r} (use sqlite:///FILE or "
            "postgresql+psycopg://USER@HOST:PORT/DATABASE)"
        ) from None
    if parsed.drivername not in SUPPORTED_SCHEMES:
        raise ConfigurationError(
            f"{source}: unsupported database {parsed.drivername!r}: ratingdb runs on SQLite "
            "(sqlite:///FILE) and PostgreSQL (postgresql+psycopg://USER@HOST:PORT/DATABASE)"
        )
    return text


def resolve_actor(given: str | None, environ: Mapping[str, str], *, source: str) -> str:
    """The person the audit log names: ``given`` (``--actor``), else ``RATINGDB_ACTOR``, else
    the operating system user. Raises ConfigurationError when none of them gives a name, or the
    name is empty, too long or holds control characters (it is shown in logs and pages)."""
    if given is not None:
        return _valid_actor(given, source)
    if environ.get(ACTOR_VARIABLE, "").strip():
        return _valid_actor(environ[ACTOR_VARIABLE], ACTOR_VARIABLE)
    try:
        user = getpass.getuser()
    except (OSError, KeyError) as error:  # no LOGNAME/USER/LNAME/USERNAME and no passwd entry
        raise ConfigurationError(
            f"cannot tell who runs this command ({error}): give {source} NAME or set "
            f"{ACTOR_VARIABLE}"
        ) from None
    return _valid_actor(user, "the operating system user")


def _valid_actor(name: str, source: str) -> str:
    if not name.strip():
        raise ConfigurationError(f"{source}: the name of a person is needed, got {name!r}")
    if len(name) > ACTOR_LENGTH:
        raise ConfigurationError(f"{source}: at most {ACTOR_LENGTH} characters, got {len(name)}")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        raise ConfigurationError(f"{source}: control characters are not allowed in {name!r}")
    return name


def _hide_password(url: str) -> str:
    parsed: URL = make_url(url)
    return parsed.render_as_string(hide_password=True)


@dataclass(frozen=True, slots=True, repr=False)
class Settings:
    """Where ratingdb keeps its data.

    ``read_database_url`` serves the read-only API (a replica or a read-only role); by default it
    is the main database.
    """

    database_url: str = DEFAULT_DATABASE_URL
    read_database_url: str = DEFAULT_DATABASE_URL

    @classmethod
    def from_env(cls, environ: Mapping[str, str], database_url: str | None = None) -> Settings:
        """Settings from ``environ``; ``database_url`` (``--database-url``) overrides
        ``RATINGDB_DATABASE_URL``. Empty variables count as unset."""
        if database_url is not None and database_url.strip():
            main = normalize_database_url(database_url, source="--database-url")
        elif environ.get(DATABASE_URL_VARIABLE, "").strip():
            main = normalize_database_url(
                environ[DATABASE_URL_VARIABLE], source=DATABASE_URL_VARIABLE
            )
        else:
            main = DEFAULT_DATABASE_URL
        if environ.get(READ_DATABASE_URL_VARIABLE, "").strip():
            read = normalize_database_url(
                environ[READ_DATABASE_URL_VARIABLE], source=READ_DATABASE_URL_VARIABLE
            )
        else:
            read = main
        return cls(database_url=main, read_database_url=read)

    def __repr__(self) -> str:
        # Settings end up in logs and tracebacks: never print a password.
        return (
            f"Settings(database_url={_hide_password(self.database_url)!r}, "
            f"read_database_url={_hide_password(self.read_database_url)!r})"
        )
