"""``/v1/tournaments/{tournament_id}``: a tournament, its period and its games."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from ratingdb.api.schemas.common import PeriodText, Schema
from ratingdb.rules import Category
from ratingdb.services import published as svc


class TournamentGameOut(Schema):
    round: int
    white_id: str
    white_name: str
    black_id: str
    black_name: str
    result: Literal["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"]
    rated: bool


class WithdrawalOut(Schema):
    reason: str = Field(description="the rating officer's reason, as written")
    date: date


class TournamentOut(Schema):
    tournament_id: str
    name: str
    category: Category
    start_date: date
    end_date: date
    period: PeriodText = Field(description="the period whose list it is rated on")
    published: bool = Field(description="that list is published")
    late: bool
    games: list[TournamentGameOut]
    withdrawn: WithdrawalOut | None = Field(
        description="withdrawn by a rating officer (accepted by mistake): no game in force"
    )

    @classmethod
    def of(cls, found: svc.Tournament) -> TournamentOut:
        return cls(
            tournament_id=found.tournament_id,
            name=found.name,
            category=found.category,
            start_date=found.start_date,
            end_date=found.end_date,
            period=str(found.period),
            published=found.published,
            late=found.late,
            # model_validate checks each result against the six the games table allows.
            games=[
                TournamentGameOut.model_validate(
                    {
                        "round": g.round,
                        "white_id": g.white_id,
                        "white_name": g.white_name,
                        "black_id": g.black_id,
                        "black_name": g.black_name,
                        "result": g.result,
                        "rated": g.rated,
                    }
                )
                for g in found.games
            ],
            withdrawn=None
            if found.withdrawn is None
            else WithdrawalOut(reason=found.withdrawn.reason, date=found.withdrawn.at),
        )
