"""``ratingdb backoffice [--host 127.0.0.1] [--port 8001] [--secure-cookies]``: the back office
(web pages and the JSON API under /admin/v1), writing through RATINGDB_DATABASE_URL."""

from __future__ import annotations

import argparse
from typing import Any

import uvicorn

from ratingdb.backoffice.app import DEFAULT_HOST, DEFAULT_PORT, create_app
from ratingdb.cli.common import database_options, settings
from ratingdb.errors import InputError


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "backoffice",
        parents=[database_options()],
        help="the back office: sign-in at /login, the JSON API under /admin/v1",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"default: {DEFAULT_HOST}")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default: {DEFAULT_PORT}")
    parser.add_argument(
        "--secure-cookies",
        action="store_true",
        help="mark cookies Secure and send HSTS even over plain HTTP (behind a proxy ending TLS)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise InputError(f"must be 0..65535, got {args.port}", field="--port")
    app = create_app(settings(args), secure_cookies=args.secure_cookies)
    # One process: sign-in throttling and sessions live in the database, so more could be run.
    uvicorn.run(app, host=args.host, port=args.port, log_level="info", proxy_headers=True,
                server_header=False)  # fmt: skip
    return 0
