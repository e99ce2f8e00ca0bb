"""The ``ratingdb`` command (docs/cli.md §1).

Exit codes: 0 success; 2 bad usage or bad input, with a message on stderr naming the file,
line and field; 1 any other failure, told in one line on stderr (ratingdb.failures says what
went wrong and what to do); ``--debug`` or ``RATINGDB_DEBUG=1`` lets the exception propagate
with its traceback instead.

Building the parser imports only argparse and light modules (``tests/cli/test_startup.py``):
each command imports the database, the web stack or pydantic when it runs.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ratingdb import origin
from ratingdb.cli import calc, corrections, db, demo, lists, periods, serve, tournaments, users
from ratingdb.cli.common import given_sessions
from ratingdb.cli.fields import as_typed
from ratingdb.enums import AuditChannel
from ratingdb.errors import InputError
from ratingdb.output import delivered, reader_gone

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ratingdb", description="Rating-history database for chess federations."
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=None,  # not given: RATINGDB_DEBUG decides
        help="on a failure, show the traceback instead of one line (or RATINGDB_DEBUG=1)",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    db.register(commands)
    lists.register(commands)
    tournaments.register(commands)
    periods.register(commands)
    corrections.register(commands)
    calc.register(commands)
    demo.register(commands)
    serve.register(commands)
    users.register(commands)  # users and backoffice
    return parser


#: Options whose values may start with "-" (the forfeit results -+ and --).
DASHED_VALUES = ("--result",)


def _join_dashed_values(argv: Sequence[str]) -> list[str]:
    """``--result -+`` and ``--result --`` as one ``--result=...`` argument: argparse would
    take the value for an option, or for its end-of-options marker."""
    joined: list[str] = []
    items = list(argv)
    index = 0
    while index < len(items):
        item = items[index]
        if item in DASHED_VALUES and index + 1 < len(items) and items[index + 1] in ("-+", "--"):
            joined.append(f"{item}={items[index + 1]}")
            index += 2
            continue
        joined.append(item)
        index += 1
    return joined


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """The parser ``main`` uses, built once per process: a command runs once, but whatever
    calls ``main`` in-process (the tests: over a thousand times) would build it each time, 6-8 ms
    of CPU, most of it argparse looking up translations of its own messages. Parsing leaves
    the parser as it was."""
    return build_parser()


def main(
    argv: Sequence[str] | None = None, *, sessions: sessionmaker[Session] | None = None
) -> int:
    """Run the command ``argv`` (default: the process's arguments); its exit code.
    ``sessions``: where a command's transaction comes from instead of an engine on the
    database URL (a caller that holds the database: the tests' rolled-back transaction)."""
    parser = _parser()
    args = parser.parse_args(_join_dashed_values(sys.argv[1:] if argv is None else argv))
    if sessions is not None:
        given_sessions(args, sessions)
    # Every audit entry a command writes says it came from the command line, run by whom.
    before = origin.current_process()
    origin.set_process(origin.Origin(AuditChannel.CLI, origin.operating_system_user()))
    try:
        return delivered(_run(args))
    finally:
        origin.set_process(before)


def _run(args: argparse.Namespace) -> int:
    try:
        code: int = args.handler(args)
    except BrokenPipeError:
        # Whoever read the output stopped (``ratingdb lists export ... | head``): end quietly,
        # as a Unix tool does (ratingdb.output).
        return reader_gone()
    except InputError as error:
        shown = as_typed(error, args.command, getattr(args, "action", None))
        print(f"ratingdb {args.command}: {shown}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as error:
        from ratingdb.failures import (
            EXIT_FAILURE,
            database_named,
            debug_wanted,
            explain,
            unexpected,
        )

        if debug_wanted(args.debug, os.environ):
            raise
        line = explain(error, database_named(getattr(args, "database_url", None), os.environ))
        print(f"ratingdb {args.command}: {unexpected(error) if line is None else line}",
              file=sys.stderr)  # fmt: skip
        return EXIT_FAILURE
    return code
