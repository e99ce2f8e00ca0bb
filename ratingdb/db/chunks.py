"""The packed column of ``list_chunks``: up to CHUNK_SIZE entries of a list, in list order, every
field of each, as one compressed value.

Format: the entries as text, one line each, fields separated by tabs in the order of ENTRY
(None an empty field, ``sum_delta`` with its four decimals), deflated (zlib, level 6). The same
bytes on SQLite and PostgreSQL: SQLite does not compress, and PostgreSQL does not compress a
value already deflated (TOAST leaves it as it is). Text rather than fixed-width binary because a
player id is a string of any length and ratings need no bounds; deflated it is about as small
(measured in benchmarks/README.md).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

#: Entries a chunk holds (the last chunk of a list fewer).
CHUNK_SIZE = 200

#: The fields of a packed entry, in order (the columns of list_entries but list_id).
ENTRY = (
    "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating",
)  # fmt: skip

_QUANTUM = Decimal("0.0001")
#: The fields that may be None: previous_rating, change, k_used, sum_delta.
_OPTIONAL = frozenset({2, 3, 6, 7})
_REQUIRED = tuple(i for i in range(len(ENTRY)) if i not in _OPTIONAL)
_LEVEL = 6


def _field(index: int, value: Any) -> str:
    if value is None:
        if index in _OPTIONAL:
            return ""
        raise ValueError(f"list entry field {ENTRY[index]} is None")
    if index == 0:
        text = str(value)
        if "\t" in text or "\n" in text:
            raise ValueError(f"player id {text!r} holds a tab or a line break")
        return text
    if index == 7:
        return str(Decimal(value).quantize(_QUANTUM))
    return str(int(value))


def pack(entries: Iterable[Sequence[Any]]) -> bytes:
    """Entries (tuples in the order of ENTRY) as the packed column."""
    text = "\n".join("\t".join(_field(i, v) for i, v in enumerate(entry)) for entry in entries)
    return zlib.compress(text.encode("utf-8"), _LEVEL)


def lines(packed: bytes) -> list[str]:
    """The packed entries as text lines, not yet parsed (a page parses only its own)."""
    text = zlib.decompress(packed).decode("utf-8")
    return text.split("\n") if text else []


def parse(line: str) -> tuple[Any, ...]:
    """One line of :func:`lines` as an entry (a tuple in the order of ENTRY)."""
    fields = line.split("\t")
    if len(fields) != len(ENTRY) or not all(fields[i] for i in _REQUIRED):
        raise ValueError(f"packed list entry not of the {len(ENTRY)} fields: {line!r}")
    player_id, rating, previous, change, games, k, k_used, delta, rated, peak = fields
    return (
        player_id,
        int(rating),
        int(previous) if previous else None,
        int(change) if change else None,
        int(games),
        int(k),
        int(k_used) if k_used else None,
        Decimal(delta) if delta else None,
        int(rated),
        int(peak),
    )


def unpack(packed: bytes) -> Iterator[tuple[Any, ...]]:
    """The entries of a packed column, in its order (tuples in the order of ENTRY)."""
    for line in lines(packed):
        yield parse(line)


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
