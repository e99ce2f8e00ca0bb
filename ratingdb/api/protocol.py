"""uvicorn's httptools protocol with the limits it lacks.

uvicorn bounds a request head only for its h11 protocol (``h11_max_incomplete_event_size``);
with httptools a client sending a 100 MB header costs 100 MB of server memory, and it arms its
keep-alive timer only once a response is complete: a connection that never sends, or sends a
head one byte at a time (slowloris), is kept forever. :class:`LimitedHttpToolsProtocol` counts
the bytes and fields of each request head before httptools holds them, answers 431 past the
limits, and closes a connection that stays idle or whose head is not complete in time. It also
answers 408 to a request whose body is not complete in time once its head is (a slowly dripped
upload holds a connection and the app's task), and, when ``max_connections`` is set, answers
503 to a connection beyond it as soon as it is accepted (uvicorn's ``limit_concurrency``
counts only once a head is complete, and refuses at the limit rather than beyond it).

Why a subclass rather than uvicorn's settings (h11 with ``h11_max_incomplete_event_size``):
those settings close no idle connection and no slow head, and h11 cost 2.5 times this
protocol's CPU per request (docs/architecture.md §4.3, benchmarks/protocol_cost.py).
"""

from __future__ import annotations

import asyncio
from asyncio import TimerHandle
from dataclasses import dataclass
from typing import Any

import httptools
import uvicorn
from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol
from uvicorn.server import ServerState

#: A request head (request line and headers) larger than this is refused with 431: ours are
#: a URL and a few headers, well under 2 kB; browsers' cookies and proxies' headers stay far
#: below it (nginx's default buffers: 1 kB, then 4 x 8 kB).
DEFAULT_MAX_HEAD_BYTES = 16 * 1024
#: Header fields per request (gunicorn's default ``limit_request_fields``).
DEFAULT_MAX_HEADERS = 100
#: Seconds a client has to send a whole request head once it began (nginx's
#: ``client_header_timeout`` is 60; a browser sends its head in one packet).
DEFAULT_HEAD_TIMEOUT = 10
#: Seconds a connection may stay idle, before its first request or between two (uvicorn's
#: ``timeout_keep_alive`` default).
DEFAULT_KEEP_ALIVE_TIMEOUT = 5
#: Seconds a client has to send a whole request body once its head is complete.
DEFAULT_BODY_TIMEOUT = 60
#: What a 503 for too many connections tells the client to wait, in seconds.
RETRY_AFTER_SECONDS = 5
#: After a refusal, how long the connection keeps reading (and dropping) what the client still
#: sends, so that the client reads the answer instead of a reset (a "lingering close").
LINGER_SECONDS = 2.0
#: Every answer the protocol writes itself says it is plain text, not to be sniffed.
NOSNIFF = (b"x-content-type-options", b"nosniff")


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """What one connection may cost the server (``ratingdb serve`` and ``ratingdb backoffice``
    options)."""

    max_head_bytes: int = DEFAULT_MAX_HEAD_BYTES
    max_headers: int = DEFAULT_MAX_HEADERS
    head_timeout: int = DEFAULT_HEAD_TIMEOUT
    keep_alive_timeout: int = DEFAULT_KEEP_ALIVE_TIMEOUT
    body_timeout: int = DEFAULT_BODY_TIMEOUT
    #: Connections open at once in this process (None: any number); more get 503.
    max_connections: int | None = None


DEFAULT_LIMITS = HttpLimits()


class LimitedConfig(uvicorn.Config):
    """uvicorn's configuration, with the limits the protocol reads (a subclass, so that it
    reaches ``serve(workers=N)``'s worker processes pickled with the rest)."""

    def __init__(self, app: Any, *, limits: HttpLimits, **kwargs: Any) -> None:
        super().__init__(
            app,
            http=LimitedHttpToolsProtocol,
            ws="none",
            timeout_keep_alive=limits.keep_alive_timeout,
            **kwargs,
        )
        self.limits = limits


