"""FIDE rating list downloads (rules.md B §12), read as streams so that the full list (about two
million players) never sits in memory, and the fixed-width TXT written back.

TXT (``standard_rating_list.txt``, ``rapid_…``, ``blitz_…``, the combined
``players_list_foa.txt``): the columns are found from the header line, each running from its
title to the next title, so any column order and width is read. XML (``<playerslist>`` of
``<player>`` elements): fed in chunks to ``xml.etree.ElementTree.XMLPullParser``, every element
let go once read, so memory stays flat whatever the file holds; a DOCTYPE (hence any entity
declaration) is refused. FIDE does not document either layout; these follow the public parsers
cited in B §12.

Both refuse lines over 64 KiB before holding them, control characters in any value (XML: in
every text and attribute of a player), names over 200 characters and years of birth before 1900
(text.py).

Both are written back (TXT, and single-category XML) so that the reader gives back exactly
what was written; the one exception is a TXT name longer than its column, cut as FIDE cuts it.

Each row gives one category's rating, the games rated in the month and the K of the list.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO
from xml.sax.saxutils import escape

from ratingdb.errors import InputError
from ratingdb.formats.cells import cannot_write, checked_text
from ratingdb.formats.numbers import is_digits
from ratingdb.formats.text import (
    MAX_BIRTH_YEAR,
    MAX_LINE_BYTES,
    MAX_NAME_CHARS,
    MIN_DATE,
    bounded_chunks,
    check_text,
    control_at,
    control_message,
    line_too_long,
    refuse_wide_encoding,
)
from ratingdb.rules import Category

MAX_RATING = 4000
#: A FIDE rating is never below this (the lowest floor ever); 0 or blank means unrated.
MIN_RATING = 1000

#: The prefix of a category's columns in the TXT header (SRtng, RGm, BK) and its XML tags.
TXT_PREFIX = {
    Category.FIDE_STANDARD: "S",
    Category.FIDE_RAPID: "R",
    Category.FIDE_BLITZ: "B",
}
XML_TAGS = {
    Category.FIDE_STANDARD: ("rating", "games", "k"),
    Category.FIDE_RAPID: ("rapid_rating", "rapid_games", "rapid_k"),
    Category.FIDE_BLITZ: ("blitz_rating", "blitz_games", "blitz_k"),
}
TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"})

# Header titles, upper case, of the columns every category shares.
_COMMON = {
    "ID NUMBER": "id", "ID_NUMBER": "id", "ID": "id", "FIDEID": "id", "NAME": "name",
    "FED": "federation", "COUNTRY": "federation", "SEX": "sex", "TIT": "title",
    "TITL": "title", "TITLE": "title", "WTIT": "w_title", "WTITL": "w_title",
    "B-DAY": "birth", "BDAY": "birth", "BORN": "birth", "BIRTHDAY": "birth", "FLAG": "flag",
}  # fmt: skip
_GENERIC = {"RTNG": "rating", "RATING": "rating", "GM": "games", "GMS": "games", "K": "k"}
_GENERIC |= {"GAMES": "games"}
_MONTH = re.compile(r"[A-Z]{3}\d{2}")  # old headers name the rating column after the month

#: Builds the error for a message about one value (it knows the file, line and field).
_Fail = Callable[[str], InputError]


@dataclass(frozen=True, slots=True)
class FideListRow:
    """One player of a FIDE list, in one category. ``rating`` None = unrated there.

    ``line`` is the line of a TXT row; an XML row has ``player``, its place in the file
    (``xml_line_of`` finds its line when an error needs it).
    """

    line: int | None
    fide_id: str
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    birth_year: int | None
    rating: int | None
    games: int | None
    k_factor: int | None
    flag: str | None
    player: int | None = None

    def where(self, path: Path) -> tuple[int | None, str]:
        """The row's line, and how to name it in a message."""
        if self.player is None:
            return self.line, ""
        return xml_line_of(path, self.player, "fideid"), f"player #{self.player}: "


# --- TXT ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Column:
    field: str
    title: str
    start: int  # 0-based
    end: int | None  # exclusive; None: to the end of the line


