"""FIDE's TXT lists read (``standard_rating_list.txt``, ``rapid_…``, ``blitz_…``, the combined
``players_list_foa.txt``): the columns are found from the header line, each running from its
title to the next title, so any column order and width is read."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ratingdb.errors import InputError
from ratingdb.formats.fide_list.rows import (
    TXT_PREFIX,
    FideListRow,
    birth_year_of,
    count_of,
    federation_code,
    rating_of,
    sex_of,
    title_of,
)
from ratingdb.formats.numbers import is_digits
from ratingdb.formats.text import (
    MAX_LINE_BYTES,
    MAX_NAME_CHARS,
    check_text,
    control_at,
    control_message,
    decode,
    line_too_long,
    refuse_wide_encoding,
)
from ratingdb.rules import Category

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
        line = decode(raw)[0].rstrip("\r\n")
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
        federation=federation_code(cell("federation")),
        sex=sex_of(cell("sex"), cell("flag")),
        title=title_of(cell("title"), cell("w_title")),
        birth_year=birth_year_of(cell("birth"), lambda m: error("birth", m)),
        rating=rating_of(cell("rating"), lambda m: error("rating", m)),
        games=count_of(cell("games"), lambda m: error("games", m)),
        k_factor=count_of(cell("k"), lambda m: error("k", m)) or None,
        flag=cell("flag") or None,
    )
