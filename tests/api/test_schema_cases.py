"""The API's bodies name the cases of the tables' enums as literals (the OpenAPI document shows
them inline): exactly the enum's cases, so that a case added to an enum is added there too. No
database."""

from __future__ import annotations

from enum import StrEnum
from typing import get_args

import pytest
from pydantic import BaseModel

from ratingdb.api.schemas.lists import DiffCorrectionOut, ListOut
from ratingdb.enums import CorrectionKind, ListSource


@pytest.mark.parametrize(
    ("schema", "field", "enum"),
    [(ListOut, "source", ListSource), (DiffCorrectionOut, "kind", CorrectionKind)],
    ids=["list source", "correction kind"],
)
def test_a_literal_lists_every_case(
    schema: type[BaseModel], field: str, enum: type[StrEnum]
) -> None:
    assert sorted(get_args(schema.model_fields[field].annotation)) == sorted(e.value for e in enum)
