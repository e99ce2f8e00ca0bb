"""What every response body shares: the base class, the texts of periods and decimals, and
the error body."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Annotated

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field

from ratingdb.api.formatting import decimal_text

PERIOD_PATTERN = r"^[0-9]{4}-(?:0[1-9]|1[0-2])$"
DECIMAL_PATTERN = r"^-?[0-9]+(?:\.[0-9]+)?$"

PeriodText = Annotated[str, Field(pattern=PERIOD_PATTERN, examples=["2026-11"])]
DecimalText = Annotated[str, Field(pattern=DECIMAL_PATTERN, examples=["0.42"])]


class Schema(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def response(self, headers: Mapping[str, str] | None = None) -> Response:
        """This body as the route's answer, serialized once: a route declaring its
        ``response_model`` and returning the model has FastAPI validate it again first (a
        fifth of a player history's time)."""
        return Response(self.model_dump_json(), media_type="application/json", headers=headers)


def optional_decimal(value: Decimal | None) -> str | None:
    return None if value is None else decimal_text(value)


class ErrorOut(Schema):
    """Every 404, 405, 422 and 503 (and the rare 500)."""

    detail: str = Field(examples=["no player 123"])


ORIGINAL_RATING = (
    "the rating on the original list (revision 1), given even when equal; "
    "null only when the player was not on the original list"
)


#: What an entry's "active" says (docs/rules.md §10.1).
ACTIVE = (
    "active on that list: rated games within the rule's months (12; FIDE 24 from the "
    "November 2020 list), or the imported list's flag"
)
