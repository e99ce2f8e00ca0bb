"""``ratingdb serve [--host H] [--port N]``: the read-only API and web pages."""

from __future__ import annotations

import argparse
from typing import Any

from ratingdb.api.server import serve
from ratingdb.cli.common import database_options, settings
from ratingdb.errors import InputError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve",
        parents=[database_options()],
        help="the read-only API and web pages (reads RATINGDB_READ_DATABASE_URL if set)",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"default: {DEFAULT_HOST}")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default: {DEFAULT_PORT}")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise InputError(f"must be 0..65535, got {args.port}", field="--port")
    serve(settings(args), args.host, args.port)
    return 0
