"""The packed column of ``list_chunks``, format 2: format 1 (``chunk_format_v1``) and each
entry's activity (issue 27 item 3): the list of the last period that rated games of the player
and whether the list shows them active.

**Frozen**, as format 1 is: databases hold these bytes and migration 0015 writes them. A new
format is a new module. tests/db/test_chunks.py pins the bytes on a hand-worked example.

Format (version 2), deflated with zlib as a whole (level 6 unless the writer says: any level
reads the same):

- a header: the format version (one byte, 2) and the number of entries n (uint32);
- the int32 columns of format 1 (rating, previous_rating, change, games, k_factor, k_used,
  rated_games, peak_rating), then two more int32 columns: ``last_rated`` as the period's
  month index (year x 12 + month - 1; None, no rated game known, is the smallest int32) and
  ``active`` (1 or 0);
- sum_delta as int64 ten-thousandths, then the player ids, as in format 1.

Read, ``last_rated`` is the date of that period's list (the 1st of its month) and ``active``
a bool, as list_entries holds them.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from ratingdb.db.chunk_format_v1 import (
    CHUNK_SIZE,
    NULL32,
    NULL64,
    SCALE,
    _decoded,
    _int32_column,
    _player_ids,
    _sum_delta_column,
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

#: The fields of a packed entry, in order (the columns of list_entries but list_id).
ENTRY = (
    "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating", "last_rated", "active",
)  # fmt: skip

FORMAT = 2
_HEADER = struct.Struct("<BI")
_LEVEL = 6
_INT32 = ("rating", "previous_rating", "change", "games", "k_factor", "k_used", "rated_games",
          "peak_rating", "last_rated", "active")  # fmt: skip
OPTIONAL = frozenset({"previous_rating", "change", "k_used", "sum_delta", "last_rated"})
#: Bytes per entry before the player ids: ten int32 columns and one int64.
_FIXED = 4 * len(_INT32) + 8
_SWAP = sys.byteorder != "little"


def _month_indexes(values: Sequence[Any]) -> list[int]:
    """The month index of each list date, NULL32 for None (format 1's int32 columns take
    None only in its own optional fields)."""
    indexes: list[int] = []
    for value in values:
        if value is None:
            indexes.append(NULL32)
        elif type(value) is date:
            indexes.append(value.year * 12 + value.month - 1)
        else:
            raise ValueError(f"list entry field last_rated is not a date: {value!r}")
    return indexes


def _raw_int32(values: Sequence[int]) -> bytes:
    """A column of int32 already checked (month indexes with NULL32, flags)."""
    column = array("i", values)
    if _SWAP:  # pragma: no cover - big-endian hosts only
        column.byteswap()
    return column.tobytes()


def _flags(values: Sequence[Any]) -> list[int]:
    flags: list[int] = []
    for value in values:
        if type(value) is not bool:
            raise ValueError(f"list entry field active is not a bool: {value!r}")
        flags.append(int(value))
    return flags


def pack(entries: Iterable[Sequence[Any]], level: int = _LEVEL) -> bytes:
    """Entries (tuples in the order of ENTRY) as the packed column, deflated at zlib's
    ``level``."""
    rows = list(entries)
    if any(len(row) != len(ENTRY) for row in rows):
        bad = next(row for row in rows if len(row) != len(ENTRY))
        raise ValueError(f"list entry not of the {len(ENTRY)} fields: {bad!r}")
    return pack_columns(list(zip(*rows, strict=True)) if rows else [() for _ in ENTRY], level)


def pack_columns(fields: Sequence[Sequence[Any]], level: int = _LEVEL) -> bytes:
    """The packed column of entries given as their columns (one sequence per field of ENTRY,
    in that order, all of one length), deflated at zlib's ``level``."""
    if len(fields) != len(ENTRY):
        raise ValueError(f"list entries not of the {len(ENTRY)} fields: {len(fields)} columns")
    by_name: dict[str, Sequence[Any]] = dict(zip(ENTRY, fields, strict=True))
    size = len(fields[0])
    if any(len(column) != size for column in fields):
        raise ValueError("list entry columns of different lengths")
    by_name["last_rated"] = _month_indexes(by_name["last_rated"])
    by_name["active"] = _flags(by_name["active"])
    parts = [_HEADER.pack(FORMAT, size)]
    if size:
        parts.extend(_int32_column(name, by_name[name]) for name in _INT32[:-2])
        parts.append(_raw_int32(by_name["last_rated"]))
        parts.append(_raw_int32(by_name["active"]))
        parts.append(_sum_delta_column(by_name["sum_delta"]))
        parts.append(_player_ids(by_name["player_id"]))
    return zlib.compress(b"".join(parts), level)


