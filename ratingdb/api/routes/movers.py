"""``/v1/lists/{category}/{period}/movers`` (who moved on a list) and ``/v1/top/{category}``
(the top active players of the latest list, filtered)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.params import (
    CategoryPath,
    FederationQuery,
    OffsetQuery,
    PeriodPath,
    RevisionQuery,
    federation_of,
    period_of,
)
from ratingdb.api.routes import LOOKUP
from ratingdb.api.routes.lists import CACHE_CONTROL, CACHE_CONTROL_LATEST
from ratingdb.api.schemas.movers import MoversOut, TopOut
from ratingdb.db import ReadSession
from ratingdb.services import published as svc
from ratingdb.services.published.lists import EntryFilter, active_players, ranked_entries
from ratingdb.services.published.movers import MAX_MOVERS, movers

router = APIRouter(tags=["lists"])

MoversLimitQuery = Annotated[
    int, Query(ge=0, le=MAX_MOVERS, description=f"players of each kind (at most {MAX_MOVERS})")
]
TOP_MAX = 1000
TopLimitQuery = Annotated[int, Query(ge=1, le=TOP_MAX, description=f"at most {TOP_MAX}")]
SexQuery = Annotated[Literal["M", "F"] | None, Query(description="M or F")]
TitleQuery = Annotated[
    Literal["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"] | None,
    Query(description="the player's title (as it is now)"),
]
AgeQuery = Annotated[
    Literal["juniors", "girls", "seniors-50", "seniors-65"] | None,
    Query(description="juniors and girls: under 20 on 1 January of the list's year; seniors: "
                      "50 or 65 during it"),
]  # fmt: skip


@router.get("/v1/lists/{category}/{period}/movers", response_model=MoversOut, responses=LOOKUP)
async def list_movers(
    response: Response,
    read: ReaderDep,
    category: CategoryPath,
    period: PeriodPath,
    federation: FederationQuery = None,
    limit: MoversLimitQuery = 10,
    revision: RevisionQuery = None,
) -> MoversOut:
    """Who moved on the list against the list before it (a computed list's parent, an imported
    list's previous list): the biggest gainers and losers, the first ratings, and the players
    who became active or inactive; ``limit`` of each with how many there are. New titles are
    not given: titles are not kept per list."""
    wanted = period_of(period)
    wanted_federation = federation_of(federation)

    def found(session: ReadSession) -> MoversOut:
        summary = svc.find_list(session, category, wanted, revision)
        return MoversOut.of(
            movers(session, summary, federation=wanted_federation, limit=limit),
            wanted_federation,
        )

    response.headers["Cache-Control"] = CACHE_CONTROL_LATEST if revision is None else CACHE_CONTROL
    return await read(found)


@router.get("/v1/top/{category}", response_model=TopOut, responses=LOOKUP)
async def top(
    response: Response,
    read: ReaderDep,
    category: CategoryPath,
    federation: FederationQuery = None,
    sex: SexQuery = None,
    title: TitleQuery = None,
    age: AgeQuery = None,
    limit: TopLimitQuery = 100,
    offset: OffsetQuery = 0,
) -> TopOut:
    """The top of the category's latest list: its active players (as FIDE's rankings) the
    filters keep, by rating, each with the rank among the active players (and in the
    federation with ``federation``). 404 when the category has no list yet."""
    wanted = EntryFilter(federation=federation_of(federation), sex=sex, title=title, age=age)

    def found(session: ReadSession) -> TopOut:
        latest = svc.published_lists(session, category)
        if not latest:
            raise svc.NotFound(f"{category.value} has no published list yet")
        summary = latest[0]
        active = active_players(wanted, summary.category, summary.period)
        total, entries = ranked_entries(session, summary, active, limit=limit, offset=offset)
        return TopOut.of(summary, total, entries)

    response.headers["Cache-Control"] = CACHE_CONTROL_LATEST
    return await read(found)
