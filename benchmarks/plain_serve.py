"""``ratingdb serve``'s app under plain uvicorn, for ``api_load.py --http``: what the API costs
without ``ratingdb.api.protocol``'s subclass of uvicorn's httptools protocol.

    python -m benchmarks.plain_serve --http h11 --port 8000 --database-url URL

- ``h11``: uvicorn's h11 protocol with its own settings only: ``h11_max_incomplete_event_size``
  (the head bytes), ``timeout_keep_alive`` and ``limit_concurrency`` (the settings the issue
  names as the alternative to the subclass);
- ``httptools``: uvicorn's httptools protocol as shipped (no limit on a head's size at all).

Everything else is what ``ratingdb serve`` does with one worker (``ratingdb.api.server.serve``):
the same app and settings, event loop, garbage collector tuning, logging and access log, no
Server header, no proxy headers. Benchmarks only: not a way to run the API.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Any

import uvicorn

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

from ratingdb.api.app import create_app  # noqa: E402
from ratingdb.api.server import LOOP, _logging, tune_garbage_collector  # noqa: E402
from ratingdb.config import Settings  # noqa: E402

#: The plain protocols measured against ``ratingdb.api.protocol.LimitedHttpToolsProtocol``.
PROTOCOLS = ("h11", "httptools")
#: uvicorn's limit_concurrency for ``h11``: above the 50 clients measured, as a deployment
#: would set it (connections plus tasks past it get 503).
LIMIT_CONCURRENCY = 1000


def plain_config(app: Any, settings: Settings, http: str) -> uvicorn.Config:
    """uvicorn's configuration of ``app`` with the plain protocol ``http`` (PROTOCOLS)."""
    if http not in PROTOCOLS:
        raise ValueError(f"http must be one of {', '.join(PROTOCOLS)}, not {http!r}")
    options: dict[str, Any] = {"timeout_keep_alive": settings.serve_timeout_keep_alive}
    if http == "h11":
        options |= {
            "h11_max_incomplete_event_size": settings.serve_limit_request_head,
            "limit_concurrency": LIMIT_CONCURRENCY,
        }
    return uvicorn.Config(
        app, http=http, ws="none", host=settings.serve_host, port=settings.serve_port,
        log_level="info", access_log=settings.serve_access_log, loop=LOOP,
        server_header=False, proxy_headers=False, **_logging(settings), **options,
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--http", choices=PROTOCOLS, required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--page-cache-mb", type=int)
    parser.add_argument("--no-access-log", dest="access_log", action="store_false")
    args = parser.parse_args()
    values: dict[str, Any] = {"serve_host": args.host, "serve_port": args.port,
                              "serve_access_log": args.access_log}  # fmt: skip
    if args.threads is not None:
        values["serve_threads"] = args.threads
    if args.page_cache_mb is not None:
        values["serve_page_cache_mb"] = args.page_cache_mb
    settings = Settings(args.database_url, **values)
    app = create_app(settings)
    tune_garbage_collector()
    server = uvicorn.Server(plain_config(app, settings, args.http))
    with contextlib.suppress(KeyboardInterrupt):
        server.run()


if __name__ == "__main__":
    main()
