"""The rows that make a published list: its entries, the standing of players kept off it
(player_statuses) and, for a computed list, every game's calculation. Written in bulk (COPY on
PostgreSQL, see ratingdb.db.bulk), read back per list."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Result, select
from sqlalchemy.orm import Session

from ratingdb.db.bulk import bulk_insert, bulk_insert_rows
from ratingdb.models import CalculationRow, ListEntryRow, PlayerStatusRow

#: The columns of the rows a close writes, in the order of its tuples.
ENTRY_KEYS = (
    "list_id", "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating",
)  # fmt: skip
STATUS_KEYS = ("list_id", "player_id", "rated_games", "peak_rating", "pool")
CALCULATION_KEYS = (
    "list_id", "player_id", "game_id", "tournament_id", "rating_used", "opponent_id",
    "opponent_rating_used", "difference", "difference_used", "expected", "score", "delta",
    "rated", "reason", "rule_version",
)  # fmt: skip

#: The columns of an entry its list's digest covers (services.lists.digest), player first.
_CANONICAL = (
    ListEntryRow.player_id,
    ListEntryRow.rating,
    ListEntryRow.previous_rating,
    ListEntryRow.change,
    ListEntryRow.games,
    ListEntryRow.k_factor,
)


def write_computed(
    session: Session,
    entries: Iterable[Sequence[Any]],
    statuses: Iterable[Sequence[Any]],
    calculations: Iterable[Sequence[Any]],
) -> int:
    """A computed list's entries, statuses and calculations (tuples of ENTRY_KEYS,
    STATUS_KEYS, CALCULATION_KEYS), streamed into the database in that order; returns the rows
    written."""
    written = bulk_insert_rows(session, ListEntryRow, ENTRY_KEYS, entries)
    written += bulk_insert_rows(session, PlayerStatusRow, STATUS_KEYS, statuses)
    written += bulk_insert_rows(session, CalculationRow, CALCULATION_KEYS, calculations)
    return written


def insert_entries(session: Session, entries: Sequence[Mapping[str, Any]]) -> int:
    """Entries given as column -> value (an imported list)."""
    return bulk_insert(session, ListEntryRow, entries)


def insert_statuses(session: Session, statuses: Sequence[Mapping[str, Any]]) -> int:
    """Players kept off a list, as column -> value (an imported list's unrated players)."""
    return bulk_insert(session, PlayerStatusRow, statuses)


def canonical_rows(session: Session, list_id: int, *, yield_per: int) -> Result[Any]:
    """(player_id, rating, previous_rating, change, games, k_factor) of every entry, in
    player_id byte order (as Python sorts), streamed ``yield_per`` rows at a time: what a
    list's digest is computed from."""
    order = ListEntryRow.player_id
    if session.get_bind().dialect.name == "postgresql":
        order = order.collate("C")  # type: ignore[assignment]
    return session.execute(
        select(*_CANONICAL)
        .where(ListEntryRow.list_id == list_id)
        .order_by(order)
        .execution_options(yield_per=yield_per)
    )


def entries_by_player(session: Session, list_id: int) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rating, previous_rating, change, games, k_factor, rated_games, peak)."""
    return {
        row[0]: tuple(row[1:])
        for row in session.execute(
            select(*_CANONICAL, ListEntryRow.rated_games, ListEntryRow.peak_rating).where(
                ListEntryRow.list_id == list_id
            )
        )
    }


def statuses_of(session: Session, list_id: int) -> list[tuple[Any, ...]]:
    """(player_id, rated_games, peak_rating, pool) of the players kept off a list."""
    rows = session.execute(
        select(
            PlayerStatusRow.player_id,
            PlayerStatusRow.rated_games,
            PlayerStatusRow.peak_rating,
            PlayerStatusRow.pool,
        ).where(PlayerStatusRow.list_id == list_id)
    ).all()
    return [tuple(row) for row in rows]
