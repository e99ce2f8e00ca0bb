"""Back-office accounts: users, passwords, API tokens, web sessions, sign-in throttling.

- Passwords: argon2id (argon2-cffi's defaults), rehashed at sign-in when the parameters change.
- API tokens and session ids: ``secrets.token_urlsafe(32)`` (256 random bits), handed out once
  and stored as SHA-256 digests (a slow hash adds nothing to a secret that cannot be guessed),
  compared in constant time.
- Throttling: after 5 failures in 15 minutes for a user name OR for an address, further
  attempts are refused for 15 minutes without checking the password. Attempts are rows, so the
  limit holds across processes.
- Sessions end after 30 minutes idle or 12 hours in all; signing in always makes a new id;
  signing out deletes the row.

Every change of an account is written to the audit log, naming the actor, in the same
transaction.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.orm import Session

from ratingdb.enums import Role, SignInOutcome
from ratingdb.errors import InputError
from ratingdb.models import ApiTokenRow, UserRow, WebSessionRow
from ratingdb.models.account import TOKEN_PREFIX_LENGTH, USERNAME_LENGTH
from ratingdb.repositories import accounts as repository
from ratingdb.services import audit

MIN_PASSWORD_LENGTH = 12
#: argon2 hashes whatever it is given; a megabyte-long "password" is only a way to burn CPU.
MAX_PASSWORD_LENGTH = 1024
USERNAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]*")
DEFAULT_TOKEN_DAYS = 90
MAX_TOKEN_DAYS = 366
DEFAULT_TOKEN_LABEL = "default"
MAX_LABEL_LENGTH = 100

SESSION_IDLE = timedelta(minutes=30)
SESSION_ABSOLUTE = timedelta(hours=12)
THROTTLE_FAILURES = 5
THROTTLE_WINDOW = timedelta(minutes=15)
THROTTLE_LOCK = timedelta(minutes=15)
#: Longest stored address (an IPv6 address with a zone fits).
ADDRESS_LENGTH = 64

_hasher = PasswordHasher()
_CSRF_PURPOSE = b"ratingdb backoffice csrf"


class UnknownUserError(InputError):
    """No user of that name: exit code 2 on the command line, 404 in the API."""

    def __init__(self, username: str, field: str = "username") -> None:
        super().__init__(f"no user {username!r}", field=field)


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a request acts as. ``via``: ``web`` (a session cookie) or ``api`` (a bearer
    token). ``csrf_token`` is the session's, for the forms of web pages."""

    user_id: int
    username: str
    role: Role
    via: Literal["web", "api"]
    csrf_token: str | None = None
    token_label: str | None = None
    token_expires: datetime | None = None


@dataclass(frozen=True, slots=True)
class IssuedToken:
    token: str
    label: str
    expires: datetime


@dataclass(frozen=True, slots=True)
class SignIn:
    """The outcome of a sign-in: ``session_id`` (for the cookie) when it succeeded; otherwise
    ``throttled`` says whether the password was even checked."""

    session_id: str | None
    principal: Principal | None
    throttled: bool = False


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


# Users -----------------------------------------------------------------------------------------


def check_username(username: str, field: str = "username") -> str:
    if not 1 <= len(username) <= USERNAME_LENGTH or not USERNAME_PATTERN.fullmatch(username):
        raise InputError(
            f"must be 1..{USERNAME_LENGTH} of a-z, 0-9, '.', '_', '-' (starting with a letter "
            f"or digit), got {username!r}",
            field=field,
        )
    return username


def check_role(role: str, field: str = "role") -> Role:
    try:
        return Role(role)
    except ValueError:
        raise InputError(f"must be one of {', '.join(Role)}, got {role!r}", field=field) from None


