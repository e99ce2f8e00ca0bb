"""Players (issue 28 item 2), officers only: browse and search them (the public site's search),
open a record (its ratings, a link to its public page), and edit it with a reason (CSRF-checked,
audited, refused with 409 when the record changed since the form was opened). The same in the
JSON API under /admin/v1/players."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from pydantic import BaseModel

from ratingdb.backoffice.api import TAGS, body_of, documented
from ratingdb.backoffice.pages import _page
from ratingdb.backoffice.security import context, form_fields, signed_in
from ratingdb.errors import InputError
from ratingdb.i18n import N_
from ratingdb.rules.messages import Message
from ratingdb.services import player_records as service
from ratingdb.services.accounts import Principal
from ratingdb.services.published.common import NotFound
from ratingdb.services.submissions import describe, described

Fields = Annotated[dict[str, str], Depends(form_fields)]
Caller = Annotated[Principal, Depends(signed_in)]
#: Players a page of the search shows.
PAGE_SIZE = 50
#: The most the API gives at once.
MAX_LIMIT = 500
#: The form's fields, in its order, with their labels.
LABELS = {
    "name": N_("Name (Surname, First name)"),
    "sex": N_("Sex"),
    "birth_date": N_("Birth date (YYYY-MM-DD)"),
    "birth_year": N_("Birth year (when the date is not known)"),
    "fide_id": N_("FIDE id"),
    "federation": N_("Federation (3 letters)"),
    "title": N_("Title"),
    "national_federation": N_("Federation of the national id"),
    "national_id": N_("National id"),
}
#: The dated fields: the kind, its date's field and its label.
DATED_LABELS = {
    "federation_from": N_("Federation effective from (YYYY-MM-DD; empty: a correction)"),
    "title_from": N_("Title effective from (YYYY-MM-DD; empty: a correction)"),
    "status": N_("Standing"),
    "status_from": N_("Standing effective from (YYYY-MM-DD)"),
}


#: What an edit reads of a form or a body.
EDIT_FIELDS = (*LABELS, *DATED_LABELS)


def _number(request: Request, name: str, default: int, least: int, most: int) -> int:
    text = request.query_params.get(name, "")
    if not text:
        return default
    if not text.isascii() or not text.isdigit() or not least <= int(text) <= most:
        raise InputError(Message(N_("a whole number from %(least)s to %(most)s, got %(given)s"),
                                 {"least": least, "most": most, "given": repr(text)}),
                         field=name)  # fmt: skip
    return int(text)


def _public_link(request: Request, player_id: str) -> str:
    base = request.app.state.public_base_url
    return f"{base or ''}/players/{player_id}"


def players_page(request: Request, caller: Caller) -> Response:
    search = request.query_params.get("q", "").strip()
    try:
        page = _number(request, "page", 1, 1, 10**6)
    except InputError as error:
        return _page(request, "players.html", status=422, search=search, total=0, players=(),
                     page=1, pages=1, error=described(error))  # fmt: skip
    with context(request).reads.begin() as session:
        total, found = service.browse(
            session, search, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE
        )
    pages = max(1, -(-total // PAGE_SIZE))
    return _page(request, "players.html", search=search, total=total, players=found, page=page,
                 pages=pages, error=None)  # fmt: skip


def _record(request: Request, player_id: str) -> service.PlayerRecord:
    with context(request).reads.begin() as session:
        try:
            return service.record(session, player_id)
        except NotFound as missing:
            raise HTTPException(404, str(missing)) from None


def _missing(request: Request, player_id: str) -> Response:
    """The page of a player not found, in the officer's language (the API's 404 says it in
    English)."""
    return _page(request, "not_found.html", status=404,
                 error=Message(N_("no player %(id)s"), {"id": player_id}))  # fmt: skip


def _record_page(
    request: Request,
    player_id: str,
    status: int = 200,
    error: InputError | None = None,
    values: dict[str, str] | None = None,
) -> Response:
    with context(request).reads.begin() as session:
        try:
            shown = service.record(session, player_id)
        except NotFound:
            return _missing(request, player_id)
    if values is None:
        values = {k: "" if getattr(shown, k) is None else str(getattr(shown, k))
                  for k in LABELS}  # fmt: skip
        values["version"] = shown.version
        values["status"] = shown.status.value
    return _page(request, "player.html", status=status, player=shown, values=values,
                 labels=LABELS, dated_labels=DATED_LABELS, titles=service.TITLES,
                 sexes=service.SEXES, standings=service.STANDINGS,
                 public_link=_public_link(request, player_id),
                 error=None if error is None else described(error),
                 error_field=None if error is None else error.field,
                 saved=request.query_params.get("saved") == "1")  # fmt: skip


def player_page(request: Request, player_id: str, caller: Caller) -> Response:
    return _record_page(request, player_id)


def _edit(
    request: Request, caller: Principal, player_id: str, fields: dict[str, Any]
) -> service.PlayerRecord:
    found = context(request)
    with found.sessions.begin() as session:
        return service.edit(
            session, player_id, {k: v for k, v in fields.items() if k in EDIT_FIELDS},
            reason=str(fields.get("reason") or ""), version=str(fields.get("version") or ""),
            actor=caller.username, now=found.clock(),
        )  # fmt: skip


def edit_player(request: Request, player_id: str, caller: Caller, fields: Fields) -> Response:
    try:
        _edit(request, caller, player_id, fields)
    except NotFound:
        return _missing(request, player_id)
    except InputError as error:
        status = 409 if isinstance(error, service.RecordConflict) else 422
        kept: dict[str, str] | None = {
            k: v for k, v in fields.items() if k in (*EDIT_FIELDS, "version", "reason")
        }
        if isinstance(error, service.RecordChanged):
            kept = None  # the form shows the record as it is now, with its new version
        return _record_page(request, player_id, status, error, kept)
    return RedirectResponse(f"/players/{player_id}?saved=1", status_code=303)


# --- the JSON API ----------------------------------------------------------------------------


class PlayerEdit(BaseModel):
    """The fields to change (an absent field keeps its value, an empty one clears it), the
    record's ``version`` as last read, and why."""

    version: str
    reason: str
    name: str | None = None
    sex: str | None = None
    birth_date: str | None = None
    birth_year: str | int | None = None
    fide_id: str | None = None
    federation: str | None = None
    title: str | None = None
    national_federation: str | None = None
    national_id: str | None = None
    #: The date the federation, the title, the standing in this edit hold from (YYYY-MM-DD).
    federation_from: str | None = None
    title_from: str | None = None
    status: str | None = None
    status_from: str | None = None


