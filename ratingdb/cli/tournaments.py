"""``ratingdb tournaments import`` and ``ratingdb tournaments show``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ratingdb.cli.common import category, database_options, period, transaction
from ratingdb.errors import InputError
from ratingdb.services.tournaments import import_games_csv, show_tournament


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser("tournaments", help="tournaments")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    load = actions.add_parser(
        "import", parents=[database_options()], help="add one tournament (TRF or games CSV)"
    )
    load.add_argument("file", type=Path)
    load.add_argument("--category", required=True)
    load.add_argument("--period", help="force the period it is rated in (YYYY-MM)")
    load.add_argument("--format", choices=("trf", "csv"))
    load.set_defaults(handler=run_import)
    show = actions.add_parser("show", parents=[database_options()], help="a tournament as JSON")
    show.add_argument("tournament_id", metavar="ID")
    show.set_defaults(handler=run_show)


def run_import(args: argparse.Namespace) -> int:
    file_format = args.format or ("csv" if args.file.suffix.lower() == ".csv" else "trf")
    if file_format == "trf":
        raise InputError("TRF import is not supported yet (use --format csv)", field="--format")
    wanted_category = category(args.category)
    forced = None if args.period is None else period(args.period)
    with transaction(args) as session:
        imported = import_games_csv(session, args.file, wanted_category, forced)
    print(json.dumps(imported.as_json()))
    return 0


def run_show(args: argparse.Namespace) -> int:
    with transaction(args) as session:
        shown = show_tournament(session, args.tournament_id)
    print(json.dumps(shown, indent=1, ensure_ascii=False))
    return 0
