"""Players in the back office (issue 28 item 2): browse and search them (the public site's
search), open a record with its ratings, and edit it with a reason, audited with the values
before and after.

Two officers editing one player: each form carries the record's **version** (a digest of the
editable values as the officer saw them). The edit locks the row, and refuses (409,
:class:`RecordChanged`) when the version no longer matches: the second officer is told the
record changed since they opened it, instead of silently undoing the first's edit."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.repositories import player_records as repo
from ratingdb.repositories import published as published_repo
from ratingdb.rules import Category, Period
from ratingdb.rules.titles import Title
from ratingdb.services import audit
from ratingdb.services.published.common import NotFound
from ratingdb.services.published.players import CurrentRating, FoundPlayer, search_players

EDITABLE = repo.EDITABLE
#: The longest reason stored in the audit entry.
MAX_REASON = 500
MAX_NAME = 200
MAX_NATIONAL_ID = 20
#: No player on a list was born before this year.
EARLIEST_BIRTH_YEAR = 1850
SEXES = ("M", "F")
TITLES = tuple(t.value for t in Title)
_FEDERATION = re.compile(r"[A-Z]{3}")
#: A FIDE id: digits, no leading zero, at most 11 (models.player.FIDE_ID_LENGTH).
_FIDE_ID = re.compile(r"[1-9][0-9]{0,10}")
_NATIONAL_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,19}")


class RecordConflict(InputError):
    """The edit cannot be made as asked (409): the record changed since the officer opened
    it, or a FIDE id or national id is another player's."""


class RecordChanged(RecordConflict):
    """The record's version is not the one the officer's form was made from."""


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's record as the back office shows and edits it."""

    player_id: str
    name: str
    sex: str | None
    birth_year: int | None
    birth_date: date | None
    fide_id: str | None
    national_federation: str | None
    national_id: str | None
    federation: str | None
    title: str | None
    merged_into: str | None
    #: The rating on each category's latest list that rates the player (order of Category).
    ratings: tuple[CurrentRating, ...]
    #: The digest of the editable values: an edit names it (see the module's docstring).
    version: str


def version_of(values: Mapping[str, Any]) -> str:
    """The digest of the editable ``values`` (16 hex digits)."""
    shown = [None if values[k] is None else str(values[k]) for k in EDITABLE]
    return hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:16]


def _values(row: Any) -> dict[str, Any]:
    return {key: getattr(row, key) for key in EDITABLE}


def browse(
    session: Session, search: str | None, *, limit: int, offset: int
) -> tuple[int, tuple[FoundPlayer, ...]]:
    """Players whose id, FIDE id or name the search matches, as the public site finds them
    (accents, case, punctuation and word order aside), with their current ratings."""
    return search_players(session, search=search or None, limit=limit, offset=offset)


def record(session: Session, player_id: str) -> PlayerRecord:
    row = repo.record(session, player_id)
    if row is None:
        raise NotFound(f"no player {player_id}")
    ratings = tuple(
        sorted(
            (
                CurrentRating(found.category, Period.of_list_date(found.list_date), found.rating)
                for found in published_repo.ratings_on_latest_lists(session, [player_id])
            ),
            key=lambda r: list(Category).index(r.category),
        )
    )
    values = _values(row)
    return PlayerRecord(
        player_id=row.player_id, merged_into=row.merged_into, ratings=ratings,
        version=version_of(values), **values,
    )  # fmt: skip


def _text(fields: Mapping[str, Any], key: str) -> str:
    value = fields.get(key)
    if value is None:
        return ""
    if not isinstance(value, str | int):
        raise InputError(f"must be text, got {value!r}", field=key)
    return str(value).strip()


def _checked(fields: Mapping[str, Any], stored: Mapping[str, Any], today: date) -> dict[str, Any]:
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
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
            raise ValueError
        born = date.fromisoformat(text)
    except ValueError:
        raise InputError(f"a date YYYY-MM-DD, got {text!r}", field="birth_date") from None
    if born > today:
        raise InputError(f"{born} is after today ({today})", field="birth_date")
    if born.year < EARLIEST_BIRTH_YEAR:
        raise InputError(f"not before {EARLIEST_BIRTH_YEAR}, got {born}", field="birth_date")
    return born


def _json(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date) else value


def edit(
    session: Session,
    player_id: str,
    fields: Mapping[str, Any],
    *,
    reason: str,
    version: str,
    actor: str,
    now: datetime,
) -> PlayerRecord:
    """Edit the player's record: the fields given (``EDITABLE``; empty clears one), with a
    reason, from the ``version`` the officer opened. Audited (action ``player-edit``, each
    changed field with its value before and after, and the reason). Refused: InputError
    naming the field (422), :class:`RecordChanged` (409) when the record changed since
    ``version``, :class:`RecordConflict` (409) when the FIDE id or national id is another
    player's; NotFound for an unknown player."""
    row = repo.record(session, player_id, lock=True)
    if row is None:
        raise NotFound(f"no player {player_id}")
    if row.merged_into is not None:
        raise InputError(f"{player_id} was merged into {row.merged_into}: edit that record",
                         field="player_id")  # fmt: skip
    stored = _values(row)
    if version != version_of(stored):
        raise RecordChanged(
            f"player {player_id} was changed since you opened it: open it again, check what "
            "changed, and make your edit again", field="version",
        )  # fmt: skip
    reason = reason.strip()
    if not reason:
        raise InputError("say why the record changes (it is kept in the audit log)",
                         field="reason")  # fmt: skip
    if len(reason) > MAX_REASON:
        raise InputError(f"at most {MAX_REASON} characters, got {len(reason)}", field="reason")
    new = _checked(fields, stored, now.date())
    changes = {k: (stored[k], new[k]) for k in EDITABLE if new[k] != stored[k]}
    if not changes:
        raise InputError("nothing changes: every value is as stored", field="fields")
    _check_identities(session, player_id, new, changes)
    try:
        with session.begin_nested():
            repo.write(session, player_id, {k: after for k, (_, after) in changes.items()})
    except IntegrityError:  # another edit gave the id at the same moment
        raise RecordConflict(
            "another player got this FIDE id or national id at the same moment: open the "
            "record again", field="fide_id",
        ) from None  # fmt: skip
    audit.record(
        session, "player-edit", actor, now,
        details={
            "player": player_id,
            "name": new["name"],
            "changes": {
                k: {"before": _json(before), "after": _json(after)}
                for k, (before, after) in changes.items()
            },
            "reason": reason,
        },
    )  # fmt: skip
    return record(session, player_id)


def _check_identities(
    session: Session, player_id: str, new: Mapping[str, Any], changes: Mapping[str, Any]
) -> None:
    if "fide_id" in changes and new["fide_id"] is not None:
        holder = repo.fide_id_holder(session, new["fide_id"], player_id)
        if holder is not None:
            raise RecordConflict(
                f"FIDE id {new['fide_id']} is player {holder}'s (merge the two records if "
                "they are one person)", field="fide_id",
            )  # fmt: skip
    if ("national_id" in changes or "national_federation" in changes) and new[
        "national_id"
    ] is not None:
        holder = repo.national_id_holder(
            session, new["national_federation"], new["national_id"], player_id
        )
        if holder is not None:
            raise RecordConflict(
                f"national id {new['national_federation']} {new['national_id']} is player "
                f"{holder}'s", field="national_id",
            )  # fmt: skip
