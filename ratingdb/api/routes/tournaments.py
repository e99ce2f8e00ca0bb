"""``/v1/tournaments/{tournament_id}``: a tournament, its period and its games."""

from __future__ import annotations

from fastapi import APIRouter

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.params import TournamentIdPath
from ratingdb.api.routes import LOOKUP
from ratingdb.api.schemas import TournamentOut
from ratingdb.services import published as svc

router = APIRouter(prefix="/v1/tournaments", tags=["tournaments"])


@router.get("/{tournament_id}", response_model=TournamentOut, responses=LOOKUP)
async def tournament(read: ReaderDep, tournament_id: TournamentIdPath) -> TournamentOut:
    """The tournament as ``ratingdb tournaments show`` prints it, with the players' names."""
    return TournamentOut.of(await read(lambda session: svc.tournament(session, tournament_id)))
