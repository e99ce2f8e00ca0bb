"""FIDE lists written back: the fixed-width TXT and the XML downloads (combined, and single
category), one player at a time. A value the format cannot hold, or that its reader would
give back otherwise, is refused (InputError naming the player and the column or element), so
that a file written by ratingdb reads back to exactly what was written; the one exception is
a TXT name longer than its column, cut as FIDE cuts it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Protocol
from xml.sax.saxutils import escape

from ratingdb.errors import InputError
from ratingdb.formats.cells import WrittenPlayer, cannot_write, checked_text
from ratingdb.formats.fide_list.rows import (
    MAX_RATING,
    MIN_RATING,
    TITLES,
    TXT_PREFIX,
    fide_flag,
)
from ratingdb.formats.text import MAX_BIRTH_YEAR, MAX_NAME_CHARS, MIN_DATE
from ratingdb.rules import Category


class FideEntry(WrittenPlayer, Protocol):
    """What FIDE's layout, TXT or single-category XML, writes of one player: a published
    list's entries as they are (``services.published.ListEntry``), or ``FideTxtEntry``."""

    @property
    def rating(self) -> int | None: ...  # None: unrated (blank in TXT, 0 in XML)
    @property
    def games(self) -> int | None: ...
    @property
    def k_factor(self) -> int | None: ...
    @property
    def active(self) -> bool: ...  # written in the Flag column (i, wi), as FIDE does


@dataclass(frozen=True, slots=True)
class FideTxtEntry:
    """One player of a list written in FIDE's layout where there is no published list (the
    sample data's FIDE downloads, with their unrated players)."""

    player_id: str
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    rating: int | None  # None: unrated (blank in TXT, 0 in XML)
    games: int | None
    k_factor: int | None
    birth_year: int | None
    active: bool = True


#: The single-list layout of FIDE's TXT files (B §12.1), 0-based start and width. Each cell
#: keeps a blank before the next column.
_LAYOUT = (
    ("ID Number", 0, 15),
    ("Name", 15, 61),
    ("Fed", 76, 4),
    ("Sex", 80, 4),
    ("Tit", 84, 5),
    ("WTit", 89, 5),
    ("OTit", 94, 15),
    ("FOA", 109, 4),
    ("{p}Rtng", 113, 6),
    ("{p}Gm", 119, 4),
    ("{p}K", 123, 3),
    ("B-day", 126, 6),
    ("Flag", 132, 4),
)
#: The longest name the TXT Name column holds (61 wide, less the blank before Fed): a longer
#: name is cut there, as FIDE's own files cut it.
TXT_NAME_WIDTH = 60
#: What the other TXT columns hold; a value that does not fit is refused, never cut.
TXT_ID_DIGITS = 14
TXT_MAX_GAMES = 999
TXT_MAX_K = 99
#: The readers' own limits (numbers.MAX_DIGITS), for XML, whose elements hold any length.
_XML_ID_DIGITS = 18
_XML_MAX_GAMES = 10**18 - 1
_BIRTH_YEARS = (MIN_DATE.year, MAX_BIRTH_YEAR)


@dataclass(frozen=True, slots=True)
class _Fields:
    """The names of the fields in a format, for the refusals, and the limits of its columns."""

    id: str
    name: str
    federation: str
    sex: str
    title: str
    rating: str
    games: str
    k: str
    birth: str
    id_digits: int
    max_games: int
    max_k: int
    #: None: a longer name is cut (TXT).
    max_name: int | None


def _txt_fields(prefix: str) -> _Fields:
    return _Fields("ID Number", "Name", "Fed", "Sex", "Tit", f"{prefix}Rtng", f"{prefix}Gm",
                   f"{prefix}K", "B-day", TXT_ID_DIGITS, TXT_MAX_GAMES, TXT_MAX_K,
                   None)  # fmt: skip


_XML_FIELDS = _Fields("fideid", "name", "country", "sex", "title", "rating", "games", "k",
                      "birthday", _XML_ID_DIGITS, _XML_MAX_GAMES, TXT_MAX_K,
                      MAX_NAME_CHARS)  # fmt: skip


def _check_entry(e: FideEntry, fields: _Fields) -> None:
    """Refuse a value the format cannot hold, or that its reader would give back otherwise
    (the readers above: an id loses its leading zeros, a title FIDE does not have is dropped,
    a rating outside 1000-4000 is refused, ...): a FIDE file written by ratingdb reads back to
    exactly what was written, the name cut at TXT_NAME_WIDTH in TXT aside."""

    def refuse(field: str, message: str) -> InputError:
        return cannot_write(e.player_id, e.name, field, message)

    if not re.fullmatch(r"0|[1-9][0-9]*", e.player_id):
        raise refuse(fields.id, f"{e.player_id!r} is not a FIDE id (digits, no leading zero)")
    if len(e.player_id) > fields.id_digits:
        raise refuse(fields.id, f"has {len(e.player_id)} digits; the column holds "
                     f"{fields.id_digits}")  # fmt: skip
    checked_text(e.name, e.player_id, e.name, fields.name, max_length=fields.max_name)
    if not e.name or e.name != e.name.strip():
        raise refuse(fields.name, "is empty or starts or ends with a space")
    if e.federation is not None and not re.fullmatch(r"[A-Z]{3}", e.federation):
        raise refuse(fields.federation, f"{e.federation!r} is not a 3-letter federation code")
    if e.sex not in (None, "M", "F"):
        raise refuse(fields.sex, f"{e.sex!r} is not M or F")
    if e.title is not None and e.title not in TITLES:
        raise refuse(fields.title, f"{e.title!r} is not a FIDE title "
                     f"({', '.join(sorted(TITLES))})")  # fmt: skip
    if e.rating is None and (e.games is not None or e.k_factor is not None):
        raise refuse(fields.rating, "is blank (unrated) but games or K are given: an unrated "
                     "player has neither in a FIDE list")  # fmt: skip
    for field, value, low, high in (
        (fields.rating, e.rating, MIN_RATING, MAX_RATING),
        (fields.games, e.games, 0, fields.max_games),
        (fields.k, e.k_factor, 1, fields.max_k),
        (fields.birth, e.birth_year, *_BIRTH_YEARS),
    ):
        if value is not None and not low <= value <= high:
            raise refuse(field, f"{value} is not from {low} to {high}")


