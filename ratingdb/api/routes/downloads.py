"""``/v1/lists/{category}/{period}/download?format=csv|fide-txt|fide-xml|json[&revision=N]``:
a published list as a file, byte for byte what ``ratingdb lists export`` writes (the export's
own writer, services.lists.write_published, on the export's reading of the list).

Streamed: the writer runs on a thread of its own, reading the list a batch at a time, and hands
the response ~64 KiB at a time through a short queue (a slow client slows the writer down, a
client gone stops it), so memory stays flat whatever the list's size. A refusal before the first
chunk (none is known today: the format and category are checked first) is answered 422; one
after it can only cut the download short, which the client sees as an incomplete response.
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, get_args

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import StreamingResponse
from sqlalchemy import Engine
from starlette.types import Receive, Scope, Send

from ratingdb.api.dependencies import ReaderDep, read_engine
from ratingdb.api.params import CategoryPath, PeriodPath, RevisionQuery, period_of
from ratingdb.api.routes import LOOKUP
from ratingdb.api.routes.lists import CACHE_CONTROL, CACHE_CONTROL_LATEST, etag_matches, etag_of
from ratingdb.db import read_only_session
from ratingdb.errors import InputError
from ratingdb.formats.fide_list import XML_TAGS
from ratingdb.services import published as svc
from ratingdb.services.published.export import EXPORT_FORMATS, write_published
from ratingdb.services.published.lists import ListSummary, exported_revision

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer

router = APIRouter(prefix="/v1/lists", tags=["lists"])
logger = logging.getLogger("ratingdb.api")

MEDIA_TYPES: Final = {
    "csv": "text/csv; charset=utf-8",
    "fide-txt": "text/plain; charset=utf-8",
    "fide-xml": "application/xml",
    "json": "application/json",
}
EXTENSIONS: Final = {"csv": "csv", "fide-txt": "txt", "fide-xml": "xml", "json": "json"}
#: Bytes handed to the response at a time, and how many such chunks may wait for the client.
CHUNK = 64 * 1024
QUEUED = 8
#: A client that takes nothing for this long is gone: the writer stops and lets go of its
#: database connection.
STALLED_SECONDS = 300.0

#: The formats of ``lists export --format`` (EXPORT_FORMATS), spelled out for the schema.
ExportFormat = Literal["json", "csv", "fide-txt", "fide-xml"]
if set(get_args(ExportFormat)) != set(EXPORT_FORMATS):
    raise RuntimeError(f"the download formats must be the export's: {EXPORT_FORMATS}")

FormatQuery = Annotated[
    ExportFormat,
    Query(
        alias="format",
        description=f"the file's format: {', '.join(EXPORT_FORMATS)} (as `ratingdb lists "
        "export --format`; fide-xml holds FIDE categories only)",
    ),
]


class _Abandoned(Exception):
    """The client went away (or stalled): the writer stops."""


class _End:
    """The writer finished: every chunk has been sent."""


_Item = bytes | _End | BaseException


class _Channel:
    """Chunks from the writer's thread to the response on the event loop, at most QUEUED
    waiting at once."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.queue: asyncio.Queue[_Item] = asyncio.Queue()
        self.room = threading.Semaphore(QUEUED)
        self.stopped = threading.Event()

    def send(self, chunk: bytes) -> None:
        """On the writer's thread: waits for room, stops when the client is gone."""
        waited = 0.0
        while not self.room.acquire(timeout=0.5):
            waited += 0.5
            if self.stopped.is_set() or waited >= STALLED_SECONDS:
                raise _Abandoned()
        if self.stopped.is_set():
            raise _Abandoned()
        self.loop.call_soon_threadsafe(self.queue.put_nowait, chunk)

    def finish(self, item: _End | BaseException) -> None:
        """On the writer's thread: the last item (needs no room)."""
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:  # the event loop is closed: the server stopped, nobody waits
            logger.warning("a list download ended after the server stopped: %r", item)

    async def receive(self) -> _Item:
        item = await self.queue.get()
        if isinstance(item, bytes):
            self.room.release()
        return item


class _Sink(io.RawIOBase):
    """The writer's bytes, sent on as they come (behind a BufferedWriter of CHUNK bytes)."""

    def __init__(self, channel: _Channel) -> None:
        super().__init__()
        self.channel = channel

    def writable(self) -> bool:
        return True

    def write(self, data: ReadableBuffer) -> int:
        chunk = bytes(data)
        self.channel.send(chunk)
        return len(chunk)


