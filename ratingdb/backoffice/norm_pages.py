"""Title norms and the title watch (officers, read only): the FIDE standard tournaments, a
tournament's norm check (every player, every norm title they can still aim at, each condition
met or not with its figures), a player's draft norm certificate (printable), and the players
who reached a title's rating on a list. Nothing here writes: GET pages only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from ratingdb.backoffice.pages import _page
from ratingdb.backoffice.security import context, signed_in
from ratingdb.errors import InputError
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message, worded
from ratingdb.rules.titles import NORM_TITLES, FederationExemption, Title
from ratingdb.services.accounts import Principal
from ratingdb.services.norms import TournamentNorms, tournament_norms
from ratingdb.services.published import tournaments
from ratingdb.services.submissions import described
from ratingdb.services.title_watch import title_watch

Caller = Annotated[Principal, Depends(signed_in)]
#: The norm index lists at most this many tournaments, the latest first.
TOURNAMENTS_SHOWN = 200
EXEMPTIONS = tuple(e.value for e in FederationExemption)


def _options(request: Request) -> tuple[FederationExemption | None, bool, str]:
    """The event's kind as the officer declares it (query), and the query to keep it."""
    exemption_text = request.query_params.get("exemption", "")
    if exemption_text and exemption_text not in EXEMPTIONS:
        raise InputError(
            Message(N_("unknown exemption %(given)s (expected one of: %(names)s)"),
                    {"given": repr(exemption_text), "names": ", ".join(EXEMPTIONS)}),
            field="exemption",
        )  # fmt: skip
    team = request.query_params.get("team_championship", "") == "1"
    exemption = FederationExemption(exemption_text) if exemption_text else None
    parts = []
    if exemption is not None:
        parts.append(f"exemption={exemption.value}")
    if team:
        parts.append("team_championship=1")
    return exemption, team, ("?" + "&".join(parts)) if parts else ""


def norms_index(request: Request, caller: Caller) -> Response:
    found = context(request)
    with found.sessions.begin() as session:
        shown = tournaments(session, Category.FIDE_STANDARD)
    latest = sorted(shown, key=lambda t: (t.start_date, t.tournament_id), reverse=True)
    return _page(request, "norms.html", tournaments=latest[:TOURNAMENTS_SHOWN],
                 total=len(shown))  # fmt: skip


def _norms(request: Request, tournament_id: str) -> tuple[TournamentNorms, str]:
    exemption, team, query = _options(request)
    found = context(request)
    with found.sessions.begin() as session:
        norms = tournament_norms(
            session, tournament_id, exemption=exemption, team_championship=team
        )
    return norms, query


def norm_check(request: Request, tournament_id: str, caller: Caller) -> Response:
    try:
        norms, query = _norms(request, tournament_id)
    except InputError as bad:
        return _page(request, "norm_check.html", status=422, norms=None,
                     tournament_id=tournament_id, error=described(bad), query="",
                     exemptions=EXEMPTIONS)  # fmt: skip
    return _page(request, "norm_check.html", norms=norms, tournament_id=tournament_id,
                 error=None, query=query, exemptions=EXEMPTIONS)  # fmt: skip


def certificate(
    request: Request, tournament_id: str, player_id: str, title: str, caller: Caller
) -> Response:
    try:
        wanted = Title.parse(title)
        if wanted not in NORM_TITLES:
            raise InputError(
                Message(N_("%(title)s is not a norm title"), {"title": title}), field="title"
            )
        norms, query = _norms(request, tournament_id)
    except (InputError, ValueError) as bad:
        message = described(bad) if isinstance(bad, InputError) else worded(bad)

        return _page(request, "not_found.html", status=404, error=message)
    player = norms.player(player_id)
    check = None if player is None or wanted is None else player.check(wanted)
    if player is None or check is None:
        return _page(request, "not_found.html", status=404,
                     error=Message(N_("no %(title)s norm check for player %(player)s in "
                                      "%(tournament)s"),
                                   {"title": title, "player": player_id,
                                    "tournament": tournament_id}))  # fmt: skip
    return _page(request, "norm_certificate.html", norms=norms, player=player, check=check,
                 query=query)  # fmt: skip


def watch_page(request: Request, caller: Caller) -> Response:
    category_text = request.query_params.get("category", Category.FIDE_STANDARD.value)
    period_text = request.query_params.get("period", "")
    values: dict[str, Any] = {
        "category": category_text,
        "period": period_text,
        "watch": None,
        "error": None,
    }
    if not period_text:
        return _page(request, "title_watch.html", **values)
    found = context(request)
    try:
        try:
            wanted = Category.parse(category_text)
        except ValueError as error:
            raise InputError(worded(error), field="category") from None
        try:
            period = Period.parse(period_text)
        except ValueError as error:
            raise InputError(worded(error), field="period") from None
        with found.sessions.begin() as session:
            values["watch"] = title_watch(session, wanted, period)
    except InputError as bad:
        values["error"] = described(bad)
        return _page(request, "title_watch.html", status=422, **values)
    return _page(request, "title_watch.html", **values)


def register(router: APIRouter) -> None:
    """The pages' routes (each one also a line of ``policy.POLICY``); not in the OpenAPI."""
    for path, endpoint in (
        ("/norms", norms_index),
        ("/norms/tournaments/{tournament_id}", norm_check),
        ("/norms/tournaments/{tournament_id}/certificates/{player_id}/{title}", certificate),
        ("/titles/watch", watch_page),
    ):
        router.add_api_route(path, endpoint, methods=["GET"], include_in_schema=False)
