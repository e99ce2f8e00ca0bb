"""Back-office accounts: users, their API tokens, web sessions and sign-in attempts.

No secret is stored in clear: passwords as argon2id hashes, API tokens and session ids as
SHA-256 digests (both are 256-bit random values, so a fast hash is enough), the attempts table
only names who tried and from where.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    false,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.enums import Role, SignInOutcome, TokenScope
from ratingdb.models.base import Base, enum_check, enum_column

USERNAME_LENGTH = 64
#: Hex SHA-256.
DIGEST_LENGTH = 64
#: The first characters of a token, kept to find its row (the rest is only in the digest).
TOKEN_PREFIX_LENGTH = 8


class UserRow(Base):
    """A person signing in to the back office, with exactly one role."""

    __tablename__ = "users"
    __table_args__ = (enum_check("role", Role),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(USERNAME_LENGTH), unique=True)
    role: Mapped[Role] = mapped_column(enum_column(Role, 10))
    #: argon2id, in the PHC string format (``$argon2id$v=19$m=...``).
    password_hash: Mapped[str] = mapped_column(String(200))
    disabled: Mapped[bool] = mapped_column(Boolean, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, server_default=func.now())
    #: Set when an admin chose the password (a new account, a reset): the user must choose
    #: their own at their next sign-in before anything else.
    must_change_password: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: The admin who created the account or reset its password in the back office, while the
    #: account waits for ANOTHER admin's approval (it signs nobody in until then): an admin
    #: who knows a password they chose cannot act as that user alone. None: approved.
    awaiting_approval_from_other_than: Mapped[int | None] = mapped_column(ForeignKey("users.id"))


class ApiTokenRow(Base):
    """A bearer token of an integration (a pairing program, club software) acting as a user."""

    __tablename__ = "api_tokens"
    __table_args__ = (
        Index(None, "prefix"),
        Index(None, "user_id"),
        enum_check("scope", TokenScope),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    label: Mapped[str] = mapped_column(String(100))
    #: What the token may do, at most (``ratingdb.backoffice.policy.scope_needed``).
    scope: Mapped[TokenScope] = mapped_column(enum_column(TokenScope, 10))
    prefix: Mapped[str] = mapped_column(String(TOKEN_PREFIX_LENGTH))
    token_hash: Mapped[str] = mapped_column(String(DIGEST_LENGTH), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class WebSessionRow(Base):
    """A signed-in browser. The cookie holds the session id; the table only its digest, so a
    copy of the table signs nobody in."""

    __tablename__ = "web_sessions"
    __table_args__ = (Index(None, "user_id"),)

    id_hash: Mapped[str] = mapped_column(String(DIGEST_LENGTH), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    last_seen_at: Mapped[datetime] = mapped_column(UtcDateTime)
    #: The absolute end (created_at + 12 h); the idle end is last_seen_at + 30 min.
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    #: The key the session's CSRF token is derived from (the token itself is not stored).
    csrf_secret: Mapped[str] = mapped_column(String(DIGEST_LENGTH))


class SignInAttemptRow(Base):
    """One sign-in attempt, kept in the database so throttling holds across processes."""

    __tablename__ = "sign_in_attempts"
    __table_args__ = (
        Index(None, "username", "at"),
        Index(None, "address", "at"),
        enum_check("outcome", SignInOutcome),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The name as typed (cut to the column's length), whether or not such a user exists.
    username: Mapped[str] = mapped_column(String(USERNAME_LENGTH))
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(UtcDateTime)
    outcome: Mapped[SignInOutcome] = mapped_column(enum_column(SignInOutcome, 10))


class SignInThrottleRow(Base):
    """The failed sign-ins of one bucket (``user:NAME`` from unknown browsers, ``address:IP``,
    ``device:DIGEST`` a browser known to that user) and when the next attempt may be checked.
    One row per bucket, locked while an attempt is decided, so that concurrent attempts are
    counted one after the other (``ratingdb.services.throttling``)."""

    __tablename__ = "sign_in_throttles"
    __table_args__ = (
        Index(None, "last_failure_at"),
        CheckConstraint("failures >= 0", name="failures"),
    )

    bucket: Mapped[str] = mapped_column(String(200), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer)
    last_failure_at: Mapped[datetime] = mapped_column(UtcDateTime)
    next_allowed_at: Mapped[datetime] = mapped_column(UtcDateTime)


class KnownDeviceRow(Base):
    """A browser a user signed in from (its long-lived cookie's digest): its sign-ins are
    throttled apart from everyone else's, so that an attacker failing with the user's name
    cannot keep the user out."""

    __tablename__ = "known_devices"
    __table_args__ = (Index(None, "user_id"),)

    id_hash: Mapped[str] = mapped_column(String(DIGEST_LENGTH), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    last_used_at: Mapped[datetime] = mapped_column(UtcDateTime)
