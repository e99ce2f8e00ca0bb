"""``/v1/players``: search, a player's latest ratings, history and calculations."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ratingdb.api.dependencies import ReadSessionDep
from ratingdb.api.params import (
    DEFAULT_LIMIT,
    CategoryPath,
    FederationQuery,
    LimitQuery,
    OffsetQuery,
    PeriodPath,
    PlayerIdPath,
    SearchQuery,
    federation_of,
    period_of,
    search_of,
)
from ratingdb.api.routes import LOOKUP, READ
from ratingdb.api.schemas import (
    CalculationOut,
    HistoryOut,
    HistoryPointOut,
    PlayerDetailOut,
    PlayerOut,
    PlayersOut,
    RatingOut,
)
from ratingdb.rules import Category
from ratingdb.services import published as svc

router = APIRouter(prefix="/v1/players", tags=["players"])


@router.get("", response_model=PlayersOut, responses=READ)
def players(
    session: ReadSessionDep,
    q: SearchQuery = None,
    federation: FederationQuery = None,
    limit: LimitQuery = DEFAULT_LIMIT,
    offset: OffsetQuery = 0,
) -> PlayersOut:
    """Player search by name (every word, any order, any case) or by the start of an id; an
    exact id comes first, then by name."""
    total, found = svc.search_players(
        session,
        search=search_of(q),
        federation=federation_of(federation),
        limit=limit,
        offset=offset,
    )
    return PlayersOut(
        total=total, limit=limit, offset=offset, players=[PlayerOut.of(p) for p in found]
    )


@router.get("/{player_id}", response_model=PlayerDetailOut, responses=LOOKUP)
def player(session: ReadSessionDep, player_id: PlayerIdPath) -> PlayerDetailOut:
    """The player and their latest published rating in each category."""
    found = svc.player(session, player_id)
    return PlayerDetailOut(
        **PlayerOut.fields_of(found),
        ratings=[RatingOut.of(point) for point in svc.latest_ratings(session, player_id)],
    )


@router.get("/{player_id}/history", response_model=HistoryOut, responses=LOOKUP)
def history(
    session: ReadSessionDep,
    player_id: PlayerIdPath,
    category: Annotated[Category, Query(description="the rating category")],
) -> HistoryOut:
    """The player's rating on every published list of the category, oldest first."""
    points = svc.history(session, player_id, category)
    return HistoryOut(
        player_id=player_id,
        category=category,
        points=[HistoryPointOut.of(point) for point in points],
    )


@router.get(
    "/{player_id}/calculations/{category}/{period}", response_model=CalculationOut, responses=LOOKUP
)
def calculation(
    session: ReadSessionDep, player_id: PlayerIdPath, category: CategoryPath, period: PeriodPath
) -> CalculationOut:
    """How the player's rating on that list came about, game by game: the ratings used, the
    difference after the cap, the expected score and the delta of each game; then the K
    applied, the sum of deltas, the change and the rule version."""
    return CalculationOut.of(
        player_id, svc.calculation(session, player_id, category, period_of(period))
    )
