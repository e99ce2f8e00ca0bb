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
        raise InputError(f"must be text, got {value!r}", field=key)
    return str(value).strip()


def checked(fields: Mapping[str, Any], stored: Mapping[str, Any], today: date) -> dict[str, Any]:
    """The new values: those in ``fields`` checked (an empty one clears the value), the others
    as ``stored``. InputError naming the field."""
    new = dict(stored)
    given = {key: _text(fields, key) for key in EDITABLE if key in fields}
    if "name" in given:
        name = given["name"]
        if not name:
            raise InputError("a player has a name", field="name")
        if len(name) > MAX_NAME:
            raise InputError(f"at most {MAX_NAME} characters, got {len(name)}", field="name")
        if any(ord(c) < 32 or ord(c) == 127 for c in name):
            raise InputError("no line breaks or control characters", field="name")
        new["name"] = name
    if "sex" in given:
        sex = given["sex"].upper()
        if sex and sex not in SEXES:
            raise InputError(f"must be M or F (or empty), got {given['sex']!r}", field="sex")
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
                f"{new['birth_year']} is not the year of the birth date {new['birth_date']}",
                field="birth_year",
            )
        new["birth_year"] = new["birth_date"].year
    if "fide_id" in given:
        fide_id = given["fide_id"]
        if fide_id and not _FIDE_ID.fullmatch(fide_id):
            raise InputError(
                f"a FIDE id is 1 to 11 digits, not starting with 0, got {fide_id!r}",
                field="fide_id",
            )
        new["fide_id"] = fide_id or None
    for key in ("federation", "national_federation"):
        if key in given:
            code = given[key].upper()
            if code and not _FEDERATION.fullmatch(code):
                raise InputError(f"must be a 3-letter code, got {given[key]!r}", field=key)
            new[key] = code or None
    if "national_id" in given:
        national_id = given["national_id"]
        if national_id and not _NATIONAL_ID.fullmatch(national_id):
            raise InputError(
                f"1 to {MAX_NATIONAL_ID} letters, digits and dashes, got {national_id!r}",
                field="national_id",
            )
        new["national_id"] = national_id or None
    if new["national_id"] is not None and new["national_federation"] is None:
        raise InputError("a national id needs the federation it belongs to",
                         field="national_federation")  # fmt: skip
    if "title" in given:
        title = given["title"].upper()
        if title and title not in TITLES:
            raise InputError(f"must be one of {', '.join(TITLES)} (or empty), got "
                             f"{given['title']!r}", field="title")  # fmt: skip
        new["title"] = title or None
    return new


def _birth_year(text: str, today: date) -> int | None:
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) != 4:
        raise InputError(f"a year of four digits, got {text!r}", field="birth_year")
    year = int(text)
    if not EARLIEST_BIRTH_YEAR <= year <= today.year:
        raise InputError(f"between {EARLIEST_BIRTH_YEAR} and {today.year}, got {year}",
                         field="birth_year")  # fmt: skip
    return year


def _birth_date(text: str, today: date) -> date | None:
    if not text:
        return None
    born = _iso_date(text, "birth_date")
    if born > today:
        raise InputError(f"{born} is after today ({today})", field="birth_date")
    if born.year < EARLIEST_BIRTH_YEAR:
        raise InputError(f"not before {EARLIEST_BIRTH_YEAR}, got {born}", field="birth_date")
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
            raise InputError(f"after {SINCE_EVER}, got {when}", field=key)
        if kind != "status" and when > today:
            raise InputError(f"{when} is after today ({today}): record it once it holds",
                             field=key)  # fmt: skip
        if kind == "status" and when > today + STANDING_AHEAD:
            raise InputError(f"at most a year ahead ({today + STANDING_AHEAD}), got {when}",
                             field=key)  # fmt: skip
        found[kind] = when
    return found


def standing(fields: Mapping[str, Any], current: PlayerStanding) -> PlayerStanding:
    text = _text(fields, "status").lower()
    if not text:
        return current
    if text not in STANDINGS:
        raise InputError(f"must be one of {', '.join(STANDINGS)}, got {text!r}", field="status")
    return PlayerStanding(text)


def _iso_date(text: str, key: str) -> date:
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
            raise ValueError
        return date.fromisoformat(text)
    except ValueError:
        raise InputError(f"a date YYYY-MM-DD, got {text!r}", field=key) from None
