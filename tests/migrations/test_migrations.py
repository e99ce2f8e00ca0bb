"""Migrations are the truth: they build exactly the models' schema, go down and up again, and
have a single head. Run on SQLite and PostgreSQL."""

from __future__ import annotations

from alembic import command
from alembic.script import ScriptDirectory

from ratingdb.db import (
    alembic_config,
    current_revision,
    downgrade,
    head_revision,
    upgrade,
)
from ratingdb.models import Base
from tests.support.sql import table_names


def test_exactly_one_head() -> None:
    heads = ScriptDirectory.from_config(alembic_config()).get_heads()
    assert heads == ["0013"]
    assert head_revision() == "0013"


def test_migrated_database_matches_the_models(database_url: str) -> None:
    """`alembic check`: autogenerate finds nothing to do (types and server defaults compared)."""
    command.check(alembic_config(database_url))
    assert table_names(database_url) == set(Base.metadata.tables) | {"alembic_version"}
    assert current_revision(database_url) == head_revision()


def test_upgrade_downgrade_upgrade(database_url: str) -> None:
    downgrade(database_url, "base")
    assert table_names(database_url) == {"alembic_version"}
    assert current_revision(database_url) is None

    upgrade(database_url)
    assert current_revision(database_url) == head_revision()
    command.check(alembic_config(database_url))


def test_upgrade_at_head_changes_nothing(database_url: str) -> None:
    upgrade(database_url)
    assert current_revision(database_url) == head_revision()
