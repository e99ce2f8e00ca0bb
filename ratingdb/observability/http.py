"""An app's requests counted and timed by route template, and its ``GET /metrics``.

``install(app, registry)`` adds :class:`RequestMetrics` (outermost, so that a request is timed
with every other middleware, and a HEAD counted as a HEAD), :class:`RouteLabel` (innermost,
where the router has left the route it picked) and the figures they keep to ``registry``.
``add_route(app, registry)`` serves the registry at ``/metrics``; with ``RATINGDB_METRICS=0``
the apps serve it as a 404 and count nothing.
"""

from __future__ import annotations

import time

from fastapi import FastAPI, HTTPException
from fastapi.responses import Response
from prometheus_client import CollectorRegistry, Counter, Histogram
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ratingdb.observability.metrics import CONTENT_TYPE, exposition

PATH = "/metrics"
#: The methods counted by name; any other a client sends is counted as ``other``.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: The route label of a request no route matched (every template starts with a slash).
UNMATCHED = "unmatched"
#: The status of a request whose app raised before answering (the server answers 500).
FAILED = 500


class HttpMetrics:
    """The requests of one app, in ``registry``."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.requests = Counter(
            "ratingdb_http_requests",
            "HTTP requests answered, by method, route template and status.",
            ["method", "route", "status"],
            registry=registry,
        )
        self.seconds = Histogram(
            "ratingdb_http_request_duration_seconds",
            "Seconds from a request's arrival to the end of its answer, by method and route "
            "template.",
            ["method", "route"],
            registry=registry,
        )

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests.labels(method, route, str(status)).inc()
        self.seconds.labels(method, route).observe(seconds)


#: The scope key through which :class:`RouteLabel` hands the route it saw to
#: :class:`RequestMetrics`.
FOUND = "ratingdb.metrics.route"


class RequestMetrics:
    """Counts and times every HTTP request under the template of the route that served it, which
    :class:`RouteLabel` finds. Outermost: every middleware is timed, and a HEAD is seen as the
    client sent it (``ratingdb.api.app.HeadAsGet`` turns it into a GET further in)."""

    def __init__(self, app: ASGIApp, metrics: HttpMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"] if scope["method"] in METHODS else "other"
        found: dict[str, str] = {}
        status = FAILED

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        started = time.perf_counter()
        try:
            await self.app({**scope, FOUND: found}, receive, send_status)
        finally:
            route = found.get("route", UNMATCHED)
            self.metrics.observe(method, route, status, time.perf_counter() - started)


class RouteLabel:
    """Innermost: once the router has served a request, the template of the route it picked
    (FastAPI leaves the route in the scope, a route whose method differs too: it answered 405),
    or the prefix of the mount (the static files), for :class:`RequestMetrics`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = scope.get(FOUND)
        root_path = scope.get("root_path", "")
        try:
            await self.app(scope, receive, send)
        finally:
            if isinstance(found, dict):
                template = route_template(scope, root_path)
                if template is not None:
                    found["route"] = template


def route_template(scope: Scope, root_path: str) -> str | None:
    """The template of the route in ``scope`` after routing, or the prefix of the mount that
    served it (the root path the mount added to ``root_path``); None: no route matched."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path or "/"
    mounted = scope.get("root_path", "")
    if isinstance(mounted, str) and mounted != root_path and mounted.startswith(root_path):
        return mounted[len(root_path) :]
    return None


def install(app: FastAPI, registry: CollectorRegistry) -> None:
    """Count ``app``'s requests in ``registry``: call it once every other middleware is added
    (:class:`RequestMetrics` goes outermost, :class:`RouteLabel` innermost)."""
    app.add_middleware(RequestMetrics, metrics=HttpMetrics(registry))
    app.user_middleware.append(Middleware(RouteLabel))


def add_route(app: FastAPI, registry: CollectorRegistry | None) -> None:
    """``GET /metrics``: ``registry`` in Prometheus' text format, never cached; None (metrics
    turned off): 404. Not in the app's OpenAPI."""

    async def metrics() -> Response:
        if registry is None:
            raise HTTPException(404, "metrics are turned off (RATINGDB_METRICS=0)")
        return Response(
            exposition(registry),
            media_type=CONTENT_TYPE,
            headers={"Cache-Control": "no-store"},
        )

    app.get(PATH, include_in_schema=False)(metrics)
