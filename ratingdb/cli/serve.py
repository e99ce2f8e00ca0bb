"""``ratingdb serve [--host H] [--port N] [--workers N] [--threads N] [--page-cache-mb N]
[--no-access-log] [--limit-request-head BYTES] [--limit-request-fields N]
[--timeout-request-head S] [--timeout-keep-alive S]``: the read-only API and web pages.

Each option overrides its RATINGDB_SERVE_ variable (``ratingdb.config.Settings``, which checks
the ranges); the web stack is imported when the command runs."""

from __future__ import annotations

import argparse
from typing import Any

from ratingdb import defaults
from ratingdb.cli.common import database_options, setting_option, settings


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve",
        parents=[database_options()],
        help="the read-only API and web pages (reads RATINGDB_READ_DATABASE_URL if set)",
    )
    setting_option(parser, "serve_host", unset=defaults.SERVE_HOST)
    setting_option(parser, "serve_port", unset=defaults.SERVE_PORT, type=int)
    setting_option(
        parser, "serve_workers", "worker processes sharing the port, about one per core",
        defaults.SERVE_WORKERS, type=int,
    )  # fmt: skip
    setting_option(
        parser, "serve_threads", "threads running SQLite reads, per worker (more when the "
        "database is far away)", defaults.SERVE_THREADS, type=int,
    )  # fmt: skip
    setting_option(
        parser, "serve_page_cache_mb", "memory for rendered list pages, player histories and "
        "player pages, per worker (0: none)", defaults.SERVE_PAGE_CACHE_MB, type=int,
    )  # fmt: skip
    setting_option(
        parser, "serve_access_log", "do not log each request (errors are still logged)",
        "logged", action="store_false", default=None,
    )  # fmt: skip
    setting_option(
        parser, "serve_limit_request_head", "largest request line and headers, larger ones "
        "get 431", defaults.SERVE_LIMIT_REQUEST_HEAD, type=int, metavar="BYTES",
    )  # fmt: skip
    setting_option(
        parser, "serve_limit_request_fields", "most header fields in a request, more get 431",
        defaults.SERVE_LIMIT_REQUEST_FIELDS, type=int, metavar="N",
    )  # fmt: skip
    setting_option(
        parser, "serve_timeout_request_head", "a request's line and headers must arrive "
        "within this, else 408 and the connection is closed",
        defaults.SERVE_TIMEOUT_REQUEST_HEAD, type=int, metavar="SECONDS",
    )  # fmt: skip
    setting_option(
        parser, "serve_timeout_keep_alive", "close a connection idle this long, before its "
        "first request or between two", defaults.SERVE_TIMEOUT_KEEP_ALIVE, type=int,
        metavar="SECONDS",
    )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = settings(args)  # before the web stack is imported: bad options fail fast
    from ratingdb.api.server import serve

    serve(config)
    return 0
