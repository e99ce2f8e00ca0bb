"""The dates of a TRF's headers (``042`` start, ``052`` end, ``132`` round dates), read and
checked against each other (docs/formats.md §4): ISO, ``YYYY/MM/DD``, ``DD.MM.YYYY``,
``DD/MM/YYYY``, ``May 29, 2020`` ..., and a two-digit year (``YY.MM.DD`` or ``DD.MM.YY``) only
when one order alone gives plausible dates (dates.two_digit_orders), noted."""

from __future__ import annotations

import re
from datetime import date

from ratingdb.formats.text import before_start, check_date
from ratingdb.formats.trf.dates import (
    parse_date,
    two_digit_fields,
    two_digit_readings,
    two_digit_year,
)
from ratingdb.formats.trf.lines import LineReader
from ratingdb.rules.messages import N_, Day, Message

#: The date headers, and the field each refusal names.
DATE_HEADERS = {"042": "start date", "052": "end date"}


class HeaderDates(LineReader):
    """A reader of a TRF's lines and headers (``lines``, ``headers``: record -> (line number,
    text)) that reads their dates."""

    lines: list[str]
    headers: dict[str, tuple[int, str]]

    def _round_dates(self) -> tuple[date, ...]:
        """The dates of the ``132`` record; one that is no date is noted and ignored."""
        round_dates: list[date] = []
        if "132" in self.headers:
            number = self.headers["132"][0]
            line = self.lines[number - 1]
            for match in re.finditer(r"(\d{2}|\d{4})/(\d{2})/(\d{2})", line[4:]):
                year = int(match.group(1))
                try:
                    year = two_digit_year(year) if year < 100 else year
                    found = date(year, int(match[2]), int(match[3]))
                except ValueError:
                    self.notes.append(
                        Message(
                            N_("line %(line)s: round date %(text)s ignored"),
                            {"line": number, "text": repr(match[0])},
                        )
                    )
                    continue
                where = self._fail(number, match.start() + 5, "132 round dates")
                round_dates.append(check_date(found, where))
        return tuple(round_dates)

    def _dates(self) -> tuple[date | None, date | None, tuple[date, ...]]:
        round_dates = self._round_dates()
        dates: dict[str, date | None] = {}
        two_digit: list[str] = []  # the headers whose date has a two-digit year
        for kind, label in DATE_HEADERS.items():
            if kind not in self.headers or not self.headers[kind][1]:
                dates[kind] = None
                continue
            number, text = self.headers[kind]
            parsed = parse_date(text)
            if parsed is None and two_digit_fields(text) is not None:
                two_digit.append(kind)
                continue
            if parsed is None:
                raise self.error(
                    Message(
                        N_(
                            "not a date (YYYY/MM/DD, DD.MM.YYYY, DD/MM/YYYY, YY.MM.DD or "
                            "'May 29, 2020'), got %(given)s"
                        ),
                        {"given": repr(text)},
                    ),
                    number,
                    5,
                    f"{kind} {label}",
                )
            dates[kind] = check_date(parsed, self._fail(number, 5, f"{kind} {label}"))
        if two_digit:
            known = [d for d in dates.values() if d is not None] + list(round_dates)
            dates.update(zip(two_digit, self._two_digit(two_digit, known), strict=True))
        start, end = dates["042"], dates["052"]
        if start is not None and end is not None and end < start:
            number = self.headers["052"][0]
            raise self.error(
                before_start(end, start),
                number,
                5,
                "052 end date",
            )
        return start, end, round_dates

    def _two_digit(self, kinds: list[str], known: list[date]) -> tuple[date, ...]:
        """The dates of the headers ``kinds``, written with a two-digit year: read, and
        noted, when one order alone (YY.MM.DD or DD.MM.YY) gives plausible dates
        (dates.two_digit_orders); refused at the first of them otherwise."""
        texts = [self.headers[kind][1] for kind in kinds]
        orders = two_digit_readings(texts, known=known, today=date.today())
        plausible = {order: found for order, found in orders.items() if isinstance(found, tuple)}
        number, text = self.headers[kinds[0]]
        where = (number, 5, f"{kinds[0]} {DATE_HEADERS[kinds[0]]}")
        if len(plausible) == 2:
            (first, one), (second, other) = plausible.items()
            raise self.error(
                Message(
                    N_("%(text)s has a two-digit year and reads two ways, %(one)s (%(first)s) or "
                       "%(other)s (%(second)s): ambiguous; write the year in four digits"),
                    {"text": repr(text), "one": Day(one[0]), "first": Message(first),
                     "other": Day(other[0]), "second": Message(second)},
                ),
                *where,
            )  # fmt: skip
        if not plausible:
            why_first, why_second = (why for why in orders.values() if isinstance(why, Message))
            raise self.error(
                Message(
                    N_("%(text)s has a two-digit year and no plausible reading (%(first)s; "
                       "%(second)s); write the year in four digits"),
                    {"text": repr(text), "first": why_first, "second": why_second},
                ),
                *where,
            )  # fmt: skip
        ((order, found),) = plausible.items()
        for kind, value in zip(kinds, found, strict=True):
            number, text = self.headers[kind]
            self.notes.append(
                Message(
                    N_(
                        "line %(line)s: %(kind)s %(text)s read as %(day)s (%(order)s, the only "
                        "plausible reading of its two-digit year)"
                    ),
                    {
                        "line": number,
                        "kind": kind,
                        "text": repr(text),
                        "day": Day(value),
                        "order": order,
                    },
                )
            )
        return found
