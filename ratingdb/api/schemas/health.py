"""``/health``: the database is reachable and at the latest schema revision, or why not."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ratingdb.api.schemas.common import Schema


class ReplicaOut(Schema):
    in_recovery: Literal[True] = Field(description="the API reads a PostgreSQL standby")
    lag_seconds: float | None = Field(
        description="seconds its replay is behind what it received (0: all replayed; "
        "null: nothing replayed since it started)"
    )


class HealthOut(Schema):
    status: Literal["ok"]
    revision: str = Field(description="the Alembic revision of the database (the latest)")
    replica: Annotated[
        ReplicaOut | None, Field(description="only when the API reads a standby")
    ] = None


class HealthDownOut(Schema):
    status: Literal["unavailable"]
    detail: str
    revision: str | None
    expected_revision: str | None
