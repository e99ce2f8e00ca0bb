"""``/v1/players/{player_id}/interim``: a player's interim ratings, each the open period's
calculation as if it closed now, in the published calculation's fields; never official."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field

from ratingdb.api.schemas.common import DecimalText, PeriodText, Schema
from ratingdb.api.schemas.players import GameCalculationOut, InitialWorkingOut, working_fields
from ratingdb.rules import Category
from ratingdb.services.interim import Interim

UNOFFICIAL = "always false: an interim rating is not a published rating"


class AsOfOut(Schema):
    """The latest accepted tournament the interim rating counts."""

    tournament_id: str
    name: str
    end_date: date
    accepted_at: datetime


class InterimRatingOut(Schema):
    category: Category
    official: Literal[False] = Field(description=UNOFFICIAL)
    period: PeriodText = Field(description="the open period: the list it would be published on")
    list_date: date
    as_of: AsOfOut
    tournaments: int = Field(description="the player's tournaments counted")
    games: list[GameCalculationOut]
    k_factor: int | None = Field(description="K applied (after K x n <= 700)")
    sum_delta: DecimalText | None = Field(description="sum of score - expected over rated games")
    change: int | None = Field(description="K x sum_delta, rounded once; null: first rating")
    rule_version: str | None
    previous_rating: int | None
    rating: int | None = Field(
        description="the rating a close now would publish (null: not rated yet)"
    )
    first_rating: bool
    next_k_factor: int | None = Field(description="the K the next period would start from")
    initial: InitialWorkingOut | None = Field(
        None, description="a first rating's working (null: not a first rating)"
    )

    @classmethod
    def of(cls, interim: Interim) -> InterimRatingOut:
        calc = interim.calculation
        as_of = interim.as_of
        return cls(
            category=interim.category,
            official=False,
            period=str(interim.period),
            list_date=interim.period.list_date,
            as_of=AsOfOut(
                tournament_id=as_of.tournament_id,
                name=as_of.name,
                end_date=as_of.end_date,
                accepted_at=as_of.accepted_at,
            ),
            tournaments=interim.tournaments,
            **working_fields(calc),
        )


class InterimOut(Schema):
    player_id: str
    official: Literal[False] = Field(description=UNOFFICIAL)
    interims: list[InterimRatingOut] = Field(
        description="one per category whose open period holds rated games of the player "
        "(empty: none)"
    )
