"""What the movers of a list (services.published.movers) read: the list it is compared with,
and the entries of the players whose entry differs, set-based (never a query per player)."""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.models import ListEntryRow, RatingListRow
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.published.common import is_current

#: What the movers read of an entry: player_id first.
MOVER_FIELDS = ("player_id", "rating", "previous_rating", "games", "active")

#: A player's figures on a list, as the movers compare them (MOVER_FIELDS but player_id; on
#: the list compared with, only the rating and the activity are read).
Figures = tuple[int, int | None, int, bool]


def predecessor(session: Session, list_id: int) -> tuple[int, date, tuple[int, ...]] | None:
    """The list ``list_id`` is compared with, and the lists whose own rows in list_entries are
    the players to compare: a computed list's parent (the list it was computed from), with the
    list; a correction's revision (whose parent is the revision it replaces), the revision of
    the previous period written last before it, with the list and the revisions of its date
    it replaces down to one computed whole (their rows together are the players whose entry
    differs from that list's carried forward); else the latest revision of the category's
    previous published list, with () (the whole lists compared). (None: the category's first
    list.)"""
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
        if parent_date != row.list_date and len(own) > 1:
            # A correction's revision: compared with the revision of the previous period its
            # own was computed from (the latest written before it), not the original's parent.
            latest = session.scalar(
                select(func.max(RatingListRow.id)).where(
                    RatingListRow.category == row.category,
                    RatingListRow.list_date == parent_date,
                    RatingListRow.id < list_id,
                )
            )
            if latest is None:
                raise AssertionError(f"list {list_id}: no list of {parent_date} before it")
            return int(latest), parent_date, tuple(own)
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
    marker: off the list), and the parent's rating and activity, read from its chunks (two
    columns decoded: at 500,000 entries a fraction of resolving the 70,000 players who
    played, which took 7 s). A carried entry keeps both, so they are the figures compared."""
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
    ids, ratings, flags = chunk_reads.list_columns(
        session, parent_id, ("player_id", "rating", "active")
    )
    before = {
        player_id: (rating, flag)
        for player_id, rating, flag in zip(ids, ratings, flags, strict=True)
        if player_id in mine
    }
    found: dict[str, tuple[Figures | None, Figures | None]] = {}
    for player_id, figures in mine.items():
        was = before.get(player_id)
        found[player_id] = (figures, None if was is None else (was[0], None, 0, bool(was[1])))
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
