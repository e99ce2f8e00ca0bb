"""A player's rank on a list: in the world (everyone on it) and in their federation."""

from __future__ import annotations

from collections import Counter

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import ListEntryRow, PlayerRow, RatingListRow
from ratingdb.repositories import list_entries as entries_repo
from ratingdb.repositories.published.common import AnyRow, is_current
from ratingdb.repositories.published.lists import entries_above
from ratingdb.rules import Category


def latest_list(session: Session, category: Category) -> AnyRow | None:
    """The latest revision of the category's latest list (id, list_date, revision)."""
    return session.execute(
        select(RatingListRow.id, RatingListRow.list_date, RatingListRow.revision)
        .where(RatingListRow.category == category, is_current())
        .order_by(RatingListRow.list_date.desc())
        .limit(1)
    ).one_or_none()


def own_entry(session: Session, list_id: int, player_id: str) -> AnyRow | None:
    """The player's rating on the list and their federation (``rating``, ``federation``);
    None: not on it."""
    return session.execute(
        select(ListEntryRow.rating, PlayerRow.federation)
        .join(PlayerRow, PlayerRow.player_id == ListEntryRow.player_id)
        .where(ListEntryRow.list_id == list_id, ListEntryRow.player_id == player_id)
    ).one_or_none()


def ranks_on(session: Session, list_id: int, player_id: str) -> tuple[int, int | None] | None:
    """(world rank, federation rank) of the player on the list, ties sharing a rank (1 + the
    entries rated higher, counted from the list's chunks); None: not on it. The federation
    rank is None without a federation."""
    own = own_entry(session, list_id, player_id)
    if own is None:
        return None
    if own.federation is None:
        return 1 + entries_above(session, list_id, own.rating), None
    # Both from the ids of the entries above (list order: rating descending).
    above = entries_repo.ids_rated_above(session, list_id, own.rating)
    in_federation = entries_repo.count_of_federation(session, above, own.federation)
    return 1 + len(above), 1 + in_federation


def rating_counts(session: Session, list_id: int) -> list[tuple[str | None, int, int]]:
    """How many entries of the list have each rating, per federation of their players:
    (federation, None for players without one; rating; entries), at most a few thousand
    whatever the list's size. Read from the list's chunks."""
    counts: Counter[tuple[str | None, int]] = Counter()
    for ratings, federations in entries_repo.with_players(
        session, list_id, ("rating",), (PlayerRow.federation,)
    ):
        counts.update(zip(federations, ratings, strict=True))
    return [(federation, rating, entries) for (federation, rating), entries in counts.items()]
