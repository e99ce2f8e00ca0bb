"""``/health``: the database is reachable and at the latest schema revision, or why not."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ratingdb.api.schemas.common import Schema


class HealthOut(Schema):
    status: Literal["ok"]
    revision: str = Field(description="the Alembic revision of the database (the latest)")


class HealthDownOut(Schema):
    status: Literal["unavailable"]
    detail: str
    revision: str | None
    expected_revision: str | None
