"""Settings.from_env: RATINGDB_DATABASE_URL and RATINGDB_READ_DATABASE_URL."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from ratingdb.config import DEFAULT_DATABASE_URL, ConfigurationError, Settings


def test_default_is_a_sqlite_file_in_the_current_directory() -> None:
    settings = Settings.from_env({})
    assert settings.database_url == "sqlite:///ratingdb.sqlite3" == DEFAULT_DATABASE_URL
    assert settings.read_database_url == settings.database_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u@h:5432/db", "postgresql+psycopg://u@h:5432/db"),
        ("postgres://u:p@h/db", "postgresql+psycopg://u:p@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
        ("sqlite:////var/lib/ratingdb.sqlite3", "sqlite:////var/lib/ratingdb.sqlite3"),
    ],
)
def test_postgresql_urls_use_psycopg_3(given: str, expected: str) -> None:
    settings = Settings.from_env({"RATINGDB_DATABASE_URL": given})
    assert settings.database_url == expected
    assert settings.read_database_url == expected


def test_read_url_has_its_own_variable() -> None:
    settings = Settings.from_env(
        {
            "RATINGDB_DATABASE_URL": "postgresql://writer@h/db",
            "RATINGDB_READ_DATABASE_URL": "postgres://reader@replica/db",
        }
    )
    assert settings.database_url == "postgresql+psycopg://writer@h/db"
    assert settings.read_database_url == "postgresql+psycopg://reader@replica/db"


def test_option_overrides_the_environment() -> None:
    settings = Settings.from_env(
        {"RATINGDB_DATABASE_URL": "sqlite:///a.sqlite3"}, database_url="postgresql://u@h/db"
    )
    assert settings.database_url == "postgresql+psycopg://u@h/db"
    assert settings.read_database_url == "postgresql+psycopg://u@h/db"


def test_empty_variables_count_as_unset() -> None:
    settings = Settings.from_env({"RATINGDB_DATABASE_URL": "", "RATINGDB_READ_DATABASE_URL": " "})
    assert settings == Settings()


def test_a_bad_url_names_its_variable() -> None:
    with pytest.raises(ConfigurationError, match="RATINGDB_READ_DATABASE_URL"):
        Settings.from_env({"RATINGDB_READ_DATABASE_URL": "not a url"})


def test_settings_are_frozen_and_hide_passwords() -> None:
    settings = Settings.from_env({"RATINGDB_DATABASE_URL": "postgresql://u:secret@h/db"})
    with pytest.raises(ValidationError, match="frozen"):
        settings.database_url = "sqlite://"
    assert "secret" not in repr(settings)
    assert "secret" not in str(settings)
    assert settings.read_database_url == "postgresql+psycopg://u:secret@h/db"
