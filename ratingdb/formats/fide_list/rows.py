"""What every FIDE list reader gives: one row per player in one category, the values TXT and
XML share (federation, sex, title, year of birth, rating, counts), the line of an XML
player's element, found again for a message, and the notes on what was read leniently."""

from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ratingdb.formats.numbers import is_digits
from ratingdb.formats.text import MAX_BIRTH_YEAR, MIN_DATE, Fail, decode
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


# --- values shared by TXT and XML ---------------------------------------------------------------


def federation_code(text: str) -> str | None:
    return text.upper() if re.fullmatch(r"[A-Za-z]{3}", text) else None


def is_inactive_flag(flag: str | None) -> bool:
    """Whether FIDE's Flag column says inactive: ``i`` or ``wi`` (``w`` alone: a woman,
    active). In FIDE's combined list the flag is the standard list's."""
    return flag is not None and "I" in flag.upper()


def fide_flag(sex: str | None, active: bool) -> str:
    """FIDE's Flag column as FIDE writes it: ``w`` for a woman, ``i`` for an inactive player,
    ``wi`` for both, empty for an active man (or a player whose sex is not known)."""
    return ("w" if sex == "F" else "") + ("" if active else "i")


def sex_of(text: str, flag: str) -> str | None:
    value = text.upper()
    if value in ("M", "F"):
        return value
    return "F" if "W" in flag.upper() else None


#: The titles of the lists of 2001 to 2004, in lower case (B §12, the legend: g Grand Master,
#: wg Woman Grand Master, m International Master, ...).
OLD_TITLES = {
    "G": "GM", "M": "IM", "F": "FM", "C": "CM", "WG": "WGM", "WM": "WIM", "WF": "WFM", "WC": "WCM",
}  # fmt: skip


def title_of(title: str, w_title: str) -> str | None:
    for value in (title.upper(), w_title.upper()):
        value = OLD_TITLES.get(value, value)
        if value in TITLES:
            return value
    return None


#: The youngest age a two-digit year of birth is read as (DD.MM.YY): the year is the latest
#: one ending in those digits at least this many years before the list's year, so that of the
#: two centuries exactly one fits (ages 5 to 104).
TWO_DIGIT_YEAR_MIN_AGE = 5


def birth_year_of(
    text: str,
    error: Fail,
    list_year: int | None = None,
    impossible: Callable[[str], None] | None = None,
) -> int | None:
    """The year of birth: ``YYYY`` (FIDE's lists since 2005), or a birth date ``DD.MM.YYYY``
    or ``DD.MM.YY`` (the lists of 2001 to 2004), ``  .  .`` or 0 for none. A two-digit year
    is the latest year ending in it at least TWO_DIGIT_YEAR_MIN_AGE years before
    ``list_year`` (the 2003 list's ``03.11.33`` is 1933, ``11.12.00`` is 1900). A well-formed
    year outside 1900 to 2100 (FIDE's August 2013 rapid list has a player born in 1792) is
    refused, or, with ``impossible``, reported to it and read as no year."""
    if not text or not text.strip("0") or not text.strip("0. "):
        return None
    date = re.fullmatch(r"(\d{2})\.(\d{2})\.(\d{2}|\d{4})", text)
    if date is not None:
        day, month, digits = int(date[1]), int(date[2]), date[3]
        if not (day <= 31 and month <= 12):
            raise error(f"must be a birth date (DD.MM.YYYY or DD.MM.YY), got {text!r}")
        if len(digits) == 2:
            if list_year is None:
                raise error(f"a two-digit year ({text!r}) needs the list's year (--period)")
            latest = list_year - TWO_DIGIT_YEAR_MIN_AGE
            text = str(latest - (latest - int(digits)) % 100)
        else:
            text = digits
    if not re.fullmatch(r"\d{4}", text):
        raise error(
            f"must be a year of birth (YYYY) or a birth date (DD.MM.YYYY, DD.MM.YY), got {text!r}"
        )
    year = int(text)
    if not MIN_DATE.year <= year <= MAX_BIRTH_YEAR:
        if impossible is None:
            raise error(f"must be a year from {MIN_DATE.year} to {MAX_BIRTH_YEAR}, got {year}")
        impossible(f"{year} is not a year of birth (not {MIN_DATE.year} to {MAX_BIRTH_YEAR})")
        return None
    return year


