"""The players a sitemap names (``/sitemaps/players-N.xml``): every player with a page of their
own, that is every player not merged into another (``ratingdb players merge``)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.models import PlayerRow

_NOT_MERGED = PlayerRow.merged_into.is_(None)


def count_sitemap_players(session: Session) -> int:
    """How many players the sitemaps name."""
    return int(session.scalar(select(func.count()).where(_NOT_MERGED)) or 0)


def sitemap_player_ids(session: Session, *, limit: int, offset: int) -> list[str]:
    """One page of their ids, by id (the primary key's order: a page is an index range)."""
    statement = (
        select(PlayerRow.player_id)
        .where(_NOT_MERGED)
        .order_by(PlayerRow.player_id)
        .limit(limit)
        .offset(offset)
    )
    return list(session.scalars(statement))
