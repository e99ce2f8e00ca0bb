"""Migrations are the truth: they build exactly the models' schema, go down and up again, and
have a single head. Run on SQLite and PostgreSQL."""

from __future__ import annotations

import ast
from pathlib import Path

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
    assert heads == ["0020"]


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


def test_revisions_import_only_what_the_migrations_own() -> None:
    """A revision must mean the same whatever the live code becomes: it imports from ratingdb
    only the frozen chunk and calculation formats and the SQLite rebuild helper, all written
    for the migrations (issue 26)."""
    owned = {
        "ratingdb.db.calculation_format_v1",
        "ratingdb.db.chunk_format_v1",
        "ratingdb.db.chunk_format_v2",
        "ratingdb.db.sqlite_rebuild",
    }
    folder = Path(__file__).resolve().parents[2] / "migrations" / "versions"
    imported: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ratingdb"):
                imported.setdefault(path.name, set()).add(node.module or "")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("ratingdb"):
                        imported.setdefault(path.name, set()).add(alias.name)
    assert imported  # the walk does see the imports
    assert {name: modules - owned for name, modules in imported.items() if modules - owned} == {}
