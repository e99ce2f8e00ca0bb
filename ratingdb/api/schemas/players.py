"""``/v1/players``: players, their latest ratings, their histories and the game-by-game
calculation behind a published rating."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any, Literal

from pydantic import Field

from ratingdb.api.formatting import decimal_text
from ratingdb.api.schemas.common import (
    ACTIVE,
    ORIGINAL_RATING,
    DecimalText,
    PeriodText,
    Schema,
    optional_decimal,
)
from ratingdb.rules import Category
from ratingdb.rules.period import not_rated_code
from ratingdb.services import published as svc


class PlayerOut(Schema):
    player_id: str
    name: str
    federation: str | None
    sex: Literal["M", "F"] | None
    birth_year: int | None
    title: str | None

    @classmethod
    def fields_of(cls, player: svc.Player) -> dict[str, Any]:
        return {
            "player_id": player.player_id,
            "name": player.name,
            "federation": player.federation,
            "sex": player.sex,
            "birth_year": player.birth_year,
            "title": player.title,
        }

    @classmethod
    def of(cls, player: svc.Player) -> PlayerOut:
        return cls(**cls.fields_of(player))


class CurrentRatingOut(Schema):
    """A player's rating on a category's latest list."""

    period: PeriodText = Field(description="the period of the category's latest list")
    rating: int


class FoundPlayerOut(PlayerOut):
    """A player a search found."""

    ratings: dict[Category, CurrentRatingOut] = Field(
        description="the player's rating on each category's latest list, by category; a "
        "category whose latest list does not rate the player is left out"
    )

    @classmethod
    def found(cls, player: svc.FoundPlayer) -> FoundPlayerOut:
        return cls(
            **cls.fields_of(player),
            ratings={
                r.category: CurrentRatingOut(period=str(r.period), rating=r.rating)
                for r in player.ratings
            },
        )


class PlayersOut(Schema):
    total: int
    limit: int
    offset: int
    players: list[FoundPlayerOut]


def _point_fields(point: svc.HistoryPoint) -> dict[str, Any]:
    """What a latest rating and a history point both show of one list entry."""
    return {
        "period": str(point.period),
        "list_date": point.period.list_date,
        "revision": point.revision,
        "rating": point.rating,
        "original_rating": point.original_rating,
        "previous_rating": point.previous_rating,
        "change": point.change,
        "games": point.games,
        "k_factor": point.k_factor,
        "active": point.active,
    }


class RatingOut(Schema):
    """A player's entry on a list."""

    category: Category
    period: PeriodText
    list_date: date
    revision: int = Field(description="the list's revision (1: the original list)")
    rating: int
    original_rating: int | None = Field(description=ORIGINAL_RATING)
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    active: bool = Field(description=ACTIVE)
    rated_games: int = Field(description="rated games in the category so far")
    peak_rating: int

    @classmethod
    def of(cls, point: svc.HistoryPoint) -> RatingOut:
        return cls(
            category=point.category,
            rated_games=point.rated_games,
            peak_rating=point.peak_rating,
            **_point_fields(point),
        )


class PlayerDetailOut(PlayerOut):
    ratings: list[RatingOut] = Field(
        description="the latest published rating in each category where the player has one"
    )


class HistoryPointOut(Schema):
    period: PeriodText
    list_date: date
    revision: int = Field(description="the revision of that list shown (1: the original list)")
    rating: int
    original_rating: int | None = Field(description=ORIGINAL_RATING)
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    active: bool = Field(description=ACTIVE)

    @classmethod
    def of(cls, point: svc.HistoryPoint) -> HistoryPointOut:
        return cls(**_point_fields(point))


class HistoryOut(Schema):
    player_id: str
    category: Category
    revision: int | None = Field(
        description="the revision asked for: each list at its latest revision up to it "
        "(null: the latest revision of each list)"
    )
    points: list[HistoryPointOut] = Field(description="one per published list, oldest first")


