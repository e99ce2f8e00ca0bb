"""What every FIDE list reader gives: one row per player in one category, the values TXT and
XML share (federation, sex, title, year of birth, rating, counts) and the line of an XML
player's element, found again for a message."""

from __future__ import annotations

import re
from dataclasses import dataclass
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


def sex_of(text: str, flag: str) -> str | None:
    value = text.upper()
    if value in ("M", "F"):
        return value
    return "F" if "W" in flag.upper() else None


def title_of(title: str, w_title: str) -> str | None:
    for value in (title.upper(), w_title.upper()):
        if value in TITLES:
            return value
    return None


def birth_year_of(text: str, error: Fail) -> int | None:
    if not text or not text.strip("0"):
        return None
    if not re.fullmatch(r"\d{4}", text):
        raise error(f"must be a year of birth (4 digits), got {text!r}")
    year = int(text)
    if not MIN_DATE.year <= year <= MAX_BIRTH_YEAR:
        raise error(f"must be a year from {MIN_DATE.year} to {MAX_BIRTH_YEAR}, got {year}")
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
    """The line of ``<tag>`` inside the ``index``-th ``<player>`` (1-based): found again by
    reading the file once more, only when there is an error to report."""
    seen = 0
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
                        position = match.end()
                        break
                else:
                    continue
            if wanted.search(text, position):
                return number
            if "</player>" in text[position:]:
                return None
    return None
