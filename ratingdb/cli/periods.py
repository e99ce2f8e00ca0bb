"""``ratingdb periods close``, ``status``, ``verify`` and ``rebuild-changes``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ratingdb.cli.common import (
    actor,
    category,
    command_group,
    database_options,
    period,
    transaction,
    utc_now,
    writing_options,
)
from ratingdb.errors import InputError


def register(commands: Any) -> None:
    actions = command_group(commands, "periods", "rating periods")
    close = actions.add_parser(
        "close",
        parents=writing_options(),
        help="compute and publish the list of a period",
    )
    close.add_argument("--category", required=True)
    close.add_argument("--period", required=True)
    close.add_argument("--dry-run", action="store_true", help="print the result, write nothing")
    close.set_defaults(handler=run_close)
    status = actions.add_parser(
        "status",
        parents=[database_options()],
        help="each period: state, tournaments, games, closing date (JSON lines)",
    )
    status.add_argument("--category")
    status.set_defaults(handler=run_status)
    verify = actions.add_parser(
        "verify",
        parents=[database_options()],
        help="recompute published lists from their stored inputs and prove them identical",
    )
    verify.add_argument("--category")
    verify.add_argument("--period")
    verify.add_argument("--revision", type=int, help="one revision (default: every revision)")
    verify.add_argument("--all", action="store_true", help="every published list")
    verify.set_defaults(handler=run_verify)
    rebuild = actions.add_parser(
        "rebuild-changes",
        parents=writing_options(),
        help="write a list's change rows (list_entries) again from its chunks",
    )
    rebuild.add_argument("--category")
    rebuild.add_argument("--period")
    rebuild.add_argument("--revision", type=int, help="one revision (default: every revision)")
    rebuild.add_argument("--all", action="store_true", help="every published list")
    rebuild.add_argument("--dry-run", action="store_true", help="say what differs, write nothing")
    rebuild.set_defaults(handler=run_rebuild_changes)


def run_close(args: argparse.Namespace) -> int:
    from ratingdb.services.close import close_period
    from ratingdb.services.progress import terminal_progress

    wanted_category = category(args.category)
    wanted_period = period(args.period)
    person = actor(args)
    with transaction(args) as session:
        outcome = close_period(
            session,
            wanted_category,
            wanted_period,
            now=utc_now(),
            closed_by=person,
            dry_run=args.dry_run,
            track=terminal_progress,
        )
        if args.dry_run:
            session.rollback()
    if outcome.already_published:
        print(f"{wanted_category.value} {wanted_period} is already published", file=sys.stderr)
    elif args.dry_run:
        print("dry run: nothing was written", file=sys.stderr)
    print(json.dumps(outcome.as_json()))
    return 0


def run_status(args: argparse.Namespace) -> int:
    """One JSON line per period, by category then period, as every listing prints; the state
    spelt as ``periods.state`` holds it (PeriodState: ``open``, ``closing``,
    ``awaiting-approval``, ``published``)."""
    from ratingdb.enums import PeriodState
    from ratingdb.repositories import periods as period_repo
    from ratingdb.rules import Period

    wanted = None if args.category is None else category(args.category)
    with transaction(args) as session:
        rows = period_repo.periods_of(session, wanted)
        counts = period_repo.period_counts(session)
        periods = []
        for row in rows:
            shown: dict[str, Any] = {
                "category": row.category,
                "period": str(Period.of_list_date(row.list_date)),
                "state": row.state,
                "closing_date": row.closing_date.isoformat(),
                "tournaments": counts.get(row.id, (0, 0))[0],
                "games": counts.get(row.id, (0, 0))[1],
                "published_at": None if row.published_at is None else row.published_at.isoformat(),
            }
            if row.state == PeriodState.AWAITING_APPROVAL and row.computed_at is not None:
                # Computed by the scheduled close, waiting for an officer (publication: approval).
                shown["computed_at"] = row.computed_at.isoformat()
                shown["computed_digest"] = row.computed_digest
            periods.append(shown)
    for shown in periods:
        print(json.dumps(shown, ensure_ascii=False))
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """Exit 0 when every list checked is identical, 1 when one is not (a failure, not bad
    input), 2 when nothing matches the options."""
    from ratingdb.services import revisions

    if not args.all and (args.category is None or args.period is None):
        raise InputError("give --category and --period, or --all", field="--all")
    wanted_category = None if args.category is None else category(args.category)
    wanted_period = None if args.period is None else period(args.period)
    with transaction(args) as session:
        rows = [
            row
            for row in revisions.lists_to_verify(session, wanted_category, wanted_period)
            if args.revision is None or row.revision == args.revision
        ]
        if not rows:
            raise InputError("no published list matches", field="--period")
        results = [revisions.verify(session, row) for row in rows]
        session.rollback()
    for result in results:
        print(json.dumps(result.as_json()))
    failed = [r for r in results if not r.ok]
    print(
        f"{len(results) - len(failed)} of {len(results)} lists verified identical",
        file=sys.stderr,
    )
    return 1 if failed else 0


def run_rebuild_changes(args: argparse.Namespace) -> int:
    """One JSON line per list; the rows of every list matched are written again in one
    transaction (all or nothing). Exit 2 when nothing matches the options."""
    from ratingdb.services import list_rows

    if not args.all and (args.category is None or args.period is None):
        raise InputError("give --category and --period, or --all", field="--all")
    wanted_category = None if args.category is None else category(args.category)
    wanted_period = None if args.period is None else period(args.period)
    with transaction(args) as session:
        rows = [
            row
            for row in list_rows.lists_to_rebuild(session, wanted_category, wanted_period)
            if args.revision is None or row.revision == args.revision
        ]
        if not rows:
            raise InputError("no published list matches", field="--period")
        person, now = actor(args), utc_now()
        results = [
            list_rows.rebuild_rows(session, row, actor=person, now=now, dry_run=args.dry_run)
            for row in rows
        ]
        if args.dry_run:
            session.rollback()
    for result in results:
        print(json.dumps(result.as_json()))
    differed = sum(result.differed for result in results)
    print(
        f"{differed} of {len(results)} lists had rows that differ from their chunks"
        + (" (dry run: nothing was written)" if args.dry_run else "; written again"),
        file=sys.stderr,
    )
    return 0
