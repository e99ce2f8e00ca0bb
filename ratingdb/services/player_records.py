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
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ratingdb.enums import PlayerStanding
from ratingdb.errors import InputError
from ratingdb.repositories import player_history
from ratingdb.repositories import player_records as repo
from ratingdb.repositories import published as published_repo
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message
from ratingdb.services import audit
from ratingdb.services.player_fields import (
    SEXES,
    STANDINGS,
    TITLES,
    checked,
    dates,
    form_day,
    standing,
)
from ratingdb.services.published.common import NotFound
from ratingdb.services.published.players import CurrentRating, FoundPlayer, search_players

__all__ = ["SEXES", "STANDINGS", "TITLES", "PlayerRecord", "RecordChanged", "RecordConflict",
           "browse", "edit", "record"]  # fmt: skip

EDITABLE = repo.EDITABLE
#: The longest reason stored in the audit entry.
MAX_REASON = 500


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
    #: The standing today (the latest recorded; active when none is).
    status: PlayerStanding
    #: kind (federation, title, status) -> its dated values, oldest first: (from, value).
    history: dict[str, list[tuple[date, Any]]]
    #: The digest of the editable values and the dated ones: an edit names it (see the
    #: module's docstring).
    version: str


def version_of(values: Mapping[str, Any], history: Mapping[str, Any]) -> str:
    """The digest of the editable ``values`` and the ``history`` (16 hex digits)."""
    shown = [None if values[k] is None else str(values[k]) for k in EDITABLE]
    dated = {kind: [[str(d), v] for d, v in rows] for kind, rows in sorted(history.items())}
    return hashlib.sha256(json.dumps([shown, dated]).encode()).hexdigest()[:16]


def _standing(history: Mapping[str, list[tuple[date, Any]]]) -> PlayerStanding:
    rows = history.get("status", [])
    return PlayerStanding(rows[-1][1]) if rows else PlayerStanding.ACTIVE


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
    history = player_history.history(session, player_id)
    return PlayerRecord(
        player_id=row.player_id, merged_into=row.merged_into, ratings=ratings,
        status=_standing(history), history=history, version=version_of(values, history),
        **values,
    )  # fmt: skip


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
        raise InputError(Message(N_("%(id)s was merged into %(kept)s: edit that record"),
                                 {"id": player_id, "kept": row.merged_into}),
                         field="player_id")  # fmt: skip
    stored = _values(row)
    history = player_history.history(session, player_id)
    if version != version_of(stored, history):
        raise RecordChanged(
            Message(N_("player %(id)s was changed since you opened it: open it again, check "
                       "what changed, and make your edit again"), {"id": player_id}),
            field="version",
        )  # fmt: skip
    reason = reason.strip()
    if not reason:
        raise InputError(Message(N_("say why the record changes (it is kept in the audit log)")),
                         field="reason")  # fmt: skip
    if len(reason) > MAX_REASON:
        raise InputError(Message(N_("at most %(most)s characters, got %(count)s"),
                                 {"most": MAX_REASON, "count": len(reason)}),
                         field="reason")  # fmt: skip
    today = now.date()
    new = checked(fields, stored, today)
    dated = dates(fields, today)
    was, becomes = _standing(history), standing(fields, _standing(history))
    changes: dict[str, tuple[Any, Any]] = {
        k: (stored[k], new[k]) for k in EDITABLE if new[k] != stored[k]
    }
    if becomes != was:
        changes["status"] = (was.value, becomes.value)
    written = _dated_writes(history, new, becomes, dated, changes)
    if "status" in written:
        _after_the_latest_list(session, written["status"])
    if not changes and not written:
        raise InputError(Message(N_("nothing changes: every value is as stored")),
                         field="fields")  # fmt: skip
    _check_identities(session, player_id, new, changes)
    try:
        with session.begin_nested():
            record_changes = {k: after for k, (_, after) in changes.items() if k in EDITABLE}
            if record_changes:
                repo.write(session, player_id, record_changes)
            for kind, when in written.items():
                value = becomes.value if kind == "status" else new[kind]
                player_history.write_dated(session, kind, player_id, value, when,
                                           seed=stored.get(kind))  # fmt: skip
            for kind in ("federation", "title"):
                if kind in changes and kind not in written:
                    player_history.correct_latest(session, kind, player_id, new[kind])
    except IntegrityError:  # another edit gave the id at the same moment
        raise RecordConflict(
            Message(N_("another player got this FIDE id or national id at the same moment: "
                       "open the record again")), field="fide_id",
        ) from None  # fmt: skip
    repo.count_edit(session)  # the public site's cached player pages are named by it
    audit.record(
        session, "player-edit", actor, now,
        details={
            "player": player_id,
            "name": new["name"],
            "changes": {
                k: {"before": _json(before), "after": _json(after)}
                for k, (before, after) in changes.items()
            },
            **({"effective_from": {k: d.isoformat() for k, d in written.items()}}
               if written else {}),
            "reason": reason,
        },
    )  # fmt: skip
    return record(session, player_id)


