"""Settings from the RATINGDB_ environment, built once at an edge (CLI, job, migration env) and
passed down: nothing else in ratingdb reads ``os.environ``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

DATABASE_URL_VARIABLE = "RATINGDB_DATABASE_URL"
READ_DATABASE_URL_VARIABLE = "RATINGDB_READ_DATABASE_URL"

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
        make_url(text)
    except ArgumentError:
        raise ConfigurationError(f"{source}: not a database URL: {url!r}") from None
    return text


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
