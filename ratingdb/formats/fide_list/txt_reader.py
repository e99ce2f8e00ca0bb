"""FIDE's TXT lists read (``standard_rating_list.txt``, ``rapid_…``, ``blitz_…``, the combined
``players_list_foa.txt``, and the archived monthly lists back to 2001): the columns are found
from the header line, each running from its title to the next title, so any column order and
width is read.

Some archived lists (2002 to 2004) have a header whose titles do not sit over their columns
(``APR03`` starts one character right of the ratings under it). The first LAYOUT_SAMPLE lines
tell: where their values do not each start under one title, the columns are taken from the
values themselves, matched in order with the titles, and a note says so; if the two cannot be
matched one for one, the file is refused."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ratingdb.errors import InputError
from ratingdb.formats.fide_list.rows import (
    TXT_PREFIX,
    FideListRow,
    ListNotes,
    birth_year_of,
    count_of,
    decode_list_line,
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
    line_too_long,
    refuse_wide_encoding,
)
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import Message

# Header titles, upper case, of the columns every category shares.
_COMMON = {
    "ID NUMBER": "id", "ID_NUMBER": "id", "ID": "id", "FIDEID": "id", "CODE": "id",
    "NAME": "name", "FED": "federation", "COUNTRY": "federation", "SEX": "sex", "TIT": "title",
    "TITL": "title", "TITLE": "title", "WTIT": "w_title", "WTITL": "w_title",
    "B-DAY": "birth", "BDAY": "birth", "BORN": "birth", "BIRTHDAY": "birth", "FLAG": "flag",
}  # fmt: skip
_GENERIC = {"RTNG": "rating", "RATING": "rating", "GM": "games", "GMS": "games", "K": "k"}
_GENERIC |= {"GAMES": "games"}
_MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")
#: Single lists title the rating column with the list's month: ``JAN01``, ``apr13``,
#: ``SEP26``, ``Dec12``, or the month alone (``JAN``) in a few of 2001-2002.
_MONTH = re.compile(rf"({'|'.join(_MONTHS)})(\d{{2}})?")
#: Lines read before the first row is given, to check that the header sits over its columns.
LAYOUT_SAMPLE = 1000


@dataclass(frozen=True, slots=True)
class _Column:
    field: str
    title: str
    start: int  # 0-based
    end: int | None  # exclusive; None: to the end of the line


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    text: str
    encoding: str


def _tokens(header: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group()) for m in re.finditer(r"ID[ _]Number|\S+", header, re.I)]


def _header_columns(
    tokens: Sequence[tuple[int, str]],
    spans: Sequence[tuple[int, int | None]],
    category: Category,
    source: str,
    line: int,
) -> dict[str, _Column]:
    """The columns the reader uses, by field: each title with its span."""
    prefix = TXT_PREFIX.get(category)
    found: dict[str, _Column] = {}
    generic: dict[str, _Column] = {}
    other_ratings: list[str] = []
    for (_, title), (start, end) in zip(tokens, spans, strict=True):
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


def _check_month(
    tokens: Sequence[tuple[int, str]], period: Period | None, source: str, line: int
) -> None:
    """A single list's rating column is titled with its month (``SEP26``): it must be the
    month of ``--period``, or the list would be stored as another month's."""
    if period is None:
        return
    for start, title in tokens:
        month = _MONTH.fullmatch(title.upper())
        if month is None:
            continue
        number = _MONTHS.index(month[1]) + 1
        year = None if month[2] is None else 2000 + int(month[2])
        if number != period.month or (year is not None and year != period.year):
            named = f"{year}-{number:02d}" if year is not None else f"month {number:02d}"
            raise InputError(
                f"the header names the list of {named}, not of --period {period}: "
                "check the file or the period",
                source=source, line=line, column=start + 1, field=title,
            )  # fmt: skip


def _runs(sample: Iterable[_Line]) -> list[tuple[int, int]]:
    """The character ranges that hold a value on some line of ``sample``, left to right."""
    filled: set[int] = set()
    for line in sample:
        filled.update(i for i, char in enumerate(line.text) if char != " ")
    runs: list[tuple[int, int]] = []
    for index in sorted(filled):
        if runs and runs[-1][1] == index:
            runs[-1] = (runs[-1][0], index + 1)
        else:
            runs.append((index, index + 1))
    return runs


