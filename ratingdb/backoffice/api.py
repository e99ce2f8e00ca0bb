"""The back office's JSON API under /admin/v1: ``Authorization: Bearer TOKEN`` only.

401 (with ``WWW-Authenticate: Bearer``) without a valid token, 403 when the role may not
(``ratingdb.backoffice.policy``); bad input 422 naming the field, an unknown user 404.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, ValidationError

from ratingdb.backoffice.security import context, signed_in
from ratingdb.services import accounts
from ratingdb.services.accounts import Principal

TAGS: list[str | Enum] = ["back office"]
Caller = Annotated[Principal, Depends(signed_in)]
Body = TypeVar("Body", bound=BaseModel)
MAX_BODY_BYTES = 64 * 1024


async def _json(request: Request, model: type[Body]) -> Body:
    """The request's JSON body as ``model``, read only once the guard has let the caller in
    (a body parameter would be read, and could be refused as malformed, before the check)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise HTTPException(413, "body too large")
    try:
        return model.model_validate_json(body or b"{}")
    except ValidationError as error:
        raise RequestValidationError(error.errors(include_url=False)) from None


def body_of(model: type[Body]) -> Any:
    """A dependency giving the JSON body as ``model``, after the guard."""

    async def parse(request: Request, caller: Caller) -> Body:
        return await _json(request, model)

    return Depends(parse)


def documented(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI request body of ``model`` (not a FastAPI body parameter: see _json)."""
    schema = model.model_json_schema()
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


class NewUser(BaseModel):
    username: str
    role: str
    password: str = Field(repr=False)


class NewToken(BaseModel):
    label: str = accounts.DEFAULT_TOKEN_LABEL
    days: int = accounts.DEFAULT_TOKEN_DAYS
    scope: str = accounts.DEFAULT_TOKEN_SCOPE


class NewPassword(BaseModel):
    """An admin's reset: the user must change it at the next sign-in."""

    password: str = Field(repr=False)


class PasswordChange(BaseModel):
    current_password: str = Field(repr=False)
    new_password: str = Field(repr=False)


class Revoke(BaseModel):
    label: str | None = None


def openapi(request: Request, caller: Caller) -> dict[str, Any]:
    """The API's description, for signed-in callers only."""
    schema: dict[str, Any] = request.app.openapi()
    return schema


def me(caller: Caller) -> dict[str, Any]:
    """Who the token acts for."""
    return {
        "username": caller.username,
        "role": caller.role,
        "token": {
            "label": caller.token_label,
            "scope": caller.scope,
            "expires": None if caller.token_expires is None else caller.token_expires.isoformat(),
        },
    }


def list_users(request: Request, caller: Caller) -> list[dict[str, Any]]:
    with context(request).reads.begin() as session:  # reads: no write lock
        return accounts.list_users(session)


def add_user(
    request: Request, caller: Caller, body: Annotated[NewUser, body_of(NewUser)]
) -> dict[str, Any]:
    """A new account: it waits for another admin's approval, and its user must choose a new
    password at the first sign-in."""
    found = context(request)
    with found.sessions.begin() as session:
        accounts.add_user(session, body.username, body.role, body.password, by=caller,
                          actor=caller.username, now=found.clock())  # fmt: skip
    return {"username": body.username, "role": body.role, "awaiting_approval": True}


def disable_user(request: Request, username: str, caller: Caller) -> dict[str, Any]:
    found = context(request)
    with found.sessions.begin() as session:
        accounts.disable_user(session, username, by=caller, actor=caller.username,
                              now=found.clock())  # fmt: skip
    return {"username": username, "disabled": True}


def enable_user(request: Request, username: str, caller: Caller) -> dict[str, Any]:
    found = context(request)
    with found.sessions.begin() as session:
        accounts.enable_user(session, username, actor=caller.username, now=found.clock())
    return {"username": username, "disabled": False}


def approve_user(request: Request, username: str, caller: Caller) -> dict[str, Any]:
    """Another admin's approval of an account an admin created or reset."""
    found = context(request)
    with found.sessions.begin() as session:
        accounts.approve_user(session, username, by=caller, now=found.clock())
    return {"username": username, "awaiting_approval": False}


def reset_password(
    request: Request,
    username: str,
    caller: Caller,
    body: Annotated[NewPassword, body_of(NewPassword)],
) -> dict[str, Any]:
    """A password chosen for the user; the account waits for another admin's approval."""
    found = context(request)
    with found.sessions.begin() as session:
        accounts.reset_password(session, username, body.password, by=caller,
                                actor=caller.username, now=found.clock())  # fmt: skip
    return {"username": username, "must_change_password": True, "awaiting_approval": True}


def change_password(
    request: Request, caller: Caller, body: Annotated[PasswordChange, body_of(PasswordChange)]
) -> dict[str, Any]:
    """Your own password (your web sessions end; tokens stay)."""
    found = context(request)
    with found.sessions.begin() as session:
        accounts.change_password(session, caller, body.current_password, body.new_password,
                                 now=found.clock())  # fmt: skip
    return {"username": caller.username, "password_changed": True}


def issue_token(
    request: Request, caller: Caller, body: Annotated[NewToken, body_of(NewToken)]
) -> dict[str, Any]:
    """A new token of your own, in this answer only."""
    found = context(request)
    with found.sessions.begin() as session:
        issued = accounts.issue_token(session, caller.username, body.label, body.days,
                                      body.scope, by=caller, actor=caller.username,
                                      now=found.clock())  # fmt: skip
    return {"token": issued.token, "expires": issued.expires.isoformat(), "scope": issued.scope}


def revoke_tokens(
    request: Request, username: str, caller: Caller, body: Annotated[Revoke, body_of(Revoke)]
) -> dict[str, Any]:
    found = context(request)
    with found.sessions.begin() as session:
        count = accounts.revoke_tokens(session, username, body.label, actor=caller.username,
                                       now=found.clock())  # fmt: skip
    return {"username": username, "label": body.label, "revoked": count}


def register(router: APIRouter) -> None:
    """The API's routes (each one also a line of ``policy.POLICY``)."""
    router.get("/admin/v1/openapi.json", include_in_schema=False)(openapi)
    router.get("/admin/v1/me", tags=TAGS)(me)
    router.get("/admin/v1/users", tags=TAGS)(list_users)
    router.post("/admin/v1/users", status_code=201, tags=TAGS, openapi_extra=documented(NewUser))(
        add_user
    )
    router.post("/admin/v1/users/{username}/disable", tags=TAGS)(disable_user)
    router.post("/admin/v1/users/{username}/enable", tags=TAGS)(enable_user)
    router.post("/admin/v1/users/{username}/approve", tags=TAGS)(approve_user)
    router.post(
        "/admin/v1/users/{username}/password", tags=TAGS, openapi_extra=documented(NewPassword)
    )(reset_password)
    router.post("/admin/v1/me/password", tags=TAGS, openapi_extra=documented(PasswordChange))(
        change_password
    )
    router.post(
        "/admin/v1/me/tokens", status_code=201, tags=TAGS, openapi_extra=documented(NewToken),
    )(issue_token)  # fmt: skip
    router.post(
        "/admin/v1/users/{username}/tokens/revoke", tags=TAGS, openapi_extra=documented(Revoke)
    )(revoke_tokens)
