"""``/v1/calculator``: the calculator of ``ratingdb calc`` for one event, from query
parameters (``games=1800:1,1650:0.5``: opponent rating and score of each game)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Query

from ratingdb.api.params import PERIOD_PATTERN
from ratingdb.api.routes import BAD_PARAMETER
from ratingdb.api.schemas import CalculatorOut
from ratingdb.errors import InputError
from ratingdb.rules import Category, ExpectedScoreMethod
from ratingdb.rules.calculator import Mode
from ratingdb.services import published as svc

router = APIRouter(prefix="/v1", tags=["calculator"])

_GAME = r"[0-9]{1,4}:(?:0|0\.5|1)"
GAMES_PATTERN = rf"^{_GAME}(?:,{_GAME})*$"
MAX_GAMES_LENGTH = 2000

#: The calculator document's fields, as this route's parameters are named.
_PARAMETERS = {
    "player.rating": "rating",
    "player.k_factor": "k",
    "player.rated_games": "rated_games",
    "player.birth_year": "birth_year",
    "player.peak_rating": "peak_rating",
}
_GAME_FIELD = re.compile(r"events\[0\]\.games\[(\d+)\]")


def parameter_of(field: str | None) -> str:
    """The query parameter behind a field of the calculator document."""
    if field is None:
        return "games"
    match = _GAME_FIELD.match(field)
    if match is not None:
        return f"games (game {int(match.group(1)) + 1})"
    return _PARAMETERS.get(field, field.split(".")[0].split("[")[0])


@router.get(
    "/calculator",
    response_model=CalculatorOut,
    # As `ratingdb calc`: the first-rating fields only for an unrated player, the
    # sequential fields only in sequential mode.
    response_model_exclude_unset=True,
    responses=BAD_PARAMETER,
)
def calculator(
    category: Annotated[Category, Query()],
    period: Annotated[str, Query(pattern=PERIOD_PATTERN, description="YYYY-MM: the rules")],
    games: Annotated[
        str,
        Query(
            pattern=GAMES_PATTERN,
            max_length=MAX_GAMES_LENGTH,
            description="opponent rating and score of each game: 1800:1,1650:0.5",
        ),
    ],
    rating: Annotated[
        int | None, Query(ge=0, le=4000, description="the player's rating (none: unrated)")
    ] = None,
    k: Annotated[int | None, Query(ge=1, le=100, description="K (default: the K rules)")] = None,
    rated_games: Annotated[int | None, Query(ge=0, le=100_000)] = None,
    birth_year: Annotated[int | None, Query(ge=1850, le=9999)] = None,
    peak_rating: Annotated[int | None, Query(ge=0, le=4000)] = None,
    mode: Annotated[Mode, Query()] = Mode.PERIOD,
    expected: Annotated[ExpectedScoreMethod | None, Query()] = None,
) -> CalculatorOut:
    """The change of a rating over one event (docs/formats.md §7; the JSON of
    ``ratingdb calc``). Period mode is FIDE's; ``sequential`` updates after each game."""
    player: dict[str, Any] = {"rating": rating}
    optional = {"k_factor": k, "rated_games": rated_games, "birth_year": birth_year,
                "peak_rating": peak_rating}  # fmt: skip
    player |= {key: value for key, value in optional.items() if value is not None}
    document: dict[str, Any] = {
        "category": category.value,
        "period": period,
        "player": player,
        "events": [{"games": [_game(item) for item in games.split(",")]}],
        "mode": mode.value,
    }
    if expected is not None:
        document["expected"] = expected.value
    try:
        result = svc.run_calculator(document)
    except InputError as error:
        raise InputError(f"query parameter {parameter_of(error.field)}: {error.message}") from None
    return CalculatorOut.model_validate(result)


def _game(item: str) -> dict[str, Any]:
    opponent, score = item.split(":")
    return {"opponent_rating": int(opponent), "score": score}
