"""The JSON API of corrections (``Authorization: Bearer TOKEN``, officers only): a game's
result, a tournament replaced by a corrected file, two players merged, an imported list
replaced by a corrected file. The same services as ``ratingdb games correct``, ``tournaments
import --replace``, ``players merge`` and ``lists import --replace``, with the token's user as
the audit actor.

Every request needs a ``reason``; a merge of two records that may be two people also an
``override`` (its reason), else 422 naming each conflict. ``dry_run`` (the query's
``?dry_run=true`` or the JSON body's ``"dry_run": true``) answers 200 with the impact and
writes nothing; otherwise the correction is applied and answered 201. Bad input 422
``{"detail": "... field F: what is wrong"}`` with nothing stored; a file over the upload limit
413.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ratingdb.backoffice import uploads
from ratingdb.backoffice.api import TAGS, Caller, body_of, documented
from ratingdb.backoffice.security import context
from ratingdb.errors import InputError
from ratingdb.services import correction_requests as service
from ratingdb.services.correction_requests import CorrectionRequest
from ratingdb.services.submissions import describe

REASON = "why: required, recorded with the correction and in the audit log"
DRY_RUN = "true: answer the impact (200) and write nothing"
GAME_FIELDS = ("tournament", "round", "white", "black", "result")


class GameCorrection(BaseModel):
    """One game's result (``ratingdb games correct``)."""

    model_config = ConfigDict(json_schema_extra={"required": [*GAME_FIELDS, "reason"]})
    tournament: str | None = Field(None, description="the tournament's id")
    round: int | None = None
    white: str | None = Field(None, description="white's player id")
    black: str | None = Field(None, description="black's player id")
    result: str | None = Field(None, description="1-0, 0-1, 1/2-1/2, +-, -+ or --")
    reason: str | None = Field(None, description=REASON)
    dry_run: bool = Field(False, description=DRY_RUN)


class PlayerMerge(BaseModel):
    """Two records of one player made one (``ratingdb players merge KEEP DROP``)."""

    model_config = ConfigDict(json_schema_extra={"required": ["keep", "drop", "reason"]})
    keep: str | None = Field(None, description="the player id kept")
    drop: str | None = Field(None, description="the duplicate's player id, merged into keep")
    reason: str | None = Field(None, description=REASON)
    override: str | None = Field(
        None,
        description="why two records that may be two people (a round both played, another "
        "sex or birth year) are one all the same: without it such a merge is refused (422 "
        "naming each conflict); recorded with the correction and in the audit log",
    )
    dry_run: bool = Field(False, description=DRY_RUN)


def _dry_run(query: bool | None, body: bool) -> bool:
    if query is not None and body and not query:
        raise HTTPException(422, "field dry_run: the query says false, the body true")
    return bool(query) or body


async def _answer(request: Request, caller: Caller, work: Callable[[Any], dict[str, Any]],
                  dry_run: bool) -> JSONResponse:  # fmt: skip
    """Run ``work(session)`` in one transaction (in a thread: a correction recomputes lists);
    the service's refusals as 422."""
    found = context(request)

    def transaction() -> dict[str, Any]:
        with found.sessions.begin() as session:
            return work(session)

    try:
        answer = await run_in_threadpool(transaction)
    except InputError as error:
        raise HTTPException(422, describe(error)) from None
    return JSONResponse(answer, status_code=200 if dry_run else 201)


async def _run(request: Request, caller: Caller, wanted: CorrectionRequest,
               reason: str | None, dry_run: bool) -> JSONResponse:  # fmt: skip
    now = context(request).clock()
    if dry_run:
        return await _answer(
            request, caller,
            lambda session: service.dry_run(session, wanted, reason, caller, now), dry_run,
        )  # fmt: skip
    return await _answer(
        request, caller, lambda session: service.apply(session, wanted, reason, caller, now),
        dry_run,
    )  # fmt: skip


