"""Path and query parameters shared by the routes, with the patterns and bounds the OpenAPI
document publishes (a request outside them is answered 422, naming the parameter)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

from ratingdb.rules import Category, Period

#: Periods from 1900-01 to 9999-12 (what ``Period`` accepts).
PERIOD_PATTERN = r"^(?:19|[2-9][0-9])[0-9]{2}-(?:0[1-9]|1[0-2])$"
PLAYER_ID_PATTERN = r"^[0-9]{1,20}$"
FEDERATION_PATTERN = r"^[A-Za-z]{3}$"
#: Free text: no control characters (PostgreSQL refuses NUL in text).
TEXT_PATTERN = r"^[^\x00-\x1f\x7f]*$"
TOURNAMENT_ID_PATTERN = r"^[^\x00-\x1f\x7f/]{1,40}$"

MAX_LIMIT = 1000
DEFAULT_LIMIT = 100
MAX_OFFSET = 1_000_000_000

CategoryPath = Annotated[Category, Path(description="the rating category")]
PeriodPath = Annotated[
    str, Path(pattern=PERIOD_PATTERN, description="the period (YYYY-MM)", examples=["2026-11"])
]
PlayerIdPath = Annotated[
    str, Path(pattern=PLAYER_ID_PATTERN, description="FIDE or national id", examples=["1503014"])
]
TournamentIdPath = Annotated[str, Path(pattern=TOURNAMENT_ID_PATTERN, examples=["T000001"])]

CategoryQuery = Annotated[Category | None, Query(description="one category (default: all)")]
FederationQuery = Annotated[
    str | None,
    Query(pattern=FEDERATION_PATTERN, description="three-letter federation code, e.g. FRA"),
]
SearchQuery = Annotated[
    str | None,
    Query(
        max_length=100,
        pattern=TEXT_PATTERN,
        description="words of the name (in any order, any case) or the start of a player id",
    ),
]
LimitQuery = Annotated[
    int, Query(ge=1, le=MAX_LIMIT, description=f"page size (at most {MAX_LIMIT})")
]
OffsetQuery = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="entries to skip")]
#: Revisions are numbered from 1 (the original list); a correction publishes the next one.
MAX_REVISION = 2_147_483_647  # the column is a 32-bit integer
RevisionQuery = Annotated[
    int | None,
    Query(
        ge=1,
        le=MAX_REVISION,
        description="the revision of the list (1: the original list; default: the latest)",
    ),
]


def period_of(text: str) -> Period:
    """A period the path pattern has already checked."""
    return Period.parse(text)


def federation_of(text: str | None) -> str | None:
    return None if text is None else text.upper()


def search_of(text: str | None) -> str | None:
    """Surrounding spaces are dropped; an empty search is no search."""
    if text is None:
        return None
    stripped = text.strip()
    return stripped or None
