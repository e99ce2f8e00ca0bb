"""Revision 0013: the database guards list storage (a parent written before its list and of
its category, latest_lists naming a list of its category, chunks of at most 200 entries). A
database that breaks one is refused, naming the rows, and left at 0012; once put right it
upgrades, and downgrades again. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from ratingdb.db import current_revision, downgrade, head_revision, upgrade
from tests.migrations.test_0005_list_replace_kind import run, scalar

PERIOD = (
    "INSERT INTO periods (id, category, list_date, closing_date, state, published_at) VALUES "
    "(:id, :category, :list_date, '2026-01-01', 'published', '2026-01-02 00:00:00')"
)
LIST = (
    "INSERT INTO rating_lists (id, period_id, category, list_date, revision, source, "
    "published_at, entry_count, parent_list_id) VALUES (:id, :period, :category, :list_date, "
    "1, 'close', '2026-01-02 00:00:00', 0, :parent)"
)


def test_broken_rows_are_refused_then_the_keys_guard(database_url: str) -> None:
    url = database_url
    downgrade(url, "0012")
    run(url, PERIOD, id=1, category="fide-standard", list_date="2026-01-01")
    run(url, PERIOD, id=2, category="fide-standard", list_date="2026-02-01")
    run(url, PERIOD, id=3, category="fide-rapid", list_date="2026-01-01")
    run(url, LIST, id=10, period=1, category="fide-standard", list_date="2026-01-01", parent=None)
    run(url, LIST, id=5, period=2, category="fide-standard", list_date="2026-02-01", parent=10)
    run(url, LIST, id=20, period=3, category="fide-rapid", list_date="2026-01-01", parent=10)
    with pytest.raises(RuntimeError) as refused:
        upgrade(url)
    message = str(refused.value)
    assert "lists whose parent was written after them (list id, parent id): (5, 10)" in message
    assert "lists whose parent is of another category (list id, parent id): (20, 10)" in message
    assert current_revision(url) == "0012"
    run(url, "UPDATE rating_lists SET parent_list_id = NULL WHERE id IN (5, 20)")
    upgrade(url)
    assert current_revision(url) == head_revision()
    for sql in (
        "UPDATE rating_lists SET parent_list_id = 10 WHERE id = 5",  # written after
        "UPDATE rating_lists SET parent_list_id = 10 WHERE id = 20",  # another category
        "INSERT INTO latest_lists (category, list_id) VALUES ('fide-blitz', 10)",
        (
            "INSERT INTO list_chunks (list_id, chunk, top_rating, bottom_rating, size, "
            "entries) VALUES (10, 0, 2000, 1900, 201, :empty)"
        ),
    ):
        with pytest.raises(IntegrityError):
            run(url, sql, empty=b"")
    run(url, "INSERT INTO latest_lists (category, list_id) VALUES ('fide-standard', 10)")
    downgrade(url, "0012")
    assert scalar(url, "SELECT count(*) FROM rating_lists") == 3
    assert scalar(url, "SELECT list_id FROM latest_lists") == 10
    upgrade(url)
    assert current_revision(url) == head_revision()