async def correct_game(
    request: Request,
    caller: Caller,
    body: Annotated[GameCorrection, body_of(GameCorrection)],
    dry_run: bool | None = None,
) -> JSONResponse:
    """Correct one game's result; the lists it changes are recomputed."""
    inputs = {
        "tournament": body.tournament or "",
        "round": "" if body.round is None else str(body.round),
        "white": body.white or "",
        "black": body.black or "",
        "result": body.result or "",
    }
    wanted = CorrectionRequest(service.GAME, inputs)
    return await _run(request, caller, wanted, body.reason, _dry_run(dry_run, body.dry_run))


async def merge_players(
    request: Request,
    caller: Caller,
    body: Annotated[PlayerMerge, body_of(PlayerMerge)],
    dry_run: bool | None = None,
) -> JSONResponse:
    """Merge a duplicate player into the one kept; the lists it changes are recomputed."""
    inputs = {"keep": body.keep or "", "drop": body.drop or ""}
    if body.override is not None:
        inputs["override"] = body.override
    wanted = CorrectionRequest(service.MERGE, inputs)
    return await _run(request, caller, wanted, body.reason, _dry_run(dry_run, body.dry_run))


async def replace_tournament(
    request: Request,
    tournament_id: str,
    caller: Caller,
    reason: str | None = None,
    format: str | None = None,
    filename: str | None = None,
    dry_run: bool = False,
) -> JSONResponse:
    """A corrected TRF or games CSV for a stored tournament (``ratingdb tournaments import FILE
    --replace ID``): its games are replaced, the lists they change recomputed."""
    with uploads.slot(request, caller):  # read and checked in one of the process's slots
        content, name = await uploads.api_file(request, filename)
        inputs = {"tournament": tournament_id, "format": format or ""}
        wanted = CorrectionRequest(service.TOURNAMENT, inputs, content, name)
        return await _run(request, caller, wanted, reason, dry_run)


async def replace_list(
    request: Request,
    caller: Caller,
    category: str | None = None,
    period: str | None = None,
    reason: str | None = None,
    format: str | None = None,
    filename: str | None = None,
    dry_run: bool = False,
) -> JSONResponse:
    """A corrected file for a list published by an import (``ratingdb lists import FILE
    --replace``): the list's next revision, the later lists recomputed."""
    with uploads.slot(request, caller):  # read and checked in one of the process's slots
        content, name = await uploads.api_file(request, filename)
        inputs = {"category": category or "", "period": period or "", "format": format or ""}
        wanted = CorrectionRequest(service.LIST, inputs, content, name)
        return await _run(request, caller, wanted, reason, dry_run)


def _file_body(parameters: str) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "description": "the corrected file itself (any Content-Type), or multipart/form-data "
            f"with a `file` field; {parameters} are query parameters",
            "content": {
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
                "multipart/form-data": {
                    "schema": {
                        "type": "object",
                        "properties": {"file": {"type": "string", "format": "binary"}},
                        "required": ["file"],
                    }
                },
            },
        }
    }


def register(router: APIRouter) -> None:
    """The routes (each one also a line of ``policy.POLICY``)."""
    router.post("/admin/v1/corrections/game", status_code=201, tags=TAGS,
                openapi_extra=documented(GameCorrection))(correct_game)  # fmt: skip
    router.post("/admin/v1/corrections/tournament/{tournament_id}", status_code=201, tags=TAGS,
                openapi_extra=_file_body("reason, format, filename and dry_run"))(
        replace_tournament
    )  # fmt: skip
    router.post("/admin/v1/corrections/merge", status_code=201, tags=TAGS,
                openapi_extra=documented(PlayerMerge))(merge_players)  # fmt: skip
    router.post("/admin/v1/corrections/list", status_code=201, tags=TAGS,
                openapi_extra=_file_body("category, period, reason, format, filename and dry_run"))(
        replace_list
    )  # fmt: skip