def check_password(password: str, username: str, field: str = "password") -> None:
    """At least 12 characters, at most 1024, and not the user name."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise InputError(f"must have at least {MIN_PASSWORD_LENGTH} characters", field=field)
    if len(password) > MAX_PASSWORD_LENGTH:
        raise InputError(f"must have at most {MAX_PASSWORD_LENGTH} characters", field=field)
    if password.strip().lower() == username.lower():
        raise InputError("must not be the user name", field=field)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except VerifyMismatchError:
        return False
    except (VerificationError, InvalidHashError):
        # A stored hash that argon2 cannot read signs nobody in; it is not a wrong password.
        return False


def _dummy_hash() -> str:
    """A hash checked for unknown users, so that they take as long as known ones."""
    global _DUMMY_HASH
    if _DUMMY_HASH is None:
        _DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))
    return _DUMMY_HASH


_DUMMY_HASH: str | None = None


def _user(session: Session, username: str, field: str = "username") -> UserRow:
    row = repository.get_user(session, username)
    if row is None:
        raise UnknownUserError(username, field)
    return row


def add_user(
    session: Session, username: str, role: str, password: str, *, actor: str, now: datetime
) -> UserRow:
    check_username(username)
    checked_role = check_role(role)
    check_password(password, username)
    if repository.get_user(session, username) is not None:
        raise InputError(f"a user {username!r} already exists", field="username")
    row = repository.add_user(session, username, checked_role, hash_password(password))
    audit.record(session, "user-add", actor, now, details={"username": username, "role": role})
    return row


def disable_user(session: Session, username: str, *, actor: str, now: datetime) -> None:
    """The user can no longer sign in, nor use a token; their sessions end at once."""
    row = _user(session, username)
    row.disabled = True
    repository.delete_web_sessions_of(session, row.id)
    audit.record(session, "user-disable", actor, now, details={"username": username})


def list_users(session: Session) -> list[dict[str, Any]]:
    """Users and their tokens, never a hash or a token."""
    return [
        {
            "username": user.username,
            "role": user.role,
            "disabled": user.disabled,
            "created_at": user.created_at.isoformat(),
            "tokens": [
                {
                    "label": token.label,
                    "created_at": token.created_at.isoformat(),
                    "expires": token.expires_at.isoformat(),
                    "revoked_at": None
                    if token.revoked_at is None
                    else token.revoked_at.isoformat(),
                    "last_used_at": (
                        None if token.last_used_at is None else token.last_used_at.isoformat()
                    ),
                }
                for token in repository.tokens_of(session, user.id)
            ],
        }
        for user in repository.all_users(session)
    ]


# API tokens ------------------------------------------------------------------------------------


def check_label(label: str, field: str = "label") -> str:
    if not 1 <= len(label) <= MAX_LABEL_LENGTH or not label.isprintable():
        raise InputError(f"must be 1..{MAX_LABEL_LENGTH} printable characters", field=field)
    return label


def check_days(days: int, field: str = "days") -> int:
    if not 1 <= days <= MAX_TOKEN_DAYS:
        raise InputError(f"must be 1..{MAX_TOKEN_DAYS}, got {days}", field=field)
    return days


def issue_token(
    session: Session, username: str, label: str, days: int, *, actor: str, now: datetime
) -> IssuedToken:
    """A new token for ``username``, valid ``days`` days. Its clear text exists only in the
    returned value: show it once."""
    check_label(label)
    check_days(days)
    user = _user(session, username)
    if user.disabled:
        raise InputError(f"user {username!r} is disabled", field="username")
    token = secrets.token_urlsafe(32)
    expires = now + timedelta(days=days)
    repository.add_token(
        session,
        ApiTokenRow(
            user_id=user.id,
            label=label,
            prefix=token[:TOKEN_PREFIX_LENGTH],
            token_hash=digest(token),
            created_at=now,
            expires_at=expires,
        ),
    )
    audit.record(
        session, "token-issue", actor, now,
        details={"username": username, "label": label, "expires": expires.isoformat()},
    )  # fmt: skip
    return IssuedToken(token=token, label=label, expires=expires)


def revoke_tokens(
    session: Session, username: str, label: str | None, *, actor: str, now: datetime
) -> int:
    """Revoke the user's live tokens, or only those labelled ``label``; how many."""
    user = _user(session, username)
    count = repository.revoke_tokens(session, user.id, label, now)
    audit.record(
        session, "token-revoke", actor, now, counts={"tokens": count},
        details={"username": username, "label": label},
    )  # fmt: skip
    return count


def authenticate_token(session: Session, token: str, now: datetime) -> Principal | None:
    """The user a bearer token acts for, or None (unknown, expired, revoked, disabled user)."""
    if len(token) < TOKEN_PREFIX_LENGTH or len(token) > 200:
        return None
    presented = digest(token)
    for row in repository.tokens_with_prefix(session, token[:TOKEN_PREFIX_LENGTH]):
        if not hmac.compare_digest(row.token_hash, presented):
            continue
        if row.revoked_at is not None or row.expires_at <= now:
            return None
        user = repository.get_user_by_id(session, row.user_id)
        if user is None or user.disabled:
            return None
        row.last_used_at = now
        return Principal(
            user.id, user.username, user.role, "api",
            token_label=row.label, token_expires=row.expires_at,
        )  # fmt: skip
    return None


