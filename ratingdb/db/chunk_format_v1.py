"""The packed column of ``list_chunks``, format 1: up to CHUNK_SIZE entries of a list, in list
order, every field of each, as one compressed value.

**Frozen.** Databases hold these bytes, and the migrations that wrote and read them (0010,
0011, 0013's chunk size) import this module, so that an old revision means the same whatever
the live code becomes. Nothing here changes: a new format is a new module (``chunk_format_v2``),
a migration that rewrites every chunk, and ``ratingdb.db.chunks`` pointing at it.
tests/db/test_chunks.py pins the bytes on a hand-worked example.

Format (version 1), deflated with zlib (level 6) as a whole:

- a header: the format version (one byte, 1) and the number of entries n (uint32);
- the numeric fields as columns of n fixed-width little-endian integers each: rating,
  previous_rating, change, games, k_factor, k_used, rated_games, peak_rating as int32, then
  sum_delta as int64 ten-thousandths (``Decimal("0.3600")`` is 3600). None (a first rating's
  previous_rating and change; k_used and sum_delta without a rated game) is the type's smallest
  value, which no stored value may take;
- the player ids, UTF-8, joined by line breaks (a player id holds none).

A column of integers is decoded in C (``memoryview.cast(...).tolist()``), so that a reader
pays per field it asks for (:func:`columns`) rather than per entry parsed in Python; columns
compress well (most changes, games and K used of a list repeat). The same bytes on SQLite and
PostgreSQL: SQLite does not compress, and PostgreSQL does not compress a value already deflated
(TOAST leaves it as it is). Sizes and read times against the text layout before it:
benchmarks/README.md, "Entries as changes, stage (a)".
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any, Literal

#: Entries a chunk holds (the last chunk of a list fewer).
CHUNK_SIZE = 200

#: The fields of a packed entry, in order (the columns of list_entries but list_id).
ENTRY = (
    "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating",
)  # fmt: skip

#: The format version written first in every packed value.
FORMAT = 1
_HEADER = struct.Struct("<BI")
_LEVEL = 6
#: The int32 fields, in their order in the packed value (sum_delta, int64, follows them).
_INT32 = ("rating", "previous_rating", "change", "games", "k_factor", "k_used", "rated_games",
          "peak_rating")  # fmt: skip
#: The fields that may be None.
OPTIONAL = frozenset({"previous_rating", "change", "k_used", "sum_delta"})
#: None in an int32 and in the int64 column: the smallest value of each.
NULL32 = -(2**31)
NULL64 = -(2**63)
#: Ten-thousandths in a unit: sum_delta's scale (Numeric(10, 4)).
SCALE = 4
_QUANTUM = Decimal(1).scaleb(-SCALE)
_SEPARATOR = "\n"

if array("i").itemsize != 4 or array("q").itemsize != 8:  # pragma: no cover - no such platform
    raise ImportError("ratingdb.db.chunks needs 4-byte int and 8-byte long long arrays")
_SWAP = sys.byteorder != "little"


def _int32_column(name: str, values: Sequence[Any]) -> bytes:
    optional = name in OPTIONAL
    column = _int32_fast(values, optional)
    if column is None:
        column = _int32_checked(name, values, optional)
    if _SWAP:  # pragma: no cover - big-endian hosts only
        column.byteswap()
    return column.tobytes()


def _int32_fast(values: Sequence[Any], optional: bool) -> array[int] | None:
    """The column made in C, when every value is an int (or None where ``optional``) and none
    is NULL32; None otherwise (the values are then checked one by one, with what is wrong)."""
    if NULL32 in values:
        return None
    try:
        if optional:
            return array("i", [NULL32 if value is None else value for value in values])
        return array("i", values)
    except (TypeError, OverflowError):
        return None


def _int32_checked(name: str, values: Sequence[Any], optional: bool) -> array[int]:
    column = array("i")
    for value in values:
        if value is None:
            if not optional:
                raise ValueError(f"list entry field {name} is None")
            column.append(NULL32)
            continue
        number = int(value)
        if not NULL32 < number < 2**31:
            raise ValueError(f"list entry field {name} out of the int32 range: {number}")
        column.append(number)
    return column


def _sum_delta_column(values: Sequence[Any]) -> bytes:
    column = array("q")
    append = column.append
    for value in values:
        if value is None:
            append(NULL64)
            continue
        number = None
        if type(value) is Decimal:
            # A value of at most four decimals (as Numeric(10, 4) holds) needs no quantize.
            scaled = value.scaleb(SCALE)
            number = int(scaled)
            if number != scaled:
                number = None
        if number is None:
            number = int(Decimal(value).quantize(_QUANTUM).scaleb(SCALE))
        if not NULL64 < number < 2**63:
            raise ValueError(f"list entry field sum_delta out of the int64 range: {value}")
        append(number)
    if _SWAP:  # pragma: no cover - big-endian hosts only
        column.byteswap()
    return column.tobytes()


def _player_ids(values: Sequence[Any]) -> bytes:
    try:
        joined = _SEPARATOR.join(values)  # in C, when every id is a string
    except TypeError:
        joined = None
    if joined is None or joined.count(_SEPARATOR) != max(0, len(values) - 1):
        texts: list[str] = []
        for value in values:
            if value is None:
                raise ValueError("list entry field player_id is None")
            text = str(value)
            if _SEPARATOR in text:
                raise ValueError(f"player id {text!r} holds a line break")
            texts.append(text)
        joined = _SEPARATOR.join(texts)
    return joined.encode("utf-8")


def pack(entries: Iterable[Sequence[Any]]) -> bytes:
    """Entries (tuples in the order of ENTRY) as the packed column."""
    rows = list(entries)
    if any(len(row) != len(ENTRY) for row in rows):
        bad = next(row for row in rows if len(row) != len(ENTRY))
        raise ValueError(f"list entry not of the {len(ENTRY)} fields: {bad!r}")
    return pack_columns(list(zip(*rows, strict=True)) if rows else [() for _ in ENTRY])


def pack_columns(fields: Sequence[Sequence[Any]]) -> bytes:
    """The packed column of entries given as their columns (one sequence per field of ENTRY,
    in that order, all of one length): what :func:`pack` packs, without the tuples."""
    if len(fields) != len(ENTRY):
        raise ValueError(f"list entries not of the {len(ENTRY)} fields: {len(fields)} columns")
    by_name = dict(zip(ENTRY, fields, strict=True))
    size = len(fields[0])
    if any(len(column) != size for column in fields):
        raise ValueError("list entry columns of different lengths")
    parts = [_HEADER.pack(FORMAT, size)]
    if size:
        parts.extend(_int32_column(name, by_name[name]) for name in _INT32)
        parts.append(_sum_delta_column(by_name["sum_delta"]))
        parts.append(_player_ids(by_name["player_id"]))
    return zlib.compress(b"".join(parts), _LEVEL)


class Packed:
    """A packed value opened: its columns decoded one at a time, on demand."""

    __slots__ = ("_data", "size")

    def __init__(self, packed: bytes) -> None:
        data = zlib.decompress(packed)
        version, size = _HEADER.unpack_from(data)
        if version != FORMAT:
            raise ValueError(f"packed list entries of format {version}, not {FORMAT}")
        if len(data) < _HEADER.size + 40 * size + max(0, size - 1):
            raise ValueError(f"packed list entries cut short: {len(data)} bytes for {size}")
        self._data = memoryview(data)
        self.size: int = size

    def column(self, name: str) -> list[Any]:
        """The values of field ``name`` (of ENTRY) of every entry, in order."""
        size, start = self.size, _HEADER.size
        if name == "player_id":
            if size == 0:
                return []
            ids = str(self._data[start + 40 * size :], "utf-8").split(_SEPARATOR)
            if len(ids) != size:
                raise ValueError(f"packed list entries: {len(ids)} player ids for {size}")
            return ids
        if name == "sum_delta":
            offset = start + 32 * size
            values = _decoded(self._data[offset : offset + 8 * size], "q")
            return [None if v == NULL64 else Decimal(v).scaleb(-SCALE) for v in values]
        offset = start + 4 * size * _INT32.index(name)
        values = _decoded(self._data[offset : offset + 4 * size], "i")
        if name in OPTIONAL:
            return list(map(_NONE.get, values, values))
        return values


_NONE: dict[int, None] = {NULL32: None}


def _decoded(view: memoryview, code: Literal["i", "q"]) -> list[int]:
    if _SWAP:  # pragma: no cover - big-endian hosts only
        swapped = array(code, view.tobytes())
        swapped.byteswap()
        return swapped.tolist()
    values: list[int] = view.cast(code).tolist()
    return values


def columns(packed: bytes, fields: Sequence[str]) -> list[list[Any]]:
    """The columns ``fields`` (names of ENTRY) of the packed entries, each a list in order."""
    opened = Packed(packed)
    return [opened.column(name) for name in fields]


def unpack(packed: bytes) -> list[tuple[Any, ...]]:
    """The entries of a packed column, in its order (tuples in the order of ENTRY)."""
    return list(zip(*columns(packed, ENTRY), strict=True))


def list_order(entry: Sequence[Any]) -> tuple[int, str]:
    """The sort key of list order: rating descending, then player_id (code point order, as
    the C collation and Python sort)."""
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
