"""Queries on the accounts tables (users, API tokens, web sessions, sign-in attempts).

Nothing here sees a secret in clear: callers pass digests and hashes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from ratingdb.enums import Role, SignInOutcome
from ratingdb.models import ApiTokenRow, SignInAttemptRow, UserRow, WebSessionRow


def get_user(session: Session, username: str) -> UserRow | None:
    return session.scalars(select(UserRow).where(UserRow.username == username)).one_or_none()


def get_user_by_id(session: Session, user_id: int) -> UserRow | None:
    return session.get(UserRow, user_id)


def all_users(session: Session) -> Sequence[UserRow]:
    return session.scalars(select(UserRow).order_by(UserRow.username)).all()


def add_user(session: Session, username: str, role: Role, password_hash: str) -> UserRow:
    row = UserRow(username=username, role=role, password_hash=password_hash, disabled=False)
    session.add(row)
    session.flush()
    return row


def tokens_of(session: Session, user_id: int) -> Sequence[ApiTokenRow]:
    return session.scalars(
        select(ApiTokenRow).where(ApiTokenRow.user_id == user_id).order_by(ApiTokenRow.id)
    ).all()


def tokens_with_prefix(session: Session, prefix: str) -> Sequence[ApiTokenRow]:
    """Candidates for a presented token; the caller compares digests in constant time."""
    return session.scalars(select(ApiTokenRow).where(ApiTokenRow.prefix == prefix)).all()


def add_token(session: Session, row: ApiTokenRow) -> ApiTokenRow:
    session.add(row)
    session.flush()
    return row


def revoke_tokens(session: Session, user_id: int, label: str | None, now: datetime) -> int:
    """Revoke the user's live tokens (those with ``label`` only, when given); how many."""
    statement = (
        update(ApiTokenRow)
        .where(ApiTokenRow.user_id == user_id, ApiTokenRow.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    if label is not None:
        statement = statement.where(ApiTokenRow.label == label)
    return session.execute(statement).rowcount  # type: ignore[attr-defined, no-any-return]


def get_web_session(session: Session, id_hash: str) -> WebSessionRow | None:
    return session.get(WebSessionRow, id_hash)


def add_web_session(session: Session, row: WebSessionRow) -> None:
    session.add(row)
    session.flush()


def delete_web_session(session: Session, id_hash: str) -> None:
    session.execute(delete(WebSessionRow).where(WebSessionRow.id_hash == id_hash))


def delete_web_sessions_of(session: Session, user_id: int) -> None:
    session.execute(delete(WebSessionRow).where(WebSessionRow.user_id == user_id))


def delete_expired_web_sessions(session: Session, now: datetime, idle_since: datetime) -> None:
    """Sessions past their absolute end or idle since before ``idle_since``."""
    session.execute(
        delete(WebSessionRow).where(
            (WebSessionRow.expires_at <= now) | (WebSessionRow.last_seen_at <= idle_since)
        )
    )


def add_attempt(
    session: Session, username: str, address: str, at: datetime, outcome: SignInOutcome
) -> None:
    session.add(SignInAttemptRow(username=username, address=address, at=at, outcome=outcome))
    session.flush()


def failure_times(
    session: Session, *, since: datetime, username: str | None = None, address: str | None = None
) -> list[datetime]:
    """When the failed attempts since ``since`` for a name or an address happened, oldest
    first (refused attempts are not failures: the password was not checked)."""
    statement = select(SignInAttemptRow.at).where(
        SignInAttemptRow.outcome == SignInOutcome.FAILURE, SignInAttemptRow.at >= since
    )
    if username is not None:
        statement = statement.where(SignInAttemptRow.username == username)
    if address is not None:
        statement = statement.where(SignInAttemptRow.address == address)
    return list(session.scalars(statement.order_by(SignInAttemptRow.at)))