#: One point of a history as HistoryOut writes it (its fields in order, compact), the period
#: the first 7 characters of the list date's ISO text.
_POINT_JSON = (
    '{"period":"%.7s","list_date":"%s","revision":%s,"rating":%s,"original_rating":%s,'
    '"previous_rating":%s,"change":%s,"games":%s,"k_factor":%s,"active":%s}'
)


def _json_texts(column: Sequence[int | bool | None]) -> list[str]:
    """Each value of a column of integers, booleans and nulls as JSON text, encoded at once
    (no comma in any of them)."""
    return json.dumps(column, separators=(",", ":"))[1:-1].split(",")


def history_json(
    player_id: str, category: Category, revision: int | None, history: svc.HistoryColumns
) -> bytes:
    """The body :class:`HistoryOut` would write, byte for byte, from the history's columns:
    each column encoded at once, each point's text made from one template, with no model (nor
    dict) a point: a first render of 121 points cost 0.8 ms more through the models
    (benchmarks/README.md, cold_history.py)."""
    head = json.dumps(
        {"player_id": player_id, "category": category.value, "revision": revision},
        separators=(",", ":"),
        ensure_ascii=False,
    )
    if not len(history):
        return f'{head[:-1]},"points":[]}}'.encode()
    dates = [day.isoformat() for day in history.list_dates]
    points = ",".join(
        map(
            _POINT_JSON.__mod__,
            zip(
                dates,
                dates,
                _json_texts(history.revisions),
                _json_texts(history.ratings),
                _json_texts(history.original_ratings),
                _json_texts(history.previous_ratings),
                _json_texts(history.changes),
                _json_texts(history.games),
                _json_texts(history.k_factors),
                _json_texts(history.actives),
                strict=True,
            ),
        )
    )
    return f'{head[:-1]},"points":[{points}]}}'.encode()


class TournamentRefOut(Schema):
    tournament_id: str
    name: str
    start_date: date


class OpponentOut(Schema):
    player_id: str
    name: str


class GameCalculationOut(Schema):
    tournament: TournamentRefOut
    round: int
    opponent: OpponentOut
    rating_used: int | None = Field(description="the player's own rating used")
    opponent_rating: int | None = Field(description="the opponent's rating used")
    difference: int | None = Field(description="D = rating_used - opponent_rating")
    difference_used: int | None = Field(description="D after the cap")
    expected: DecimalText | None = Field(description="PD, the expected score")
    score: DecimalText
    delta: DecimalText | None = Field(description="score - expected")
    rated: bool
    reason: str | None = Field(description="why the game did not count")
    reason_code: str | None = Field(
        description="the reason's stable code (opponent-unrated, 600-point-rule, "
        "match-with-unrated-player, first-event-disregarded, different-playing-times, "
        "first-control-too-short, rate-of-play-too-fast, rate-of-play-outside-category)"
    )

    @classmethod
    def of(cls, game: svc.GameLine) -> GameCalculationOut:
        return cls(
            tournament=TournamentRefOut(
                tournament_id=game.tournament_id,
                name=game.tournament_name,
                start_date=game.start_date,
            ),
            round=game.round,
            opponent=OpponentOut(player_id=game.opponent_id, name=game.opponent_name),
            rating_used=game.rating_used,
            opponent_rating=game.opponent_rating,
            difference=game.difference,
            difference_used=game.difference_used,
            expected=optional_decimal(game.expected),
            score=decimal_text(game.score, places=0),
            delta=optional_decimal(game.delta),
            rated=game.rated,
            reason=game.reason,
            reason_code=None if game.reason is None else not_rated_code(game.reason),
        )


