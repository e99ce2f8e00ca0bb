"""``ratingdb tournaments import``, ``show`` and ``list``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
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
from ratingdb.cli.corrections import correction_document
from ratingdb.errors import InputError

#: ratingdb.services.tournaments.FORMATS, without importing the services to build the parser.
FORMATS = ("trf", "csv")
#: ratingdb.rules.titles.FederationExemption's values (the parser imports no rules).
EXEMPTIONS = ("national-championship", "national-team-championship", "zonal", "swiss-foreign-field")


def register(commands: Any) -> None:
    actions = command_group(commands, "tournaments", "tournaments")
    load = actions.add_parser(
        "import",
        parents=writing_options(),
        help="add one tournament (TRF16, TRF26 or games CSV), once per category",
    )
    load.add_argument("file", type=Path)
    load.add_argument(
        "--category",
        action="append",
        help="the list it is rated on; repeat it for an event rated on several lists",
    )
    load.add_argument(
        "--replace",
        metavar="TOURNAMENT_ID",
        help="a corrected file for a stored tournament: replaces its games and recomputes the "
        "published lists they change (needs --reason)",
    )
    load.add_argument("--reason", help="why the tournament is replaced (with --replace)")
    load.add_argument(
        "--dry-run", action="store_true", help="with --replace: print the impact, write nothing"
    )
    load.add_argument("--period", help="force the period it is rated in (YYYY-MM)")
    load.add_argument(
        "--format", choices=FORMATS, help="default: csv for a .csv file, otherwise trf"
    )
    load.add_argument(
        "--time-control",
        metavar="CODE",
        help="the rate of play, as TRF26's record 222 writes it (seconds: 5400+30, "
        "40/6000+30:1800+30), for a file that gives none: it decides which games are rated",
    )
    load.add_argument(
        "--late-reason",
        metavar="TEXT",
        help="a rating officer's reason to rate a tournament reported too late for FIDE "
        "(after the third list after its end: B.02 §9.1); kept in the audit log",
    )
    load.set_defaults(handler=run_import)
    show = actions.add_parser("show", parents=[database_options()], help="a tournament as JSON")
    show.add_argument("tournament_id", metavar="ID")
    show.set_defaults(handler=run_show)
    listing = actions.add_parser(
        "list",
        parents=[database_options()],
        help="the stored tournaments (their ids), by period then start date, as JSON lines",
    )
    listing.add_argument("--category")
    listing.add_argument("--period", help="the period they are rated in (YYYY-MM)")
    listing.set_defaults(handler=run_list)
    norms = actions.add_parser(
        "norms",
        parents=[database_options()],
        help="each player's title norm checks (FIDE Title Regulations §1.4), as JSON lines",
    )
    norms.add_argument("tournament_id", metavar="TOURNAMENT_ID")
    norms.add_argument(
        "--exemption",
        choices=EXEMPTIONS,
        help="an event exempt from the federation mix (§1.4.3); swiss-foreign-field is checked "
        "against the event's players",
    )
    norms.add_argument(
        "--team-championship",
        action="store_true",
        help="a 9-round World or Continental team championship: 7 games suffice (§1.4.1)",
    )
    norms.add_argument("--player", metavar="ID", help="this player only")
    norms.set_defaults(handler=run_norms)


def run_import(args: argparse.Namespace) -> int:
    """The report of what the file held and what was skipped goes to stderr; one JSON line per
    category (contract) to stdout, once the transaction has committed."""
    from ratingdb.services import audit
    from ratingdb.services.tournaments import import_tournament_file

    if args.replace is not None:
        return run_replace(args)
    if not args.category:
        raise InputError("is required (or --replace TOURNAMENT_ID)", field="--category")
    categories = [category(text) for text in args.category]
    forced = None if args.period is None else period(args.period)
    person = actor(args)
    with transaction(args) as session:
        outcome = import_tournament_file(
            session, args.file, categories, forced, args.format, args.time_control,
            args.late_reason,
        )  # fmt: skip
        audit.record(
            session, "tournament-import", person, utc_now(),
            file_digest=audit.file_digest(args.file),
            counts={"tournaments": len(outcome.tournaments),
                    "games": sum(t.games for t in outcome.tournaments)},
            details={"file": str(args.file),
                     "tournaments": [t.as_json() for t in outcome.tournaments]}
            | ({"late_reason": args.late_reason} if args.late_reason else {}),
        )  # fmt: skip
    for line in outcome.report:
        print(line.english(), file=sys.stderr)
    for imported in outcome.tournaments:
        print(json.dumps(imported.as_json()))
    return 0


def run_replace(args: argparse.Namespace) -> int:
    from ratingdb.services.corrections import replace_tournament
    from ratingdb.services.progress import terminal_progress

    if args.category or args.period:
        raise InputError("a replaced tournament keeps its category and period", field="--category")
    if args.reason is None:
        raise InputError("is required with --replace", field="--reason")
    person = actor(args)
    with transaction(args) as session:
        outcome, read = replace_tournament(
            session,
            args.replace,
            args.file,
            file_format=args.format,
            reason=args.reason,
            actor=person,
            now=utc_now(),
            track=terminal_progress,
            dry_run=args.dry_run,
        )
        if args.dry_run:
            session.rollback()
    for line in read.report:
        print(line.english(), file=sys.stderr)
    document = correction_document(outcome, args.dry_run) | {"tournament_id": args.replace}
    print(json.dumps(document))
    if args.dry_run:
        print("dry run: nothing was written", file=sys.stderr)
    return 0


def run_show(args: argparse.Namespace) -> int:
    from ratingdb.services.published import NotFound, tournament

    with transaction(args) as session:
        try:
            shown = tournament(session, args.tournament_id)
        except NotFound as error:
            raise InputError(str(error), field="ID") from None
    print(json.dumps(shown.as_json(), indent=1, ensure_ascii=False))
    return 0


def run_list(args: argparse.Namespace) -> int:
    from ratingdb.services.published import tournaments

    wanted_category = None if args.category is None else category(args.category)
    wanted_period = None if args.period is None else period(args.period)
    with transaction(args) as session:
        found = tournaments(session, wanted_category, wanted_period)
    for summary in found:
        print(json.dumps(summary.as_json(), ensure_ascii=False))
    return 0


def run_norms(args: argparse.Namespace) -> int:
    """One JSON line per player with a played game: every norm title they can still aim at,
    each condition met or not with its figures."""
    from ratingdb.rules.titles import FederationExemption
    from ratingdb.services.norms import player_json, tournament_norms

    exemption = None if args.exemption is None else FederationExemption(args.exemption)
    with transaction(args) as session:
        norms = tournament_norms(
            session,
            args.tournament_id,
            exemption=exemption,
            team_championship=args.team_championship,
        )
    players = norms.players
    if args.player is not None:
        players = tuple(p for p in players if p.player_id == args.player)
        if not players:
            raise InputError(
                f"no player {args.player!r} with a played game in {args.tournament_id}",
                field="--player",
            )
    for player in players:
        print(json.dumps(player_json(norms, player), ensure_ascii=False))
    return 0
