"""A player's world and federation rank on each category's latest list (the player page)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from ratingdb.repositories.published import ranks as repo
from ratingdb.rules import Category, Period


@dataclass(frozen=True, slots=True)
class Rank:
    category: Category
    period: Period
    world: int
    federation: int | None  # None: the player has no federation


def latest_ranks(
    session: Session, player_id: str, categories: tuple[Category, ...]
) -> dict[Category, Rank]:
    """Per category, the ranks on its latest list (left out where the player is not on it)."""
    found: dict[Category, Rank] = {}
    for category in categories:
        latest = repo.latest_list(session, category)
        if latest is None:
            continue
        ranks = repo.ranks_on(session, latest.id, player_id)
        if ranks is not None:
            found[category] = Rank(category, Period.of_list_date(latest.list_date), *ranks)
    return found