def _write(engine: Engine, summary: ListSummary, file_format: str, channel: _Channel) -> None:
    """The writer's thread: the export, as ``lists export --output`` opens its file (UTF-8, no
    newline translation). On PostgreSQL in a transaction (the read engine runs in autocommit):
    the export reads through a server-side cursor, which needs one, and one snapshot keeps
    the whole file consistent."""
    if engine.dialect.name == "postgresql":
        engine = engine.execution_options(isolation_level="REPEATABLE READ")
    try:
        buffered = io.BufferedWriter(_Sink(channel), buffer_size=CHUNK)
        out = io.TextIOWrapper(buffered, encoding="utf-8", newline="", write_through=True)
        with read_only_session(engine) as session, exported_revision(session, summary) as listed:
            write_published(listed, file_format, out)
            out.flush()
    except _Abandoned:
        logger.info("a list download was abandoned by its client")
        channel.finish(_End())
    except BaseException as error:  # handed to the response, which raises it
        channel.finish(error)
    else:
        channel.finish(_End())


def filename_of(summary: ListSummary, file_format: str, revision: int | None) -> str:
    """``fide-standard_2026-12.csv``; ``fide-standard_2026-12_revision-2.csv`` when a revision
    was asked for."""
    stem = f"{summary.category.value}_{summary.period}"
    if revision is not None:
        stem += f"_revision-{summary.revision}"
    return f"{stem}.{EXTENSIONS[file_format]}"


@router.get(
    "/{category}/{period}/download",
    response_class=Response,
    responses={
        **LOOKUP,
        200: {
            "description": "The file (streamed), as `ratingdb lists export` writes it",
            "content": {media.split(";")[0]: {} for media in MEDIA_TYPES.values()},
            "headers": {
                "ETag": {"schema": {"type": "string"}},
                "Content-Disposition": {"schema": {"type": "string"}},
            },
        },
        304: {"description": "Not modified (If-None-Match holds the ETag)"},
    },
)
async def download(
    request: Request,
    read: ReaderDep,
    category: CategoryPath,
    period: PeriodPath,
    file_format: FormatQuery,
    revision: RevisionQuery = None,
) -> Response:
    """A published list (the latest revision unless ``revision`` is given) as a CSV, FIDE TXT,
    FIDE XML or JSON file: byte for byte what ``ratingdb lists export`` writes. 422 for a
    format the export does not write (FIDE XML: FIDE categories only), 404 for no such list."""
    if file_format == "fide-xml" and category not in XML_TAGS:
        raise InputError(
            f"query parameter format: a FIDE XML list holds FIDE ratings only, not "
            f"{category.value} (fide-txt, csv and json hold every category)"
        )
    wanted = period_of(period)
    summary = await read(lambda session: svc.find_list(session, category, wanted, revision))
    etag = etag_of("download", summary.list_id, summary.digest, summary.revision, file_format)
    headers = {
        "ETag": etag,
        "Cache-Control": CACHE_CONTROL if revision is not None else CACHE_CONTROL_LATEST,
    }
    if etag_matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    channel = _Channel(asyncio.get_running_loop())
    threading.Thread(
        target=_write,
        args=(read_engine(request), summary, file_format, channel),
        name=f"download {summary.category.value} {summary.period}",
        daemon=True,
    ).start()
    first = await channel.receive()
    if isinstance(first, BaseException):
        channel.stopped.set()
        raise first  # before any byte: InputError -> 422, NotFound -> 404

    async def body() -> AsyncIterator[bytes]:
        item: _Item = first
        try:
            while not isinstance(item, _End):
                if isinstance(item, BaseException):
                    raise item  # after the first bytes: the download is cut short
                yield item
                item = await channel.receive()
        finally:
            channel.stopped.set()

    headers["Content-Disposition"] = (
        f'attachment; filename="{filename_of(summary, file_format, revision)}"'
    )
    return _Download(channel, body(), media_type=MEDIA_TYPES[file_format], headers=headers)


class _Download(StreamingResponse):
    """A streamed download that stops its writer however the response ends: sent, or the
    client gone (an async generator left mid-way is only closed when collected)."""

    def __init__(self, channel: _Channel, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.channel = channel

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.channel.stopped.set()
