"""The corrections a diff names come oldest first (their ids' order), whatever order the
database keeps their rows in: on PostgreSQL a row written again moves behind the others in its
table, and a query without an ORDER BY returns it last (a diff on PostgreSQL once listed the
second correction before the first)."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind
from ratingdb.models import CorrectionRow
from ratingdb.repositories import corrections as correction_repo


def test_corrections_by_id_come_oldest_first_after_the_first_is_written_again(
    session: Session,
) -> None:
    first, second = (
        CorrectionRow(kind=CorrectionKind.GAME, reason=reason, actor="officer", before={},
                      after={})
        for reason in ("first", "second")
    )  # fmt: skip
    session.add_all([first, second])
    session.flush()
    session.execute(
        update(CorrectionRow).where(CorrectionRow.id == first.id).values(after={"withdrawn": True})
    )
    session.expire_all()
    found = correction_repo.with_ids(session, [second.id, first.id])
    assert [row.reason for row in found] == ["first", "second"]
