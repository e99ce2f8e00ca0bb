"""Revision 0008: a period may await approval, but only with when its list was computed and the
list's digest; revision 0007 refuses the state, the periods and what refers to them survive the
SQLite rebuild both ways, and a downgrade is refused while a period awaits approval. The
previews table comes and goes with the revision. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DataError, IntegrityError

from ratingdb.db import current_revision, downgrade, head_revision, make_engine, upgrade
from tests.migrations.test_0005_list_replace_kind import run, scalar
from tests.support.sql import table_names

PERIOD = (
    "INSERT INTO periods (id, category, list_date, closing_date, state{extra}) VALUES "
    "(:id, 'fide-standard', :list_date, :closing_date, :state{values})"
)
PUBLISHED = (
    "INSERT INTO periods (id, category, list_date, closing_date, state, published_at) VALUES "
    "(1, 'fide-standard', '2026-11-01', '2026-10-29', 'published', '2026-10-30 00:00:00')"
)
LIST = (
    "INSERT INTO rating_lists (period_id, category, list_date, revision, source, published_at, "
    "entry_count) VALUES (1, 'fide-standard', '2026-11-01', 1, 'import', "
    "'2026-10-30 00:00:00', 0)"
)
TOURNAMENT = (
    "INSERT INTO tournaments (tournament_id, name, category, start_date, end_date, period_id, "
    "source_format, source_digest, late) VALUES ('T000001', 'Open', 'fide-standard', "
    "'2026-11-10', '2026-11-12', 2, 'csv', 'x', false)"
)
AWAITING = PERIOD.format(extra=", computed_at, computed_digest",
                         values=", '2026-12-01 00:30:00', :digest")  # fmt: skip


def test_awaiting_approval_up_and_down(database_url: str) -> None:
    url = database_url
    run(url, PUBLISHED)
    run(url, LIST)
    open_period = PERIOD.format(extra="", values="")
    run(url, open_period, id=2, list_date="2026-12-01", closing_date="2026-11-28", state="open")
    run(url, TOURNAMENT)
    # Awaiting approval needs when and what was computed.
    with pytest.raises(IntegrityError):
        run(url, open_period, id=3, list_date="2027-01-01", closing_date="2026-12-29",
            state="awaiting-approval")  # fmt: skip
    with pytest.raises(IntegrityError):
        run(url, open_period, id=3, list_date="2027-01-01", closing_date="2026-12-29",
            state="waiting")  # fmt: skip
    run(url, "UPDATE periods SET state = 'awaiting-approval', computed_at = "
        "'2026-12-01 00:30:00', computed_digest = :digest WHERE id = 2",
        digest="a" * 64)  # fmt: skip
    assert "publication_previews" in table_names(url)
    # A period awaits approval: 0007 could not hold it.
    with pytest.raises(RuntimeError, match=r"1 period\(s\) await approval.*downgrade refused"):
        downgrade(url, "0007")
    assert current_revision(url) == head_revision()  # 0008, or a later revision after it
    run(url, "UPDATE periods SET state = 'open' WHERE id = 2")
    downgrade(url, "0007")
    assert current_revision(url) == "0007"
    assert "publication_previews" not in table_names(url)
    # The rebuild kept the periods and what refers to them (the computed columns are gone);
    # 0007 refuses the new state.
    assert scalar(url, "SELECT count(*) FROM periods") == 2
    assert scalar(url, "SELECT period_id FROM tournaments") == 2
    assert scalar(url, "SELECT period_id FROM rating_lists") == 1
    # (PostgreSQL refuses it as longer than the 10 characters of 0007's column first.)
    with pytest.raises((IntegrityError, DataError)):
        run(url, "UPDATE periods SET state = 'awaiting-approval' WHERE id = 2")
    upgrade(url)
    assert current_revision(url) == head_revision()  # 0008, or a later revision after it
    run(url, AWAITING, id=3, list_date="2027-01-01", closing_date="2026-12-29",
        state="awaiting-approval", digest="b" * 64)  # fmt: skip
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT id, state, computed_digest FROM periods ORDER BY id")
            ).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in rows] == [
        (1, "published", None), (2, "open", None), (3, "awaiting-approval", "b" * 64)]  # fmt: skip
