"""Signing in to the back office: throttling, known browsers, web sessions.

Throttling delays, it never locks: each failure in a bucket pushes the bucket's next allowed
attempt further (:func:`delay_after`: a few free failures, then 1 s, doubling, at most 15
minutes); an attempt before that is refused without checking the password. A failure is
forgotten 24 hours after the bucket's last one. The buckets:

- a browser the user signed in from before (its ``device`` cookie, 180 days) has a bucket of
  its own, ``device:DIGEST``, and nothing else: an attacker failing with the user's name, from
  anywhere, cannot delay the user's own browser;
- any other attempt counts in ``user:NAME`` and in ``address:IP`` (the client address as the
  server sees it: ``RATINGDB_BACKOFFICE_TRUSTED_PROXIES`` decides whether a proxy's
  ``X-Forwarded-For`` counts).

An attempt locks its buckets' rows (one order, see ``repositories.accounts.locked_buckets``)
until it is decided, so concurrent attempts are counted one after the other: a burst of 19 gets
exactly the free failures checked, on PostgreSQL as on SQLite. Password checks are bounded per
process (``passwords.HASHING_SLOTS``).

Sessions end after 30 minutes idle or 12 hours in all; signing in always makes a new id;
signing out deletes the row. Every sign-in, failure, delay and sign-out is audited.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from ratingdb.enums import SignInOutcome
from ratingdb.models import KnownDeviceRow, SignInThrottleRow, UserRow, WebSessionRow
from ratingdb.models.account import USERNAME_LENGTH
from ratingdb.repositories import accounts as repository
from ratingdb.services import audit, passwords
from ratingdb.services.accounts import Principal, digest, usable

SESSION_IDLE = timedelta(minutes=30)
SESSION_ABSOLUTE = timedelta(hours=12)
#: Failures of a user's name (or of one known browser) before the first delay.
FREE_FAILURES = 4
#: Failures from one address before the first delay: several people may share it (an office
#: behind one NAT), and an attacker spraying names from it is slowed all the same.
FREE_ADDRESS_FAILURES = 10
FIRST_DELAY = timedelta(seconds=1)
MAX_DELAY = timedelta(minutes=15)
#: A bucket's failures are forgotten this long after its last one.
FORGET_AFTER = timedelta(hours=24)
#: How long a browser stays known without signing in.
DEVICE_LIFETIME = timedelta(days=180)
#: Longest stored address (an IPv6 address with a zone fits).
ADDRESS_LENGTH = 64

_CSRF_PURPOSE = b"ratingdb backoffice csrf"


def delay_after(failures: int, free: int = FREE_FAILURES) -> timedelta:
    """How long a bucket waits after its ``failures``-th failure: nothing for the first
    ``free``, then 1 s, 2 s, 4 s... at most 15 minutes."""
    if failures <= free:
        return timedelta(0)
    doublings = failures - free - 1
    if doublings >= 20:  # 2^20 s is far past the cap
        return MAX_DELAY
    delay: timedelta = FIRST_DELAY * 2**doublings
    return min(delay, MAX_DELAY)


@dataclass(frozen=True, slots=True)
class SignIn:
    """The outcome of a sign-in: ``session_id`` (for the cookie) and ``device_id`` (the known
    browser's cookie) when it succeeded; ``retry_after`` when it was refused without checking
    the password; ``awaiting_approval`` when the password was right but the account waits for
    an admin's approval."""

    session_id: str | None
    principal: Principal | None
    retry_after: timedelta | None = None
    device_id: str | None = None
    awaiting_approval: bool = False

    @property
    def throttled(self) -> bool:
        return self.retry_after is not None


def _buckets(known_device: str | None, name: str, address: str) -> list[tuple[str, int]]:
    if known_device is not None:
        return [(f"device:{known_device}", FREE_FAILURES)]
    return [(f"user:{name}", FREE_FAILURES), (f"address:{address}", FREE_ADDRESS_FAILURES)]


def _known_device(
    session: Session, device_id: str | None, user: UserRow | None, now: datetime
) -> str | None:
    """The digest of the presented device cookie if it is a browser ``user`` signed in from."""
    if device_id is None or user is None or not 1 <= len(device_id) <= 200:
        return None
    row = repository.known_device(session, digest(device_id))
    if row is None or row.user_id != user.id or row.last_used_at + DEVICE_LIFETIME <= now:
        return None
    return row.id_hash


def sign_in(
    session: Session,
    username: str,
    password: str,
    address: str,
    now: datetime,
    *,
    previous_session_id: str | None = None,
    device_id: str | None = None,
) -> SignIn:
    """Check a name and password, throttled (see the module's docstring); on success a new
    session (any session the browser presented is deleted first: its id never survives a
    sign-in) and the browser known to the user."""
    name = username.strip().lower()[:USERNAME_LENGTH]
    address = address[:ADDRESS_LENGTH]
    if previous_session_id is not None:
        repository.delete_web_session(session, digest(previous_session_id))
    user = repository.get_user(session, name)
    device = _known_device(session, device_id, user, now)
    buckets = _buckets(device, name, address)
    rows = repository.locked_buckets(session, [bucket for bucket, _ in buckets], now)
    waits = [row.next_allowed_at - now for row in rows.values() if row.next_allowed_at > now]
    if waits:
        repository.add_attempt(session, name, address, now, SignInOutcome.REFUSED)
        return SignIn(None, None, retry_after=max(waits))
    if user is None or len(password) > passwords.MAX_LENGTH:
        passwords.verify_nobody(password)
        right = False
    else:
        right = passwords.verify(user.password_hash, password) and not user.disabled
    details = {"username": name, "address": address, "known_browser": device is not None}
    if not right or user is None:
        repository.add_attempt(session, name, address, now, SignInOutcome.FAILURE)
        audit.record(session, "sign-in-failure", name, now, details=details)
        for bucket, free in buckets:
            _fail(session, rows[bucket], free, now, details)
        return SignIn(None, None)
    repository.add_attempt(session, name, address, now, SignInOutcome.SUCCESS)
    if user.awaiting_approval_from_other_than is not None:
        audit.record(session, "sign-in-awaiting-approval", name, now, details=details)
        return SignIn(None, None, awaiting_approval=True)
    # The user's own bucket starts afresh; an address's does not (an attacker with one valid
    # account must not clear the address they spray other names from).
    for bucket, _ in buckets:
        if not bucket.startswith("address:"):
            rows[bucket].failures = 0
            rows[bucket].next_allowed_at = now
    if passwords.needs_rehash(user.password_hash):
        user.password_hash = passwords.hash_password(password)
    repository.delete_expired_web_sessions(session, now, now - SESSION_IDLE)
    repository.forget_buckets(session, now - FORGET_AFTER)
    repository.forget_devices(session, now - DEVICE_LIFETIME)
    new_device = _remember_device(session, user, device, now)
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
    audit.record(session, "sign-in", user.username, now, details=details)
    principal = Principal(
        user.id, user.username, user.role, "web", csrf_token(csrf_secret),
        must_change_password=user.must_change_password, touched_at=now,
        session_hash=digest(session_id),
    )  # fmt: skip
    return SignIn(session_id, principal, device_id=new_device)


def _fail(
    session: Session, row: SignInThrottleRow, free: int, now: datetime, details: dict[str, object]
) -> None:
    """One more failure in the bucket, and its next allowed attempt pushed back."""
    failures = 1 if row.last_failure_at + FORGET_AFTER <= now else row.failures + 1
    row.failures = failures
    row.last_failure_at = now
    wait = delay_after(failures, free)
    row.next_allowed_at = now + wait
    if failures == free + 1:  # the bucket's first delay: what a lock-out used to be
        audit.record(session, "sign-in-throttled", str(details["username"]), now,
                     details={**details, "bucket": row.bucket.split(":")[0]})  # fmt: skip


def _remember_device(
    session: Session, user: UserRow, known: str | None, now: datetime
) -> str | None:
    """The new device cookie's value for a browser not known yet (None: it is known, and its
    last use is moved to now)."""
    if known is not None:
        row = repository.known_device(session, known)
        if row is not None:
            row.last_used_at = now
        return None
    device_id = secrets.token_urlsafe(32)
    repository.add_known_device(
        session,
        KnownDeviceRow(
            id_hash=digest(device_id), user_id=user.id, created_at=now, last_used_at=now
        ),
    )
    return device_id


def csrf_token(csrf_secret: str) -> str:
    """The token a session's forms carry: derived from its secret, so the table never holds it."""
    return hmac.new(csrf_secret.encode(), _CSRF_PURPOSE, hashlib.sha256).hexdigest()


def csrf_matches(principal: Principal, presented: str | None) -> bool:
    if principal.csrf_token is None or presented is None:
        return False
    return hmac.compare_digest(principal.csrf_token.encode(), presented.encode())


def session_principal(session: Session, session_id: str, now: datetime) -> Principal | None:
    """The user of a live session, or None: unknown, idle 30 minutes, older than 12 hours, or
    its user disabled or awaiting approval. Reads only; the guard writes its last use
    (:func:`touch`) when it is due, and an expired session is deleted at the next sign-in."""
    if not 1 <= len(session_id) <= 200:
        return None
    row = repository.get_web_session(session, digest(session_id))
    if row is None:
        return None
    if row.expires_at <= now or row.last_seen_at + SESSION_IDLE <= now:
        return None
    user = repository.get_user_by_id(session, row.user_id)
    if user is None or not usable(user):
        return None
    return Principal(
        user.id, user.username, user.role, "web", csrf_token(row.csrf_secret),
        must_change_password=user.must_change_password, touched_at=row.last_seen_at,
        session_hash=row.id_hash,
    )  # fmt: skip


def touch(session: Session, principal: Principal, now: datetime) -> None:
    """Write the last use of the principal's session or token."""
    if principal.session_hash is not None:
        repository.touch_web_session(session, principal.session_hash, now)
    elif principal.token_id is not None:
        repository.touch_token(session, principal.token_id, now)


def sign_out(session: Session, session_id: str, principal: Principal, now: datetime) -> None:
    repository.delete_web_session(session, digest(session_id))
    audit.record(session, "sign-out", principal.username, now,
                 details={"username": principal.username})  # fmt: skip