def _header_columns(
    header: str, category: Category, source: str, line: int = 1
) -> dict[str, _Column]:
    tokens = [(m.start(), m.group()) for m in re.finditer(r"ID[ _]Number|\S+", header, re.I)]
    prefix = TXT_PREFIX.get(category)
    found: dict[str, _Column] = {}
    generic: dict[str, _Column] = {}
    other_ratings: list[str] = []
    for index, (start, title) in enumerate(tokens):
        end = tokens[index + 1][0] if index + 1 < len(tokens) else None
        key = title.upper()
        if key in _COMMON:
            found.setdefault(_COMMON[key], _Column(_COMMON[key], title, start, end))
        elif key in _GENERIC or _MONTH.fullmatch(key):
            name = _GENERIC.get(key, "rating")
            generic.setdefault(name, _Column(name, title, start, end))
        elif len(key) > 1 and key[1:] in _GENERIC and key[0] in "SRB":
            name = _GENERIC[key[1:]]
            if prefix is not None and key[0] == prefix:
                found.setdefault(name, _Column(name, title, start, end))
            elif name == "rating":
                other_ratings.append(title)
    for name, column in generic.items():
        found.setdefault(name, column)
    for needed in ("id", "name", "rating"):
        if needed not in found:
            if needed == "rating" and other_ratings:
                message = (
                    f"no {category.value} rating column: the file has {', '.join(other_ratings)}"
                )
            else:
                message = f"no {needed} column in the header line"
            raise InputError(message, source=source, line=line, field=needed)
    return found


def iter_fide_txt(
    path: Path, category: Category, *, source: str | None = None
) -> Iterator[FideListRow]:
    """The players of a FIDE TXT list, one at a time."""
    name = source or str(path)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    with handle:
        yield from read_fide_txt(handle, category, source=name)


def read_fide_txt(handle: IO[bytes], category: Category, *, source: str) -> Iterator[FideListRow]:
    columns: dict[str, _Column] | None = None
    number = 0
    while raw := handle.readline(MAX_LINE_BYTES + 2):  # the line, its CR and LF
        number += 1
        if number == 1:
            refuse_wide_encoding(raw, source, save_as="UTF-8 (or Latin-1)")
        if len(raw.removesuffix(b"\n").removesuffix(b"\r")) > MAX_LINE_BYTES:
            raise line_too_long(number, source)
        line = _decode_line(raw).rstrip("\r\n")
        index = control_at(line)
        if index is not None:
            column = None if columns is None else _column_at(columns, index)
            raise InputError(
                control_message(line, index),
                source=source,
                line=number,
                column=index + 1,
                field=None if column is None else column.title,
            )
        if not line.strip():
            continue
        if columns is None:
            columns = _header_columns(line, category, source, number)
            continue
        yield _txt_row(line, number, columns, source)
    if columns is None:
        raise InputError("the file is empty (a header line is needed)", source=source, line=1)


def _column_at(columns: dict[str, _Column], index: int) -> _Column | None:
    for column in columns.values():
        if column.start <= index and (column.end is None or index < column.end):
            return column
    return None


def _decode_line(raw: bytes) -> str:
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _txt_row(line: str, number: int, columns: dict[str, _Column], source: str) -> FideListRow:
    def cell(field: str) -> str:
        column = columns.get(field)
        if column is None:
            return ""
        return line[column.start : column.end].strip(" ")

    def error(field: str, message: str) -> InputError:
        column = columns[field]
        end = column.end if column.end is not None else column.start + 5
        if column.start < len(line) < end and line[column.start :].strip():
            message += f"; the line ends at column {len(line)}, inside the column: truncated?"
        return InputError(
            message, source=source, line=number, column=column.start + 1, field=column.title
        )

    fide_id = cell("id")
    if not is_digits(fide_id):
        raise error("id", f"must be a FIDE id (digits), got {fide_id!r}")
    name = cell("name")
    if not name:
        if len(line) <= columns["name"].start:
            raise error("name", "the line ends before the name: truncated?")
        raise error("name", "is empty")
    check_text(name, lambda m: error("name", m), limit=MAX_NAME_CHARS)
    return FideListRow(
        line=number,
        fide_id=fide_id.lstrip("0") or "0",
        name=name,
        federation=_federation(cell("federation")),
        sex=_sex(cell("sex"), cell("flag")),
        title=_title(cell("title"), cell("w_title")),
        birth_year=_birth_year(cell("birth"), lambda m: error("birth", m)),
        rating=_rating(cell("rating"), lambda m: error("rating", m)),
        games=_count(cell("games"), lambda m: error("games", m)),
        k_factor=_count(cell("k"), lambda m: error("k", m)) or None,
        flag=cell("flag") or None,
    )


# --- values shared by TXT and XML ---------------------------------------------------------------


def _federation(text: str) -> str | None:
    return text.upper() if re.fullmatch(r"[A-Za-z]{3}", text) else None


def _sex(text: str, flag: str) -> str | None:
    value = text.upper()
    if value in ("M", "F"):
        return value
    return "F" if "W" in flag.upper() else None