#: A dated value before the latest recorded one, by kind: ``%(value)s`` the latest value,
#: ``%(day)s`` its date.
LATER = {
    "federation": N_(
        "a later federation is recorded (%(value)s from %(day)s): a date is on or "
        "after it, or correct the value without a date"
    ),
    "title": N_(
        "a later title is recorded (%(value)s from %(day)s): a date is on or after it, "
        "or correct the value without a date"
    ),
    "status": N_(
        "a later status is recorded (%(value)s from %(day)s): a date is on or after "
        "it, or correct the value without a date"
    ),
}


def _recorded(kind: str, value: Any) -> str | Message:
    """A dated value as a refusal names it: a standing in words, a code as it is."""
    if not value:
        return Message(N_("none"))
    return Message(str(value)) if kind == "status" else str(value)


def _dated_writes(
    history: Mapping[str, list[tuple[date, Any]]],
    new: Mapping[str, Any],
    becomes: PlayerStanding,
    dated: Mapping[str, date],
    changes: Mapping[str, Any],
) -> dict[str, date]:
    """kind -> the date to write its new value from: each dated kind whose value from that
    date is not already what is recorded last. Refused (naming the date's field): a date
    before the latest recorded one (history is written forwards: correct a value without a
    date), a changed standing without its date, a transfer to no federation."""
    written: dict[str, date] = {}
    if "status" in changes and "status" not in dated:
        raise InputError(Message(N_("a change of standing needs the date it holds from")),
                         field="status_from")  # fmt: skip
    for kind, when in dated.items():
        field = f"{kind}_from"
        rows = history.get(kind, [])
        value = becomes.value if kind == "status" else new[kind]
        if rows and when < rows[-1][0]:
            raise InputError(
                Message(LATER[kind], {"value": _recorded(kind, rows[-1][1]),
                                      "day": form_day(rows[-1][0])}),
                field=field,
            )  # fmt: skip
        if kind == "federation" and value is None:
            raise InputError(Message(N_("a federation from a date needs the federation")),
                             field=field)  # fmt: skip
        last = rows[-1] if rows else None
        if last is not None and last == (when, value):
            continue
        if last is None and kind == "status" and value == PlayerStanding.ACTIVE.value:
            continue  # active is every player's standing until one is recorded
        if last is not None and last[1] == value and kind not in changes:
            continue  # the value already holds since an earlier date
        written[kind] = when
    return written


def _after_the_latest_list(session: Session, when: date) -> None:
    """A standing counts from the first list dated after the latest published one (of any
    category): a published list recomputes to what it is (``periods verify``, a correction's
    recalculation), so no standing may reach back to it. A list awaiting approval that it
    reaches is refused at approval as changed (409)."""
    latest = player_history.latest_list_date(session)
    if latest is not None and when <= latest:
        raise InputError(
            Message(N_("lists up to %(day)s are published: a standing holds from a later date "
                       "(it leaves the lists already out as they are)"), {"day": form_day(latest)}),
            field="status_from",
        )  # fmt: skip


def _check_identities(
    session: Session, player_id: str, new: Mapping[str, Any], changes: Mapping[str, Any]
) -> None:
    if "fide_id" in changes and new["fide_id"] is not None:
        holder = repo.fide_id_holder(session, new["fide_id"], player_id)
        if holder is not None:
            raise RecordConflict(
                Message(N_("FIDE id %(fide_id)s is player %(holder)s's (merge the two records "
                           "if they are one person)"),
                        {"fide_id": new["fide_id"], "holder": holder}),
                field="fide_id",
            )  # fmt: skip
    if ("national_id" in changes or "national_federation" in changes) and new[
        "national_id"
    ] is not None:
        holder = repo.national_id_holder(
            session, new["national_federation"], new["national_id"], player_id
        )
        if holder is not None:
            raise RecordConflict(
                Message(N_("national id %(federation)s %(national_id)s is player %(holder)s's"),
                        {"federation": str(new["national_federation"]),
                         "national_id": new["national_id"], "holder": holder}),
                field="national_id",
            )  # fmt: skip
