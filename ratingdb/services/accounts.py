"""Back-office accounts: users, their passwords and API tokens (sign-in and sessions:
``ratingdb.services.sign_in``; what a password must be and how it is hashed:
``ratingdb.services.passwords``).

- API tokens and session ids: ``secrets.token_urlsafe(32)`` (256 random bits), handed out once
  and stored as SHA-256 digests (a slow hash adds nothing to a secret that cannot be guessed),
  compared in constant time. A token has a scope (read, submit, full) chosen at issue, and
  is issued only to its owner: an admin can revoke anyone's tokens but mint nobody else's.
- Four eyes: an account created, or a password reset, by an admin in the back office (where the
  admin chose the password) signs nobody in until ANOTHER admin approves it, and its user must
  choose a new password at the first sign-in. The command line (``ratingdb users``), run by
  whoever runs the server, creates accounts ready to use.

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

from sqlalchemy.orm import Session

from ratingdb.enums import Role, TokenScope
from ratingdb.errors import InputError
from ratingdb.models import ApiTokenRow, UserRow
from ratingdb.models.account import TOKEN_PREFIX_LENGTH, USERNAME_LENGTH
from ratingdb.repositories import accounts as repository
from ratingdb.rules.messages import N_, Message, one_of
from ratingdb.services import audit, passwords

USERNAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9._-]*")
DEFAULT_TOKEN_DAYS = 90
MAX_TOKEN_DAYS = 366
DEFAULT_TOKEN_LABEL = "default"
MAX_LABEL_LENGTH = 100

#: A token's scope when none is chosen: what the contract promises an integration (read, and
#: send tournament files), never an officer's decisions.
DEFAULT_TOKEN_SCOPE = TokenScope.SUBMIT
#: Seconds between two writes of a session's or a token's last use: a page view reads, it
#: does not need the write lock each time.
TOUCH_EVERY = timedelta(seconds=60)


class UnknownUserError(InputError):
    """No user of that name: exit code 2 on the command line, 404 in the API."""

    def __init__(self, username: str, field: str = "username") -> None:
        super().__init__(Message(N_("no user %(user)s"), {"user": repr(username)}), field=field)


class NotAllowed(InputError):
    """An account change the caller may not make (an admin approving their own change,
    disabling themself, minting another user's token): 403."""


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a request acts as. ``via``: ``web`` (a session cookie) or ``api`` (a bearer
    token). ``csrf_token`` is the session's, for the forms of web pages; ``scope`` the token's
    (a session may do all its role may); ``must_change_password``: the session may only
    change the password (an admin chose it)."""

    user_id: int
    username: str
    role: Role
    via: Literal["web", "api"]
    csrf_token: str | None = None
    token_label: str | None = None
    token_expires: datetime | None = None
    scope: TokenScope = TokenScope.FULL
    token_id: int | None = None
    must_change_password: bool = False
    #: When its session's or token's use was last written (None: never).
    touched_at: datetime | None = None
    #: The digest of its web session's id (web only).
    session_hash: str | None = None

    @property
    def credential(self) -> str:
        """What the audit log names as the credential used."""
        if self.via == "web":
            return "session"
        return f"token {self.token_label} (#{self.token_id}, {self.scope})"


@dataclass(frozen=True, slots=True)
class IssuedToken:
    token: str
    label: str
    expires: datetime
    scope: TokenScope


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


# Users -----------------------------------------------------------------------------------------


def check_username(username: str, field: str = "username") -> str:
    if not 1 <= len(username) <= USERNAME_LENGTH or not USERNAME_PATTERN.fullmatch(username):
        raise InputError(
            Message(N_("must be 1..%(most)s of a-z, 0-9, '.', '_', '-' (starting with a letter "
                       "or digit), got %(given)s"),
                    {"most": USERNAME_LENGTH, "given": repr(username)}),
            field=field,
        )  # fmt: skip
    return username


def check_role(role: str, field: str = "role") -> Role:
    try:
        return Role(role)
    except ValueError:
        raise InputError(one_of(Role, role), field=field) from None


def check_password(password: str, username: str, field: str = "password") -> None:
    passwords.check(password, username, field)


def _user(session: Session, username: str, field: str = "username") -> UserRow:
    """The account a change is about, locked while the change is decided."""
    row = repository.locked_user(session, username)
    if row is None:
        raise UnknownUserError(username, field)
    return row


def _by_admin(by: Principal | None) -> int | None:
    """The admin acting in the back office (None: the command line, run by the operator)."""
    return None if by is None else by.user_id


def add_user(
    session: Session,
    username: str,
    role: str,
    password: str,
    *,
    by: Principal | None,
    actor: str,
    now: datetime,
) -> UserRow:
    """A new account. Created by an admin in the back office (``by``), it waits for another
    admin's approval and asks its user for a new password at the first sign-in."""
    check_username(username)
    checked_role = check_role(role)
    check_password(password, username)
    if repository.get_user(session, username) is not None:
        raise InputError(Message(N_("a user %(user)s already exists"), {"user": repr(username)}),
                         field="username")  # fmt: skip
    row = repository.add_user(session, username, checked_role, passwords.hash_password(password))
    row.awaiting_approval_from_other_than = _by_admin(by)
    row.must_change_password = by is not None
    audit.record(session, "user-add", actor, now, details={
        "username": username, "role": role, "awaiting_approval": by is not None})  # fmt: skip
    return row


def approve_user(session: Session, username: str, *, by: Principal, now: datetime) -> None:
    """Another admin's approval of an account an admin created or reset."""
    row = _awaiting(session, username)
    if by.user_id in (row.awaiting_approval_from_other_than, row.id):
        raise NotAllowed(
            Message(
                N_(
                    "another admin must approve it: you chose its password, or it is your own "
                    "account"
                )
            ),
            field="username",
        )
    row.awaiting_approval_from_other_than = None
    audit.record(session, "user-approve", by.username, now, details={"username": username})


def _awaiting(session: Session, username: str) -> UserRow:
    row = _user(session, username)
    if row.awaiting_approval_from_other_than is None:
        raise InputError(Message(N_("user %(user)s awaits no approval"), {"user": repr(username)}),
                         field="username")  # fmt: skip
    return row


def approve_by_operator(session: Session, username: str, *, actor: str, now: datetime) -> None:
    """The command line's approval (``ratingdb users approve``): its operator holds the
    database already; no admin account is compared."""
    row = _awaiting(session, username)
    row.awaiting_approval_from_other_than = None
    audit.record(session, "user-approve", actor, now, details={"username": username})


def reset_password(
    session: Session,
    username: str,
    password: str,
    *,
    by: Principal | None,
    actor: str,
    now: datetime,
) -> None:
    """A password chosen for the user, who must change it at the next sign-in; their sessions
    end. By an admin in the back office, the account then waits for another admin's approval.
    Your own password: :func:`change_password`."""
    row = _user(session, username)
    if by is not None and by.user_id == row.id:
        raise NotAllowed(Message(N_("change your own password from your account page")),
                         field="username")  # fmt: skip
    check_password(password, username)
    row.password_hash = passwords.hash_password(password)
    row.must_change_password = True
    row.awaiting_approval_from_other_than = _by_admin(by)
    repository.delete_web_sessions_of(session, row.id)
    audit.record(session, "password-reset", actor, now, details={
        "username": username, "awaiting_approval": by is not None})  # fmt: skip


def change_password(
    session: Session,
    caller: Principal,
    current: str,
    new: str,
    *,
    now: datetime,
    keep_session_hash: str | None = None,
) -> None:
    """The caller's own password: the current one checked first. Every other session of the
    caller ends (a thief's included)."""
    row = _user(session, caller.username)
    if len(current) > passwords.MAX_LENGTH or not passwords.verify(row.password_hash, current):
        raise InputError(Message(N_("is not your current password")), field="current_password")
    if new == current:
        raise InputError(Message(N_("must differ from the current password")),
                         field="new_password")  # fmt: skip
    check_password(new, row.username, field="new_password")
    row.password_hash = passwords.hash_password(new)
    row.must_change_password = False
    repository.delete_web_sessions_of(session, row.id, keep=keep_session_hash)
    audit.record(session, "password-change", caller.username, now,
                 details={"username": row.username})  # fmt: skip


def disable_user(
    session: Session, username: str, *, by: Principal | None, actor: str, now: datetime
) -> None:
    """The user can no longer sign in, nor use a token; their sessions end at once. An admin
    cannot disable themself (the last admin would lock everybody out of user management)."""
    row = _user(session, username)
    if by is not None and by.user_id == row.id:
        raise NotAllowed(Message(N_("you cannot disable yourself")), field="username")
    row.disabled = True
    repository.delete_web_sessions_of(session, row.id)
    audit.record(session, "user-disable", actor, now, details={"username": username})


def enable_user(session: Session, username: str, *, actor: str, now: datetime) -> None:
    """A disabled account enabled again (its password unchanged: nobody new learns it)."""
    row = _user(session, username)
    if not row.disabled:
        raise InputError(Message(N_("user %(user)s is not disabled"), {"user": repr(username)}),
                         field="username")  # fmt: skip
    row.disabled = False
    audit.record(session, "user-enable", actor, now, details={"username": username})


def list_users(session: Session) -> list[dict[str, Any]]:
    """Users and their tokens, never a hash or a token."""
    names = {user.id: user.username for user in repository.all_users(session)}
    return [
        {
            "username": user.username,
            "role": user.role,
            "disabled": user.disabled,
            "awaiting_approval": user.awaiting_approval_from_other_than is not None,
            "awaiting_approval_from_other_than": names.get(
                user.awaiting_approval_from_other_than or -1
            ),
            "must_change_password": user.must_change_password,
            "created_at": user.created_at.isoformat(),
            "tokens": [
                {
                    "label": token.label,
                    "scope": token.scope,
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
        raise InputError(Message(N_("must be 1..%(most)s printable characters"),
                                 {"most": MAX_LABEL_LENGTH}), field=field)  # fmt: skip
    return label


def check_days(days: int, field: str = "days") -> int:
    if not 1 <= days <= MAX_TOKEN_DAYS:
        raise InputError(Message(N_("must be 1..%(most)s, got %(given)s"),
                                 {"most": MAX_TOKEN_DAYS, "given": days}), field=field)  # fmt: skip
    return days


def check_scope(scope: str, field: str = "scope") -> TokenScope:
    try:
        return TokenScope(scope)
    except ValueError:
        raise InputError(one_of(TokenScope, scope), field=field) from None


def issue_token(
    session: Session,
    username: str,
    label: str,
    days: int,
    scope: str,
    *,
    by: Principal | None,
    actor: str,
    now: datetime,
) -> IssuedToken:
    """A new token for ``username``, valid ``days`` days, allowed ``scope`` at most. In the
    back office only its owner gets one (``by``): nobody can mint a token to act as somebody
    else. Its clear text exists only in the returned value: show it once."""
    check_label(label)
    check_days(days)
    checked_scope = check_scope(scope)
    user = _user(session, username)
    if by is not None and by.user_id != user.id:
        raise NotAllowed(Message(N_("a token is issued only to its owner, by themself")),
                         field="username")  # fmt: skip
    if user.disabled:
        raise InputError(Message(N_("user %(user)s is disabled"), {"user": repr(username)}),
                         field="username")  # fmt: skip
    token = secrets.token_urlsafe(32)
    expires = now + timedelta(days=days)
    repository.add_token(
        session,
        ApiTokenRow(
            user_id=user.id,
            label=label,
            scope=checked_scope,
            prefix=token[:TOKEN_PREFIX_LENGTH],
            token_hash=digest(token),
            created_at=now,
            expires_at=expires,
        ),
    )
    audit.record(
        session, "token-issue", actor, now,
        details={"username": username, "label": label, "scope": checked_scope,
                 "expires": expires.isoformat()},
    )  # fmt: skip
    return IssuedToken(token=token, label=label, expires=expires, scope=checked_scope)


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
    """The user a bearer token acts for, or None (unknown, expired, revoked, a disabled user
    or one awaiting approval). Reads only: the guard writes its last use (``sign_in.touch``)."""
    if len(token) < TOKEN_PREFIX_LENGTH or len(token) > 200:
        return None
    presented = digest(token)
    for row in repository.tokens_with_prefix(session, token[:TOKEN_PREFIX_LENGTH]):
        if not hmac.compare_digest(row.token_hash, presented):
            continue
        if row.revoked_at is not None or row.expires_at <= now:
            return None
        user = repository.get_user_by_id(session, row.user_id)
        if user is None or not usable(user):
            return None
        return Principal(
            user.id, user.username, user.role, "api",
            token_label=row.label, token_expires=row.expires_at, scope=row.scope,
            token_id=row.id,
            touched_at=row.last_used_at,
        )  # fmt: skip
    return None


def usable(user: UserRow) -> bool:
    """Whether the account may act at all: not disabled, not awaiting approval."""
    return not user.disabled and user.awaiting_approval_from_other_than is None
