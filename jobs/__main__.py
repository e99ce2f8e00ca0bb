"""``python -m jobs [--debug] [--actor NAME] list | run NAME [--now ISO-8601] | scheduler``.

Exit codes as ``ratingdb``'s: 2 for bad usage, 1 for an operational failure, told in one line
(``--debug`` or ``RATINGDB_DEBUG=1`` shows the traceback instead).

The parser imports only light modules, so ``--help`` is instant; the jobs, the scheduler and the
settings are imported when a command runs."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ratingdb import defaults, origin
from ratingdb.enums import AuditChannel
from ratingdb.errors import InputError
from ratingdb.output import delivered, reader_gone

if TYPE_CHECKING:
    from ratingdb.config import Settings

ACTOR_VARIABLE = defaults.variable("actor")
#: jobs.close_periods.NAME and jobs.expire_previews.NAME, without importing the jobs to build
#: the parser.
CLOSE_PERIODS = "close-periods"
EXPIRE_PREVIEWS = "expire-previews"

#: What the audit log adds to the operating system user when nobody names the actor.
SCHEDULER_QUALIFIER = " (scheduler)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jobs", description="ratingdb's scheduled jobs")
    parser.add_argument("--database-url", help="database URL (default: RATINGDB_DATABASE_URL)")
    parser.add_argument(
        "--actor",
        metavar="NAME",
        help=f"who the closes are recorded as in the audit log (default: {ACTOR_VARIABLE}, else "
        f"the operating system user followed by {SCHEDULER_QUALIFIER.strip()!r})",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        default=None,  # not given: RATINGDB_DEBUG decides
        help="on a failure, show the traceback (RATINGDB_DEBUG=1)",
    )
    # Accepted after the command too, as on every ratingdb command (docs/cli.md §1.1).
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--database-url", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument("--actor", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser(
        "list", parents=[common], help="the scheduled jobs and their next run times"
    )
    run = commands.add_parser("run", parents=[common], help="run one job now, in the foreground")
    run.add_argument("name", choices=[CLOSE_PERIODS, EXPIRE_PREVIEWS])
    run.add_argument("--now", help="the time to act as of (ISO 8601; default: now)")
    commands.add_parser("scheduler", parents=[common], help="run the scheduler in the foreground")
    args = parser.parse_args(argv)
    prefix = f"python -m jobs {args.command}"
    try:
        return delivered(_run(args))
    except BrokenPipeError:
        return reader_gone()  # ``python -m jobs list | head -1``: quietly (ratingdb.output)
    except InputError as error:
        print(f"{prefix}: {error}", file=sys.stderr)
        return 2
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
        line = explain(error, database_named(args.database_url, os.environ))
        print(f"{prefix}: {unexpected(error) if line is None else line}", file=sys.stderr)
        return EXIT_FAILURE


def job_actor(settings: Settings) -> str:
    """``--actor`` or ``RATINGDB_ACTOR`` as given; otherwise the operating system user running
    the jobs, marked as the scheduler's. Unusable: bad usage (exit 2)."""
    from ratingdb.config import ConfigurationError

    try:
        return settings.audit_actor(qualifier=SCHEDULER_QUALIFIER)
    except ConfigurationError as error:
        raise InputError(str(error)) from None


def _run(args: argparse.Namespace) -> int:
    from jobs.close_periods import close_periods
    from jobs.scheduler import DAILY, run_scheduler, scheduled_jobs
    from ratingdb.config import Settings
    from ratingdb.observability import logs

    settings = Settings.from_env(
        os.environ, database_url=args.database_url, actor=args.actor, debug=args.debug
    )
    logs.configure(settings.log_format)
    if args.command == "list":
        now = datetime.now(UTC)
        for name in scheduled_jobs(settings, actor="nobody: the jobs are only listed"):
            print(f"{name}\tat start, then daily\tnext: {DAILY.get_next_fire_time(None, now)}")
        return 0
    actor = job_actor(settings)
    origin.set_process(origin.Origin(AuditChannel.SCHEDULER, origin.operating_system_user()))
    if args.command == "run":
        now = _parse_now(args.now)
        if args.name == EXPIRE_PREVIEWS:
            from jobs.expire_previews import expire_previews

            print(json.dumps({"expired": expire_previews(settings, now)}))
            return 0
        outcomes = close_periods(settings, now, actor)
        for outcome in outcomes:
            print(json.dumps(outcome.as_json()))
        return 0
    run_scheduler(settings, actor)
    return 0


def _parse_now(text: str | None) -> datetime:
    if text is None:
        return datetime.now(UTC)
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InputError(f"must be an ISO 8601 date or time, got {text!r}", field="--now") from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


if __name__ == "__main__":
    sys.exit(main())