class InitialWorkingOut(Schema):
    """How a first rating was reached (docs/rules.md §9), worked again with the rules core and
    shown only when it gives the published rating (``reproduced``; otherwise every figure of
    the working is null)."""

    method: str = Field(
        description="how the first rating was made: hypothetical_draws_1800, ra_plus_20 or "
        "ra_plus_12_5 (from the pooled games), standard_seed (rapid and blitz from 2024-03: the "
        "standard rating + K x sum_delta), unknown (a rule version this ratingdb does not know)"
    )
    games: int = Field(description="games counted: pooled against rated opponents, or rated")
    points: DecimalText
    opponents_total: int | None = Field(
        None, description="the opponents' ratings summed (without hypothetical opponents)"
    )
    opponents_average: DecimalText | None = Field(
        description="Ra (with the method's hypothetical opponents), to two decimals"
    )
    p: DecimalText | None = Field(description="the fractional score the table was read with")
    dp: int | None = Field(description="from FIDE table 8.1.1")
    half_points_above: int | None = Field(
        None, description="half points above 50 %, which the older methods' bonus counts"
    )
    bonus: DecimalText | None = Field(description="the half-point bonus of older methods")
    unrounded: DecimalText | None = Field(
        None, description="Ra + dp, Ra + bonus or Ra before rounding, to two decimals"
    )
    capped_at: int | None = Field(description="the version's maximum first rating, when hit")
    standard_rating: int | None = Field(
        None, description="standard_seed: the standard rating the rating started from"
    )
    standard_list: PeriodText | None = Field(
        None, description="standard_seed: the standard list it was read from"
    )
    k_factor: int | None = Field(None, description="standard_seed: K applied")
    sum_delta: DecimalText | None = Field(
        None, description="standard_seed: the sum of score - expected"
    )
    change: int | None = Field(
        None, description="standard_seed: K x sum_delta, rounded once, half away from zero"
    )
    rating: int | None = Field(description="what the working gives (null: no working shown)")
    reproduced: bool = Field(
        description="the working gives the published rating (false: it is not shown)"
    )

    @classmethod
    def of(cls, working: svc.InitialWorking | None) -> InitialWorkingOut | None:
        return None if working is None else cls(**working.as_json())


class CalculationOut(Schema):
    player_id: str
    category: Category
    period: PeriodText
    list_date: date
    revision: int = Field(description="the list's revision (1: the original list)")
    games: list[GameCalculationOut]
    k_factor: int | None = Field(description="K applied in the period (after K x n <= 700)")
    sum_delta: DecimalText | None = Field(description="sum of score - expected over rated games")
    change: int | None = Field(description="K x sum_delta, rounded once; null: first rating")
    rule_version: str | None
    previous_rating: int | None
    rating: int | None = Field(description="the rating published on this list (null: unrated)")
    original_rating: int | None = Field(description=ORIGINAL_RATING)
    first_rating: bool
    next_k_factor: int | None = Field(description="the K the next period starts from")
    initial: InitialWorkingOut | None = Field(
        None, description="a first rating's working (null: not a first rating)"
    )

    @classmethod
    def of(cls, player_id: str, calc: svc.PeriodCalculation) -> CalculationOut:
        return cls(
            player_id=player_id,
            category=calc.category,
            period=str(calc.period),
            list_date=calc.period.list_date,
            revision=calc.revision,
            original_rating=calc.original_rating,
            **working_fields(calc),
        )


def working_fields(calc: svc.PeriodCalculation) -> dict[str, Any]:
    """A period's working as a published calculation and an interim rating both show it: the
    games, K, the sum of deltas, the change and the ratings before and after."""
    return {
        "games": [GameCalculationOut.of(game) for game in calc.games],
        "k_factor": calc.k_factor,
        "sum_delta": optional_decimal(calc.sum_delta),
        "change": calc.change,
        "rule_version": calc.rule_version,
        "previous_rating": calc.previous_rating,
        "rating": calc.rating,
        "first_rating": calc.first_rating,
        "next_k_factor": calc.next_k_factor,
        "initial": InitialWorkingOut.of(calc.initial),
    }
