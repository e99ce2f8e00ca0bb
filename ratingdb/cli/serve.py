"""``ratingdb serve [--host H] [--port N] [--workers N] [--threads N] [--page-cache-mb N]
[--no-access-log] [--limit-request-head BYTES] [--limit-request-fields N]
[--timeout-request-head S] [--timeout-keep-alive S]``: the read-only API and web pages.

Each option overrides its RATINGDB_SERVE_ variable (``ratingdb.config.Settings``, which checks
the ranges); the web stack is imported when the command runs."""

from __future__ import annotations

import argparse
from typing import Any

from ratingdb import defaults
from ratingdb.cli.common import database_options, setting_help, settings


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve",
        parents=[database_options()],
        help="the read-only API and web pages (reads RATINGDB_READ_DATABASE_URL if set)",
    )
    parser.add_argument(
        "--host", dest="serve_host", help=setting_help("serve_host", "", defaults.SERVE_HOST)
    )
    parser.add_argument(
        "--port",
        dest="serve_port",
        type=int,
        help=setting_help("serve_port", "", defaults.SERVE_PORT),
    )
    parser.add_argument(
        "--workers",
        dest="serve_workers",
        type=int,
        help=setting_help(
            "serve_workers", "worker processes sharing the port, about one per core",
            defaults.SERVE_WORKERS,
        ),
    )  # fmt: skip
    parser.add_argument(
        "--threads",
        dest="serve_threads",
        type=int,
        help=setting_help(
            "serve_threads", "threads running SQLite reads, per worker (more when the database "
            "is far away)", defaults.SERVE_THREADS,
        ),
    )  # fmt: skip
    parser.add_argument(
        "--page-cache-mb",
        dest="serve_page_cache_mb",
        type=int,
        help=setting_help(
            "serve_page_cache_mb", "memory for rendered list pages, per worker (0: none)",
            defaults.SERVE_PAGE_CACHE_MB,
        ),
    )  # fmt: skip
    parser.add_argument(
        "--no-access-log",
        dest="serve_access_log",
        action="store_false",
        default=None,
        help=setting_help(
            "serve_access_log", "do not log each request (errors are still logged)", "logged"
        ),
    )
    parser.add_argument(
        "--limit-request-head",
        dest="serve_limit_request_head",
        type=int,
        metavar="BYTES",
        help=setting_help(
            "serve_limit_request_head", "largest request line and headers, larger ones get 431",
            defaults.SERVE_LIMIT_REQUEST_HEAD,
        ),
    )  # fmt: skip
    parser.add_argument(
        "--limit-request-fields",
        dest="serve_limit_request_fields",
        type=int,
        metavar="N",
        help=setting_help(
            "serve_limit_request_fields", "most header fields in a request, more get 431",
            defaults.SERVE_LIMIT_REQUEST_FIELDS,
        ),
    )  # fmt: skip
    parser.add_argument(
        "--timeout-request-head",
        dest="serve_timeout_request_head",
        type=int,
        metavar="SECONDS",
        help=setting_help(
            "serve_timeout_request_head", "a request's line and headers must arrive within "
            "this, else 408 and the connection is closed", defaults.SERVE_TIMEOUT_REQUEST_HEAD,
        ),
    )  # fmt: skip
    parser.add_argument(
        "--timeout-keep-alive",
        dest="serve_timeout_keep_alive",
        type=int,
        metavar="SECONDS",
        help=setting_help(
            "serve_timeout_keep_alive", "close a connection idle this long, before its first "
            "request or between two", defaults.SERVE_TIMEOUT_KEEP_ALIVE,
        ),
    )  # fmt: skip
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    config = settings(args)  # before the web stack is imported: bad options fail fast
    from ratingdb.api.server import serve

    serve(config)
    return 0
