"""Queries on the accounts tables (users, API tokens, web sessions, sign-in attempts).

Nothing here sees a secret in clear: callers pass digests and hashes.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from ratingdb.enums import Role, SignInOutcome
from ratingdb.models import (
    ApiTokenRow,
    KnownDeviceRow,
    SignInAttemptRow,
    SignInThrottleRow,
    UserRow,
    WebSessionRow,
)


def get_user(session: Session, username: str) -> UserRow | None:
    return session.scalars(select(UserRow).where(UserRow.username == username)).one_or_none()


def locked_user(session: Session, username: str) -> UserRow | None:
    """The user's row, locked until the transaction ends (PostgreSQL; SQLite's writers take
    turns already) and read afresh: two changes of one account are decided one after the
    other, the second seeing what the first did."""
    statement = (
        select(UserRow)
        .where(UserRow.username == username)
        .execution_options(populate_existing=True)
    )
    if session.get_bind().dialect.name == "postgresql":
        statement = statement.with_for_update()
    return session.scalars(statement).one_or_none()


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


def delete_web_sessions_of(session: Session, user_id: int, keep: str | None = None) -> None:
    """Every session of the user (but the one whose digest is ``keep``)."""
    statement = delete(WebSessionRow).where(WebSessionRow.user_id == user_id)
    if keep is not None:
        statement = statement.where(WebSessionRow.id_hash != keep)
    session.execute(statement)


def touch_web_session(session: Session, id_hash: str, now: datetime) -> None:
    session.execute(
        update(WebSessionRow).where(WebSessionRow.id_hash == id_hash).values(last_seen_at=now)
    )


def touch_token(session: Session, token_id: int, now: datetime) -> None:
    session.execute(update(ApiTokenRow).where(ApiTokenRow.id == token_id).values(last_used_at=now))


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


def locked_buckets(
    session: Session, buckets: Sequence[str], now: datetime
) -> dict[str, SignInThrottleRow]:
    """The throttling rows of ``buckets``, created if missing (no failure yet) and locked
    until the transaction ends, in one order (sorted), so that concurrent sign-ins on the same
    buckets are decided one after the other and never deadlock. SQLite: the write transaction
    (BEGIN IMMEDIATE) already holds the database's lock."""
    ordered = sorted(set(buckets))
    postgresql = session.get_bind().dialect.name == "postgresql"
    insert_new = postgresql_insert if postgresql else sqlite_insert
    session.execute(
        insert_new(SignInThrottleRow)
        .values([
            {"bucket": b, "failures": 0, "last_failure_at": now, "next_allowed_at": now}
            for b in ordered
        ])
        .on_conflict_do_nothing(index_elements=["bucket"])
    )  # fmt: skip
    statement = (
        select(SignInThrottleRow)
        .where(SignInThrottleRow.bucket.in_(ordered))
        .order_by(SignInThrottleRow.bucket)
        .execution_options(populate_existing=True)
    )
    if postgresql:
        statement = statement.with_for_update()
    return {row.bucket: row for row in session.scalars(statement)}


def forget_buckets(session: Session, last_failure_before: datetime) -> None:
    """Throttling rows whose last failure is older than ``last_failure_before``."""
    session.execute(
        delete(SignInThrottleRow).where(SignInThrottleRow.last_failure_at < last_failure_before)
    )


def known_device(session: Session, id_hash: str) -> KnownDeviceRow | None:
    return session.get(KnownDeviceRow, id_hash)


def add_known_device(session: Session, row: KnownDeviceRow) -> None:
    session.add(row)
    session.flush()


def forget_devices(session: Session, used_before: datetime) -> None:
    session.execute(delete(KnownDeviceRow).where(KnownDeviceRow.last_used_at < used_before))
