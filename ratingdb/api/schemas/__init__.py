"""The API's response bodies: Pydantic models of their own, never the ORM classes, so that the
published interface (docs/api.md) cannot change by accident when a table does.

One module per resource, as in ``ratingdb.api.routes``; every body is importable from here too.
Dates are ISO strings, periods ``YYYY-MM``, decimals strings (exact, as published), and every
item is an object with named fields. Every rating of a list comes with its revision and the
rating on the original list (revision 1) beside it.
"""

from __future__ import annotations

from ratingdb.api.schemas.calculator import (
    CalculatorEventOut,
    CalculatorGameOut,
    CalculatorOut,
    InitialRatingOut,
)
from ratingdb.api.schemas.catalog import CategoriesOut, CategoryOut, RulesOut, RuleVersionOut
from ratingdb.api.schemas.common import (
    DECIMAL_PATTERN,
    ORIGINAL_RATING,
    PERIOD_PATTERN,
    DecimalText,
    ErrorOut,
    PeriodText,
    Schema,
)
from ratingdb.api.schemas.health import HealthDownOut, HealthOut, ReplicaOut
from ratingdb.api.schemas.interim import AsOfOut, InterimOut, InterimRatingOut
from ratingdb.api.schemas.lists import (
    DiffChangeOut,
    DiffCorrectionOut,
    DiffEntryOut,
    DiffOut,
    ListEntryOut,
    ListOut,
    ListPageOut,
    ListsOut,
)
from ratingdb.api.schemas.players import (
    CalculationOut,
    FoundPlayerOut,
    GameCalculationOut,
    HistoryOut,
    HistoryPointOut,
    OpponentOut,
    PlayerDetailOut,
    PlayerOut,
    PlayersOut,
    RatingOut,
    TournamentRefOut,
)
from ratingdb.api.schemas.tournaments import TournamentGameOut, TournamentOut

__all__ = [
    "DECIMAL_PATTERN",
    "ORIGINAL_RATING",
    "PERIOD_PATTERN",
    "AsOfOut",
    "CalculationOut",
    "CalculatorEventOut",
    "CalculatorGameOut",
    "CalculatorOut",
    "CategoriesOut",
    "CategoryOut",
    "DecimalText",
    "DiffChangeOut",
    "DiffCorrectionOut",
    "DiffEntryOut",
    "DiffOut",
    "ErrorOut",
    "FoundPlayerOut",
    "GameCalculationOut",
    "HealthDownOut",
    "HealthOut",
    "HistoryOut",
    "HistoryPointOut",
    "InitialRatingOut",
    "InterimOut",
    "InterimRatingOut",
    "ListEntryOut",
    "ListOut",
    "ListPageOut",
    "ListsOut",
    "OpponentOut",
    "PeriodText",
    "PlayerDetailOut",
    "PlayerOut",
    "PlayersOut",
    "RatingOut",
    "ReplicaOut",
    "RuleVersionOut",
    "RulesOut",
    "Schema",
    "TournamentGameOut",
    "TournamentOut",
    "TournamentRefOut",
]
