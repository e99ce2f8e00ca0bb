"""``ratingdb users add|list|disable|enable|approve|reset-password|token|revoke-token`` and
``ratingdb backoffice``.

Every change is written to the audit log with the command line's actor (``--actor``,
``RATINGDB_ACTOR``, else the operating system user).
Passwords come from stdin (``--password-stdin``) or a prompt asked twice, never from an
argument (it would sit in the shell history and the process list).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from ratingdb.cli import backoffice
from ratingdb.cli.common import (
    actor,
    command_group,
    database_options,
    transaction,
    utc_now,
    writing_options,
)
from ratingdb.enums import Role
from ratingdb.errors import InputError

ROLES = tuple(role.value for role in Role)
#: ratingdb.services.accounts' token defaults, without importing the database to build the
#: parser.
DEFAULT_TOKEN_LABEL = "default"
DEFAULT_TOKEN_DAYS = 90
MAX_TOKEN_DAYS = 366
SCOPES = ("read", "submit", "full")
DEFAULT_TOKEN_SCOPE = "submit"


def register(commands: Any) -> None:
    actions = command_group(commands, "users", "back-office accounts and their API tokens")
    add = actions.add_parser("add", parents=writing_options(), help="create an account")
    add.add_argument("username", metavar="USERNAME")
    add.add_argument("--role", required=True, choices=ROLES)
    add.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from the first line of stdin (else: a prompt, asked twice)",
    )
    add.set_defaults(handler=run_add)
    listing = actions.add_parser(
        "list", parents=[database_options()], help="accounts as JSON lines (never a hash)"
    )
    listing.set_defaults(handler=run_list)
    _on_a_user(actions, "disable", "no more sign-in nor token for the user", run_disable)
    token = actions.add_parser(
        "token", parents=writing_options(), help="a new API token, printed once"
    )
    token.add_argument("username", metavar="USERNAME")
    token.add_argument("--label", default=DEFAULT_TOKEN_LABEL)
    token.add_argument(
        "--days",
        type=int,
        default=DEFAULT_TOKEN_DAYS,
        help=f"valid for N days (default: {DEFAULT_TOKEN_DAYS}; at most {MAX_TOKEN_DAYS})",
    )
    token.add_argument(
        "--scope",
        choices=SCOPES,
        default=DEFAULT_TOKEN_SCOPE,
        help="what the token may do at most: read (GET only), submit (also send tournament "
        f"files), full (all the user's role may); default: {DEFAULT_TOKEN_SCOPE}",
    )
    token.set_defaults(handler=run_token)
    _on_a_user(actions, "enable", "a disabled account may sign in again", run_enable)
    _on_a_user(actions, "approve", "approve an account an admin created or reset in the back "
               "office", run_approve)  # fmt: skip
    reset = actions.add_parser(
        "reset-password",
        parents=writing_options(),
        help="choose a password for the user, who must change it at the next sign-in",
    )
    reset.add_argument("username", metavar="USERNAME")
    reset.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from the first line of stdin (else: a prompt, asked twice)",
    )
    reset.set_defaults(handler=run_reset)
    revoke = actions.add_parser(
        "revoke-token",
        parents=writing_options(),
        help="revoke the user's tokens",
    )
    revoke.add_argument("username", metavar="USERNAME")
    revoke.add_argument("--label", help="only the tokens with this label (default: all)")
    revoke.set_defaults(handler=run_revoke)
    backoffice.register(commands)


def _on_a_user(
    actions: Any, name: str, help: str, handler: Callable[[argparse.Namespace], int]
) -> None:
    """A writing command on one USERNAME."""
    command = actions.add_parser(name, parents=writing_options(), help=help)
    command.add_argument("username", metavar="USERNAME")
    command.set_defaults(handler=handler)


def _read_password(args: argparse.Namespace) -> str:
    import getpass
    import hmac

    if args.password_stdin:
        line = sys.stdin.readline()
        password = line[:-1] if line.endswith("\n") else line
        if password.endswith("\r"):
            password = password[:-1]
        return password
    first = getpass.getpass("Password: ")
    second = getpass.getpass("Password again: ")
    if not hmac.compare_digest(first.encode(), second.encode()):
        raise InputError("the two passwords differ", field="password")
    return first


def run_add(args: argparse.Namespace) -> int:
    from ratingdb.services import accounts

    accounts.check_username(args.username)
    password = _read_password(args)
    accounts.check_password(password, args.username)
    with transaction(args) as session:
        accounts.add_user(
            session, args.username, args.role, password, by=None, actor=actor(args),
            now=utc_now(),
        )  # fmt: skip
    print(json.dumps({"username": args.username, "role": args.role}))
    return 0


def run_list(args: argparse.Namespace) -> int:
    from ratingdb.services import accounts

    with transaction(args) as session:
        users = accounts.list_users(session)
    for user in users:
        print(json.dumps(user))
    return 0


def run_disable(args: argparse.Namespace) -> int:
    from ratingdb.services import accounts

    with transaction(args) as session:
        accounts.disable_user(session, args.username, by=None, actor=actor(args), now=utc_now())
    print(json.dumps({"username": args.username, "disabled": True}))
    return 0


def run_enable(args: argparse.Namespace) -> int:
    from ratingdb.services import accounts

    with transaction(args) as session:
        accounts.enable_user(session, args.username, actor=actor(args), now=utc_now())
    print(json.dumps({"username": args.username, "disabled": False}))
    return 0


def run_approve(args: argparse.Namespace) -> int:
    """The operator approves (the command line has no admin account to compare with: whoever
    runs it holds the database already)."""
    from ratingdb.services import accounts

    with transaction(args) as session:
        accounts.approve_by_operator(session, args.username, actor=actor(args), now=utc_now())
    print(json.dumps({"username": args.username, "awaiting_approval": False}))
    return 0


def run_reset(args: argparse.Namespace) -> int:
    from ratingdb.services import accounts

    password = _read_password(args)
    with transaction(args) as session:
        accounts.reset_password(
            session, args.username, password, by=None, actor=actor(args), now=utc_now()
        )
    print(json.dumps({"username": args.username, "must_change_password": True}))
    return 0


def run_token(args: argparse.Namespace) -> int:
    from ratingdb.services import accounts

    with transaction(args) as session:
        issued = accounts.issue_token(
            session, args.username, args.label, args.days, args.scope, by=None,
            actor=actor(args), now=utc_now(),
        )  # fmt: skip
    print(json.dumps({"token": issued.token, "expires": issued.expires.isoformat()}))
    return 0


def run_revoke(args: argparse.Namespace) -> int:
    from ratingdb.services import accounts

    with transaction(args) as session:
        count = accounts.revoke_tokens(
            session, args.username, args.label, actor=actor(args), now=utc_now()
        )
    print(json.dumps({"username": args.username, "label": args.label, "revoked": count}))
    return 0
