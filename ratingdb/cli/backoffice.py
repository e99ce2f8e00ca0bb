"""``ratingdb backoffice [--host 127.0.0.1] [--port 8001] [--secure-cookies]
[--limit-request-head BYTES] [--limit-request-fields N] [--timeout-request-head S]
[--timeout-keep-alive S] [--timeout-request-body S] [--limit-connections N]
[--upload-concurrency N] [--trusted-proxies IPS]``: the back office (web pages and the JSON API
under /admin/v1), writing through RATINGDB_DATABASE_URL. Each option overrides its
RATINGDB_BACKOFFICE_ variable; the web stack is imported when the command runs."""

from __future__ import annotations

import argparse
from typing import Any

from ratingdb import defaults
from ratingdb.cli.common import database_options, setting_option, settings
from ratingdb.cli.serve import connection_options


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
    connection_options(parser, "backoffice")
    setting_option(
        parser, "backoffice_limit_connections", "most connections open at once, more get 503",
        defaults.BACKOFFICE_LIMIT_CONNECTIONS, type=int, metavar="N",
    )  # fmt: skip
    setting_option(
        parser, "backoffice_upload_concurrency", "most uploads checked at once (one per user), "
        "more get 503 (429 for a user's second)", defaults.BACKOFFICE_UPLOAD_CONCURRENCY,
        type=int, metavar="N",
    )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = settings(args)  # before the web stack is imported: bad options fail fast
    from ratingdb.failures import require_database_to_serve

    # Never on no database (nor an empty SQLite file created by the start), and, as a writer,
    # only at this ratingdb's schema, as every command and the scheduler.
    require_database_to_serve(config.database_url, "--database-url", latest=True)
    from ratingdb.api.server import backoffice_config, run_server
    from ratingdb.backoffice.app import create_app

    app = create_app(config)
    # One process: sign-in throttling and sessions live in the database, so more could be run.
    run_server(backoffice_config(app, config))
    return 0
