"""Running the app: ``ratingdb serve`` and ``ratingdb demo`` call :func:`serve`."""

from __future__ import annotations

import contextlib
import gc
import inspect
import logging
import os
import socket
import sys
from typing import Any

import uvicorn
from fastapi import FastAPI
from uvicorn.supervisors import Multiprocess

from ratingdb.api.app import DEFAULT_PAGE_CACHE_BYTES, DEFAULT_THREADS, create_app
from ratingdb.api.protocol import DEFAULT_LIMITS, HttpLimits, LimitedConfig
from ratingdb.config import DATABASE_URL_VARIABLE, READ_DATABASE_URL_VARIABLE, Settings

logger = logging.getLogger("uvicorn.error")
#: uvicorn's exit status when the server could not start (the port taken, say).
STARTUP_FAILURE = 3

#: How ``serve`` hands the thread count to its worker processes (the database URLs go in
#: RATINGDB_DATABASE_URL and RATINGDB_READ_DATABASE_URL).
THREADS_VARIABLE = "RATINGDB_SERVE_THREADS"
PAGE_CACHE_VARIABLE = "RATINGDB_SERVE_PAGE_CACHE_BYTES"
#: Young objects allocated between two collections of the youngest generation (Python's
#: default: 700). A request allocates thousands of short-lived objects that reference counting
#: frees; collecting every 700 of them costs time and, through the older generations, pauses
#: every request in flight.
GC_YOUNG_THRESHOLD = 10_000
#: uvicorn's event loop, named rather than "auto" so that a missing one fails loudly instead of
#: silently serving at asyncio's speed (a dependency). The HTTP protocol is httptools', with
#: limits (``ratingdb.api.protocol``).
LOOP = "asyncio" if sys.platform == "win32" else "uvloop"


def serve(
    settings: Settings,
    host: str,
    port: int,
    *,
    workers: int = 1,
    threads: int = DEFAULT_THREADS,
    access_log: bool = True,
    page_cache_bytes: int = DEFAULT_PAGE_CACHE_BYTES,
    limits: HttpLimits = DEFAULT_LIMITS,
) -> None:
    """Serve the API and the web pages with uvicorn in the foreground, until interrupted.

    ``workers`` > 1 runs that many worker processes on one listening socket (the app keeps no
    state, so any worker can answer any request); each builds its app from the environment,
    where the settings are handed down (:func:`app_from_environment`). ``threads``: see
    ``ratingdb.api.app.DEFAULT_THREADS``; ``page_cache_bytes``: ``ratingdb.api.caches``;
    ``limits``: what one connection may cost (``ratingdb.api.protocol``).
    """
    if workers == 1:
        app = create_app(settings, threads=threads, page_cache_bytes=page_cache_bytes)
        tune_garbage_collector()
        config = LimitedConfig(
            app, limits=limits, host=host, port=port, **_uvicorn_options(access_log)
        )
        server = uvicorn.Server(config)
        with contextlib.suppress(KeyboardInterrupt):
            server.run()
        if not server.started:
            raise SystemExit(STARTUP_FAILURE)
        return
    os.environ[DATABASE_URL_VARIABLE] = settings.database_url
    os.environ[READ_DATABASE_URL_VARIABLE] = settings.read_database_url
    os.environ[THREADS_VARIABLE] = str(threads)
    os.environ[PAGE_CACHE_VARIABLE] = str(page_cache_bytes)
    config = LimitedConfig(
        "ratingdb.api.server:app_from_environment",
        limits=limits,
        factory=True,
        workers=workers,
        host=host,
        port=port,
        **_uvicorn_options(access_log),
    )
    sockets = [listening_socket(host, port)]
    if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn before 0.36
        Multiprocess(config, target=uvicorn.Server(config).run, sockets=sockets).run()  # type: ignore[call-arg]
    else:
        Multiprocess(config, sockets=sockets).run()


def _uvicorn_options(access_log: bool) -> dict[str, Any]:
    """What one worker and many share."""
    return {
        "log_level": "info",
        "access_log": access_log,
        "loop": LOOP,
        # Behind a proxy (compose, a load balancer) the client address comes from it.
        "proxy_headers": True,
        "server_header": False,
    }


def tune_garbage_collector() -> None:
    """For a server process, once its app is built: what exists now (modules, the app, its
    schemas) lives as long as the process, so the cyclic collector stops scanning it
    (``gc.freeze``), and the youngest generation is collected less often. Measured at 50
    clients (benchmarks/README.md): a list page's p99 went from twice its median to 1.1 times,
    collections of the old generations having paused every request in flight."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def listening_socket(host: str, port: int) -> socket.socket:
    """The socket the workers share. Made here, not by uvicorn's ``Config.bind_socket``, whose
    socket does not say it is TCP (protocol 0): asyncio then leaves Nagle's algorithm on for
    the connections it accepts, and every keep-alive answer written in two parts waits about
    40 ms for the client's delayed acknowledgement."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    logger.info("Uvicorn running on http://%s:%d (Press CTRL+C to quit)", shown,
                sock.getsockname()[1])  # fmt: skip
    return sock


def app_from_environment() -> FastAPI:
    """The app of one worker process of ``serve(workers=N)``: the settings its parent put in
    ``RATINGDB_DATABASE_URL`` and ``RATINGDB_READ_DATABASE_URL``, the thread count in
    ``RATINGDB_SERVE_THREADS``."""
    threads = int(os.environ.get(THREADS_VARIABLE, DEFAULT_THREADS))
    app = create_app(Settings.from_env(os.environ), threads=threads)
    tune_garbage_collector()
    return app
