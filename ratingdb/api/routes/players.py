"""``/v1/players``: search, a player's latest ratings, history and calculations.

A player's history changes only when a list of its category is published or revised, which
moves the category's generation (``services.published.Generation``): the history's ETag names
it, and the JSON rendered for an ETag is kept in the app's page cache (``ratingdb.api.caches``),
the generations for a second, so a history already rendered is answered without the database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from ratingdb.api.caches import Deflated, ListLookups
from ratingdb.api.compression import MINIMUM_SIZE
from ratingdb.api.dependencies import Reader, ReaderDep
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
from ratingdb.api.routes.lists import caches_of, etag_matches, etag_of
from ratingdb.api.schemas import (
    CalculationOut,
    FoundPlayerOut,
    HistoryOut,
    InterimOut,
    InterimRatingOut,
    PlayerDetailOut,
    PlayerOut,
    PlayersOut,
    RatingOut,
)
from ratingdb.api.schemas.players import history_json
from ratingdb.db import ReadSession
from ratingdb.rules import Category
from ratingdb.services import published as svc
from ratingdb.services.interim import player_interims

router = APIRouter(prefix="/v1/players", tags=["players"])

#: A history may change with any publication or correction: a client or cache may keep it but
#: asks again each time (If-None-Match: 304 while it has not changed).
CACHE_CONTROL_HISTORY = "no-cache"
#: The key of every category's generation in ``app.state.generations``.
GENERATIONS = "generations"


@dataclass(frozen=True, slots=True)
class Generations:
    """Every category's list generation, and the games' (``svc.games_generation``: moves with
    every accepted tournament and correction, what an interim rating also depends on)."""

    lists: Mapping[Category, svc.Generation]
    games: tuple[int, int]

    def __getitem__(self, category: Category) -> svc.Generation:
        return self.lists[category]


def generations_of(request: Request) -> ListLookups[str, Generations]:
    """The app's generations of the categories, kept for a second (``create_app``)."""
    generations = request.app.state.generations
    if not isinstance(generations, ListLookups):
        raise TypeError("the app has no generations (build it with create_app)")
    return generations


def current_generations(
    generations: ListLookups[str, Generations], session: ReadSession
) -> Generations:
    """Every category's generation, read now (and kept for a second). Read before what it
    names: a page rendered after it may be newer than its ETag says, never older."""
    found = Generations(svc.list_generations(session), svc.games_generation(session))
    generations.put(GENERATIONS, found)
    return found


async def kept_by_generations(
    request: Request,
    read: Reader,
    etag_for: Callable[[Generations], str],
    render: Callable[[ReadSession], bytes | Response],
    answer: Callable[[str, bytes], Response],
) -> Response:
    """A page that changes only when a list is published or revised (a history, a player
    page): from the page cache under ``etag_for(generations)`` when it was rendered already
    (with the generations known, without the database or a thread), else ``render``ed in a
    read, kept and ``answer``ed. A ``render`` that gives a Response (not found) is returned
    as it is, and nothing is kept."""
    pages = Deflated(caches_of(request)[0])
    generations = generations_of(request)
    accepts_gzip = "gzip" in request.headers.get("accept-encoding", "")

    def cached(found: Generations) -> Response | None:
        etag = etag_for(found)
        if accepts_gzip:
            packed = pages.get_gzip(etag)
            if packed is not None and gzip_size(packed) >= MINIMUM_SIZE:
                return as_gzip(answer(etag, b""), packed)
        body = pages.get(etag)
        return None if body is None else answer(etag, body)

    known = generations.get(GENERATIONS)
    if known is not None and (served := cached(known)) is not None:
        return served

    def rendered(session: ReadSession) -> Response:
        found = known or current_generations(generations, session)
        if (served := cached(found)) is not None:
            return served
        body = render(session)
        if isinstance(body, Response):
            return body
        etag = etag_for(found)
        packed = pages.put(etag, body)
        if accepts_gzip and len(body) >= MINIMUM_SIZE:
            # Sent as kept, as the next request will be: compressing it again on the way out
            # cost a ten-year page's first render 5 ms more.
            return as_gzip(answer(etag, b""), packed)
        return answer(etag, body)

    return await read(rendered)


def gzip_size(packed: bytes) -> int:
    """The size of what a gzip member holds (its trailer's ISIZE; the pages are far below
    4 GiB, where it wraps)."""
    return int.from_bytes(packed[-4:], "little")


