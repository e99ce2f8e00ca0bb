"""The back office in English and French, as the public site (``ratingdb.i18n``: the same
choice, ``?lang=en|fr``, else ``Accept-Language``, else English; the same numbers and dates).

Its messages are their own gettext domain, ``backoffice``: ``locales/{en,fr}/LC_MESSAGES/
backoffice.po`` next to this module, extracted with ``babel-backoffice.cfg`` (the public
site's catalogues stay the public site's). A template that marks nothing is shown as written
(English): a page added without translations keeps working.

A language chosen by the address stays with the officer: the pages' links and form actions
carry ``?lang=`` (the ``link`` filter, the ``keep_language()`` hidden input of a GET form), and
:class:`KeepLanguage` adds it to the redirects answering them (a form's POST, the sign-in).
The JSON API (``/admin/v1``) stays English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from gettext import NullTranslations
from pathlib import Path
from typing import ClassVar, Final
from urllib.parse import parse_qsl, urlsplit

from jinja2 import Environment, FileSystemLoader, pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ratingdb import i18n
from ratingdb.i18n import LANGUAGES, SYMBOLS, compile_catalogues
from ratingdb.rules.messages import Day, Number, Param, from_json
from ratingdb.rules.messages import Message as Text

LOCALES: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "backoffice"
CATALOGUES: Final[Mapping[str, NullTranslations]] = compile_catalogues(LOCALES, DOMAIN)
#: What programs read: English, and their redirects as they are.
MACHINE_PATHS: Final = ("/admin/v1", "/metrics")


@dataclass(frozen=True, slots=True)
class Reader(i18n.Reader):
    """The back office's reader: its catalogues, and its dates and times."""

    catalogues: ClassVar[Mapping[str, NullTranslations]] = CATALOGUES

    def day(self, value: date | str | None) -> str:
        """A date (or an ISO date or timestamp's day): ``December 1, 2026`` / ``1er décembre
        2026``; ``""`` for none."""
        if value is None or value == "":
            return ""
        if isinstance(value, str):
            value = date.fromisoformat(value[:10])
        if isinstance(value, datetime):
            value = value.date()
        return self.date(value)

    def stamp(self, value: datetime | str | None, seconds: bool = False) -> str:
        """A moment, in UTC as stored: ``December 1, 2026, 09:00`` / ``1er décembre 2026,
        09:00`` (``09:00:05`` with ``seconds``)."""
        if value is None or value == "":
            return ""
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        clock = value.strftime("%H:%M:%S" if seconds else "%H:%M")
        return self.gettext("%(day)s, %(time)s") % {"day": self.date(value.date()), "time": clock}

    def message(self, value: Text | Mapping[str, object] | str) -> str:
        """A service's message (``rules.messages``; or as a report stores it) in the reader's
        language: its text from the catalogue, its values each in turn (a number with the
        language's signs, a nested message translated). A ``str`` is a text already worded
        (an error described by the page), shown as it is. A counted message takes the form its
        count asks for in the reader's language (``1 partie``, ``2 parties``), whatever
        English wrote; a date is written as the pages write dates (``1er novembre 2026``)."""
        if isinstance(value, str):
            return value
        text = value if isinstance(value, Text) else from_json(value)
        if text.plural is not None and text.count is not None:
            count = text.params[text.count]
            if not isinstance(count, int):  # Message checks it: for mypy
                raise TypeError(f"not a count: {count!r}")
            translated = self.ngettext(text.text, text.plural, count)
        else:
            translated = self.gettext(text.text)
        if not text.params:
            return translated
        return translated % {name: self._param(v) for name, v in text.params.items()}

    def _param(self, value: Param) -> str:
        if isinstance(value, Text):
            return self.message(value)
        if isinstance(value, Number):
            return value.english().translate(SYMBOLS[self.language])
        if isinstance(value, Day):
            return self.date(value.value)
        return str(value)


