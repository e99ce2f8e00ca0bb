"""``ratingdb serve [--host H] [--port N] [--workers N] [--threads N] [--page-cache-mb N]
[--no-access-log] [--limit-request-head BYTES] [--limit-request-fields N]
[--timeout-request-head S] [--timeout-keep-alive S]``: the read-only API and web pages."""

from __future__ import annotations

import argparse
from typing import Any

from ratingdb.api.app import DEFAULT_PAGE_CACHE_BYTES, DEFAULT_THREADS
from ratingdb.api.protocol import (
    DEFAULT_HEAD_TIMEOUT,
    DEFAULT_KEEP_ALIVE_TIMEOUT,
    DEFAULT_MAX_HEAD_BYTES,
    DEFAULT_MAX_HEADERS,
    HttpLimits,
)
from ratingdb.api.server import serve
from ratingdb.cli.common import database_options, settings
from ratingdb.errors import InputError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_WORKERS = 64
MAX_THREADS = 256
MAX_PAGE_CACHE_MB = 1024 * 1024
DEFAULT_PAGE_CACHE_MB = DEFAULT_PAGE_CACHE_BYTES // (1024 * 1024)
#: (option, smallest, largest) of the connection limits.
LIMITS = (
    ("--limit-request-head", 1024, 1024 * 1024),
    ("--limit-request-fields", 1, 10_000),
    ("--timeout-request-head", 1, 3600),
    ("--timeout-keep-alive", 1, 3600),
)


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve",
        parents=[database_options()],
        help="the read-only API and web pages (reads RATINGDB_READ_DATABASE_URL if set)",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"default: {DEFAULT_HOST}")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default: {DEFAULT_PORT}")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes sharing the port (default: 1; about one per core)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        help=f"threads running SQLite reads, per worker (default: {DEFAULT_THREADS}; more when the "
        "database is far away)",
    )
    parser.add_argument(
        "--page-cache-mb",
        type=int,
        default=DEFAULT_PAGE_CACHE_MB,
        help=f"memory for rendered list pages, per worker (default: {DEFAULT_PAGE_CACHE_MB}; "
        "0: none)",
    )
    parser.add_argument(
        "--no-access-log",
        dest="access_log",
        action="store_false",
        help="do not log each request (errors are still logged)",
    )
    parser.add_argument(
        "--limit-request-head",
        type=int,
        default=DEFAULT_MAX_HEAD_BYTES,
        metavar="BYTES",
        help=f"largest request line and headers, larger ones get 431 (default: "
        f"{DEFAULT_MAX_HEAD_BYTES})",
    )
    parser.add_argument(
        "--limit-request-fields",
        type=int,
        default=DEFAULT_MAX_HEADERS,
        metavar="N",
        help=f"most header fields in a request, more get 431 (default: {DEFAULT_MAX_HEADERS})",
    )
    parser.add_argument(
        "--timeout-request-head",
        type=int,
        default=DEFAULT_HEAD_TIMEOUT,
        metavar="SECONDS",
        help=f"a request's line and headers must arrive within this, else 408 and the "
        f"connection is closed (default: {DEFAULT_HEAD_TIMEOUT})",
    )
    parser.add_argument(
        "--timeout-keep-alive",
        type=int,
        default=DEFAULT_KEEP_ALIVE_TIMEOUT,
        metavar="SECONDS",
        help=f"close a connection idle this long, before its first request or between two "
        f"(default: {DEFAULT_KEEP_ALIVE_TIMEOUT})",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise InputError(f"must be 0..65535, got {args.port}", field="--port")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise InputError(f"must be 1..{MAX_WORKERS}, got {args.workers}", field="--workers")
    if not 1 <= args.threads <= MAX_THREADS:
        raise InputError(f"must be 1..{MAX_THREADS}, got {args.threads}", field="--threads")
    if not 0 <= args.page_cache_mb <= MAX_PAGE_CACHE_MB:
        raise InputError(
            f"must be 0..{MAX_PAGE_CACHE_MB}, got {args.page_cache_mb}", field="--page-cache-mb"
        )
    for option, smallest, largest in LIMITS:
        value = getattr(args, option[2:].replace("-", "_"))
        if not smallest <= value <= largest:
            raise InputError(f"must be {smallest}..{largest}, got {value}", field=option)
    limits = HttpLimits(
        max_head_bytes=args.limit_request_head,
        max_headers=args.limit_request_fields,
        head_timeout=args.timeout_request_head,
        keep_alive_timeout=args.timeout_keep_alive,
    )
    serve(
        settings(args), args.host, args.port,
        workers=args.workers, threads=args.threads, access_log=args.access_log,
        page_cache_bytes=args.page_cache_mb * 1024 * 1024, limits=limits,
    )  # fmt: skip
    return 0
