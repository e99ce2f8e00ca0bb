"""Running the app: ``ratingdb serve`` and ``ratingdb demo`` call :func:`serve`;
``ratingdb backoffice`` runs its app with :func:`limited_config` and :func:`run_server` too."""

from __future__ import annotations

import contextlib
import gc
import inspect
import logging
import os
import socket
import sys
from typing import Any, TypeVar

import uvicorn
from fastapi import FastAPI
from uvicorn.supervisors import Multiprocess

from ratingdb.api.app import create_app
from ratingdb.api.protocol import HttpLimits, LimitedConfig
from ratingdb.config import Settings
from ratingdb.observability.logs import uvicorn_log_config

logger = logging.getLogger("uvicorn.error")
#: uvicorn's exit status when the server could not start (the port taken, say).
STARTUP_FAILURE = 3
#: Young objects allocated between two collections of the youngest generation (Python's
#: default: 700). A request allocates thousands of short-lived objects that reference counting
#: frees; collecting every 700 of them costs time and, through the older generations, pauses
#: every request in flight.
GC_YOUNG_THRESHOLD = 10_000
#: uvicorn's event loop, named rather than "auto" so that a missing one fails loudly instead of
#: silently serving at asyncio's speed (a dependency). The HTTP protocol is httptools', with
#: limits (``ratingdb.api.protocol``).
LOOP = "asyncio" if sys.platform == "win32" else "uvloop"
#: The app of each worker process of ``serve_workers`` > 1 (uvicorn imports it by name).
WORKER_APP = "ratingdb.api.server:app_from_environment"

C = TypeVar("C", bound=LimitedConfig)


def serve(settings: Settings) -> None:
    """Serve the API and the web pages with uvicorn in the foreground, until interrupted, as
    the ``serve_`` settings say: address, workers, threads (``ratingdb.api.app``), page cache
    (``ratingdb.api.caches``), access log, and what one connection may cost
    (``ratingdb.api.protocol``).

    ``serve_workers`` > 1 runs that many worker processes on one listening socket (the app
    keeps no state, so any worker can answer any request). The settings reach them by one path:
    this process puts them in its environment (``Settings.environment``), and each worker
    builds its Settings from there, for its uvicorn configuration (:class:`WorkerConfig`) and
    its app (:func:`app_from_environment`).
    """
    if settings.serve_workers == 1:
        app = create_app(settings)
        tune_garbage_collector()
        config = uvicorn_config(app, settings, LimitedConfig)  # sets uvicorn's logging up
        say_public_base_url(settings)
        run_server(config)
        return
    for name, value in settings.environment().items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    config = worker_config()
    say_public_base_url(settings)
    sockets = [listening_socket(settings.serve_host, settings.serve_port)]
    if "target" in inspect.signature(Multiprocess).parameters:  # uvicorn before 0.36
        Multiprocess(config, target=uvicorn.Server(config).run, sockets=sockets).run()  # type: ignore[call-arg]
    else:
        Multiprocess(config, sockets=sockets).run()


def run_server(config: LimitedConfig) -> None:
    """Serve ``config`` in the foreground until interrupted; exit 3 if it could not start."""
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)


def say_public_base_url(settings: Settings) -> None:
    """Where the feed's links lead, in the log at start (uvicorn's logging is set up by then):
    the public base URL, or that there is none, the links are relative and there is no
    sitemap."""
    if settings.public_base_url is None:
        logger.info(
            "RATINGDB_PUBLIC_BASE_URL is not set: the feed's links are relative to the feed "
            "and its ids urn:ratingdb: names, and there is no sitemap (never built from a "
            "request's Host header)"
        )
    else:
        logger.info("links of the feed built from %s", settings.public_base_url)


