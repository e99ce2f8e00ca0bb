"""The tiers stay apart: no test under tests/rules/ or tests/formats/ uses a database."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import database_fixtures_in_pure_tier

TESTS = Path(__file__).parent


def test_a_database_fixture_in_the_rules_tier_is_refused() -> None:
    used = database_fixtures_in_pure_tier(
        TESTS / "rules" / "test_x.py", ["tmp_path", "database_url", "request"]
    )
    assert used == {"database_url"}


def test_a_database_fixture_in_the_formats_tier_is_refused() -> None:
    assert database_fixtures_in_pure_tier(TESTS / "formats" / "test_x.py", ["session"]) == {
        "session"
    }


def test_a_database_fixture_in_a_database_tier_is_allowed() -> None:
    assert database_fixtures_in_pure_tier(TESTS / "services" / "test_x.py", ["engine"]) == set()
