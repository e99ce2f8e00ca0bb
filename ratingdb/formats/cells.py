"""What every writer does to a text value before it goes in a file, and what the readers undo.

- ``unwritable``: a character that would break a line, that XML 1.0 cannot hold, or that the
  readers refuse, is never written: control characters (C0, DEL, C1), U+2028/U+2029, the bidi
  embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), surrogates, U+FFFE and
  U+FFFF. A writer refuses them, so nothing stored before the readers refused them can come out
  as a file that reads back otherwise.
- ``spreadsheet_text`` / ``undo_spreadsheet_text``: CSV injection (OWASP). A spreadsheet runs a
  cell that starts with ``=``, ``+``, ``-``, ``@``, tab or CR as a formula; such a text cell is
  written with a single quote in front, which spreadsheets show as text. So that the reader
  can take exactly that quote away again, a cell that already starts with quotes followed by
  one of those characters (``'=x``) gets one more quote too (``''=x``): the writer adds one
  quote to every text matching ``'*[=+\\-@\\t\\r]…``, and the reader takes one away from every
  text matching ``'+[=+\\-@\\t\\r]…``. Anything else (``'t Hooft``) is written and read as is.
  Numbers (a rating, a negative change) are never escaped.
"""

from __future__ import annotations

import re
from typing import Protocol

from ratingdb.errors import InputError
from ratingdb.formats.text import control_at

_FORMULA = re.compile(r"'*[=+\-@\t\r]")
_ESCAPED = re.compile(r"'+[=+\-@\t\r]")
#: Beyond what the readers refuse (formats.text.control_at): surrogates and the two
#: non-characters, which XML 1.0 cannot hold.
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


class WrittenPlayer(Protocol):
    """Who a list's writers write an entry for (the list CSV's ``ListCsvEntry`` and the FIDE
    layout's ``FideEntry`` add the figures): the published read model of a list entry
    (``services.published.ListEntry``) as it is, or a format's own record."""

    @property
    def player_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def federation(self) -> str | None: ...
    @property
    def sex(self) -> str | None: ...
    @property
    def birth_year(self) -> int | None: ...
    @property
    def title(self) -> str | None: ...


def spreadsheet_text(text: str) -> str:
    """A CSV text cell that a spreadsheet shows as text, never runs as a formula."""
    return "'" + text if _FORMULA.match(text) else text


def undo_spreadsheet_text(text: str) -> str:
    """The text ``spreadsheet_text`` was given: one leading quote fewer on an escaped cell."""
    return text[1:] if _ESCAPED.match(text) else text


def unwritable(text: str) -> str | None:
    """The first character of ``text`` that no file of ratingdb may hold, or None."""
    index = control_at(text)
    if index is not None:
        return text[index]
    found = _NOT_XML.search(text)
    return None if found is None else found.group()


def cannot_write(player_id: str, name: str, field: str, message: str) -> InputError:
    """The refusal of a value a file cannot hold, naming the player and the field."""
    shown = name if len(name) <= 60 else name[:60] + "..."
    return InputError(f"player {player_id} ({shown!r}): {message}", field=field)


def checked_text(
    text: str, player_id: str, name: str, field: str, *, max_length: int | None = None
) -> str:
    """``text``, refused if it holds a character no file may hold or is over ``max_length``."""
    if max_length is not None and len(text) > max_length:
        raise cannot_write(
            player_id, name, field, f"has {len(text)} characters; at most {max_length} are read"
        )
    character = unwritable(text)
    if character is not None:
        raise cannot_write(
            player_id, name, field, f"holds the character U+{ord(character):04X}, never written"
        )
    return text
