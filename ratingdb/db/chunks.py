"""The packed column of ``list_chunks`` as ratingdb writes and reads it now: format 2,
``ratingdb.db.chunk_format_v2`` (frozen). Live code imports from here; a migration imports the
frozen module of the format it means."""

from __future__ import annotations

from ratingdb.db.chunk_format_v2 import (
    CHUNK_SIZE,
    ENTRY,
    FORMAT,
    NULL32,
    NULL64,
    OPTIONAL,
    SCALE,
    Packed,
    chunk_rows,
    columns,
    list_order,
    pack,
    pack_columns,
    unpack,
)

__all__ = [
    "CHUNK_SIZE",
    "ENTRY",
    "FORMAT",
    "NULL32",
    "NULL64",
    "OPTIONAL",
    "SCALE",
    "Packed",
    "chunk_rows",
    "columns",
    "list_order",
    "pack",
    "pack_columns",
    "unpack",
]
