"""The API's response bodies: Pydantic models of their own, never the ORM classes, so that the
published interface (contract.md "HTTP API") cannot change by accident when a table does.

Dates are ISO strings, periods ``YYYY-MM``, decimals strings (exact, as published), and every
item is an object with named fields. Every rating of a list comes with its revision and the
rating on the original list (revision 1) beside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from fastapi import Response
from pydantic import BaseModel, ConfigDict, Field

from ratingdb.api.formatting import decimal_text
from ratingdb.rules import Category
from ratingdb.services import published as svc

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


def _decimal(value: Decimal | None) -> str | None:
    return None if value is None else decimal_text(value)


# --- errors and health -----------------------------------------------------------------------


class ErrorOut(Schema):
    """Every 404, 405, 422 and 503 (and the rare 500)."""

    detail: str = Field(examples=["no player 123"])


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


# --- categories and rules --------------------------------------------------------------------


class CategoryOut(Schema):
    category: Category
    rule_version: str | None = Field(description="the rule version in force today")
    rule_version_effective_from: date | None
    list_months: list[int]
    closing_days: int | None
    latest_period: PeriodText | None = Field(description="the latest published list")

    @classmethod
    def of(cls, info: svc.CategoryInfo) -> CategoryOut:
        version = info.version
        return cls(
            category=info.category,
            rule_version=None if version is None else version.name,
            rule_version_effective_from=None if version is None else version.effective_from,
            list_months=[] if version is None else sorted(version.list_months),
            closing_days=None if version is None else version.closing_days,
            latest_period=None if info.latest is None else str(info.latest.period),
        )


class CategoriesOut(Schema):
    categories: list[CategoryOut]


ParameterValue = int | str | bool | list[int] | None

_TOP_LEVEL = ("name", "category", "effective_from", "source", "changes")


class RuleVersionOut(Schema):
    name: str
    category: Category
    effective_from: date
    effective_until: date | None = Field(description="when the next version takes over")
    in_force: bool = Field(description="in force today")
    source: str
    changes: str
    parameters: dict[str, ParameterValue]

    @classmethod
    def of(cls, info: svc.RuleInfo) -> RuleVersionOut:
        version = info.version
        parameters = {k: v for k, v in version.parameters().items() if k not in _TOP_LEVEL}
        return cls(
            name=version.name,
            category=version.category,
            effective_from=version.effective_from,
            effective_until=info.effective_until,
            in_force=info.in_force,
            source=version.source,
            changes=version.changes,
            parameters=parameters,
        )


class RulesOut(Schema):
    rules: list[RuleVersionOut]


# --- lists -----------------------------------------------------------------------------------

ORIGINAL_RATING = (
    "the rating on the original list (revision 1), given even when equal; "
    "null only when the player was not on the original list"
)


class ListOut(Schema):
    category: Category
    period: PeriodText
    list_date: date
    published_at: datetime
    entries: int = Field(description="number of rated players on the list")
    rule_version: str | None = Field(description="null for a list imported as a starting point")
    revision: int = Field(description="the latest revision (1: the original list)")
    revisions: int = Field(description="how many revisions the list has (1: never corrected)")
    correction_id: int | None = Field(
        description="the correction this revision was published for (null: the original)"
    )
    source: Literal["import", "close"]

    @classmethod
    def of(cls, summary: svc.ListSummary) -> ListOut:
        return cls(
            category=summary.category,
            period=str(summary.period),
            list_date=summary.period.list_date,
            published_at=summary.published_at,
            entries=summary.entries,
            rule_version=summary.rule_version,
            revision=summary.revision,
            revisions=summary.revisions,
            correction_id=summary.correction_id,
            source="import" if summary.source == "import" else "close",
        )


class ListsOut(Schema):
    lists: list[ListOut]


class ListEntryOut(Schema):
    player_id: str
    name: str
    federation: str | None
    rating: int
    previous_rating: int | None = Field(description="null for a first rating")
    change: int | None = Field(description="null for a first rating")
    games: int = Field(description="games rated in the period")
    k_factor: int = Field(description="the K the next period starts from")
    original_rating: int | None = Field(description=ORIGINAL_RATING)

    @staticmethod
    def fields_of(entry: svc.ListEntry) -> dict[str, Any]:
        return {
            "player_id": entry.player_id,
            "name": entry.name,
            "federation": entry.federation,
            "rating": entry.rating,
            "previous_rating": entry.previous_rating,
            "change": entry.change,
            "games": entry.games,
            "k_factor": entry.k_factor,
            "original_rating": entry.original_rating,
        }


class ListPageOut(Schema):
    category: Category
    period: PeriodText
    list_date: date
    revision: int = Field(description="the revision shown (1: the original list)")
    revisions: int = Field(description="how many revisions the list has (the latest's number)")
    correction_id: int | None = Field(
        description="the correction this revision was published for (null: the original)"
    )
    rule_version: str | None
    published_at: datetime
    total: int = Field(description="entries matching the filters")
    limit: int
    offset: int
    entries: list[ListEntryOut]

    @classmethod
    def of(
        cls,
        summary: svc.ListSummary,
        total: int,
        limit: int,
        offset: int,
        entries: tuple[svc.ListEntry, ...],
    ) -> ListPageOut:
        # One validation of the whole page (pydantic-core), not one model per entry: a page of
        # 1,000 entries is the API's largest answer.
        return cls.model_validate(
            {
                "category": summary.category,
                "period": str(summary.period),
                "list_date": summary.period.list_date,
                "revision": summary.revision,
                "revisions": summary.revisions,
                "correction_id": summary.correction_id,
                "rule_version": summary.rule_version,
                "published_at": summary.published_at,
                "total": total,
                "limit": limit,
                "offset": offset,
                "entries": [ListEntryOut.fields_of(entry) for entry in entries],
            }
        )


# --- players ---------------------------------------------------------------------------------


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


class PlayersOut(Schema):
    total: int
    limit: int
    offset: int
    players: list[PlayerOut]


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
            expected=_decimal(game.expected),
            score=decimal_text(game.score, places=0),
            delta=_decimal(game.delta),
            rated=game.rated,
            reason=game.reason,
        )


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

    @classmethod
    def of(cls, player_id: str, calc: svc.PeriodCalculation) -> CalculationOut:
        return cls(
            player_id=player_id,
            category=calc.category,
            period=str(calc.period),
            list_date=calc.period.list_date,
            revision=calc.revision,
            games=[GameCalculationOut.of(game) for game in calc.games],
            k_factor=calc.k_factor,
            sum_delta=_decimal(calc.sum_delta),
            change=calc.change,
            rule_version=calc.rule_version,
            previous_rating=calc.previous_rating,
            rating=calc.rating,
            original_rating=calc.original_rating,
            first_rating=calc.first_rating,
            next_k_factor=calc.next_k_factor,
        )


# --- revisions: differences between two revisions of a list -----------------------------------


class DiffEntryOut(Schema):
    """A player's entry on one of the two revisions compared."""

    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int


