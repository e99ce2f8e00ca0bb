"""Players: bulk upsert from imported lists, lookups by id."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ratingdb.db import bulk_insert
from ratingdb.models import PlayerRow

#: Parameters per IN (...) query, below every database's limit.
CHUNK = 5000

PLAYER_FIELDS = ("name", "federation", "sex", "birth_year", "title")


def chunks(items: Sequence[Any], size: int = CHUNK) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def existing_ids(session: Session, player_ids: Collection[str]) -> set[str]:
    found: set[str] = set()
    for chunk in chunks(sorted(player_ids)):
        found.update(
            session.scalars(select(PlayerRow.player_id).where(PlayerRow.player_id.in_(chunk)))
        )
    return found


def birth_years(session: Session, player_ids: Collection[str]) -> dict[str, int | None]:
    years: dict[str, int | None] = {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.execute(
            select(PlayerRow.player_id, PlayerRow.birth_year).where(PlayerRow.player_id.in_(chunk))
        )
        years.update(dict(rows.all()))
    return years


def upsert(session: Session, players: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """Insert new players and update the known ones; returns (created, updated)."""
    known = existing_ids(session, [p["player_id"] for p in players])
    new = [dict(p) for p in players if p["player_id"] not in known]
    changed = [dict(p) for p in players if p["player_id"] in known]
    bulk_insert(session, PlayerRow, new)
    if changed:
        session.execute(update(PlayerRow), changed)
    return len(new), len(changed)
