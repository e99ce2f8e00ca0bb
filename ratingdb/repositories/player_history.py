"""What a player's record was on a date (models.player_history): a player's dated federations,
titles and standings, an officer's dated change written, and :func:`as_of`, what was true on a
date for every player whose value then was not their record's current one (one query a kind).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from typing import Any

from sqlalchemy import Date, Select, bindparam, exists, func, select, update
from sqlalchemy.orm import Session, aliased

from ratingdb.enums import PlayerStanding
from ratingdb.models import (
    PlayerFederationRow,
    PlayerRow,
    PlayerStatusChangeRow,
    PlayerTitleRow,
    RatingListRow,
)
from ratingdb.models.player_history import SINCE_EVER
from ratingdb.repositories.list_storage.players import players_by_id

#: The dated kinds: the table of each, and the column of its value.
KINDS: dict[str, Any] = {
    "federation": PlayerFederationRow,
    "title": PlayerTitleRow,
    "status": PlayerStatusChangeRow,
}


@dataclass(frozen=True, slots=True)
class DatedValues:
    """What was true on a date where the record's current values do not say it:
    ``federation`` and ``title`` of the players who changed since (player id -> the value
    then), ``standing`` of every player who was not active then."""

    on: date
    federation: dict[str, str | None] = field(default_factory=dict)
    title: dict[str, str | None] = field(default_factory=dict)
    standing: dict[str, PlayerStanding] = field(default_factory=dict)


def history(session: Session, player_id: str) -> dict[str, list[tuple[date, Any]]]:
    """The player's dated values of each kind, oldest first: kind -> [(effective_from,
    value)]."""
    found: dict[str, list[tuple[date, Any]]] = {}
    for kind, model in KINDS.items():
        value = getattr(model, kind)
        rows = session.execute(
            select(model.effective_from, value)
            .where(model.player_id == player_id)
            .order_by(model.effective_from)
        ).all()
        found[kind] = [(row[0], row[1]) for row in rows]
    return found


def write_dated(
    session: Session,
    kind: str,
    player_id: str,
    value: Any,
    effective_from: date,
    *,
    seed: Any = None,
) -> None:
    """The player's ``kind`` is ``value`` from ``effective_from`` on (the caller checked that
    no later date is recorded); a value on that date already recorded is replaced. ``seed``:
    the value the record held until then, written from SINCE_EVER when the player has no row
    of the kind yet (a player recorded after migration 0018)."""
    model = KINDS[kind]
    has_rows = session.scalar(select(exists().where(model.player_id == player_id)))
    if not has_rows and seed is not None and effective_from > SINCE_EVER:
        session.add(model(player_id=player_id, effective_from=SINCE_EVER, **{kind: seed}))
    row = session.get(model, (player_id, effective_from))
    if row is None:
        session.add(model(player_id=player_id, effective_from=effective_from, **{kind: value}))
    else:
        setattr(row, kind, value)
    session.flush()


def correct_latest(session: Session, kind: str, player_id: str, value: Any) -> None:
    """An undated correction: the player's latest dated ``kind``, if any, becomes ``value``
    (what the record held since that date was wrong, not changed)."""
    model = KINDS[kind]
    latest = (
        select(model.effective_from)
        .where(model.player_id == player_id)
        .order_by(model.effective_from.desc())
        .limit(1)
        .scalar_subquery()
    )
    session.execute(
        update(model)
        .where(model.player_id == player_id, model.effective_from == latest)
        .values(**{kind: value})
        .execution_options(synchronize_session=False)
    )


@cache
def _on_statement(kind: str, latest_too: bool) -> Select[str, Any]:
    """:func:`_on`'s query, built once per kind (its two aliases took ~1 ms to build at every
    call, and each period a close or a correction's impact computes asks for the players
    deceased twice); ``on``: the date."""
    model = KINDS[kind]
    later = aliased(model)
    nearer = aliased(model)
    on = bindparam("on", type_=Date)
    statement = select(model.player_id, getattr(model, kind)).where(
        model.effective_from <= on,
        ~exists().where(
            nearer.player_id == model.player_id,
            nearer.effective_from <= on,
            nearer.effective_from > model.effective_from,
        ),
    )
    if not latest_too:
        # Only the players with a row after the date (a dated change: few, however many were
        # seeded), found by one scan of the table's dates, not a probe per seeded row.
        statement = statement.where(
            model.player_id.in_(select(later.player_id).where(later.effective_from > on))
        )
    return statement


def _on(session: Session, kind: str, on: date, *, latest_too: bool) -> dict[str, Any]:
    """player id -> their ``kind`` on ``on``: their latest row on or before it, for the
    players who have one; ``latest_too`` False: only where a later row exists (the row then
    is not the one the record's current value stands for)."""
    rows = session.execute(_on_statement(kind, latest_too), {"on": on})
    return {row[0]: row[1] for row in rows}


def titles_awarded(session: Session, after: date, upto: date) -> dict[str, str]:
    """player id -> the title recorded for them from a date after ``after``, on or before
    ``upto`` (the latest such; a title taken away, None, is not one awarded). The rows seeded
    from the records (SINCE_EVER) never fall in: a title held since before is not new."""
    rows = session.execute(
        select(PlayerTitleRow.player_id, PlayerTitleRow.title)
        .where(
            PlayerTitleRow.effective_from > after,
            PlayerTitleRow.effective_from <= upto,
            PlayerTitleRow.effective_from > SINCE_EVER,
        )
        .order_by(PlayerTitleRow.effective_from)
    )
    latest: dict[str, str | None] = {row[0]: row[1] for row in rows}
    return {player_id: title for player_id, title in latest.items() if title is not None}


def as_of(session: Session, on: date) -> DatedValues:
    """What was true on ``on`` (see DatedValues): three queries, whatever the number of
    players."""
    standing = {
        player: PlayerStanding(status)
        for player, status in _on(session, "status", on, latest_too=True).items()
        if status != PlayerStanding.ACTIVE
    }
    return DatedValues(
        on=on,
        federation=_on(session, "federation", on, latest_too=False),
        title=_on(session, "title", on, latest_too=False),
        standing=standing,
    )


def deceased_on(session: Session, on: date) -> set[str]:
    """The players deceased on ``on`` (their latest standing on or before it)."""
    standing = _on(session, "status", on, latest_too=True)
    return {player for player, status in standing.items() if status == PlayerStanding.DECEASED}


def latest_list_date(session: Session) -> date | None:
    """The date of the latest published list of any category (every list row is one), None
    before the first."""
    found: date | None = session.scalar(select(func.max(RatingListRow.list_date)))
    return found


def apply(dated: DatedValues, player_id: str, federation: Any, title: Any) -> tuple[Any, Any]:
    """(federation, title) of the player on ``dated.on``, from their current ones."""
    return (
        dated.federation.get(player_id, federation),
        dated.title.get(player_id, title),
    )


def latest_dates(session: Session, player_id: str) -> dict[str, date | None]:
    """kind -> the player's latest recorded date of it (None: none)."""
    found: dict[str, date | None] = {}
    for kind, model in KINDS.items():
        found[kind] = session.scalar(
            select(model.effective_from)
            .where(model.player_id == player_id)
            .order_by(model.effective_from.desc())
            .limit(1)
        )
    return found


def federations_and_titles_on(
    session: Session, player_ids: Collection[str], on: date
) -> dict[str, tuple[str | None, str | None]]:
    """player id -> (federation, title) on ``on``, for ``player_ids``: their records' values
    read at once, with what :func:`as_of` says held then."""
    dated = as_of(session, on)
    columns = (PlayerRow.federation, PlayerRow.title)
    return {
        player_id: apply(dated, player_id, federation, title)
        for player_id, (federation, title) in players_by_id(
            session, list(player_ids), columns
        ).items()
    }
