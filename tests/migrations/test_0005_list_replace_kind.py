"""Revision 0005: the corrections' kind may be ``list-replace`` (lists import --replace); the
CHECK still refuses anything else, the rows that refer to a correction survive the SQLite
rebuild, and a downgrade is refused while a list replacement is stored. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from ratingdb.db import current_revision, downgrade, make_engine, upgrade

CORRECTION = (
    "INSERT INTO corrections (id, kind, reason, actor, before, after) "
    "VALUES (:id, :kind, 'why', 'who', '{}', '{}')"
)
REFERRING = [
    (
        "INSERT INTO periods (category, list_date, closing_date, state, published_at) "
        "VALUES ('fide-standard', '2026-12-01', '2026-11-28', 'published', "
        "'2026-11-30 00:00:00')"
    ),
    (
        "INSERT INTO rating_lists (period_id, category, list_date, revision, source, "
        "published_at, entry_count, cause_correction_id) VALUES (1, 'fide-standard', "
        "'2026-12-01', 2, 'import', '2026-11-30 00:00:00', 0, 1)"
    ),
]


def run(url: str, sql: str, **params: object) -> None:
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text(sql), params)
    finally:
        engine.dispose()


def scalar(url: str, sql: str) -> object:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return connection.execute(text(sql)).scalar_one()
    finally:
        engine.dispose()


def test_list_replace_is_a_kind_and_nothing_else_is(database_url: str) -> None:
    url = database_url
    run(url, CORRECTION, id=1, kind="game")
    for sql in REFERRING:
        run(url, sql)
    downgrade(url, "0004")
    # The rebuild kept the correction and what refers to it; 0004 refuses the new kind.
    assert scalar(url, "SELECT cause_correction_id FROM rating_lists") == 1
    with pytest.raises(IntegrityError):
        run(url, CORRECTION, id=2, kind="list-replace")
    upgrade(url, "0005")
    run(url, CORRECTION, id=2, kind="list-replace")
    with pytest.raises(IntegrityError):
        run(url, CORRECTION, id=3, kind="list")
    assert scalar(url, "SELECT count(*) FROM corrections") == 2
    # A stored list replacement: 0004 could not hold it.
    with pytest.raises(RuntimeError, match="downgrade refused"):
        downgrade(url, "0004")
    assert current_revision(url) == "0005"
    run(url, "DELETE FROM corrections WHERE id = 2")
    downgrade(url, "0004")
    assert current_revision(url) == "0004"