def as_gzip(response: Response, packed: bytes) -> Response:
    """``response`` (made with an empty body) with the kept gzip bytes as its body, as the
    Compression middleware would have sent it (which passes a body already encoded through,
    and makes its ETag weak): a 304 stays as it is."""
    if response.status_code != 200:
        return response
    sent = Response(packed, status_code=200)
    sent.raw_headers = [(k, v) for k, v in response.raw_headers if k != b"content-length"]
    sent.headers["Content-Length"] = str(len(packed))
    sent.headers["Content-Encoding"] = "gzip"
    sent.headers.add_vary_header("Accept-Encoding")
    return sent


def history_etag(
    player_id: str, category: Category, revision: int | None, generation: svc.Generation
) -> str:
    """The player, the category, the revision asked for and the category's generation."""
    return etag_of(
        "history",
        player_id,
        category.value,
        revision,
        generation.lists,
        generation.last_id,
        generation.records,
    )


@router.get("", response_model=PlayersOut, responses=READ)
async def players(
    read: ReaderDep,
    q: SearchQuery = None,
    federation: FederationQuery = None,
    limit: LimitQuery = DEFAULT_LIMIT,
    offset: OffsetQuery = 0,
) -> PlayersOut:
    """Player search: each word starting a word of the name (any order; accents, case and
    punctuation ignored), or the start of the player id or FIDE id; an exact id comes first,
    then by name. Each player with their rating on each category's latest list."""
    search, wanted_federation = search_of(q), federation_of(federation)
    total, found = await read(
        lambda session: svc.search_players(
            session, search=search, federation=wanted_federation, limit=limit, offset=offset
        )
    )
    return PlayersOut(
        total=total, limit=limit, offset=offset, players=[FoundPlayerOut.found(p) for p in found]
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


@router.get(
    "/{player_id}/history",
    response_model=HistoryOut,
    responses={
        **LOOKUP,
        200: {"headers": {"ETag": {"schema": {"type": "string"}}}},
        304: {"description": "Not modified (If-None-Match holds the ETag)"},
    },
)
async def history(
    request: Request,
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
    the revision shown and the rating on the original list. A history once rendered is kept
    by its ETag, which names the category's publications and revisions (known for a second)."""
    if_none_match = request.headers.get("if-none-match")

    def answer(etag: str, body: bytes) -> Response:
        """The history, or 304 when the client holds it (only once the history is known to
        exist: ``If-None-Match: *`` on an unknown player is still 404)."""
        headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL_HISTORY}
        if etag_matches(if_none_match, etag):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    def render(session: ReadSession) -> bytes:
        found = svc.history(session, player_id, category, revision)
        return history_json(player_id, category, revision, found)

    return await kept_by_generations(
        request,
        read,
        lambda found: history_etag(player_id, category, revision, found[category]),
        render,
        answer,
    )


def interim_etag(player_id: str, found: Generations) -> str:
    """The player, every category's lists and the games (an interim rating moves with an
    accepted tournament or a correction, and with a publication)."""
    parts = [(g.lists, g.last_id) for g in (found[category] for category in Category)]
    return etag_of("interim", player_id, *parts, *found.games)


@router.get(
    "/{player_id}/interim",
    response_model=InterimOut,
    responses={
        **LOOKUP,
        200: {"headers": {"ETag": {"schema": {"type": "string"}}}},
        304: {"description": "Not modified (If-None-Match holds the ETag)"},
    },
)
async def interim(request: Request, read: ReaderDep, player_id: PlayerIdPath) -> Response:
    """The player's interim ratings (unofficial: ``official`` is always false): in each
    category whose open period (the first after its latest list) holds rated games of theirs,
    the rating a close now would publish, explained game by game as a published calculation,
    as of the latest accepted tournament it counts. Computed from the stored games for this
    player only; it changes with every accepted tournament or correction of theirs until the
    period is published. Kept by its ETag like a history."""
    if_none_match = request.headers.get("if-none-match")

    def answer(etag: str, body: bytes) -> Response:
        headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL_HISTORY}
        if etag_matches(if_none_match, etag):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    def render(session: ReadSession) -> bytes:
        found = player_interims(session, player_id)
        return (
            InterimOut(
                player_id=player_id,
                official=False,
                interims=[InterimRatingOut.of(item) for item in found],
            )
            .model_dump_json()
            .encode()
        )

    return await kept_by_generations(
        request, read, lambda found: interim_etag(player_id, found), render, answer
    )


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
