"""``/v1/calculator``: the calculator's answer (docs/formats.md §7, out)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from ratingdb.api.schemas.common import DecimalText, PeriodText, Schema
from ratingdb.rules import Category


class CalculatorGameOut(Schema):
    opponent_rating: int | None
    score: DecimalText
    rated: bool
    reason: str | None
    difference: int | None
    difference_used: int | None
    capped: bool
    expected: DecimalText | None
    delta: DecimalText | None
    rating_before: int | None = Field(None, description="sequential mode only")
    change: int | None = Field(None, description="sequential mode only")


class CalculatorEventOut(Schema):
    start_date: date | None
    rating_used: int | None
    rated_games: int
    sum_delta: DecimalText
    games: list[CalculatorGameOut]


class InitialRatingOut(Schema):
    """A first rating's working (rules.first_rating.FirstRatingWorking.figures), every figure
    present and null when it is not a step of the method."""

    method: str
    games: int
    points: DecimalText
    opponents_total: int | None
    opponents_average: DecimalText | None
    p: DecimalText | None
    dp: int | None
    half_points_above: int | None
    bonus: DecimalText | None
    unrounded: DecimalText | None
    capped_at: int | None
    standard_rating: int | None
    k_factor: int | None
    sum_delta: DecimalText | None
    change: int | None
    rating: int | None


class CalculatorOut(Schema):
    category: Category
    period: PeriodText
    rule_version: str
    mode: Literal["period", "sequential"]
    expected_method: Literal["table", "formula"]
    difference_cap: int | None
    cap_mode: str
    k_factor: int | None
    k_status: int | None
    games: int
    sum_delta: DecimalText | None
    previous_rating: int | None
    change: int | None
    new_rating: int | None
    below_floor: bool
    floor: int
    performance: int | None
    events: list[CalculatorEventOut]
    initial_rating: int | None = Field(None, description="unrated player only")
    reason: str | None = Field(None, description="unrated player only")
    initial: InitialRatingOut | None = Field(None, description="unrated player only")
