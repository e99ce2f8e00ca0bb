"""``python -m jobs list | run NAME [--now ISO-8601] | scheduler``."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime

from jobs.close_periods import NAME as CLOSE_PERIODS
from jobs.close_periods import close_periods
from jobs.scheduler import DAILY, run_scheduler, scheduled_jobs
from ratingdb.config import Settings
from ratingdb.db import SchemaNotCurrent
from ratingdb.errors import InputError


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m jobs", description="ratingdb's scheduled jobs")
    parser.add_argument("--database-url", help="database URL (default: RATINGDB_DATABASE_URL)")
    # Accepted after the command too, as on every ratingdb command (contract "Configuration").
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--database-url", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser(
        "list", parents=[common], help="the scheduled jobs and their next run times"
    )
    run = commands.add_parser("run", parents=[common], help="run one job now, in the foreground")
    run.add_argument("name", choices=[CLOSE_PERIODS])
    run.add_argument("--now", help="the time to act as of (ISO 8601; default: now)")
    commands.add_parser("scheduler", parents=[common], help="run the scheduler in the foreground")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    settings = Settings.from_env(os.environ, database_url=args.database_url)

    if args.command == "list":
        now = datetime.now(UTC)
        for name in scheduled_jobs(settings):
            print(f"{name}\tat start, then daily\tnext: {DAILY.get_next_fire_time(None, now)}")
        return 0
    if args.command == "run":
        try:
            now = _parse_now(args.now)
        except InputError as error:
            print(f"python -m jobs run: {error}", file=sys.stderr)
            return 2
        outcomes = close_periods(settings, now)
        for outcome in outcomes:
            print(json.dumps(outcome.as_json()))
        return 0
    try:
        run_scheduler(settings)
    except SchemaNotCurrent as error:
        print(f"python -m jobs scheduler: {error}", file=sys.stderr)
        return 1
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