class Packed:
    """A packed value opened: its columns decoded one at a time, on demand."""

    __slots__ = ("_data", "size")

    def __init__(self, packed: bytes) -> None:
        data = zlib.decompress(packed)
        version, size = _HEADER.unpack_from(data)
        if version != FORMAT:
            raise ValueError(f"packed list entries of format {version}, not {FORMAT}")
        if len(data) < _HEADER.size + _FIXED * size + max(0, size - 1):
            raise ValueError(f"packed list entries cut short: {len(data)} bytes for {size}")
        self._data = memoryview(data)
        self.size: int = size

    def column(self, name: str) -> list[Any]:
        """The values of field ``name`` (of ENTRY) of every entry, in order."""
        size, start = self.size, _HEADER.size
        if name == "player_id":
            if size == 0:
                return []
            ids = str(self._data[start + _FIXED * size :], "utf-8").split("\n")
            if len(ids) != size:
                raise ValueError(f"packed list entries: {len(ids)} player ids for {size}")
            return ids
        if name == "sum_delta":
            offset = start + 4 * len(_INT32) * size
            values = _decoded(self._data[offset : offset + 8 * size], "q")
            return [None if v == NULL64 else Decimal(v).scaleb(-SCALE) for v in values]
        offset = start + 4 * size * _INT32.index(name)
        values = _decoded(self._data[offset : offset + 4 * size], "i")
        if name == "last_rated":
            return list(map(_list_date, values))
        if name == "active":
            return list(map(bool, values))
        if name in OPTIONAL:
            return list(map(_NONE.get, values, values))
        return values


_NONE: dict[int, None] = {NULL32: None}
_DATES: dict[int, date | None] = {NULL32: None}


def _list_date(index: int) -> date | None:
    """The list date of a month index, one date object per month (a list has few)."""
    try:
        return _DATES[index]
    except KeyError:
        found = _DATES[index] = date(index // 12, index % 12 + 1, 1)
        return found


def columns(packed: bytes, fields: Sequence[str]) -> list[list[Any]]:
    """The columns ``fields`` (names of ENTRY) of the packed entries, each a list in order."""
    opened = Packed(packed)
    return [opened.column(name) for name in fields]


def unpack(packed: bytes) -> list[tuple[Any, ...]]:
    """The entries of a packed column, in its order (tuples in the order of ENTRY)."""
    return list(zip(*columns(packed, ENTRY), strict=True))


def list_order(entry: Sequence[Any]) -> tuple[int, str]:
    """The sort key of list order: rating descending, then player_id."""
    return (-int(entry[1]), str(entry[0]))


def chunk_rows(list_id: int, entries: Sequence[Sequence[Any]]) -> Iterator[dict[str, Any]]:
    """The list_chunks rows of a list's entries, given in list order."""
    for chunk, start in enumerate(range(0, len(entries), CHUNK_SIZE)):
        part = entries[start : start + CHUNK_SIZE]
        yield {
            "list_id": list_id,
            "chunk": chunk,
            "top_rating": int(part[0][1]),
            "bottom_rating": int(part[-1][1]),
            "size": len(part),
            "entries": pack(part),
        }