def rating_of(text: str, error: Fail) -> int | None:
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


def count_of(text: str, error: Fail) -> int | None:
    if not text:
        return None
    if not is_digits(text):
        raise error(f"must be a whole number, got {text!r}")
    return int(text)


def xml_line_of(path: Path, index: int, tag: str) -> int | None:
    """The line of ``<tag>`` inside the ``index``-th ``<player>`` (1-based), or of that
    ``<player>`` itself when it has no such tag: found again by reading the file once more,
    only when there is an error (or a note) to report. None only if there is no such player."""
    seen = 0
    player_line: int | None = None
    opening = re.compile(r"<player[\s>/]")
    wanted = re.compile(rf"<{re.escape(tag)}[\s>/]")
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            text = decode(raw)[0]
            position = 0
            if seen < index:
                for match in opening.finditer(text):
                    seen += 1
                    if seen == index:
                        position, player_line = match.end(), number
                        if text.startswith("/>", match.end() - 1):  # <player/>: no tags
                            return number
                        break
                else:
                    continue
            found = wanted.search(text, position)
            end = text.find("</player>", position)
            if found is not None and (end < 0 or found.start() < end):
                return number
            if end >= 0:
                return player_line
    return player_line


# --- bytes and notes ------------------------------------------------------------------------------

_CP850_BYTES = re.compile(rb"[\x80-\xbf]")


def decode_list_line(raw: bytes, first: bool) -> tuple[str, str]:
    """A line of a TXT list and the encoding it was read with.

    UTF-8 (today's lists are ASCII); a UTF-8 byte order mark on the first line is dropped,
    whatever follows. Otherwise the lists of 2001 to 2004 hold names written in two code pages,
    never both on one line: DOS code page 850 (``Günther`` as ``G\\x81nther``, ``Muñiz`` as
    ``Mu\\xa4iz``) and Latin-1 (``Näslund`` as ``N\\xe4slund``). A byte from 0x80 to 0xBF is a
    C1 control or a symbol in Latin-1 and a letter in code page 850: a line holding one is read
    as code page 850, any other as Latin-1."""
    if first:
        raw = raw.removeprefix(codecs.BOM_UTF8)
    try:
        return raw.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        pass
    if _CP850_BYTES.search(raw):
        return raw.decode("cp850"), "code page 850 (DOS)"
    return raw.decode("latin-1"), "Latin-1"


#: How many notes of one kind are listed, each with its line; the rest are counted.
NOTES_LISTED = 10


@dataclass
class ListNotes:
    """What a reader read leniently, each with the line it is on, for stderr: an empty name,
    a name that is not UTF-8, a header whose titles do not sit over their columns. The first
    NOTES_LISTED of each kind are kept; the others are counted, so that a list with 37,000
    such lines gives a few lines of notes, not 37,000."""

    source: str
    listed: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    def add(self, kind: str, line: int | Callable[[], int | None] | None, message: str) -> None:
        """A note of ``kind``; ``line`` may be a function, called only if the note is kept
        (an XML player's line is found by reading the file again)."""
        self.counts[kind] += 1
        if self.counts[kind] > NOTES_LISTED:
            return
        number = line() if callable(line) else line
        where = self.source if number is None else f"{self.source}:{number}"
        self.listed.append(f"{where}: {message}")

    def lines(self) -> tuple[str, ...]:
        more = [
            f"{self.source}: {count - NOTES_LISTED:,} more lines with {kind} (not listed)"
            for kind, count in self.counts.items()
            if count > NOTES_LISTED
        ]
        return (*self.listed, *more)
