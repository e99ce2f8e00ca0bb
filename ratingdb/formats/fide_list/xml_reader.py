"""FIDE's XML lists read (``<playerslist>`` of ``<player>`` elements): fed in chunks to
``xml.etree.ElementTree.XMLPullParser``, every element let go once read, so memory stays flat
whatever the file holds; a DOCTYPE (hence any entity declaration) is refused."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from ratingdb.errors import InputError
from ratingdb.formats.fide_list.rows import (
    XML_TAGS,
    FideListRow,
    ListNotes,
    birth_year_of,
    count_of,
    federation_code,
    rating_of,
    sex_of,
    title_of,
    xml_line_of,
)
from ratingdb.formats.numbers import is_digits
from ratingdb.formats.text import (
    MAX_NAME_CHARS,
    Fail,
    bounded_chunks,
    check_text,
    control_at,
    control_message,
)
from ratingdb.rules import Category
from ratingdb.rules.messages import Message


def iter_fide_xml(
    path: Path, category: Category, *, source: str | None = None, notes: ListNotes | None = None
) -> Iterator[FideListRow]:
    """The players of a FIDE XML list, one at a time: each ``<player>`` element is cleared once
    read, and the root lets go of it, so memory stays flat whatever the file's size. A player
    without a name is read, noted in ``notes`` with its line."""
    name = source or str(path)
    if category not in XML_TAGS:
        raise InputError(f"a FIDE list has no {category.value} ratings", field="category")
    try:
        handle = path.open("rb")
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    with handle:
        yield from _read_xml(handle, path, category, name, notes or ListNotes(name))


#: Bytes of XML without an element ending: more is a value far too long (or not a list).
MAX_XML_PENDING = 1 << 20
#: Elements inside each other: a FIDE list has three levels.
MAX_XML_DEPTH = 16
_DOCTYPE = b"<!DOCTYPE"


def _read_xml(
    handle: IO[bytes], path: Path, category: Category, source: str, notes: ListNotes
) -> Iterator[FideListRow]:
    """Feed the parser CHUNK_BYTES at a time (bounded_chunks: no line over 64 KiB), and let go
    of every element once it ends: a player's values are kept in a dict, everything else is
    dropped. Memory is bounded by MAX_XML_PENDING (bytes with no element ending, e.g. a value
    spread over many lines) and MAX_XML_DEPTH."""
    players = _Players(path, category, source, notes)
    try:
        for chunk in bounded_chunks(handle, source, save_as="UTF-8"):
            yield from players.feed(chunk)
        players.parser.close()
    except ET.ParseError as error:
        line, column = error.position
        raise InputError(
            f"not well-formed XML ({error})", source=source, line=line, column=column + 1
        ) from None
    if not players.root_seen:
        raise InputError("the file is empty", source=source, line=1)


class _Players:
    """The parser of one file and what it has seen so far: the open elements, the values of
    the player being read, and where it is in the file (for the refusals)."""

    def __init__(self, path: Path, category: Category, source: str, notes: ListNotes) -> None:
        self.path = path
        self.notes = notes
        self.category = category
        self.source = source
        self.parser: ET.XMLPullParser[ET.Element] = ET.XMLPullParser(events=("start", "end"))
        self.tags: tuple[str, str, str] | None = None
        self.stack: list[ET.Element] = []
        self.player: dict[str, str] | None = None
        self.index = 0
        self.lines = 1  # the line the parser has been fed up to
        self.pending = 0  # bytes fed since an element last ended
        self.prolog = b""  # the bytes before the root element, searched for a DOCTYPE
        self.root_seen = False

    def feed(self, chunk: bytes) -> Iterator[FideListRow]:
        """The players that end in ``chunk``, one at a time."""
        if not self.root_seen:
            self._refuse_doctype(chunk)
        self.parser.feed(chunk)
        self.lines += chunk.count(b"\n")
        self.pending += len(chunk)
        for found_event in self.parser.read_events():
            event, element = found_event  # type: ignore[misc]  # start and end events only
            assert isinstance(element, ET.Element)
            if event == "start":
                self._start(element)
                continue
            row = self._end(element)
            if row is not None:
                yield row
        if self.pending > MAX_XML_PENDING:
            raise InputError(
                f"no element ends in {MAX_XML_PENDING:,} bytes: a value far too long",
                source=self.source,
                line=self.lines,
            )

    def _refuse_doctype(self, chunk: bytes) -> None:
        self.prolog += chunk
        found = self.prolog.find(_DOCTYPE)
        if found >= 0:
            raise InputError(
                "a DOCTYPE is not allowed in a FIDE list (it may declare entities); remove it",
                source=self.source,
                line=self.prolog.count(b"\n", 0, found) + 1,
            )
        self.prolog = self.prolog[-len(_DOCTYPE) :]

    def _start(self, element: ET.Element) -> None:
        self.root_seen = True
        self.stack.append(element)
        if len(self.stack) > MAX_XML_DEPTH:
            raise InputError(
                f"elements nested more than {MAX_XML_DEPTH} deep", source=self.source,
                line=self.lines,
            )  # fmt: skip
        if element.tag == "player" and self.player is None:
            self.player, self.index = {}, self.index + 1

    def _end(self, element: ET.Element) -> FideListRow | None:
        """A value kept, or a player's row once its element ends; the element let go."""
        self.pending = 0
        self.stack.pop()
        row = None
        if self.player is not None and element.tag != "player":
            _keep(self.player, element, self.path, self.source, self.index)
        elif self.player is not None:
            _check_attributes(element, self.path, self.source, self.index)
            values, self.player = self.player, None
            tags = self._tags(values)
            row = _xml_row(self.path, self.source, self.index, values, tags, self.notes)
        _let_go(self.stack, element)
        return row

    def _tags(self, values: dict[str, str]) -> tuple[str, str, str]:
        """The combined file has rapid_* and blitz_* tags; a single-category file (B §12.2)
        has rating, games and k only: decided on the first player."""
        if self.tags is None:
            self.tags = XML_TAGS[self.category]
            if self.tags[0] not in values:
                self.tags = XML_TAGS[Category.FIDE_STANDARD]
        return self.tags


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


