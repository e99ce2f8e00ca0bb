"""``ratingdb tournaments import`` and ``ratingdb tournaments show``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ratingdb.cli.common import category, database_options, period, transaction
from ratingdb.services.tournaments import FORMATS, import_tournament_file, show_tournament


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser("tournaments", help="tournaments")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    load = actions.add_parser(
        "import",
        parents=[database_options()],
        help="add one tournament (TRF16, TRF26 or games CSV), once per category",
    )
    load.add_argument("file", type=Path)
    load.add_argument(
        "--category",
        required=True,
        action="append",
        help="the list it is rated on; repeat it for an event rated on several lists",
    )
    load.add_argument("--period", help="force the period it is rated in (YYYY-MM)")
    load.add_argument(
        "--format", choices=FORMATS, help="default: csv for a .csv file, otherwise trf"
    )
    load.set_defaults(handler=run_import)
    show = actions.add_parser("show", parents=[database_options()], help="a tournament as JSON")
    show.add_argument("tournament_id", metavar="ID")
    show.set_defaults(handler=run_show)


def run_import(args: argparse.Namespace) -> int:
    """The report of what the file held and what was skipped goes to stderr; one JSON line per
    category (contract) to stdout, once the transaction has committed."""
    categories = [category(text) for text in args.category]
    forced = None if args.period is None else period(args.period)
    with transaction(args) as session:
        outcome = import_tournament_file(session, args.file, categories, forced, args.format)
    for line in outcome.report:
        print(line, file=sys.stderr)
    for imported in outcome.tournaments:
        print(json.dumps(imported.as_json()))
    return 0


def run_show(args: argparse.Namespace) -> int:
    with transaction(args) as session:
        shown = show_tournament(session, args.tournament_id)
    print(json.dumps(shown, indent=1, ensure_ascii=False))
    return 0
