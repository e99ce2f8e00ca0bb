"""Queries on submissions, and the look-ups their check report needs (same file, same
tournament, ratings on a list)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.enums import SubmissionState
from ratingdb.models import PlayerRow, SubmissionRow, TournamentRow, UserRow
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.players import chunks, one_of
from ratingdb.rules import Category


def add(session: Session, row: SubmissionRow) -> SubmissionRow:
    session.add(row)
    session.flush()
    return row


def get(session: Session, submission_id: int, *, for_update: bool = False) -> SubmissionRow | None:
    """One submission; ``for_update``: read again and locked until the transaction ends
    (PostgreSQL: a second officer deciding it waits, then finds it decided; SQLite writers
    take turns and read it inside their write lock)."""
    if for_update:
        return session.get(
            SubmissionRow, submission_id, with_for_update=True, populate_existing=True
        )
    return session.get(SubmissionRow, submission_id)


def listed(
    session: Session, *, submitter_id: int | None, state: SubmissionState | None
) -> Sequence[SubmissionRow]:
    """Newest first; only ``submitter_id``'s when given."""
    statement = select(SubmissionRow).order_by(SubmissionRow.id.desc())
    if submitter_id is not None:
        statement = statement.where(SubmissionRow.submitter_id == submitter_id)
    if state is not None:
        statement = statement.where(SubmissionRow.state == state)
    return session.scalars(statement).all()


def submitters(session: Session, submission_ids: Collection[int]) -> dict[int, int]:
    """Submission id -> the submitter's user id (the ids found)."""
    if not submission_ids:
        return {}
    statement = select(SubmissionRow.id, SubmissionRow.submitter_id).where(
        SubmissionRow.id.in_(list(submission_ids))
    )
    return {row[0]: row[1] for row in session.execute(statement)}


def usernames(session: Session, user_ids: Collection[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    statement = select(UserRow.id, UserRow.username).where(UserRow.id.in_(user_ids))
    return {row[0]: row[1] for row in session.execute(statement)}


def tournaments_with_digest(session: Session, digest: str) -> list[tuple[str, Category]]:
    """(tournament id, category) of the stored tournaments made from this file."""
    rows = session.execute(
        select(TournamentRow.tournament_id, TournamentRow.category)
        .where(TournamentRow.source_digest == digest)
        .order_by(TournamentRow.tournament_id)
    )
    return [(t, c) for t, c in rows]


def tournaments_named(session: Session, name: str, start: date, end: date) -> list[str]:
    """Stored tournaments with this name and these dates."""
    return list(
        session.scalars(
            select(TournamentRow.tournament_id)
            .where(
                TournamentRow.name == name,
                TournamentRow.start_date == start,
                TournamentRow.end_date == end,
            )
            .order_by(TournamentRow.tournament_id)
        )
    )


def submissions_with_digest(session: Session, digest: str) -> Sequence[SubmissionRow]:
    return session.scalars(
        select(SubmissionRow).where(SubmissionRow.digest == digest).order_by(SubmissionRow.id)
    ).all()


def submissions_named(
    session: Session, name: str, start: date, end: date
) -> Sequence[SubmissionRow]:
    return session.scalars(
        select(SubmissionRow)
        .where(
            SubmissionRow.tournament_name == name,
            SubmissionRow.start_date == start,
            SubmissionRow.end_date == end,
        )
        .order_by(SubmissionRow.id)
    ).all()


def ratings_on(session: Session, list_id: int, player_ids: Collection[str]) -> dict[str, int]:
    """The players' ratings on one list (those not on it are left out): their entries
    resolved through the list's ancestry (repositories.list_storage.changes.resolve)."""
    return list_changes.ratings_on(session, list_id, player_ids)


def ratings_and_k_on(
    session: Session, list_id: int, player_ids: Collection[str]
) -> dict[str, tuple[int, int | None]]:
    """The players' ratings on one list, each with its K (the quality flags' gains)."""
    return list_changes.ratings_and_k_on(session, list_id, player_ids)


def players_by_ids(session: Session, player_ids: Collection[str]) -> dict[str, PlayerRow]:
    found: dict[str, PlayerRow] = {}
    for chunk in chunks(sorted(player_ids)):
        for row in session.scalars(
            select(PlayerRow).where(one_of(session, PlayerRow.player_id, chunk))
        ):
            found[row.player_id] = row
    return found
