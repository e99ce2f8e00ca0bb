"""``/tournaments/{tournament_id}``: a tournament's crosstable, rating changes and games by
round, as a page (services.published.crosstable)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ratingdb.api.dependencies import ReaderDep
from ratingdb.api.i18n import reader_of
from ratingdb.api.routes.pages import not_found_message, page_response
from ratingdb.db import ReadSession
from ratingdb.services import published as svc

router = APIRouter(include_in_schema=False)
MAX_ID = 40


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(request: Request, read: ReaderDep, tournament_id: str) -> HTMLResponse:
    """The crosstable (HTML 404 for an unknown id)."""
    if len(tournament_id) > MAX_ID or not tournament_id.isprintable():
        return _unknown(request, tournament_id[:MAX_ID])
    return await read(lambda session: _page(request, session, tournament_id))


def _page(request: Request, session: ReadSession, tournament_id: str) -> HTMLResponse:
    try:
        table = svc.crosstable(session, tournament_id)
    except svc.NotFound:
        return _unknown(request, tournament_id)
    return page_response(
        request, "tournament.html", {"t": table.tournament, "table": table, "Outcome": svc.Outcome}
    )


def _unknown(request: Request, tournament_id: str) -> HTMLResponse:
    message = reader_of(request).gettext("No tournament %(id)s.") % {"id": tournament_id}
    return not_found_message(request, message)
