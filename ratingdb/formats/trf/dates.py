"""The dates of a TRF as real files write them: tournament dates in the many formats seen
(ISO, ``YYYY/MM/DD``, ``DD.MM.YYYY``, ``DD/MM/YYYY``, ``May 29, 2020``, ``29 May 2020`` in
several languages), tournament dates with a two-digit year (``26.11.02``: read only when one
order alone gives a plausible date, ``two_digit_orders``) and birth dates, whose month and day
may be blank or zero."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, timedelta

from ratingdb.rules.messages import N_, Day, Message

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


#: The two orders a date with a two-digit year may be written in (the month is in the middle).
YEAR_FIRST = N_("YY.MM.DD")
DAY_FIRST = N_("DD.MM.YY")
#: A two-digit year is 19YY from 90 to 99 and 20YY otherwise: no date before 1990 is read so.
TWO_DIGIT_PIVOT = 90
#: How far after today, and how far from the file's other dates, a two-digit-year date may be
#: (also the longest a tournament may last, when both its dates have a two-digit year).
TWO_DIGIT_SLACK = timedelta(days=366)


def two_digit_fields(text: str) -> tuple[int, int, int] | None:
    """The three numbers of a date with a two-digit year (``26.11.02``, ``02/11/26``,
    ``26-11-02``: two digits each, one separator), None if ``text`` is not of that form."""
    found = re.fullmatch(r"(\d{2})\s*([-/.])\s*(\d{2})\s*\2\s*(\d{2})", text.strip())
    return None if found is None else (int(found[1]), int(found[3]), int(found[4]))


def two_digit_year(year: int) -> int:
    return year + (1900 if year >= TWO_DIGIT_PIVOT else 2000)


def two_digit_reading(fields: tuple[int, int, int], order: str) -> date | None:
    """The date ``fields`` give read in ``order`` (YEAR_FIRST or DAY_FIRST), None if none."""
    first, month, last = fields
    year, day = (first, last) if order == YEAR_FIRST else (last, first)
    try:
        return date(two_digit_year(year), month, day)
    except ValueError:
        return None


def two_digit_orders(
    texts: Sequence[str], *, known: Sequence[date], today: date
) -> dict[str, tuple[date, ...] | str]:
    """``two_digit_readings`` with why an order cannot be in English."""
    readings = two_digit_readings(texts, known=known, today=today)
    return {
        order: found.english() if isinstance(found, Message) else found
        for order, found in readings.items()
    }


def two_digit_readings(
    texts: Sequence[str], *, known: Sequence[date], today: date
) -> dict[str, tuple[date, ...] | Message]:
    """For each order (YEAR_FIRST, DAY_FIRST), the dates it gives ``texts`` (the file's
    two-digit-year dates, the start before the end: a program writes all its dates the same
    way), or why it cannot be the order: a text is no date; a date is more than
    TWO_DIGIT_SLACK after ``today`` or away from the file's ``known`` dates (four-digit
    dates, 132 round dates); the end is before the start or more than TWO_DIGIT_SLACK
    after it. The caller reads the dates when exactly one order gives dates."""
    orders: dict[str, tuple[date, ...] | Message] = {}
    for order in (YEAR_FIRST, DAY_FIRST):
        dates: list[date] = []
        why: Message | None = None
        for text in texts:
            found, why = _plausible(text, order, known, today)
            if found is None:
                break
            dates.append(found)
        if why is None and len(dates) == 2 and dates[1] < dates[0]:
            why = Message(N_("the end %(end)s is before the start %(start)s"),
                          {"end": Day(dates[1]), "start": Day(dates[0])})  # fmt: skip
        elif why is None and len(dates) == 2 and dates[1] - dates[0] > TWO_DIGIT_SLACK:
            why = Message(
                N_("the start %(start)s and the end %(end)s are more than a year apart"),
                {"start": Day(dates[0]), "end": Day(dates[1])},
            )
        orders[order] = (
            tuple(dates)
            if why is None
            else Message(N_("read %(order)s, %(why)s"), {"order": Message(order), "why": why})
        )
    return orders


def _plausible(
    text: str, order: str, known: Sequence[date], today: date
) -> tuple[date | None, Message | None]:
    """The date ``text`` gives read in ``order``, or None and why it is not plausible."""
    fields = two_digit_fields(text)
    found = None if fields is None else two_digit_reading(fields, order)
    shown = repr(text.strip())
    if found is None:
        return None, Message(N_("%(text)s is no date"), {"text": shown})
    if found > today + TWO_DIGIT_SLACK:
        return None, Message(N_("%(text)s is %(day)s, more than a year after today"),
                             {"text": shown, "day": Day(found)})  # fmt: skip
    if known and not min(known) - TWO_DIGIT_SLACK <= found <= max(known) + TWO_DIGIT_SLACK:
        return None, Message(
            N_("%(text)s is %(day)s, more than a year from the file's other dates (%(first)s "
               "to %(last)s)"),
            {"text": shown, "day": Day(found), "first": Day(min(known)),
             "last": Day(max(known))},
        )  # fmt: skip
    return found, None


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
