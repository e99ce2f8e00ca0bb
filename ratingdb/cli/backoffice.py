"""``ratingdb backoffice [--host 127.0.0.1] [--port 8001] [--secure-cookies]``: the back office
(web pages and the JSON API under /admin/v1), writing through RATINGDB_DATABASE_URL. Each option
overrides its RATINGDB_BACKOFFICE_ variable; the web stack is imported when the command runs."""

from __future__ import annotations

import argparse
from typing import Any

from ratingdb import defaults
from ratingdb.cli.common import database_options, setting_option, settings


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "backoffice",
        parents=[database_options()],
        help="the back office: sign-in at /login, the JSON API under /admin/v1",
    )
    setting_option(parser, "backoffice_host", unset=defaults.BACKOFFICE_HOST)
    setting_option(parser, "backoffice_port", unset=defaults.BACKOFFICE_PORT, type=int)
    setting_option(
        parser, "backoffice_secure_cookies",
        "mark cookies Secure and send HSTS even over plain HTTP (behind a proxy ending TLS)",
        action="store_true", default=None,
    )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = settings(args)  # before the web stack is imported: bad options fail fast
    import uvicorn

    from ratingdb.backoffice.app import create_app

    app = create_app(config)
    # One process: sign-in throttling and sessions live in the database, so more could be run.
    uvicorn.run(app, host=config.backoffice_host, port=config.backoffice_port, log_level="info",
                proxy_headers=True, server_header=False)  # fmt: skip
    return 0
