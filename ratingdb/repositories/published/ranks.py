"""A player's rank on a list: in the world (everyone on it) and in their federation."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.models import ListEntryRow, PlayerRow, RatingListRow
from ratingdb.repositories.published.common import AnyRow, is_current
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
    entries rated higher); None: not on it. The federation rank is None without a federation."""
    own = own_entry(session, list_id, player_id)
    if own is None:
        return None
    higher = (
        select(func.count())
        .select_from(ListEntryRow)
        .where(ListEntryRow.list_id == list_id, ListEntryRow.rating > own.rating)
    )
    world = 1 + int(session.scalar(higher) or 0)
    if own.federation is None:
        return world, None
    in_federation = higher.join(PlayerRow, PlayerRow.player_id == ListEntryRow.player_id).where(
        PlayerRow.federation == own.federation
    )
    return world, 1 + int(session.scalar(in_federation) or 0)


def rating_counts(session: Session, list_id: int) -> Sequence[AnyRow]:
    """How many entries of the list have each rating, per federation of their players
    (``federation``, None for players without one; ``rating``; ``entries``): at most a few
    thousand rows whatever the list's size."""
    return session.execute(
        select(PlayerRow.federation, ListEntryRow.rating, func.count().label("entries"))
        .join(PlayerRow, PlayerRow.player_id == ListEntryRow.player_id)
        .where(ListEntryRow.list_id == list_id)
        .group_by(PlayerRow.federation, ListEntryRow.rating)
    ).all()