def _xml_error(path: Path, source: str, index: int, tag: str, message: str | Message) -> InputError:
    return InputError(
        f"player #{index}: {message}", source=source, line=xml_line_of(path, index, tag), field=tag
    )


def _xml_row(
    path: Path,
    source: str,
    index: int,
    values: dict[str, str],
    tags: tuple[str, str, str],
    notes: ListNotes,
) -> FideListRow:
    def error(tag: str) -> Fail:
        return lambda message: _xml_error(path, source, index, tag, message)

    fide_id = values.get("fideid", "")
    if not is_digits(fide_id):
        raise error("fideid")(f"must be a FIDE id (digits), got {fide_id!r}")
    fide_id = fide_id.lstrip("0") or "0"
    name = values.get("name", "")
    if not name:
        notes.add(
            "an empty name",
            lambda: xml_line_of(path, index, "name"),
            f"name: player #{index}, FIDE id {fide_id}, has no name: imported without one (a "
            "player already stored keeps their name)",
        )
    check_text(name, error("name"), limit=MAX_NAME_CHARS)
    rating_tag, games_tag, k_tag = tags
    flag = values.get("flag", "")
    if tags != XML_TAGS[Category.FIDE_STANDARD]:
        # FIDE's combined download: its flag says the standard list's activity; the rapid and
        # blitz lists' own is not in the file (a woman's "w" stands).
        flag = flag.replace("i", "").replace("I", "")
    return FideListRow(
        line=None,
        fide_id=fide_id,
        name=name,
        federation=federation_code(values.get("country", "")),
        sex=sex_of(values.get("sex", ""), flag),
        title=title_of(values.get("title", ""), values.get("w_title", "")),
        birth_year=birth_year_of(
            values.get("birthday", ""),
            error("birthday"),
            None,
            lambda m: notes.add(
                "an impossible year of birth",
                lambda: xml_line_of(path, index, "birthday"),
                f"birthday: player #{index}, FIDE id {fide_id}: {m}: imported without a year "
                "(a player already stored keeps theirs)",
            ),
        ),
        rating=rating_of(values.get(rating_tag, ""), error(rating_tag)),
        games=count_of(values.get(games_tag, ""), error(games_tag)),
        k_factor=count_of(values.get(k_tag, ""), error(k_tag)) or None,
        flag=flag or None,
        player=index,
    )
