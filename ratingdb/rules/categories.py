"""Rating categories and rating periods.

A period is named after the list it produces: period ``2026-12`` is the rating period whose
list is dated 2026-12-01.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from ratingdb.rules.messages import N_, Message, MessageError


class Category(StrEnum):
    """A rating list with its own rules and its own history."""

    FIDE_STANDARD = "fide-standard"
    FIDE_RAPID = "fide-rapid"
    FIDE_BLITZ = "fide-blitz"
    FFE_RAPID = "ffe-rapid"

    @property
    def needs_fide_id(self) -> bool:
        """FIDE rates players registered with FIDE only (a FIDE id); a national list rates
        players known by a national id too."""
        return self is not Category.FFE_RAPID

    @classmethod
    def parse(cls, text: str) -> Category:
        try:
            return cls(text)
        except ValueError:
            names = ", ".join(c.value for c in cls)
            raise MessageError(
                Message(N_("unknown category %(given)s (expected one of: %(names)s)"),
                        {"given": repr(text), "names": names})
            ) from None  # fmt: skip


_PERIOD = re.compile(r"(\d{4})-(\d{2})")


@dataclass(frozen=True, order=True, slots=True)
class Period:
    """The rating period that ends with the list dated the 1st of ``month``/``year``."""

    year: int
    month: int

    def __post_init__(self) -> None:
        if not 1 <= self.month <= 12:
            raise MessageError(Message(N_("period month must be 1..12, got %(month)s"),
                                       {"month": self.month}))  # fmt: skip
        if not 1900 <= self.year <= 9999:
            raise MessageError(Message(N_("period year out of range: %(year)s"),
                                       {"year": self.year}))  # fmt: skip

    @classmethod
    def parse(cls, text: str) -> Period:
        match = _PERIOD.fullmatch(text)
        if match is None:
            raise MessageError(Message(N_("period must be YYYY-MM, got %(given)s"),
                                       {"given": repr(text)}))  # fmt: skip
        return cls(int(match.group(1)), int(match.group(2)))

    @classmethod
    def of_list_date(cls, list_date: date) -> Period:
        return cls(list_date.year, list_date.month)

    @property
    def list_date(self) -> date:
        return date(self.year, self.month, 1)

    @property
    def index(self) -> int:
        """Months since year 0: differences of indexes are distances in months."""
        return self.year * 12 + (self.month - 1)

    def plus_months(self, months: int) -> Period:
        index = self.index + months
        return Period(index // 12, index % 12 + 1)

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"