def _title(title: str, w_title: str) -> str | None:
    for value in (title.upper(), w_title.upper()):
        if value in TITLES:
            return value
    return None


def _birth_year(text: str, error: _Fail) -> int | None:
    if not text or not text.strip("0"):
        return None
    if not re.fullmatch(r"\d{4}", text):
        raise error(f"must be a year of birth (4 digits), got {text!r}")
    year = int(text)
    if not MIN_DATE.year <= year <= MAX_BIRTH_YEAR:
        raise error(f"must be a year from {MIN_DATE.year} to {MAX_BIRTH_YEAR}, got {year}")
    return year


def _rating(text: str, error: _Fail) -> int | None:
    if not text:
        return None
    if not is_digits(text):
        raise error(f"must be a rating (a number), got {text!r}")
    rating = int(text)
    if rating == 0:
        return None
    if not MIN_RATING <= rating <= MAX_RATING:
        raise error(
            f"must be from {MIN_RATING} to {MAX_RATING} (0 or blank: unrated), got {rating}"
        )
    return rating


def _count(text: str, error: _Fail) -> int | None:
    if not text:
        return None
    if not is_digits(text):
        raise error(f"must be a whole number, got {text!r}")
    return int(text)


# --- XML ---------------------------------------------------------------------------------------


def iter_fide_xml(
    path: Path, category: Category, *, source: str | None = None
) -> Iterator[FideListRow]:
    """The players of a FIDE XML list, one at a time: each ``<player>`` element is cleared once
    read, and the root lets go of it, so memory stays flat whatever the file's size."""
    name = source or str(path)
    if category not in XML_TAGS:
        raise InputError(f"a FIDE list has no {category.value} ratings", field="--category")
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    with handle:
        yield from _read_xml(handle, path, category, name)


#: Bytes of XML without an element ending: more is a value far too long (or not a list).
MAX_XML_PENDING = 1 << 20
#: Elements inside each other: a FIDE list has three levels.
MAX_XML_DEPTH = 16
_DOCTYPE = b"<!DOCTYPE"


def _read_xml(
    handle: IO[bytes], path: Path, category: Category, source: str
) -> Iterator[FideListRow]:
    """Feed the parser CHUNK_BYTES at a time (bounded_chunks: no line over 64 KiB), and let go
    of every element once it ends: a player's values are kept in a dict, everything else is
    dropped. Memory is bounded by MAX_XML_PENDING (bytes with no element ending, e.g. a value
    spread over many lines) and MAX_XML_DEPTH."""
    tags: tuple[str, str, str] | None = None
    parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
    stack: list[ET.Element] = []
    player: dict[str, str] | None = None
    index = 0
    lines = 1  # the line the parser has been fed up to
    pending = 0  # bytes fed since an element last ended
    prolog = b""  # the bytes before the root element, searched for a DOCTYPE
    root_seen = False
    try:
        for chunk in bounded_chunks(handle, source, save_as="UTF-8"):
            if not root_seen:
                prolog += chunk
                found = prolog.find(_DOCTYPE)
                if found >= 0:
                    raise InputError(
                        "a DOCTYPE is not allowed in a FIDE list (it may declare entities); "
                        "remove it",
                        source=source,
                        line=prolog.count(b"\n", 0, found) + 1,
                    )
                prolog = prolog[-len(_DOCTYPE) :]
            parser.feed(chunk)
            lines += chunk.count(b"\n")
            pending += len(chunk)
            for found_event in parser.read_events():
                event, element = found_event  # type: ignore[misc]  # start and end events only
                assert isinstance(element, ET.Element)
                if event == "start":
                    root_seen = True
                    stack.append(element)
                    if len(stack) > MAX_XML_DEPTH:
                        raise InputError(
                            f"elements nested more than {MAX_XML_DEPTH} deep", source=source,
                            line=lines,
                        )  # fmt: skip
                    if element.tag == "player" and player is None:
                        player, index = {}, index + 1
                    continue
                pending = 0
                stack.pop()
                if player is not None and element.tag != "player":
                    _keep(player, element, path, source, index)
                elif player is not None:
                    _check_attributes(element, path, source, index)
                    values, player = player, None
                    if tags is None:
                        # The combined file has rapid_* and blitz_* tags; a single-category
                        # file (B §12.2) has rating, games and k only.
                        tags = XML_TAGS[category]
                        if tags[0] not in values:
                            tags = XML_TAGS[Category.FIDE_STANDARD]
                    row = _xml_row(path, source, index, values, tags)
                    _let_go(stack, element)
                    yield row
                    continue
                _let_go(stack, element)
            if pending > MAX_XML_PENDING:
                raise InputError(
                    f"no element ends in {MAX_XML_PENDING:,} bytes: a value far too long",
                    source=source,
                    line=lines,
                )
        parser.close()
    except ET.ParseError as error:
        line, column = error.position
        raise InputError(
            f"not well-formed XML ({error})", source=source, line=line, column=column + 1
        ) from None
    if not root_seen:
        raise InputError("the file is empty", source=source, line=1)


