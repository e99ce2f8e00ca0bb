"""English and French pages, for both web apps (the public site, ``ratingdb.api``, and the back
office, ``ratingdb.backoffice``): the reader's language, its messages and its way of writing
numbers and dates (Babel).

The language is ``?lang=en|fr``, else the best of ``Accept-Language``, else English. Each app
has its own gettext catalogues (``ratingdb.api.i18n``: domain ``messages``;
``ratingdb.backoffice.i18n``: domain ``backoffice``), ``.po`` files compiled in memory by
:func:`compile_catalogues` when the app's module is imported: the wheel ships the ``.po`` files
only, and a catalogue that does not parse stops the app at start, not a page later. An app's
:class:`Reader` is a subclass naming its catalogues. Updating them: docs/development.md ("Web
pages").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from gettext import NullTranslations
from io import BytesIO
from pathlib import Path
from typing import ClassVar, Final, TypeVar
from urllib.parse import urlencode

from babel.dates import format_date
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import (
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
)
from babel.support import Translations
from starlette.requests import Request

DEFAULT_LANGUAGE: Final = "en"
#: Each language in its own words, for the switch.
LANGUAGES: Final[Mapping[str, str]] = {"en": "English", "fr": "Français"}


def N_(message: str) -> str:
    """Marks a message for ``pybabel extract`` (``-k N_``); translated where it is shown."""
    return message


def compile_catalogues(locales: Path, domain: str) -> Mapping[str, NullTranslations]:
    """Each language's catalogue ``locales/LANG/LC_MESSAGES/DOMAIN.po``, compiled in memory."""

    def compiled(language: str) -> Translations:
        path = locales / language / "LC_MESSAGES" / f"{domain}.po"
        with path.open("rb") as file:
            catalog = read_po(file, locale=language, domain=domain)
        buffer = BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        return Translations(fp=buffer, domain=domain)

    return {code: compiled(code) for code in LANGUAGES}


def _symbols(language: str) -> dict[int, str]:
    """How ``language`` writes what Python's ``format(value, ",f")`` writes as ``,``, ``.`` and
    ``-`` (Babel's symbols: in French a narrow no-break space, U+202F, groups the thousands)."""
    return str.maketrans(
        {
            ",": get_group_symbol(language),
            ".": get_decimal_symbol(language),
            "-": get_minus_sign_symbol(language),
        }
    )


#: Per language, the symbols Reader.number and Reader.decimal write: Babel's, read once.
#: ``format_decimal`` parses its pattern and looks the locale up on every call, which was
#: two fifths of a list page's rendering (some 300 numbers a page); the digits, grouped by
#: threes as both languages group them, are Python's own.
SYMBOLS: Final[Mapping[str, dict[int, str]]] = {code: _symbols(code) for code in LANGUAGES}


def choose_language(asked: str | None, accept_language: str | None) -> str:
    """``?lang=`` when it names a language of the site, else the first language of the
    ``Accept-Language`` header (by q value, then order) the site has, else English. An unknown
    ``lang`` is passed over like an unknown header language: a page for people never fails."""
    if asked is not None and asked in LANGUAGES:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate((accept_language or "").split(",")[:32]):
        tag, _, parameters = item.strip().partition(";")
        primary = tag.strip().split("-")[0].lower()
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, position, primary))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


@dataclass(frozen=True, slots=True)
class Switch:
    """One link of the language switch."""

    code: str
    label: str
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class Reader:
    """The reader's language, as a page needs it: messages, numbers, dates. A subclass names
    its app's ``catalogues``."""

    language: str
    #: True when the address chose it (``?lang=``): the page's own links and forms keep it.
    explicit: bool
    switch: tuple[Switch, ...]

    catalogues: ClassVar[Mapping[str, NullTranslations]] = {
        code: NullTranslations() for code in LANGUAGES
    }

    @property
    def translations(self) -> NullTranslations:
        return self.catalogues[self.language]

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        """A message in a context (``short``: a narrow table's column header)."""
        return self.translations.pgettext(context, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def number(self, value: int) -> str:
        """A count: ``1,234`` / ``1 234`` (U+202F), as Babel's ``format_decimal`` writes it."""
        if type(value) is not int:
            raise TypeError(f"a count is a whole number, not {value!r}")
        return format(value, ",").translate(SYMBOLS[self.language])

    def decimal(self, value: Decimal | None, places: int = 2, grouping: bool = True) -> str:
        """An exact decimal with at least ``places`` decimals and all its digits (never
        rounded, trailing zeros beyond ``places`` dropped): ``0.5715`` / ``0,5715``, ``-5.50`` /
        ``-5,50``. Ratings are written without grouping, as the lists write them
        (``grouping=False``: ``1771.43`` / ``1771,43``). What Babel's ``format_decimal`` writes
        with the pattern ``#,##0.00`` (``0.00`` ungrouped) and ``decimal_quantization=False``."""
        if value is None:
            return ""
        if not isinstance(value, Decimal) or not value.is_finite():
            raise TypeError(f"an exact decimal is a finite Decimal, not {value!r}")
        exponent = value.normalize().as_tuple().exponent
        shown = max(places, -exponent if isinstance(exponent, int) and exponent < 0 else 0)
        exact = value.quantize(Decimal(1).scaleb(-shown))
        return format(exact, ",f" if grouping else "f").translate(SYMBOLS[self.language])

    def signed(self, value: int | Decimal | None, places: int = 0) -> str:
        """A change: ``+12``, ``-6``, ``0``; ``+8.57`` / ``+8,57`` with ``places``."""
        if value is None:
            return ""
        text = self.decimal(Decimal(value), places) if places else self.number(int(value))
        return f"+{text}" if value > 0 else text

    def date(self, day: date) -> str:
        """``December 1, 2026`` / ``1er décembre 2026``: French writes the first of a month
        as an ordinal (CLDR's long date does not), and every list is dated the first."""
        if self.language == "fr" and day.day == 1:
            first: str = format_date(day, "'1er' MMMM y", locale="fr")
            return first
        text: str = format_date(day, format="long", locale=self.language)
        return text

    def link(self, path: str) -> str:
        """A link of the site that keeps a language the address chose."""
        if not self.explicit:
            return path
        separator = "&" if "?" in path else "?"
        return f"{path}{separator}lang={self.language}"


R = TypeVar("R", bound=Reader)


def reader_of(request: Request, kind: type[R], dropped: Collection[str] = ()) -> R:
    """The reader of ``request`` (an app's ``kind`` of reader), with the switch's links (the
    same page and query, in each language; without the parameters ``dropped``)."""
    asked = request.query_params.get("lang")
    language = choose_language(asked, request.headers.get("accept-language"))
    kept = [
        (k, v) for k, v in request.query_params.multi_items() if k != "lang" and k not in dropped
    ]
    switch = tuple(
        Switch(
            code,
            label,
            f"{request.url.path}?{urlencode([*kept, ('lang', code)])}",
            code == language,
        )
        for code, label in LANGUAGES.items()
    )
    return kind(language, asked in LANGUAGES, switch)
