"""What the sitemaps of the public site name (``ratingdb.api.routes.site``): every published
list, and every player in pages of at most ``size`` players."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ratingdb.repositories.published import sitemap as repo


def sitemap_player_pages(session: Session, size: int) -> int:
    """How many pages of ``size`` players the sitemaps hold (0: no player yet)."""
    return -(-repo.count_sitemap_players(session) // size)


def sitemap_players(session: Session, page: int, size: int) -> list[str]:
    """The ids of page ``page`` (1..) of the players, by id."""
    if page < 1 or size < 1:
        raise ValueError(f"a page (from 1) of at least one player, got page {page} of {size}")
    return repo.sitemap_player_ids(session, limit=size, offset=(page - 1) * size)