def _let_go(stack: list[ET.Element], element: ET.Element) -> None:
    """Drop an element that has ended (and what it holds) from its parent."""
    element.clear()
    if stack:
        stack[-1].remove(element)


def _keep(player: dict[str, str], element: ET.Element, path: Path, source: str, index: int) -> None:
    """A value of the ``index``-th player, checked (text and attributes), kept by tag."""
    _check_attributes(element, path, source, index)
    text = element.text or ""
    position = control_at(text)
    if position is not None:
        raise _xml_error(path, source, index, element.tag, control_message(text, position))
    player[element.tag] = text.strip(" ")


def _check_attributes(element: ET.Element, path: Path, source: str, index: int) -> None:
    for name, value in element.attrib.items():
        position = control_at(value)
        if position is not None:
            message = f"attribute {name}: {control_message(value, position)}"
            raise _xml_error(path, source, index, element.tag, message)


def _xml_error(path: Path, source: str, index: int, tag: str, message: str) -> InputError:
    return InputError(
        f"player #{index}: {message}", source=source, line=xml_line_of(path, index, tag), field=tag
    )


def _xml_row(
    path: Path, source: str, index: int, values: dict[str, str], tags: tuple[str, str, str]
) -> FideListRow:
    def error(tag: str) -> _Fail:
        return lambda message: _xml_error(path, source, index, tag, message)

    fide_id = values.get("fideid", "")
    if not is_digits(fide_id):
        raise error("fideid")(f"must be a FIDE id (digits), got {fide_id!r}")
    name = values.get("name", "")
    if not name:
        raise error("name")("is empty")
    check_text(name, error("name"), limit=MAX_NAME_CHARS)
    rating_tag, games_tag, k_tag = tags
    flag = values.get("flag", "")
    return FideListRow(
        line=None,
        fide_id=fide_id.lstrip("0") or "0",
        name=name,
        federation=_federation(values.get("country", "")),
        sex=_sex(values.get("sex", ""), flag),
        title=_title(values.get("title", ""), values.get("w_title", "")),
        birth_year=_birth_year(values.get("birthday", ""), error("birthday")),
        rating=_rating(values.get(rating_tag, ""), error(rating_tag)),
        games=_count(values.get(games_tag, ""), error(games_tag)),
        k_factor=_count(values.get(k_tag, ""), error(k_tag)) or None,
        flag=flag or None,
        player=index,
    )


def xml_line_of(path: Path, index: int, tag: str) -> int | None:
    """The line of ``<tag>`` inside the ``index``-th ``<player>`` (1-based): found again by
    reading the file once more, only when there is an error to report."""
    seen = 0
    opening = re.compile(r"<player[\s>/]")
    wanted = re.compile(rf"<{re.escape(tag)}[\s>/]")
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            text = _decode_line(raw)
            position = 0
            if seen < index:
                for match in opening.finditer(text):
                    seen += 1
                    if seen == index:
                        position = match.end()
                        break
                else:
                    continue
            if wanted.search(text, position):
                return number
            if "</player>" in text[position:]:
                return None
    return None


# --- writing TXT and XML -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FideTxtEntry:
    """One player of a list written in FIDE's layout, TXT or single-category XML."""

    player_id: str
    name: str
    federation: str | None
    sex: str | None
    title: str | None
    rating: int | None  # None: unrated (blank in TXT, 0 in XML)
    games: int | None
    k_factor: int | None
    birth_year: int | None


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


def _check_entry(e: FideTxtEntry, fields: _Fields) -> None:
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


def write_fide_txt(entries: Iterable[FideTxtEntry], category: Category, out: IO[str]) -> None:
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
            "",
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


def write_fide_xml_list(entries: Iterable[FideTxtEntry], out: IO[str]) -> None:
    """A list as FIDE's single-category XML download (B §12.2: ``rating``, ``games``, ``k``),
    one player written as it comes; a value the reader would give back otherwise is refused
    (InputError naming the player and the element)."""

    def players() -> Iterator[FideXmlPlayer]:
        for e in entries:
            _check_entry(e, _XML_FIELDS)
            yield FideXmlPlayer(
                e.player_id, e.name, e.federation, e.sex, e.title, e.birth_year,
                standard=(e.rating, e.games, e.k_factor),
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