class DiffChangeOut(Schema):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    player_id: str
    name: str | None
    from_: DiffEntryOut | None = Field(
        alias="from", description="the entry on the from revision (null: not on it)"
    )
    to: DiffEntryOut | None = Field(description="the entry on the to revision (null: not on it)")
    rating_difference: int | None = Field(
        description="to rating - from rating (null: on one revision only)"
    )


class DiffCorrectionOut(Schema):
    correction_id: int
    kind: Literal["game", "tournament", "merge", "list-replace"]
    reason: str
    actor: str
    created_at: datetime
    tournament_id: str | None


class DiffOut(Schema):
    category: Category
    period: PeriodText
    from_revision: int
    to_revision: int
    players_changed: int
    corrections: list[DiffCorrectionOut] = Field(
        description="the corrections that published the revisions between the two"
    )
    changes: list[DiffChangeOut] = Field(
        description="every player whose entry differs, by player_id"
    )

    @classmethod
    def of(cls, document: dict[str, Any]) -> DiffOut:
        return cls.model_validate({**document, "players_changed": len(document["changes"])})


# --- tournaments -----------------------------------------------------------------------------


class TournamentGameOut(Schema):
    round: int
    white_id: str
    white_name: str
    black_id: str
    black_name: str
    result: Literal["1-0", "0-1", "1/2-1/2", "+-", "-+", "--"]
    rated: bool


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
        )


# --- the calculator (contract "Calculator", out) ---------------------------------------------


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
    method: str
    games: int
    points: DecimalText
    opponents_average: DecimalText | None
    p: DecimalText | None
    dp: int | None
    bonus: DecimalText | None
    rating: int | None
    capped_at: int | None


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