def _as_json(shown: service.PlayerRecord) -> dict[str, Any]:
    return {
        "player_id": shown.player_id,
        **{k: getattr(shown, k) for k in service.EDITABLE if k != "birth_date"},
        "birth_date": None if shown.birth_date is None else shown.birth_date.isoformat(),
        "merged_into": shown.merged_into,
        "status": shown.status.value,
        "history": {
            kind: [{"from": when.isoformat(), kind: value} for when, value in rows]
            for kind, rows in shown.history.items()
        },
        "ratings": [
            {"category": r.category.value, "period": str(r.period), "rating": r.rating}
            for r in shown.ratings
        ],
        "version": shown.version,
    }


def api_players(request: Request, caller: Caller) -> dict[str, Any]:
    """Players the search ``q`` matches (id, FIDE id, or name whatever the accents, case and
    order: the public search), ``limit`` (1-500, 100) from ``offset``."""
    try:
        limit = _number(request, "limit", 100, 1, MAX_LIMIT)
        offset = _number(request, "offset", 0, 0, 10**9)
    except InputError as error:
        raise HTTPException(422, describe(error)) from None
    with context(request).reads.begin() as session:
        total, found = service.browse(
            session, request.query_params.get("q", "").strip(), limit=limit, offset=offset
        )
    return {
        "total": total,
        "players": [
            {"player_id": p.player_id, "name": p.name, "federation": p.federation, "sex": p.sex,
             "birth_year": p.birth_year, "title": p.title,
             "ratings": [{"category": r.category.value, "period": str(r.period),
                          "rating": r.rating} for r in p.ratings]}
            for p in found
        ],
    }  # fmt: skip


def api_player(request: Request, player_id: str, caller: Caller) -> dict[str, Any]:
    """A player's record, ratings and ``version`` (what an edit names)."""
    return _as_json(_record(request, player_id))


def api_edit_player(
    request: Request,
    player_id: str,
    caller: Caller,
    body: Annotated[PlayerEdit, body_of(PlayerEdit)],
) -> dict[str, Any] | JSONResponse:
    """Edit a player's record (officers; audited). 422 naming the field; 409 when the record
    changed since ``version`` or the FIDE id or national id is another player's; 404."""
    try:
        shown = _edit(request, caller, player_id, body.model_dump(exclude_unset=True))
    except NotFound as missing:
        raise HTTPException(404, str(missing)) from None
    except service.RecordConflict as conflict:
        return JSONResponse({"detail": describe(conflict), "field": conflict.field}, 409)
    except InputError as error:
        raise HTTPException(422, describe(error)) from None
    return _as_json(shown)


def register(router: APIRouter) -> None:
    """The routes (each one also a line of ``policy.POLICY``)."""
    router.add_api_route("/players", players_page, methods=["GET"], include_in_schema=False)
    router.add_api_route("/players/{player_id}", player_page, methods=["GET"],
                         include_in_schema=False)  # fmt: skip
    router.add_api_route("/players/{player_id}", edit_player, methods=["POST"],
                         include_in_schema=False)  # fmt: skip
    router.get("/admin/v1/players", tags=TAGS)(api_players)
    router.get("/admin/v1/players/{player_id}", tags=TAGS)(api_player)
    router.post(
        "/admin/v1/players/{player_id}", tags=TAGS, openapi_extra=documented(PlayerEdit),
        response_model=None,
    )(api_edit_player)  # fmt: skip
