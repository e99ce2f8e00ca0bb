"""``ratingdb serve [--host H] [--port N] [--workers N] [--threads N] [--page-cache-mb N]
[--no-access-log] [--limit-request-head BYTES] [--limit-request-fields N]
[--timeout-request-head S] [--timeout-keep-alive S] [--timeout-request-body S]
[--trusted-proxies IPS]``: the read-only API and web pages.

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
    connection_options(parser, "serve")
    parser.set_defaults(handler=run)


def connection_options(parser: argparse.ArgumentParser, command: str) -> None:
    """What one connection may cost the server: ``serve``'s and ``backoffice``'s options, the
    settings ``{command}_limit_request_head`` etc. (``ratingdb.api.protocol``)."""
    upper = command.upper()
    setting_option(
        parser, f"{command}_limit_request_head", "largest request line and headers, larger "
        "ones get 431", getattr(defaults, f"{upper}_LIMIT_REQUEST_HEAD"), type=int,
        metavar="BYTES",
    )  # fmt: skip
    setting_option(
        parser, f"{command}_limit_request_fields", "most header fields in a request, more get "
        "431", getattr(defaults, f"{upper}_LIMIT_REQUEST_FIELDS"), type=int, metavar="N",
    )  # fmt: skip
    setting_option(
        parser, f"{command}_timeout_request_head", "a request's line and headers must arrive "
        "within this, else 408 and the connection is closed",
        getattr(defaults, f"{upper}_TIMEOUT_REQUEST_HEAD"), type=int, metavar="SECONDS",
    )  # fmt: skip
    setting_option(
        parser, f"{command}_timeout_keep_alive", "close a connection idle this long, before "
        "its first request or between two", getattr(defaults, f"{upper}_TIMEOUT_KEEP_ALIVE"),
        type=int, metavar="SECONDS",
    )  # fmt: skip
    setting_option(
        parser, f"{command}_timeout_request_body", "a request's body must arrive within this "
        "once its head has, else 408 and the connection is closed",
        getattr(defaults, f"{upper}_TIMEOUT_REQUEST_BODY"), type=int, metavar="SECONDS",
    )  # fmt: skip
    setting_option(
        parser, f"{command}_trusted_proxies", "IP addresses or networks (CIDR), separated by "
        "commas, whose X-Forwarded-For and X-Forwarded-Proto are believed; none by default "
        "(the socket's peer is the client)", "none", metavar="IPS",
    )  # fmt: skip


def run(args: argparse.Namespace) -> int:
    config = settings(args)  # before the web stack is imported: bad options fail fast
    from ratingdb.failures import require_database_to_serve

    # Never on no database: SQLite would create an empty file, and every page would fail.
    separate = config.read_database_url != config.database_url
    setting = "RATINGDB_READ_DATABASE_URL" if separate else "--database-url"
    require_database_to_serve(config.read_database_url, setting, latest=False)
    from ratingdb.api.server import serve

    serve(config)
    return 0
