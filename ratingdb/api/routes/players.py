"""``/v1/players``: search, a player's latest ratings, history and calculations."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.params import (
    DEFAULT_LIMIT,
    MAX_REVISION,
    CategoryPath,
    FederationQuery,
    LimitQuery,
    OffsetQuery,
    PeriodPath,
    PlayerIdPath,
    RevisionQuery,
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
from ratingdb.db import ReadSession
from ratingdb.rules import Category
from ratingdb.services import published as svc

router = APIRouter(prefix="/v1/players", tags=["players"])


@router.get("", response_model=PlayersOut, responses=READ)
async def players(
    read: ReaderDep,
    q: SearchQuery = None,
    federation: FederationQuery = None,
    limit: LimitQuery = DEFAULT_LIMIT,
    offset: OffsetQuery = 0,
) -> PlayersOut:
    """Player search by name (every word, any order, any case) or by the start of an id; an
    exact id comes first, then by name."""
    search, wanted_federation = search_of(q), federation_of(federation)
    total, found = await read(
        lambda session: svc.search_players(
            session, search=search, federation=wanted_federation, limit=limit, offset=offset
        )
    )
    return PlayersOut(
        total=total, limit=limit, offset=offset, players=[PlayerOut.of(p) for p in found]
    )


@router.get("/{player_id}", response_model=PlayerDetailOut, responses=LOOKUP)
async def player(read: ReaderDep, player_id: PlayerIdPath) -> PlayerDetailOut:
    """The player and their latest published rating in each category."""

    def detail(session: ReadSession) -> PlayerDetailOut:
        found = svc.player(session, player_id)
        return PlayerDetailOut(
            **PlayerOut.fields_of(found),
            ratings=[RatingOut.of(point) for point in svc.latest_ratings(session, player_id)],
        )

    return await read(detail)


@router.get("/{player_id}/history", response_model=HistoryOut, responses=LOOKUP)
async def history(
    read: ReaderDep,
    player_id: PlayerIdPath,
    category: Annotated[Category, Query(description="the rating category")],
    revision: Annotated[
        int | None,
        Query(
            ge=1,
            le=MAX_REVISION,
            description="each list at its latest revision up to this one (1: the original "
            "lists; default: the latest revision of each list); 404 when no list of the "
            "category has it",
        ),
    ] = None,
) -> Response:
    """The player's rating on every published list of the category, oldest first, each with
    the revision shown and the rating on the original list."""
    points = await read(lambda session: svc.history(session, player_id, category, revision))
    return HistoryOut(
        player_id=player_id,
        category=category,
        revision=revision,
        points=[HistoryPointOut.of(point) for point in points],
    ).response()


@router.get(
    "/{player_id}/calculations/{category}/{period}", response_model=CalculationOut, responses=LOOKUP
)
async def calculation(
    read: ReaderDep,
    player_id: PlayerIdPath,
    category: CategoryPath,
    period: PeriodPath,
    revision: RevisionQuery = None,
) -> CalculationOut:
    """How the player's rating on that list (its latest revision, or ``revision``) came about,
    game by game: the ratings used, the difference after the cap, the expected score and the
    delta of each game; then the K applied, the sum of deltas, the change and the rule
    version."""
    wanted = period_of(period)
    found = await read(
        lambda session: svc.calculation(session, player_id, category, wanted, revision)
    )
    return CalculationOut.of(player_id, found)
