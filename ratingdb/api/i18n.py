"""The public site's English and French: its catalogues (``locales/{en,fr}/LC_MESSAGES/
messages.po``), the category names for people, and its :class:`Reader`. The machinery (the
language chosen from ``?lang=``, else ``Accept-Language``, else English; numbers and dates;
the switch) is shared with the back office: ``ratingdb.i18n``. Updating the catalogues:
docs/development.md ("Web pages").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from gettext import NullTranslations
from pathlib import Path
from typing import ClassVar, Final

from starlette.requests import Request

from ratingdb import i18n
from ratingdb.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    N_,
    SYMBOLS,
    Switch,
    choose_language,
    compile_catalogues,
)
from ratingdb.rules import Category

__all__ = [
    "CATALOGUES",
    "CATEGORY_NAMES",
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALES",
    "N_",
    "SYMBOLS",
    "Reader",
    "Switch",
    "choose_language",
    "reader_of",
]

LOCALES: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "messages"

#: The categories as people call them, in one place (translated with the page).
CATEGORY_NAMES: Final[Mapping[Category, str]] = {
    Category.FIDE_STANDARD: N_("FIDE standard"),
    Category.FIDE_RAPID: N_("FIDE rapid"),
    Category.FIDE_BLITZ: N_("FIDE blitz"),
    Category.FFE_RAPID: N_("FFE rapid"),
}

CATALOGUES: Final[Mapping[str, NullTranslations]] = compile_catalogues(LOCALES, DOMAIN)


@dataclass(frozen=True, slots=True)
class Reader(i18n.Reader):
    """The public site's reader: its catalogues, and the category names."""

    catalogues: ClassVar[Mapping[str, NullTranslations]] = CATALOGUES

    def category(self, category: Category | str) -> str:
        return self.gettext(CATEGORY_NAMES[Category(category)])


def reader_of(request: Request) -> Reader:
    """The reader of ``request``, with the switch's links (the same page and query, in each
    language)."""
    return i18n.reader_of(request, Reader)