class _Refused(Exception):
    """Raised from a parser callback to stop parsing a refused request."""


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """:class:`HttpToolsProtocol` with :class:`HttpLimits` (see the module's docstring).

    Head bytes are counted as received, while a head is incomplete, and data is fed to the
    parser at most up to the limit, so httptools never holds more than the limit of one head.
    A head that begins in the same read as the end of the previous request is counted from
    the next read: it is refused at twice the limit at most.
    """

    def __init__(
        self,
        config: uvicorn.Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        if not isinstance(config, LimitedConfig):
            raise TypeError("LimitedHttpToolsProtocol is configured by a LimitedConfig")
        super().__init__(config, server_state, app_state, _loop)
        self.limits = config.limits
        self._reading_head = True
        self._head_bytes = 0
        self._header_count = 0
        self._head_timer: TimerHandle | None = None
        self._body_timer: TimerHandle | None = None
        self._refused = False

    # Connection

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        most = self.limits.max_connections
        if most is not None and len(self.connections) > most:  # this one included
            self.logger.warning("More than %d connections: one refused.", most)
            self._refuse(503, "Too many connections: try again shortly.",
                         (b"retry-after", str(RETRY_AFTER_SECONDS).encode("ascii")))  # fmt: skip
            return
        # uvicorn arms this only after a response: a client that never sends would stay.
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        self._stop_body_timer()
        self._unset_keepalive_if_required()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # lingering after a refusal: dropped unread
        self._unset_keepalive_if_required()
        if self._head_timer is None and (self.cycle is None or self.cycle.response_complete):
            # The first bytes of a request (or of what follows a finished one).
            self._head_timer = self.loop.call_later(self.limits.head_timeout, self._head_late)
        limit = self.limits.max_head_bytes
        if len(data) <= limit - (self._head_bytes if self._reading_head else 0):
            # The usual case: a whole head, or a part of one within the limit.
            if self._reading_head:
                self._head_bytes += len(data)
            self._feed(data)
            return
        rest = memoryview(data)
        while rest:
            if self._reading_head:
                room = limit - self._head_bytes
                if room <= 0:
                    self._refuse(431, "Request header fields too large.")
                    return
                piece, rest = rest[:room], rest[room:]
                self._head_bytes += len(piece)
            else:
                piece, rest = rest[:limit], rest[limit:]
            if not self._feed(piece):
                return

    def _feed(self, piece: bytes | memoryview) -> bool:
        """Parse ``piece``; False when the connection is done with (refused, upgraded)."""
        try:
            self.parser.feed_data(piece)
        except httptools.HttpParserError:
            if not self._refused:  # not a limit of ours: httptools' own refusal
                self.logger.warning("Invalid HTTP request received.")
                self.send_400_response("Invalid HTTP request received.")
            return False
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return False
        return not self.transport.is_closing()

    # Parser callbacks

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if not self._reading_head:
            self._reading_head = True
            self._head_bytes = 0
        self._header_count = 0
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.limits.head_timeout, self._head_late)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.limits.max_headers:
            self._refuse(431, "Too many header fields.")
            raise _Refused
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._reading_head = False
        self._stop_head_timer()
        super().on_headers_complete()
        # Cancelled by on_message_complete, in the same read for a request without a body.
        self._stop_body_timer()
        self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_late)

    def on_message_complete(self) -> None:
        self._stop_body_timer()
        super().on_message_complete()

    # Refusals

    def send_400_response(self, msg: str) -> None:
        self._refuse(400, msg)

    def _head_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.logger.warning("Request head not complete in %d s.", self.limits.head_timeout)
            self._refuse(408, "Request head not complete in time.")

    def _body_late(self) -> None:
        """The body did not arrive in time: 408 if the app has not begun answering (the app
        then reads the end of the body as a disconnection, and its answer goes nowhere), else
        the connection is closed (the app answered without waiting for the whole body)."""
        self._body_timer = None
        cycle = self.cycle
        if self.transport.is_closing() or cycle is None:
            return
        self.logger.warning("Request body not complete in %d s.", self.limits.body_timeout)
        if cycle.response_started:
            self._refused = True
            self.transport.close()
            return
        cycle.disconnected = True
        cycle.message_event.set()
        self.flow.resume_reading()  # the lingering read drops what still comes
        self._refuse(408, "Request body not complete in time.")

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _refuse(self, status: int, message: str, *extra: tuple[bytes, bytes]) -> None:
        """Answer ``status`` with ``message`` (and the ``extra`` headers) and close, after a
        short lingering read; while a response is under way, close without an answer (it would
        be cut into)."""
        self._refused = True
        self._stop_head_timer()
        self._stop_body_timer()
        self._unset_keepalive_if_required()
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and not cycle.disconnected:
            cycle.keep_alive = False
            self.transport.close()
            return
        body = message.encode("ascii")
        lines = [STATUS_LINE[status]]
        headers = [
            *self.server_state.default_headers,
            NOSNIFF,
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
            *extra,
        ]
        lines.extend(name + b": " + value + b"\r\n" for name, value in headers)
        self.transport.write(b"".join(lines) + b"\r\n" + body)
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()