#: What the switch's links never repeat from a page's address: no page takes these from it
#: (a form's CSRF token, its free texts, a password), and a crafted link must not see them
#: written back into the page.
NOT_REPEATED: Final = frozenset(
    {"csrf_token", "reason", "late_reason", "override", "password", "current_password",
     "new_password", "new_password_again", "password_again"}
)  # fmt: skip


def reader_of(request: Request) -> Reader:
    """The reader of ``request``, with the switch's links (the same page and query, in each
    language)."""
    return i18n.reader_of(request, Reader, NOT_REPEATED)


def gettext(request: Request, message: str, **values: object) -> str:
    """``message`` (marked ``N_``) in the language of ``request``, with its ``%(name)s``
    values: a page's error or notice made in Python."""
    text = reader_of(request).gettext(message)
    return text % values if values else text


def _asked_language(scope: Scope) -> str | None:
    query = scope.get("query_string", b"").decode("latin-1")
    asked = dict(parse_qsl(query)).get("lang")
    return asked if asked in LANGUAGES else None


class KeepLanguage:
    """A redirect answering a page whose address chose the language (``?lang=fr``) keeps it:
    ``/users`` becomes ``/users?lang=fr`` (a local address only; the JSON API's as they are)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        language = _asked_language(scope) if scope["type"] == "http" else None
        if language is None or str(scope.get("path", "")).startswith(MACHINE_PATHS):
            await self.app(scope, receive, send)
            return

        async def send_keeping(message: Message) -> None:
            if message["type"] == "http.response.start" and 300 <= message["status"] < 400:
                headers = MutableHeaders(scope=message)
                location = headers.get("location")
                if (
                    location is not None
                    and location.startswith("/")
                    and not location.startswith("//")
                    and "lang" not in dict(parse_qsl(urlsplit(location).query))
                ):
                    separator = "&" if "?" in location else "?"
                    headers["location"] = f"{location}{separator}lang={language}"
            await send(message)

        await self.app(scope, receive, send_keeping)


def _reader(context: Context) -> Reader:
    """The page's reader (``pages._page`` passes it); English where a template renders without
    it (a macro imported without its context)."""
    reader = context.get("reader")
    return reader if isinstance(reader, Reader) else Reader(i18n.DEFAULT_LANGUAGE, False, ())


def environment(directory: Path) -> Environment:
    """The templates' environment: ``_()``, ``ngettext()``, ``pgettext()`` and ``{% trans %}``
    (trimmed) read the page's ``reader``; the filters ``tr`` (a message made in Python, marked
    ``N_``, translated and escaped as any text), ``message`` (a service's message with its
    values, ``rules.messages``), ``number``, ``day``, ``stamp`` and ``link``,
    and ``keep_language()`` (a GET form's hidden ``lang``) write the reader's way."""
    env = Environment(
        loader=FileSystemLoader(directory), autoescape=True, extensions=["jinja2.ext.i18n"]
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=pass_context(lambda c, message: _reader(c).gettext(message)),
        ngettext=pass_context(lambda c, s, p, n: _reader(c).ngettext(s, p, n)),
        pgettext=pass_context(lambda c, context, message: _reader(c).pgettext(context, message)),
        newstyle=True,
    )
    # gettext("") is the catalogue's header: an empty text stays empty.
    env.filters["tr"] = pass_context(
        lambda c, message: _reader(c).gettext(str(message)) if message else message
    )
    env.filters["message"] = pass_context(lambda c, value: _reader(c).message(value))
    env.filters["number"] = pass_context(lambda c, value: _reader(c).number(value))
    env.filters["day"] = pass_context(lambda c, value: _reader(c).day(value))
    env.filters["stamp"] = pass_context(
        lambda c, value, seconds=False: _reader(c).stamp(value, seconds)
    )
    env.filters["link"] = pass_context(lambda c, path: _reader(c).link(str(path)))

    @pass_context
    def keep_language(c: Context) -> Markup:
        reader = _reader(c)
        if not reader.explicit:
            return Markup("")
        return Markup('<input type="hidden" name="lang" value="%s">') % escape(reader.language)

    env.globals["keep_language"] = keep_language
    return env