def write_fide_txt(entries: Iterable[FideEntry], category: Category, out: IO[str]) -> None:
    """A list in FIDE's fixed-width TXT layout (the standard, rapid or blitz file; the FFE
    rapid list with plain ``Rtng``/``Gm``/``K`` titles), one line per player written as it
    comes. A name longer than TXT_NAME_WIDTH is cut there, as FIDE does; any other value that
    does not fit its column is refused (InputError naming the player and the column), so no
    value ever runs into the next column or onto another line."""
    prefix = TXT_PREFIX.get(category, "")
    fields = _txt_fields(prefix)
    titles = [title.format(p=prefix) for title, _, _ in _LAYOUT]
    out.write(_row(titles) + "\n")
    for e in entries:
        _check_entry(e, fields)
        title = e.title or ""
        cells = [
            e.player_id,
            e.name[:TXT_NAME_WIDTH].rstrip(),
            e.federation or "",
            e.sex or "",
            "" if title.startswith("W") else title,
            title if title.startswith("W") else "",
            "",
            "",
            "" if e.rating is None else str(e.rating),
            "" if e.games is None else str(e.games),
            "" if e.k_factor is None else str(e.k_factor),
            "" if e.birth_year is None else str(e.birth_year),
            fide_flag(e.sex, e.active),
        ]
        out.write(_row(cells) + "\n")


def _row(cells: list[str]) -> str:
    """Each cell in its column, with a blank before the next; the last runs on."""
    parts: list[str] = []
    last = len(_LAYOUT) - 1
    for index, ((_, start, width), cell) in enumerate(zip(_LAYOUT, cells, strict=True)):
        if sum(len(p) for p in parts) != start:
            raise AssertionError("the layout's columns do not follow each other")
        if index != last and len(cell) >= width:
            raise AssertionError(f"{cell!r} was not checked to fit its column")
        parts.append(cell if index == last else cell.ljust(width))
    return "".join(parts).rstrip()


def write_fide_xml_list(entries: Iterable[FideEntry], out: IO[str]) -> None:
    """A list as FIDE's single-category XML download (B §12.2: ``rating``, ``games``, ``k``),
    one player written as it comes; a value the reader would give back otherwise is refused
    (InputError naming the player and the element)."""

    def players() -> Iterator[FideXmlPlayer]:
        for e in entries:
            _check_entry(e, _XML_FIELDS)
            yield FideXmlPlayer(
                e.player_id, e.name, e.federation, e.sex, e.title, e.birth_year,
                standard=(e.rating, e.games, e.k_factor), flag=fide_flag(e.sex, e.active),
            )  # fmt: skip

    write_fide_xml(players(), out, combined=False)


# --- writing XML -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FideXmlPlayer:
    """A player as FIDE's XML download has it: per category (rating, games of the month, K);
    a rating or K of None is written as 0 (unrated), games of None as an empty element."""

    fide_id: str
    name: str
    federation: str | None = None
    sex: str | None = None
    title: str | None = None
    birth_year: int | None = None
    standard: tuple[int | None, int | None, int | None] = (None, 0, None)
    rapid: tuple[int | None, int | None, int | None] = (None, 0, None)
    blitz: tuple[int | None, int | None, int | None] = (None, 0, None)
    flag: str | None = None


def write_fide_xml(
    players: Iterable[FideXmlPlayer], out: IO[str], *, combined: bool = True
) -> None:
    """A ``<playerslist>`` as FIDE's combined download (``combined``) or a single-category one
    (the ``standard`` values under ``rating``, ``games``, ``k``), written one player at a time."""
    out.write('<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n')
    for p in players:
        title = p.title or ""
        tags: list[tuple[str, object]] = [
            ("fideid", p.fide_id),
            ("name", p.name),
            ("country", p.federation or ""),
            ("sex", p.sex or ""),
            ("title", "" if title.startswith("W") else title),
            ("w_title", title if title.startswith("W") else ""),
            ("o_title", ""),
            ("foa_title", ""),
        ]
        groups = (("", p.standard), ("rapid_", p.rapid), ("blitz_", p.blitz))
        for prefix, (rating, games, k) in groups if combined else groups[:1]:
            tags += [(f"{prefix}rating", rating or 0),
                     (f"{prefix}games", "" if games is None else games),
                     (f"{prefix}k", k or 0)]  # fmt: skip
        tags += [("birthday", p.birth_year or ""), ("flag", p.flag or "")]
        cells = "".join(
            f"<{tag}>{escape(str(value))}</{tag}>" if value != "" else f"<{tag}/>"
            for tag, value in tags
        )
        out.write(f"<player>{cells}</player>\n")
    out.write("</playerslist>\n")
