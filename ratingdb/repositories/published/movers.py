"""What the movers of a list (services.published.movers) read: the list it is compared with,
and the entries of the players whose entry differs, set-based (never a query per player)."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import ListEntryRow, RatingListRow
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.published.common import is_current

#: What the movers read of an entry: player_id first.
MOVER_FIELDS = ("player_id", "rating", "previous_rating", "games", "active")

#: A player's figures on a list, as the movers compare them (MOVER_FIELDS but player_id).
Figures = tuple[int, int | None, int, bool]


def predecessor(session: Session, list_id: int) -> tuple[int, date, tuple[int, ...]] | None:
    """The list ``list_id`` is compared with, and the lists whose own rows in list_entries are
    the players to compare: a computed list's parent (the list it was computed from; through
    the revisions of its own list date it replaces, each a correction's changes against the
    one before), with those lists, the list's first; else the latest revision of the
    category's previous published list, with () (the whole lists compared). (None: the
    category's first list.)"""
    row = session.execute(
        select(RatingListRow.category, RatingListRow.list_date, RatingListRow.parent_list_id).where(
            RatingListRow.id == list_id
        )
    ).one()
    own: list[int] = [list_id]
    parent = row.parent_list_id
    while parent is not None:
        parent_date, grandparent = session.execute(
            select(RatingListRow.list_date, RatingListRow.parent_list_id).where(
                RatingListRow.id == parent
            )
        ).one()
        if parent_date != row.list_date:
            return int(parent), parent_date, tuple(own)
        own.append(int(parent))
        parent = grandparent
    if len(own) > 1:
        raise AssertionError(f"list {list_id} revises a list that has no parent")
    before = session.execute(
        select(RatingListRow.id, RatingListRow.list_date)
        .where(
            RatingListRow.category == row.category,
            RatingListRow.list_date < row.list_date,
            is_current(),
        )
        .order_by(RatingListRow.list_date.desc())
        .limit(1)
    ).first()
    return None if before is None else (int(before.id), before.list_date, ())


def changed_on_computed(
    session: Session, own_lists: tuple[int, ...], parent_id: int
) -> dict[str, tuple[Figures | None, Figures | None]]:
    """player_id -> (figures on the list, on its parent; None: not on it) of every player
    whose entry on a computed list (``own_lists[0]``) differs from the parent's carried
    forward: the list's own rows in list_entries and those of the revisions it replaces
    (``own_lists[1:]``), the nearest of each player's kept (one query by the list_id index; a
    marker: off the list), and those players' entries on the parent (one statement,
    list_changes.resolve)."""
    own = session.connection().execute(
        select(
            ListEntryRow.player_id,
            ListEntryRow.rating,
            ListEntryRow.previous_rating,
            ListEntryRow.games,
            ListEntryRow.active,
        )
        .where(ListEntryRow.list_id.in_(own_lists))
        .order_by(ListEntryRow.list_id)
    )
    mine: dict[str, Figures | None] = {}
    for player_id, rating, previous, games, active in own:  # the nearest list's row last
        mine[player_id] = (
            None if rating is None else (int(rating), previous, int(games or 0), bool(active))
        )
    before = list_changes.resolve(session, parent_id, mine)
    found: dict[str, tuple[Figures | None, Figures | None]] = {}
    for player_id, figures in mine.items():
        entry = before.get(player_id)
        was = (
            None
            if entry is None
            else (entry.rating, entry.previous_rating, entry.games, bool(entry.active))
        )
        found[player_id] = (figures, was)
    return found


def whole_figures(session: Session, list_id: int) -> dict[str, Figures]:
    """player_id -> figures of every entry of a list, decoded from its chunks."""
    columns: list[list[Any]] = chunk_reads.list_columns(session, list_id, MOVER_FIELDS)
    ids, ratings, previous, games, active = columns
    return {
        player_id: (rating, before, played, bool(flag))
        for player_id, rating, before, played, flag in zip(
            ids, ratings, previous, games, active, strict=True
        )
    }