# Sign-in, sessions -----------------------------------------------------------------------------


def _locked_until(failures: list[datetime]) -> datetime | None:
    """The end of the latest lock: 5 failures within 15 minutes lock for 15 minutes after the
    fifth."""
    end = None
    for index in range(THROTTLE_FAILURES - 1, len(failures)):
        if failures[index] - failures[index - THROTTLE_FAILURES + 1] <= THROTTLE_WINDOW:
            end = failures[index] + THROTTLE_LOCK
    return end


def throttled(session: Session, username: str, address: str, now: datetime) -> bool:
    since = now - THROTTLE_WINDOW - THROTTLE_LOCK
    for failures in (
        repository.failure_times(session, since=since, username=username),
        repository.failure_times(session, since=since, address=address),
    ):
        end = _locked_until(failures)
        if end is not None and end > now:
            return True
    return False


def csrf_token(csrf_secret: str) -> str:
    """The token a session's forms carry: derived from its secret, so the table never holds it."""
    return hmac.new(csrf_secret.encode(), _CSRF_PURPOSE, hashlib.sha256).hexdigest()


def csrf_matches(principal: Principal, presented: str | None) -> bool:
    if principal.csrf_token is None or presented is None:
        return False
    return hmac.compare_digest(principal.csrf_token.encode(), presented.encode())


def sign_in(
    session: Session,
    username: str,
    password: str,
    address: str,
    now: datetime,
    *,
    previous_session_id: str | None = None,
) -> SignIn:
    """Check a name and password, throttled; on success a new session (any session the browser
    presented is deleted first: its id never survives a sign-in)."""
    name = username.strip().lower()[:USERNAME_LENGTH]
    address = address[:ADDRESS_LENGTH]
    if previous_session_id is not None:
        repository.delete_web_session(session, digest(previous_session_id))
    if throttled(session, name, address, now):
        repository.add_attempt(session, name, address, now, SignInOutcome.REFUSED)
        return SignIn(None, None, throttled=True)
    user = repository.get_user(session, name)
    if user is None or len(password) > MAX_PASSWORD_LENGTH:
        _verify(_dummy_hash(), password[:MAX_PASSWORD_LENGTH])
        ok = False
    else:
        ok = _verify(user.password_hash, password) and not user.disabled
    if not ok or user is None:
        repository.add_attempt(session, name, address, now, SignInOutcome.FAILURE)
        return SignIn(None, None)
    repository.add_attempt(session, name, address, now, SignInOutcome.SUCCESS)
    if _hasher.check_needs_rehash(user.password_hash):
        user.password_hash = hash_password(password)
    repository.delete_expired_web_sessions(session, now, now - SESSION_IDLE)
    session_id = secrets.token_urlsafe(32)
    csrf_secret = secrets.token_hex(32)
    repository.add_web_session(
        session,
        WebSessionRow(
            id_hash=digest(session_id),
            user_id=user.id,
            created_at=now,
            last_seen_at=now,
            expires_at=now + SESSION_ABSOLUTE,
            csrf_secret=csrf_secret,
        ),
    )
    principal = Principal(user.id, user.username, user.role, "web", csrf_token(csrf_secret))
    return SignIn(session_id, principal)


def session_principal(session: Session, session_id: str, now: datetime) -> Principal | None:
    """The user of a live session (and its last use moved to ``now``), or None: unknown,
    idle 30 minutes, older than 12 hours (then deleted), or its user disabled."""
    if not 1 <= len(session_id) <= 200:
        return None
    row = repository.get_web_session(session, digest(session_id))
    if row is None:
        return None
    if row.expires_at <= now or row.last_seen_at + SESSION_IDLE <= now:
        repository.delete_web_session(session, row.id_hash)
        return None
    user = repository.get_user_by_id(session, row.user_id)
    if user is None or user.disabled:
        return None
    row.last_seen_at = now
    return Principal(user.id, user.username, user.role, "web", csrf_token(row.csrf_secret))


def sign_out(session: Session, session_id: str) -> None:
    repository.delete_web_session(session, digest(session_id))
