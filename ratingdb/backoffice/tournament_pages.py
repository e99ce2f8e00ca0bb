"""The tournaments (officers): browse the stored tournaments, newest first, filtered by name,
category, rated periods and federation; open one for its players and its games by round.

Nothing here writes. Each game's "Correct" link opens the game correction form with the game
filled in (``/corrections/game?tournament=...&round=...&white=...&black=...``), and the
tournament page's Withdraw form posts to the withdrawal form (``/corrections/withdraw``): both
go through the corrections' own preview and confirmation (correction_pages), so no id is typed
by hand and there is one path for each correction.
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from ratingdb.backoffice.pages import _page
from ratingdb.backoffice.security import context, signed_in
from ratingdb.errors import InputError
from ratingdb.rules import Category
from ratingdb.rules.messages import N_, Message
from ratingdb.services.accounts import Principal
from ratingdb.services.published.common import NotFound
from ratingdb.services.submissions import described
from ratingdb.services.tournament_browse import BrowseQuery, browse, detail

Caller = Annotated[Principal, Depends(signed_in)]
CATEGORIES = tuple(category.value for category in Category)


def tournaments_page(request: Request, caller: Caller) -> Response:
    given = dict(request.query_params)
    try:
        query = BrowseQuery.parse(given)
    except InputError as bad:
        return _page(request, "tournaments.html", status=422, shown=None, values=given,
                     error=described(bad), error_field=bad.field, categories=CATEGORIES,
                     federations=())  # fmt: skip
    found = context(request)
    with found.sessions.begin() as session:
        shown = browse(session, query)
    pages = {
        name: _address(query.filters(number))
        for name, number in (("previous", query.page - 1), ("next", query.page + 1))
        if 1 <= number <= shown.pages
    }
    return _page(request, "tournaments.html", shown=shown, values=given, error=None,
                 error_field=None, categories=CATEGORIES, federations=shown.federations,
                 pages=pages)  # fmt: skip


def _address(filters: dict[str, str]) -> str:
    return "/tournaments" + ("?" + urlencode(filters) if filters else "")


def _correct_link(tournament_id: str, round_number: int, white: str, black: str) -> str:
    return "/corrections/game?" + urlencode(
        {"tournament": tournament_id, "round": round_number, "white": white, "black": black}
    )


def tournament_page(request: Request, tournament_id: str, caller: Caller) -> Response:
    found = context(request)
    try:
        with found.sessions.begin() as session:
            shown = detail(session, tournament_id)
    except NotFound:
        return _page(request, "not_found.html", status=404,
                     error=Message(N_("no tournament %(id)s"), {"id": tournament_id}))  # fmt: skip
    return _page(request, "tournament_detail.html", shown=shown, t=shown.tournament,
                 correct_link=_correct_link)  # fmt: skip


def register(router: APIRouter) -> None:
    """The pages' routes (each one also a line of ``policy.POLICY``); not in the OpenAPI."""
    for path, endpoint in (
        ("/tournaments", tournaments_page),
        ("/tournaments/{tournament_id}", tournament_page),
    ):
        router.add_api_route(path, endpoint, methods=["GET"], include_in_schema=False)
