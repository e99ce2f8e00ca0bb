"""The packed column of ``player_calculations``, format 1: one player's calculations on one
list, each game from the player's side, in the order they were rated.

**Frozen**: databases hold these bytes and migration 0020 writes them. A new format is a new
module. tests/db/test_calculation_format.py pins the bytes on a hand-worked example.

A calculation stores what was computed, not what its game says: the game's tournament and the
player's opponent are the game's (``games``), the rule version the list's. Format (version 1),
little-endian, not compressed (a player's month is a few dozen bytes):

- a header: the format version (one byte, 1) and the number of calculations n (uint16);
- n records of 17 bytes: ``game_id`` (int32); a flags byte (bit 0: rated; bits 1-2: the
  score in half points, 0, 1 or 2; bit 3: a reason follows); then six int16: ``rating_used``,
  ``opponent_rating_used``, ``difference``, ``difference_used``, ``expected`` and ``delta``
  (these two in ten-thousandths), None stored as -32768;
- after a record whose flag says so, its reason: a uint16 length and that many bytes of UTF-8.

Read, ``expected`` and ``delta`` are Decimals of four places, ``score`` a Decimal of one
(0.0, 0.5 or 1.0), as the columns of the table it replaced (``calculations``) gave them.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any, NamedTuple

VERSION = 1
#: None, in an int16 field.
NULL16 = -32768
SCALE = 4

_HEADER = struct.Struct("<BH")
_RECORD = struct.Struct("<iB6h")
_LENGTH = struct.Struct("<H")
_RATED = 1
_REASON = 8
_SCORES = {Decimal(0): 0, Decimal("0.5"): 1, Decimal(1): 2}
_SCORE_READ = (Decimal("0.0"), Decimal("0.5"), Decimal("1.0"))
#: The int16 fields of a record, in order.
_INT16 = (
    "rating_used", "opponent_rating_used", "difference", "difference_used", "expected", "delta"
)  # fmt: skip


class StoredCalculation(NamedTuple):
    """One game from the player's side, as computed for a list (what format 1 holds)."""

    game_id: int
    rating_used: int | None
    opponent_rating_used: int | None
    difference: int | None
    difference_used: int | None
    expected: Decimal | None
    score: Decimal
    delta: Decimal | None
    rated: bool
    reason: str | None


#: The fields of a stored calculation, in order.
FIELDS = StoredCalculation._fields


def pack(calculations: Iterable[Sequence[Any]]) -> bytes:
    """The bytes of a player's calculations (each a sequence of FIELDS' values, in order)."""
    parts: list[bytes] = []
    for calculation in calculations:
        parts.append(_record(calculation))
    if len(parts) > 0xFFFF:
        raise ValueError(f"{len(parts)} calculations for one player: format 1 holds 65,535")
    return _HEADER.pack(VERSION, len(parts)) + b"".join(parts)


def _record(calculation: Sequence[Any]) -> bytes:
    # A close packs a record for each game side (600,000 at 500,000 players): the checks that
    # name a field run only when the plain path fails.
    if len(calculation) != len(FIELDS):
        raise ValueError(f"a calculation has {len(FIELDS)} fields, not {len(calculation)}")
    game_id, rating_used, opponent, difference, used, expected, score, delta, rated, reason = (
        calculation
    )
    halves = _SCORES.get(score)
    if halves is None:
        raise ValueError(f"calculation field score is not 0, 0.5 or 1: {score}")
    if not rated and reason is None:
        raise ValueError(f"game {game_id}: a calculation not rated names why")
    flags = (_RATED if rated else 0) | halves << 1 | (0 if reason is None else _REASON)
    numbers = (
        NULL16 if rating_used is None else rating_used,
        NULL16 if opponent is None else opponent,
        NULL16 if difference is None else difference,
        NULL16 if used is None else used,
        NULL16 if expected is None else _scaled(expected, "expected"),
        NULL16 if delta is None else _scaled(delta, "delta"),
    )
    try:
        record = _RECORD.pack(game_id, flags, *numbers)
    except struct.error:
        record = b""
    if not record or NULL16 in numbers:  # out of range, or a None, or -32768 given
        _refuse_out_of_range(calculation, numbers, packed=bool(record))
    if reason is None:
        return record
    text = str(reason).encode("utf-8")
    if len(text) > 0xFFFF:
        raise ValueError(f"game {game_id}: a calculation's reason longer than 65,535 bytes")
    return record + _LENGTH.pack(len(text)) + text


def _refuse_out_of_range(
    calculation: Sequence[Any], numbers: Sequence[int], *, packed: bool
) -> None:
    """Name the first field out of its range (-32768 is None's); a record ``packed`` with
    every field in range (its -32768s all None) passes."""
    game_id = calculation[0]
    if not -(2**31) <= game_id < 2**31:
        raise ValueError(f"calculation field game_id out of the int32 range: {game_id}")
    given = (*calculation[1:5], calculation[5], calculation[7])
    for name, value, number in zip(_INT16, given, numbers, strict=True):
        if value is not None and not NULL16 < number < 2**15:
            raise ValueError(f"calculation field {name} out of the int16 range: {number}")
    if not packed:
        raise AssertionError(f"calculation of game {game_id} not packed: {calculation!r}")


#: Ten-thousandths of the Decimals already seen: PD and delta take a few hundred values.
_SCALED_SEEN: dict[Any, int] = {}


def _scaled(value: Decimal, name: str) -> int:
    """A Decimal of at most four places as ten-thousandths; more places are refused (the
    column it replaced rounded them away without a word)."""
    number = _SCALED_SEEN.get(value)
    if number is not None:
        return number
    scaled = Decimal(value).scaleb(SCALE)
    number = int(scaled)
    if number != scaled:
        raise ValueError(f"calculation field {name} has more than {SCALE} places: {value}")
    if len(_SCALED_SEEN) < 100_000:
        _SCALED_SEEN[value] = number
    return number


def unpack(data: bytes) -> list[StoredCalculation]:
    """The calculations packed in ``data``."""
    view = memoryview(data)
    if len(view) < _HEADER.size:
        raise ValueError("packed calculations shorter than their header")
    version, count = _HEADER.unpack_from(view, 0)
    if version != VERSION:
        raise ValueError(f"packed calculations of format {version}, not {VERSION}")
    offset = _HEADER.size
    found: list[StoredCalculation] = []
    append = found.append
    for _ in range(count):
        game_id, flags, rating_used, opponent, difference, used, expected, delta = (
            _RECORD.unpack_from(view, offset)
        )
        offset += _RECORD.size
        reason: str | None = None
        if flags & _REASON:
            (length,) = _LENGTH.unpack_from(view, offset)
            offset += _LENGTH.size
            reason = bytes(view[offset : offset + length]).decode("utf-8")
            offset += length
        append(
            StoredCalculation(
                game_id,
                None if rating_used == NULL16 else rating_used,
                None if opponent == NULL16 else opponent,
                None if difference == NULL16 else difference,
                None if used == NULL16 else used,
                None if expected == NULL16 else Decimal(expected).scaleb(-SCALE),
                _SCORE_READ[flags >> 1 & 3],
                None if delta == NULL16 else Decimal(delta).scaleb(-SCALE),
                bool(flags & _RATED),
                reason,
            )
        )
    if offset != len(view):
        raise ValueError(f"packed calculations: {len(view) - offset} bytes after the last")
    return found
