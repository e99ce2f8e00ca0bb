"""Responses compressed with gzip when the client accepts it (Starlette's GZipMiddleware), with
the validators and Vary kept true to what is sent.

- A gzip body is another representation of the resource than the identity body, so one
  strong ETag must not name both (RFC 9110 §8.8.3): a compressed response's strong ETag
  becomes weak, ``W/"..."``, as nginx does. If-None-Match compares weakly
  (``routes.lists.etag_matches``), so the tag a client sends back still gets its 304, and the
  pages kept by ETag (``caches.PageCache``) stay keyed by the strong tag: they hold the
  identity body, compressed on the way out.
- Every response the middleware may compress says ``Vary: Accept-Encoding`` whether or not
  this one was compressed (Starlette does), beside the pages' ``Accept-Language``; a 304
  carries the Vary its 200 would have (RFC 9110 §15.4.5), and to a client that accepts gzip
  and sent the weak tag (it holds the gzip body), that weak tag.
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Bodies shorter than this go as they are: they fit in a packet or two, and gzip's header and
#: the CPU would cost more than the bytes saved.
MINIMUM_SIZE = 1024
#: zlib's own default: most of level 9's saving for a fraction of its time (a 580 kB player page
#: of ten years' history: 19 kB).
COMPRESS_LEVEL = 6


class Compression:
    """gzip (inside HEAD-as-GET: a HEAD gets the GET's headers), then the validators."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = GZipMiddleware(app, minimum_size=MINIMUM_SIZE, compresslevel=COMPRESS_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Headers(scope=scope)
        sent_tags = _tags(request.get("if-none-match", ""))
        accepts_gzip = "gzip" in request.get("accept-encoding", "")

        async def send_validated(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                headers = MutableHeaders(scope=message)
                etag = headers.get("etag")
                if message["status"] == 304:
                    headers.add_vary_header("Accept-Encoding")
                    weak = f"W/{etag}"
                    if etag is not None and accepts_gzip and weak in sent_tags:
                        headers["ETag"] = weak
                elif (
                    etag is not None
                    and not etag.startswith("W/")
                    and headers.get("content-encoding") == "gzip"
                ):
                    headers["ETag"] = f"W/{etag}"
            await send(message)

        await self.app(scope, receive, send_validated)


def _tags(if_none_match: str) -> set[str]:
    return {tag.strip() for tag in if_none_match.split(",") if tag.strip()}
