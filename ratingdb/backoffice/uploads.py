"""Reading an uploaded file: the raw body or a multipart/form-data form, never more than
``MAX_UPLOAD_BYTES`` (413 beyond), and only once the guard has let the caller in; and how many
uploads are checked at once (:class:`UploadSlots`).

The body is received into a temporary file (in memory up to ``SPOOL_BYTES``, on disk beyond)
and read back once, whole, when it is complete: one copy of the file in memory, where
accumulating it held two (a form's file three) while it was received. What an upload really
costs is its check: the TRF reader holds about 36 times the file (benchmarks/README.md,
``upload_memory.py``), so the slots bound how many are checked at once in the process
(``backoffice_upload_concurrency``, 503 beyond) and to one per user (429 for a second): a few
users cannot make the process hold gigabytes.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import AsyncGenerator, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import IO

from fastapi import HTTPException, Request
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send

from ratingdb.rules.messages import N_, Message, Nn_, counted
from ratingdb.services.accounts import Principal
from ratingdb.services.submissions import MAX_UPLOAD_BYTES

TOO_LARGE = f"the upload is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB"
#: A body up to this size stays in memory while it is received; a larger one goes to disk.
SPOOL_BYTES = 1024 * 1024
#: What a refused upload's ``Retry-After`` says, in seconds (a check takes seconds).
RETRY_AFTER_SECONDS = 10
#: Where a request's multipart form is kept (``request.state``), read once per request.
_STATE = "multipart"


class Busy(HTTPException):
    """No upload slot for the caller: 429 (their own upload is being checked) or 503 (the
    process's are all taken), with ``Retry-After``."""

    def __init__(self, status_code: int, text: Message) -> None:
        detail = text.english()  # the API's, as ever; the upload form words ``text``
        super().__init__(status_code, detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
        self.text = text


class UploadSlots:
    """At most ``most`` uploads read and checked at once in this process, and one per user:
    :meth:`held` refuses at once (:class:`Busy`: 429 or 503, with ``Retry-After``) rather than
    queueing, so a refused upload is neither read nor stored, and the client retries."""

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError(f"at least one upload at a time, got {most}")
        self.most = most
        self._users: set[int] = set()
        self._lock = threading.Lock()

    @property
    def busy(self) -> int:
        """Uploads being processed now."""
        with self._lock:
            return len(self._users)

    @contextmanager
    def held(self, user_id: int) -> Iterator[None]:
        """A slot for ``user_id`` for the block; released however the block ends."""
        with self._lock:
            if user_id in self._users:
                raise Busy(429, Message(N_("another upload of yours is being checked: send "
                                           "this one once it is done")))  # fmt: skip
            if len(self._users) >= self.most:
                busy = counted(
                    Nn_("the back office is checking %(most)s upload already: try again in "
                        "%(seconds)s seconds",
                        "the back office is checking %(most)s uploads already: try again in "
                        "%(seconds)s seconds"),
                    "most", {"most": self.most, "seconds": RETRY_AFTER_SECONDS},
                )  # fmt: skip
                raise Busy(503, busy)
            self._users.add(user_id)
        try:
            yield
        finally:
            with self._lock:
                self._users.discard(user_id)


class ClosingForms:
    """Closes the files of a request's multipart form (:func:`multipart`) once the request is
    done, whether or not a route read them (a refused CSRF token, a busy slot): their
    temporary files go with the request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        finally:
            received = scope.get("state", {}).get(_STATE)
            if isinstance(received, Received):
                for file in received.files.values():
                    await file.close()


def slot(request: Request, caller: Principal) -> AbstractContextManager[None]:
    """The caller's upload slot in this app (``UploadSlots.held``): the block reads and checks
    one upload."""
    slots: UploadSlots = request.app.state.upload_slots
    return slots.held(caller.user_id)


@dataclass(frozen=True, slots=True)
class Received:
    """A multipart form: its text fields (the first of a repeated name, and every value of it)
    and its files by field name, as received (in memory up to 1 MB, on disk beyond; read
    them with :func:`form_file` or :func:`api_file`, within the caller's :func:`slot`)."""

    fields: dict[str, list[str]]
    files: dict[str, UploadFile]

    def first(self, name: str) -> str | None:
        values = self.fields.get(name)
        return values[0] if values else None


def is_multipart(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind == "multipart/form-data"


async def _bounded_stream(request: Request) -> AsyncGenerator[bytes, None]:
    """The body's chunks as they arrive, refused with 413 once it passes the limit (declared
    or sent), with 400 if the client goes before it is whole (the server's body timeout)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
        raise HTTPException(413, TOO_LARGE)
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_UPLOAD_BYTES:
                raise HTTPException(413, TOO_LARGE)
            yield chunk
    except ClientDisconnect:
        raise HTTPException(400, "the connection ended before the whole body came") from None


def _read_whole(file: IO[bytes]) -> bytes:
    file.seek(0)
    return file.read()


async def bounded_body(request: Request) -> bytes:
    """The whole body (see the module's docstring), refused with 413 past the limit."""
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES, prefix="ratingdb-upload-") as file:
        async for chunk in _bounded_stream(request):
            # Maybe to disk: in a thread, as starlette writes the files of a form.
            await run_in_threadpool(file.write, chunk)
        return await run_in_threadpool(_read_whole, file)


async def multipart(request: Request) -> Received:
    """A multipart/form-data body (bounded), read once per request."""
    cached: Received | None = getattr(request.state, _STATE, None)
    if cached is not None:
        return cached
    parser = MultiPartParser(request.headers, _bounded_stream(request), max_files=2, max_fields=20,
                             max_part_size=64 * 1024)  # fmt: skip
    try:
        form = await parser.parse()
    except MultiPartException as error:
        raise HTTPException(400, f"unreadable form: {error.message}") from None
    fields: dict[str, list[str]] = {}
    files: dict[str, UploadFile] = {}
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            if name in files:
                await value.close()  # a repeated name: the first counts
            else:
                files[name] = value
        else:
            fields.setdefault(name, []).append(value)
    received = Received(fields, files)
    setattr(request.state, _STATE, received)
    return received


async def _content(file: UploadFile) -> bytes:
    """The whole file, once: it is closed (its temporary file removed) after."""
    try:
        await file.seek(0)
        return await file.read()
    finally:
        await file.close()


async def form_file(request: Request, name: str = "file") -> tuple[bytes, str | None] | None:
    """The bytes and name of a multipart form's file field; None without one, or empty."""
    if not is_multipart(request):
        return None
    sent = (await multipart(request)).files.get(name)
    if sent is None:
        return None
    if not sent.size:
        await sent.close()
        return None
    return await _content(sent), sent.filename


async def api_file(request: Request, filename: str | None) -> tuple[bytes, str | None]:
    """The file of an API upload: the body itself (named ``filename``), or a multipart
    form's ``file`` field (named ``filename``, else as sent); 422 for a form without one."""
    if not is_multipart(request):
        return await bounded_body(request), filename
    sent = (await multipart(request)).files.get("file")
    if sent is None:
        raise HTTPException(422, "field file: the form has no file")
    return await _content(sent), filename or sent.filename
