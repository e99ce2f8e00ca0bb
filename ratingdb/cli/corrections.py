"""``ratingdb games correct``, ``ratingdb players merge`` and ``ratingdb audit``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from ratingdb.cli import players as player_reads
from ratingdb.cli.common import (
    actor,
    command_group,
    database_options,
    transaction,
    utc_now,
    writing_options,
)

if TYPE_CHECKING:  # the services (and the database) are imported when a command runs
    from ratingdb.services.corrections import CorrectionOutcome


def register(commands: Any) -> None:
    actions = command_group(commands, "games", "correct games")
    correct = actions.add_parser(
        "correct",
        parents=writing_options(),
        help="correct one game's result; recompute the published lists it changes",
    )
    correct.add_argument("--tournament", required=True)
    correct.add_argument("--round", required=True, type=int)
    correct.add_argument("--white", required=True)
    correct.add_argument("--black", required=True)
    correct.add_argument("--result", required=True, help="1-0, 0-1, 1/2-1/2, +-, -+ or --")
    correct.add_argument("--reason", required=True)
    correct.add_argument("--dry-run", action="store_true", help="print the impact, write nothing")
    correct.set_defaults(handler=run_correct)

    player_actions = command_group(commands, "players", "players")
    merge = player_actions.add_parser(
        "merge",
        parents=writing_options(),
        help="merge a duplicate player into the one to keep; recompute the lists it changes",
    )
    merge.add_argument("keep", metavar="KEEP")
    merge.add_argument("drop", metavar="DROP")
    merge.add_argument("--reason", required=True)
    merge.add_argument(
        "--override",
        metavar="REASON",
        help="merge all the same two records that may be two people (a round both played, "
        "another sex or birth year), for this reason (audited)",
    )
    merge.add_argument("--dry-run", action="store_true", help="print the impact, write nothing")
    merge.set_defaults(handler=run_merge)
    player_reads.register_actions(player_actions)  # search, show

    log = commands.add_parser(
        "audit", parents=[database_options()], help="imports, closes, corrections, merges"
    )
    log.add_argument("--limit", type=int, default=50)
    log.add_argument("--action", help="only this action (e.g. close, correction)")
    log.set_defaults(handler=run_audit)


def _report(outcome: CorrectionOutcome, dry_run: bool) -> None:
    print(json.dumps(correction_document(outcome, dry_run), indent=1))
    if dry_run:
        print("dry run: nothing was written", file=sys.stderr)


def correction_document(outcome: CorrectionOutcome, dry_run: bool) -> dict[str, Any]:
    """The outcome as JSON; a dry run's correction was rolled back, so it has no id (null)."""
    document = outcome.as_json() | {"dry_run": dry_run}
    if dry_run:
        document["correction_id"] = None
    return document


def run_correct(args: argparse.Namespace) -> int:
    from ratingdb.services.corrections import correct_game
    from ratingdb.services.progress import terminal_progress

    person = actor(args)
    with transaction(args) as session:
        outcome = correct_game(
            session,
            tournament_id=args.tournament,
            round_number=args.round,
            white_id=args.white,
            black_id=args.black,
            # argparse reads --result=-- as an empty list (its end-of-options marker removed).
            result="--" if args.result == [] else args.result,
            reason=args.reason,
            actor=person,
            now=utc_now(),
            track=terminal_progress,
            dry_run=args.dry_run,
        )
        if args.dry_run:
            session.rollback()
    _report(outcome, args.dry_run)
    return 0


def run_merge(args: argparse.Namespace) -> int:
    from ratingdb.services.corrections import merge_players
    from ratingdb.services.progress import terminal_progress

    person = actor(args)
    with transaction(args) as session:
        outcome = merge_players(
            session, args.keep, args.drop, reason=args.reason, actor=person, now=utc_now(),
            track=terminal_progress, dry_run=args.dry_run, override=args.override,
        )  # fmt: skip
        if args.dry_run:
            session.rollback()
    _report(outcome, args.dry_run)
    return 0


def run_audit(args: argparse.Namespace) -> int:
    from ratingdb.services import audit

    with transaction(args) as session:
        rows = audit.entries(session, limit=args.limit, action=args.action)
    for row in rows:
        print(json.dumps(row))
    return 0