def _sits_over(
    tokens: Sequence[tuple[int, str]],
    spans: Sequence[tuple[int, int | None]],
    runs: list[tuple[int, int]],
) -> bool:
    """Whether every range of values starts under one title, no two under the same one (the
    name aside: names are words apart), and ends before the column of the next range (it may
    run on over a column without values: today's lists, a long OTit running into FOA)."""
    starts = [start for start, _ in spans]
    free_text = {i for i, (_, title) in enumerate(tokens) if _COMMON.get(title.upper()) == "name"}
    owners: list[int] = []
    ends: list[int] = []
    for first, last in runs:
        owner = next((i for i in reversed(range(len(starts))) if starts[i] <= first), None)
        if owner is None:
            return False
        if owners and owners[-1] == owner:
            if owner not in free_text:
                return False
            ends[-1] = last
            continue
        owners.append(owner)
        ends.append(last)
    return all(end <= starts[owner] for end, owner in zip(ends, owners[1:], strict=False))


#: The columns of FIDE's lists of 2003 and 2004 that have no header line (JAN04, OCT03,
#: JUL03 as archived): every other list of those years has these titles, in this order.
HEADERLESS_TITLES = ("ID_NUMBER", "NAME", "TITLE", "COUNTRY", "RATING", "GAMES", "BIRTHDAY", "FLAG")
_PLAYER_LINE = re.compile(r"\s*\d+\s+[^\d\s]")


def _is_header(line: _Line) -> bool:
    """A header names its columns; a line that starts with an id and a name is a player."""
    if _PLAYER_LINE.match(line.text) is None:
        return True
    return any(title.upper() in _COMMON for _, title in _tokens(line.text)[:2])


