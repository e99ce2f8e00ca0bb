"""Reading an uploaded file: the raw body or a multipart/form-data form, never more than
``MAX_UPLOAD_BYTES`` held (413 beyond), and only once the guard has let the caller in."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from dataclasses import dataclass

from fastapi import HTTPException, Request
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from ratingdb.services.submissions import MAX_UPLOAD_BYTES

TOO_LARGE = f"the upload is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB"


@dataclass(frozen=True, slots=True)
class Received:
    """A multipart form: its text fields (the first of a repeated name, and every value of it)
    and its files by field name (file name, bytes)."""

    fields: dict[str, list[str]]
    files: dict[str, tuple[str | None, bytes]]

    def first(self, name: str) -> str | None:
        values = self.fields.get(name)
        return values[0] if values else None


def is_multipart(request: Request) -> bool:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return kind == "multipart/form-data"


async def bounded_body(request: Request) -> bytes:
    """The whole body, refused with 413 once it passes the limit (declared or sent)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES:
        raise HTTPException(413, TOO_LARGE)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_UPLOAD_BYTES:
            raise HTTPException(413, TOO_LARGE)
    return bytes(body)


async def _once(body: bytes) -> AsyncGenerator[bytes, None]:
    yield body


async def multipart(request: Request) -> Received:
    """A multipart/form-data body (bounded), read once per request."""
    cached: Received | None = getattr(request.state, "multipart", None)
    if cached is not None:
        return cached
    body = await bounded_body(request)
    parser = MultiPartParser(request.headers, _once(body), max_files=2, max_fields=20,
                             max_part_size=64 * 1024)  # fmt: skip
    try:
        form = await parser.parse()
    except MultiPartException as error:
        raise HTTPException(400, f"unreadable form: {error.message}") from None
    fields: dict[str, list[str]] = {}
    files: dict[str, tuple[str | None, bytes]] = {}
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            files.setdefault(name, (value.filename, await value.read()))
            await value.close()
        else:
            fields.setdefault(name, []).append(value)
    received = Received(fields, files)
    request.state.multipart = received
    return received
