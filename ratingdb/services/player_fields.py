"""The fields of a player's record as an officer edits them (services.player_records): each
checked, an error naming its field; the dates from which a federation, a title or a standing
holds."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, timedelta
from typing import Any

from ratingdb.enums import PlayerStanding
from ratingdb.errors import InputError
from ratingdb.models.player_history import SINCE_EVER
from ratingdb.repositories.player_records import EDITABLE
from ratingdb.rules.messages import N_, Message, one_of
from ratingdb.rules.titles import Title

MAX_NAME = 200
MAX_NATIONAL_ID = 20
#: No player on a list was born before this year.
EARLIEST_BIRTH_YEAR = 1850
SEXES = ("M", "F")
TITLES = tuple(t.value for t in Title)
STANDINGS = tuple(s.value for s in PlayerStanding)
#: The kinds an officer dates, each with the field of its date.
DATED = {"federation": "federation_from", "title": "title_from", "status": "status_from"}
#: How far ahead a standing may be dated (it must follow the latest list: see
#: services.player_records).
STANDING_AHEAD = timedelta(days=366)
_FEDERATION = re.compile(r"[A-Z]{3}")
#: A FIDE id: digits, no leading zero, at most 11 (models.player.FIDE_ID_LENGTH).
_FIDE_ID = re.compile(r"[1-9][0-9]{0,10}")
_NATIONAL_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,19}")


def _text(fields: Mapping[str, Any], key: str) -> str:
    value = fields.get(key)
    if value is None:
        return ""
    if not isinstance(value, str | int):
        raise InputError(_got(N_("must be text, got %(given)s"), value), field=key)
    return str(value).strip()


def checked(fields: Mapping[str, Any], stored: Mapping[str, Any], today: date) -> dict[str, Any]:
    """The new values: those in ``fields`` checked (an empty one clears the value), the others
    as ``stored``. InputError naming the field."""
    new = dict(stored)
    given = {key: _text(fields, key) for key in EDITABLE if key in fields}
    if "name" in given:
        name = given["name"]
        if not name:
            raise InputError(Message(N_("a player has a name")), field="name")
        if len(name) > MAX_NAME:
            raise InputError(Message(N_("at most %(most)s characters, got %(count)s"),
                                     {"most": MAX_NAME, "count": len(name)}),
                             field="name")  # fmt: skip
        if any(ord(c) < 32 or ord(c) == 127 for c in name):
            raise InputError(Message(N_("no line breaks or control characters")), field="name")
        new["name"] = name
    if "sex" in given:
        sex = given["sex"].upper()
        if sex and sex not in SEXES:
            raise InputError(_got(N_("must be M or F (or empty), got %(given)s"), given["sex"]),
                             field="sex")  # fmt: skip
        new["sex"] = sex or None
    if "birth_year" in given:
        new["birth_year"] = _birth_year(given["birth_year"], today)
    if "birth_date" in given:
        new["birth_date"] = _birth_date(given["birth_date"], today)
    if new["birth_date"] is not None:
        if (
            "birth_year" in given
            and given["birth_year"]
            and new["birth_year"] != (new["birth_date"].year)
        ):
            raise InputError(
                Message(N_("%(year)s is not the year of the birth date %(day)s"),
                        {"year": new["birth_year"], "day": form_day(new["birth_date"])}),
                field="birth_year",
            )  # fmt: skip
        new["birth_year"] = new["birth_date"].year
    if "fide_id" in given:
        fide_id = given["fide_id"]
        if fide_id and not _FIDE_ID.fullmatch(fide_id):
            raise InputError(
                _got(N_("a FIDE id is 1 to 11 digits, not starting with 0, got %(given)s"),
                     fide_id),
                field="fide_id",
            )  # fmt: skip
        new["fide_id"] = fide_id or None
    for key in ("federation", "national_federation"):
        if key in given:
            code = given[key].upper()
            if code and not _FEDERATION.fullmatch(code):
                raise InputError(_got(N_("must be a 3-letter code, got %(given)s"), given[key]),
                                 field=key)  # fmt: skip
            new[key] = code or None
    if "national_id" in given:
        national_id = given["national_id"]
        if national_id and not _NATIONAL_ID.fullmatch(national_id):
            raise InputError(
                Message(N_("1 to %(most)s letters, digits and dashes, got %(given)s"),
                        {"most": MAX_NATIONAL_ID, "given": repr(national_id)}),
                field="national_id",
            )  # fmt: skip
        new["national_id"] = national_id or None
    if new["national_id"] is not None and new["national_federation"] is None:
        raise InputError(Message(N_("a national id needs the federation it belongs to")),
                         field="national_federation")  # fmt: skip
    if "title" in given:
        title = given["title"].upper()
        if title and title not in TITLES:
            raise InputError(Message(N_("must be one of %(choices)s (or empty), got %(given)s"),
                                     {"choices": ", ".join(TITLES),
                                      "given": repr(given["title"])}),
                             field="title")  # fmt: skip
        new["title"] = title or None
    return new


def _birth_year(text: str, today: date) -> int | None:
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) != 4:
        raise InputError(_got(N_("a year of four digits, got %(given)s"), text),
                         field="birth_year")  # fmt: skip
    year = int(text)
    if not EARLIEST_BIRTH_YEAR <= year <= today.year:
        raise InputError(Message(N_("between %(first)s and %(last)s, got %(year)s"),
                                 {"first": EARLIEST_BIRTH_YEAR, "last": today.year,
                                  "year": year}),
                         field="birth_year")  # fmt: skip
    return year


def _birth_date(text: str, today: date) -> date | None:
    if not text:
        return None
    born = _iso_date(text, "birth_date")
    if born > today:
        raise InputError(Message(N_("%(day)s is after today (%(today)s)"),
                                 {"day": form_day(born), "today": form_day(today)}),
                         field="birth_date")  # fmt: skip
    if born.year < EARLIEST_BIRTH_YEAR:
        raise InputError(Message(N_("not before %(year)s, got %(day)s"),
                                 {"year": EARLIEST_BIRTH_YEAR, "day": form_day(born)}),
                         field="birth_date")  # fmt: skip
    return born


def dates(fields: Mapping[str, Any], today: date) -> dict[str, date]:
    """kind -> the date its value in the form holds from (``federation_from``, ``title_from``,
    ``status_from``; empty: not dated): after 1900-01-01, not after today."""
    found: dict[str, date] = {}
    for kind, key in DATED.items():
        text = _text(fields, key)
        if not text:
            continue
        when = _iso_date(text, key)
        if when <= SINCE_EVER:
            raise InputError(Message(N_("after %(first)s, got %(day)s"),
                                     {"first": form_day(SINCE_EVER), "day": form_day(when)}),
                             field=key)  # fmt: skip
        if kind != "status" and when > today:
            raise InputError(Message(N_("%(day)s is after today (%(today)s): record it once it "
                                        "holds"),
                                     {"day": form_day(when), "today": form_day(today)}),
                             field=key)  # fmt: skip
        if kind == "status" and when > today + STANDING_AHEAD:
            raise InputError(Message(N_("at most a year ahead (%(last)s), got %(day)s"),
                                     {"last": form_day(today + STANDING_AHEAD),
                                      "day": form_day(when)}),
                             field=key)  # fmt: skip

        found[kind] = when
    return found


def standing(fields: Mapping[str, Any], current: PlayerStanding) -> PlayerStanding:
    text = _text(fields, "status").lower()
    if not text:
        return current
    if text not in STANDINGS:
        raise InputError(one_of(STANDINGS, text), field="status")
    return PlayerStanding(text)


def _iso_date(text: str, key: str) -> date:
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise InputError(_got(N_("a date YYYY-MM-DD, got %(given)s"), text), field=key) from None


def form_day(day: date) -> str:
    """A date in a refusal of the record's form: as its fields take it (YYYY-MM-DD), in either
    language, the officer reading it beside the field it came from."""
    return day.isoformat()


def _got(text: str, given: object) -> Message:
    """A refusal naming the value given, as Python writes it (``'1990-13-01'``)."""
    return Message(text, {"given": repr(given)})