def _layout(
    header: _Line | None,
    sample: Sequence[_Line],
    whole: Callable[[], Sequence[tuple[int, int]]],
    category: Category,
    source: str,
    notes: ListNotes,
) -> dict[str, _Column]:
    """The columns: from the header's titles when its titles sit over the values of
    ``sample``; otherwise from the ranges of values of the ``whole`` file, one for one with the
    titles in order, each column from the middle of the gap before its values to that of the
    gap after (a note says so); refused when the two cannot be matched one for one."""
    line = 1 if header is None else header.number
    if header is None:
        tokens = [(0, title) for title in HEADERLESS_TITLES]
    else:
        tokens = _tokens(header.text)
        spans: list[tuple[int, int | None]] = [
            (start, tokens[i + 1][0] if i + 1 < len(tokens) else None)
            for i, (start, _) in enumerate(tokens)
        ]
        if _sits_over(tokens, spans, _runs(sample)):
            return _header_columns(tokens, spans, category, source, line)
    runs = whole()
    if len(runs) != len(tokens):
        what = (
            "there is no header line and the values are not in the "
            f"{len(HEADERLESS_TITLES)} columns of FIDE's lists of 2003-2004"
            if header is None
            else f"the titles of the header do not sit over the values of the lines below, and "
            f"its {len(tokens)} titles cannot be matched one for one with the columns of values"
        )
        raise InputError(
            f"{what} ({len(runs)} columns: {', '.join(f'{a + 1}-{b}' for a, b in runs)})",
            source=source, line=line, field="header",
        )  # fmt: skip
    bounds = [0] + [(runs[i - 1][1] + runs[i][0]) // 2 for i in range(1, len(runs))]
    spans = [(b, bounds[i + 1] if i + 1 < len(bounds) else None) for i, b in enumerate(bounds)]
    described = ", ".join(
        f"{title} {start + 1}-{'' if end is None else end}"
        for (_, title), (start, end) in zip(tokens, spans, strict=True)
    )
    notes.add(
        "a layout read from the values",
        line,
        (
            "no header line: read as FIDE's lists of 2003-2004"
            if header is None
            else "the titles of the header do not sit over their columns"
        )
        + f"; the columns are those of the values of the whole file: {described}",
    )
    return _header_columns(tokens, spans, category, source, line)


def iter_fide_txt(
    path: Path,
    category: Category,
    *,
    source: str | None = None,
    period: Period | None = None,
    notes: ListNotes | None = None,
) -> Iterator[FideListRow]:
    """The players of a FIDE TXT list, one at a time. ``period``: the list's month, which a
    header month must be, and the year two-digit years of birth are read from; ``notes``:
    where the lenient readings are noted (an empty name, a name not in UTF-8, a layout)."""
    name = source or str(path)
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    with handle:
        yield from read_fide_txt(handle, category, source=name, period=period, notes=notes)


def read_fide_txt(
    handle: IO[bytes],
    category: Category,
    *,
    source: str,
    period: Period | None = None,
    notes: ListNotes | None = None,
) -> Iterator[FideListRow]:
    notes = notes if notes is not None else ListNotes(source)
    lines = _lines(handle, source, notes)
    first = next(lines, None)
    if first is None:
        raise InputError("the file is empty (a header line is needed)", source=source, line=1)
    header = first if _is_header(first) else None
    if header is not None:
        _refuse_control(header, None, source)
    sample = list(itertools.islice(lines, LAYOUT_SAMPLE))
    if header is None:
        sample.insert(0, first)
    after = 0 if header is None else header.number

    def whole() -> list[tuple[int, int]]:
        """The ranges of values of the whole file: read through once, then from the start
        again (the lines after the header only); a stream that cannot be read again gives
        those of the sample."""
        nonlocal lines
        if not handle.seekable():
            return _runs(sample)
        runs = _runs(itertools.chain(sample, lines))
        handle.seek(0)
        lines = (line for line in _lines(handle, source, ListNotes(source)) if line.number > after)
        sample.clear()
        return runs

    columns = _layout(header, sample, whole, category, source, notes)
    if header is not None:
        _check_month(_tokens(header.text), period, source, header.number)
    list_year = period.year if period is not None else None
    for line in itertools.chain(sample, lines):
        _refuse_control(line, columns, source)
        yield _txt_row(line, columns, source, list_year, notes)


#: DOS's end-of-file mark (Ctrl-Z), alone on the last line of some archived lists: skipped.
_DOS_END = "\x1a"


def _lines(handle: IO[bytes], source: str, notes: ListNotes) -> Iterator[_Line]:
    """The lines that are not blank, decoded (decode_list_line); a line holding only DOS's
    end-of-file mark is skipped, noted."""
    number = 0
    while raw := handle.readline(MAX_LINE_BYTES + 2):  # the line, its CR and LF
        number += 1
        if number == 1:
            refuse_wide_encoding(raw, source, save_as="UTF-8 (or Latin-1)")
        if len(raw.removesuffix(b"\n").removesuffix(b"\r")) > MAX_LINE_BYTES:
            raise line_too_long(number, source)
        text, encoding = decode_list_line(raw, number == 1)
        text = text.rstrip("\r\n")
        if text.strip() == _DOS_END:
            notes.add("a DOS end-of-file mark", number, "DOS's end-of-file mark (Ctrl-Z) ignored")
            continue
        if text.strip():
            yield _Line(number, text, encoding)


def _refuse_control(line: _Line, columns: dict[str, _Column] | None, source: str) -> None:
    index = control_at(line.text)
    if index is None:
        return
    column = None if columns is None else _column_at(columns, index)
    raise InputError(
        control_message(line.text, index),
        source=source,
        line=line.number,
        column=index + 1,
        field=None if column is None else column.title,
    )


def _column_at(columns: dict[str, _Column], index: int) -> _Column | None:
    for column in columns.values():
        if column.start <= index and (column.end is None or index < column.end):
            return column
    return None


def _txt_row(
    read: _Line, columns: dict[str, _Column], source: str, list_year: int | None, notes: ListNotes
) -> FideListRow:
    line, number = read.text, read.number

    def cell(field: str) -> str:
        column = columns.get(field)
        if column is None:
            return ""
        return line[column.start : column.end].strip(" ")

    def error(field: str, given: str | Message) -> InputError:
        message = str(given)  # a FIDE list's refusals are worded in English
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
    fide_id = fide_id.lstrip("0") or "0"
    name = cell("name")
    name_title = columns["name"].title
    if not name:
        if len(line) <= columns["name"].start:
            raise error("name", "the line ends before the name: truncated?")
        notes.add(
            "an empty name",
            number,
            f"{name_title}: FIDE id {fide_id} has no name: imported without one (a player "
            "already stored keeps their name)",
        )
    check_text(name, lambda m: error("name", m), limit=MAX_NAME_CHARS)
    if read.encoding != "UTF-8" and name:
        notes.add(
            "a name not in UTF-8",
            number,
            f"{name_title}: not UTF-8, read as {read.encoding}: {name!r}",
        )
    return FideListRow(
        line=number,
        fide_id=fide_id,
        name=name,
        federation=federation_code(cell("federation")),
        sex=sex_of(cell("sex"), cell("flag")),
        title=title_of(cell("title"), cell("w_title")),
        birth_year=birth_year_of(
            cell("birth"),
            lambda m: error("birth", m),
            list_year,
            lambda m: notes.add(
                "an impossible year of birth",
                number,
                f"{columns['birth'].title}: FIDE id {fide_id}: {m}: imported without a year "
                "(a player already stored keeps theirs)",
            ),
        ),
        rating=rating_of(cell("rating"), lambda m: error("rating", m)),
        games=count_of(cell("games"), lambda m: error("games", m)),
        k_factor=count_of(cell("k"), lambda m: error("k", m)) or None,
        flag=cell("flag") or None,
    )
