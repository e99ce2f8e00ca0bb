"""The dates of a TRF as real files write them: tournament dates in the many formats seen
(ISO, ``YYYY/MM/DD``, ``DD.MM.YYYY``, ``DD/MM/YYYY``, ``May 29, 2020``, ``29 May 2020`` in
several languages) and birth dates, whose month and day may be blank or zero."""

from __future__ import annotations

import re
from datetime import date

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january", "janvier", "januar", "enero"),
            ("feb", "february", "fevrier", "février", "februar", "febrero"),
            ("mar", "march", "mars", "märz", "marz", "marzo"),
            ("apr", "april", "avril", "abril"),
            ("may", "mai", "mayo"),
            ("jun", "june", "juin", "juni", "junio"),
            ("jul", "july", "juillet", "juli", "julio"),
            ("aug", "august", "aout", "août", "agosto"),
            ("sep", "sept", "september", "septembre", "septiembre"),
            ("oct", "october", "octobre", "oktober", "octubre"),
            ("nov", "november", "novembre", "noviembre"),
            ("dec", "december", "decembre", "décembre", "dezember", "diciembre"),
        ],
        start=1,
    )
    for name in names
}


def parse_date(text: str) -> date | None:
    """A tournament date in the formats seen in real files; None if it is none of them."""
    value = text.strip()
    numbers = [int(n) for n in re.findall(r"\d+", value)]
    try:
        if re.fullmatch(r"\d{4}\s*[-/.]\s*\d{1,2}\s*[-/.]\s*\d{1,2}", value):
            return date(numbers[0], numbers[1], numbers[2])
        if re.fullmatch(r"\d{1,2}\s*[-/.]\s*\d{1,2}\s*[-/.]\s*\d{4}", value):
            day, month, year = numbers
            if month > 12 >= day:  # 10/25/2020: month first
                day, month = month, day
            return date(year, month, day)
        words = re.fullmatch(r"([^\W\d_]+)\.?\s+(\d{1,2}),?\s+(\d{4})", value)
        if words and words[1].casefold() in _MONTHS:  # May 29, 2020
            return date(int(words[3]), _MONTHS[words[1].casefold()], int(words[2]))
        words = re.fullmatch(r"(\d{1,2})\.?\s+([^\W\d_]+)\.?,?\s+(\d{4})", value)
        if words and words[2].casefold() in _MONTHS:  # 29 May 2020
            return date(int(words[3]), _MONTHS[words[2].casefold()], int(words[1]))
    except ValueError:
        return None
    return None


def parse_birth(text: str) -> tuple[int, date | None] | None:
    """A birth date, or only its year where month and day are blank or zero."""
    value = text.strip()
    year_first = re.fullmatch(r"(\d{4})(?:\s*[-/.]\s*(\d{0,2})\s*[-/.]?\s*(\d{0,2}))?", value)
    day_first = re.fullmatch(r"(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{4})", value)
    if year_first:
        year, month, day = year_first[1], year_first[2], year_first[3]
    elif day_first:
        day, month, year = day_first[1], day_first[2], day_first[3]
    else:
        return None
    birth_year = int(year)
    if month and day and int(month) and int(day):
        try:
            return birth_year, date(birth_year, int(month), int(day))
        except ValueError:
            return None
    return birth_year, None
