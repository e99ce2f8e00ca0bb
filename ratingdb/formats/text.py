"""What every reader lets in: the limits and refusals all input files share.

- a physical line is at most ``MAX_LINE_BYTES``; longer ones are refused while the file is read
  in chunks, before such a line is held in memory;
- a file in UTF-16 or UTF-32 (a byte order mark, or NUL bytes between the letters) is refused
  with what to do, instead of being read as mojibake;
- a text field holds no control character (C0, DEL, C1), no line or paragraph separator and no
  bidi override or isolate: such a character breaks a fixed-width line, hides text or reorders
  what a reader of a list sees; NUL is also refused by PostgreSQL;
- names, tournament names and cities are at most ``MAX_NAME_CHARS`` characters;
- a date is from ``MIN_DATE`` to ``MAX_DATE``: anything else is a typo (9999) and would
  overflow date arithmetic further on.

Nothing is stripped or replaced: a value is kept exactly as given, or refused.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import IO

from ratingdb.errors import InputError
from ratingdb.rules.messages import N_, Day, Message, Number, Param

#: The longest physical line of any input file, in bytes (64 KiB).
MAX_LINE_BYTES = 65_536
#: The longest name, tournament name or city, in characters.
MAX_NAME_CHARS = 200
MIN_DATE = date(1900, 1, 1)
MAX_DATE = date(2200, 12, 31)
#: The latest year of birth a file may give (the earliest is MIN_DATE's year).
MAX_BIRTH_YEAR = 2100
#: How much of a file is read at a time.
CHUNK_BYTES = 65_536

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_BUT_TAB = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMES = {
    "\x00": "NUL",
    "\t": "TAB",
    "\n": "LINE FEED",
    "\r": "CARRIAGE RETURN",
    "\x1b": "ESCAPE",
    "\x7f": "DELETE",
    "\x85": "NEXT LINE",
    "\u2028": "LINE SEPARATOR",
    "\u2029": "PARAGRAPH SEPARATOR",
    "\u202a": "LEFT-TO-RIGHT EMBEDDING",
    "\u202b": "RIGHT-TO-LEFT EMBEDDING",
    "\u202c": "POP DIRECTIONAL FORMATTING",
    "\u202d": "LEFT-TO-RIGHT OVERRIDE",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE",
    "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2067": "RIGHT-TO-LEFT ISOLATE",
    "\u2068": "FIRST STRONG ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE",
}
_BREAK = re.compile(rb"\r\n|\r|\n")
#: Byte order marks, UTF-32 first (its little-endian mark starts with UTF-16's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)

#: Builds the error for a message about one value (it knows the file, line and field).
Fail = Callable[[str | Message], InputError]


def control_at(value: str, *, allow_tab: bool = False) -> int | None:
    """The index of the first character a text field may not hold, None if there is none
    (``allow_tab``: for a whole line of a format that may put tabs between its fields)."""
    found = (_CONTROL_BUT_TAB if allow_tab else _CONTROL).search(value)
    return None if found is None else found.start()


def describe(char: str) -> str:
    """``U+0000 (NUL)``: how a message names a character that cannot be shown."""
    name = _NAMES.get(char)
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def control_message(value: str, index: int) -> Message:
    return Message(
        N_(
            "holds the control character %(character)s at character %(position)s: control "
            "characters, line breaks and bidi overrides are not allowed in a text field"
        ),
        {"character": describe(value[index]), "position": index + 1},
    )


def check_text(value: str, fail: Fail, *, limit: int | None = None) -> str:
    """``value`` unchanged, or refused: a control character, or more than ``limit``
    characters (names, tournament names and cities: MAX_NAME_CHARS)."""
    index = control_at(value)
    if index is not None:
        raise fail(control_message(value, index))
    if limit is not None and len(value) > limit:
        raise fail(
            Message(
                N_("is %(length)s characters long; at most %(most)s are allowed"),
                {"length": Number(len(value), ","), "most": limit},
            )
        )
    return value


def check_date(value: date, fail: Fail) -> date:
    """``value``, or refused when outside MIN_DATE to MAX_DATE."""
    if not MIN_DATE <= value <= MAX_DATE:
        raise fail(
            Message(
                N_("%(day)s is outside %(first)s to %(last)s"),
                {"day": Day(value), "first": Day(MIN_DATE), "last": Day(MAX_DATE)},
            )
        )
    return value


def before_start(end: date, start: date) -> Message:
    """``2026-11-01 is before the start date 2026-11-08``: an end date refused."""
    return Message(
        N_("%(end)s is before the start date %(start)s"), {"end": Day(end), "start": Day(start)}
    )


def refuse_wide_encoding(head: bytes, source: str, *, save_as: Param) -> None:
    """Refuse a file in UTF-16 or UTF-32 from its first bytes: a byte order mark, or NUL
    bytes between the letters (a quarter of the bytes or more, where a text file has none).
    ``save_as`` says what to save it as instead."""
    found = next((name for bom, name in _BOMS if head.startswith(bom)), None)
    sample = head[:4096]
    if found is None and len(sample) >= 4 and sample.count(0) * 4 >= len(sample):
        found = "UTF-32" if sample.count(b"\x00\x00\x00") * 16 >= len(sample) else "UTF-16"
    if found is not None:
        raise InputError(
            Message(
                N_(
                    "encoding not supported: the file is in %(encoding)s; save the file as "
                    "%(save_as)s"
                ),
                {"encoding": found, "save_as": save_as},
            ),
            source=source,
            line=1,
        )


def line_too_long(line: int, source: str) -> InputError:
    return InputError(
        Message(
            N_(
                "the line is longer than %(most)s bytes: no field of this file can be that long "
                "(is it the right file?)"
            ),
            {"most": Number(MAX_LINE_BYTES, ",")},
        ),
        source=source,
        line=line,
    )


def bounded_chunks(handle: IO[bytes], source: str, *, save_as: Param) -> Iterator[bytes]:
    """The bytes of ``handle`` in chunks of CHUNK_BYTES, each only once the lines it ends are
    known to be at most MAX_LINE_BYTES: a longer line is refused after reading at most
    MAX_LINE_BYTES + CHUNK_BYTES of it. Lines end in LF, CRLF or CR. The first chunk is
    checked for UTF-16 and UTF-32 (refuse_wide_encoding)."""
    line, length, after_cr, first = 1, 0, False, True
    while chunk := handle.read(CHUNK_BYTES):
        if first:
            refuse_wide_encoding(chunk, source, save_as=save_as)
            first = False
        position = 0
        for found in _BREAK.finditer(chunk):
            length += found.start() - position
            if length > MAX_LINE_BYTES:
                raise line_too_long(line, source)
            if not (after_cr and found.start() == 0 and found.group() == b"\n"):
                line += 1  # else the LF of a CRLF cut between two chunks: counted with its CR
            length, position = 0, found.end()
        length += len(chunk) - position
        if length > MAX_LINE_BYTES:
            raise line_too_long(line, source)
        after_cr = chunk.endswith(b"\r")
        yield chunk


def read_bounded(path: Path, source: str, *, save_as: Param) -> bytes:
    """The bytes of a file, read in chunks so that a line over MAX_LINE_BYTES is refused before
    it is held (bounded_chunks)."""
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError(Message(N_("no such file")), source=source) from None
    except IsADirectoryError:
        raise InputError(Message(N_("is a folder, not a file")), source=source) from None
    with handle:
        return b"".join(bounded_chunks(handle, source, save_as=save_as))


def decode(raw: bytes) -> tuple[str, str]:
    """The text and the encoding it was read with: UTF-8, else Latin-1 (which reads any bytes:
    what it gives is then checked like any text). A UTF-8 byte order mark is dropped either
    way: in front of Latin-1 text (an editor that added it to a file it did not convert) it
    would otherwise be read as the three letters ``ï»¿``."""
    raw = raw.removeprefix(codecs.BOM_UTF8)
    try:
        return raw.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "Latin-1"