def uvicorn_config(app: Any, settings: Settings, config_class: type[C], **options: Any) -> C:
    """uvicorn's configuration of ``app`` from the ``serve_`` settings."""
    limits = HttpLimits(
        max_head_bytes=settings.serve_limit_request_head,
        max_headers=settings.serve_limit_request_fields,
        head_timeout=settings.serve_timeout_request_head,
        keep_alive_timeout=settings.serve_timeout_keep_alive,
        body_timeout=settings.serve_timeout_request_body,
    )
    return limited_config(
        app, config_class, limits=limits, host=settings.serve_host, port=settings.serve_port,
        access_log=settings.serve_access_log, trusted_proxies=settings.serve_trusted_proxies,
        **_logging(settings), **options,
    )  # fmt: skip


def backoffice_config(app: Any, settings: Settings) -> LimitedConfig:
    """uvicorn's configuration of the back office's ``app`` from the ``backoffice_`` settings:
    the same protocol and limits as ``serve``, plus a bound on open connections."""
    limits = HttpLimits(
        max_head_bytes=settings.backoffice_limit_request_head,
        max_headers=settings.backoffice_limit_request_fields,
        head_timeout=settings.backoffice_timeout_request_head,
        keep_alive_timeout=settings.backoffice_timeout_keep_alive,
        body_timeout=settings.backoffice_timeout_request_body,
        max_connections=settings.backoffice_limit_connections,
    )
    return limited_config(
        app, LimitedConfig, limits=limits, host=settings.backoffice_host,
        port=settings.backoffice_port, access_log=True,
        trusted_proxies=settings.backoffice_trusted_proxies, **_logging(settings),
    )  # fmt: skip


def _logging(settings: Settings) -> dict[str, Any]:
    """uvicorn's logging in ``settings.log_format``: its own configuration for text."""
    config = uvicorn_log_config(settings.log_format)
    return {} if config is None else {"log_config": config}


def limited_config(
    app: Any,
    config_class: type[C],
    *,
    limits: HttpLimits,
    host: str,
    port: int,
    access_log: bool,
    trusted_proxies: str,
    **options: Any,
) -> C:
    """uvicorn's configuration with the limits of ``ratingdb.api.protocol``, the event loop,
    no Server header, and X-Forwarded-For/-Proto believed only from ``trusted_proxies`` (IPs
    and networks, comma-separated; empty: from nobody, the socket's peer is the client)."""
    proxies: dict[str, Any] = {"proxy_headers": False}
    if trusted_proxies:
        proxies = {"proxy_headers": True, "forwarded_allow_ips": trusted_proxies}
    return config_class(
        app, limits=limits, host=host, port=port, log_level="info", access_log=access_log,
        loop=LOOP, server_header=False, **proxies, **options,
    )  # fmt: skip


#: How long a worker may take to answer uvicorn's health check (see ``worker_config``).
WORKER_HEALTHCHECK_S = 30


class WorkerConfig(LimitedConfig):
    """The configuration of ``serve``'s worker processes. uvicorn hands it to each worker
    pickled; it is pickled as "build me from the environment" (:func:`worker_config`), so a
    worker's limits and access log come from the same Settings as its app, never from a copy
    of the parent's objects that could disagree with them."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (worker_config, ())


def worker_config() -> WorkerConfig:
    """``serve``'s multi-process configuration, from the settings in the environment."""
    settings = Settings.from_env(os.environ)
    options: dict[str, Any] = {}
    if "timeout_worker_healthcheck" in inspect.signature(uvicorn.Config).parameters:
        # uvicorn kills a worker that does not answer its ping within this many seconds (5 by
        # default) and starts another: on a busy host a worker still importing the app missed
        # it again and again, and the server never came up (seen at a load average of 11 on
        # 2 cores). A worker that is really hung is still replaced, later.
        options["timeout_worker_healthcheck"] = WORKER_HEALTHCHECK_S
    return uvicorn_config(
        WORKER_APP, settings, WorkerConfig, factory=True, workers=settings.serve_workers, **options
    )


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
    """The app of one worker process of ``serve`` with ``serve_workers`` > 1: the settings its
    parent put in the environment (``Settings.environment``)."""
    app = create_app(Settings.from_env(os.environ))
    tune_garbage_collector()
    return app
