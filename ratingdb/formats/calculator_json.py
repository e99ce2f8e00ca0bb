"""The calculator's JSON, in and out, exactly as docs/formats.md §7 writes it.

Validation happens here, at the edge: every refusal names the field (a dotted path), and the
core only ever sees well-formed plain data.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar

from ratingdb.errors import InputError
from ratingdb.rules import (
    Category,
    Event,
    ExpectedScoreMethod,
    Game,
    NoRuleVersion,
    Period,
    PlayerStatus,
    Score,
    version_for_period,
)
from ratingdb.rules.calculator import CalculatorRequest, CalculatorResult, Mode, SequentialStep
from ratingdb.rules.calendar import check_list_period
from ratingdb.rules.first_rating import FirstRatingWorking, first_rating_working
from ratingdb.rules.initial import InitialRating
from ratingdb.rules.period import EventCalculation, GameCalculation

#: No federation publishes ratings above this; anything larger is a typing error.
MAX_RATING = 4000
#: "rated_games" when the K rules apply and the caller gives none (as an imported list).
DEFAULT_RATED_GAMES = 30

_Choice = TypeVar("_Choice", Mode, ExpectedScoreMethod)

_TOP = {"category", "period", "player", "events", "mode", "expected", "cap"}
_PLAYER = {"rating", "k_factor", "rated_games", "birth_year", "peak_rating", "standard_rating"}
_EVENT = {"start_date", "rating_used", "games", "event_id", "is_match"}
_GAME = {"opponent_rating", "score", "opponent_id"}


def load_request(text: str) -> CalculatorRequest:
    """Parse the calculator's input document."""
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise InputError(f"bad JSON: {error.msg}", line=error.lineno, column=error.colno) from None
    return parse_request(data)


def parse_request(data: object) -> CalculatorRequest:
    top = _object(data, "(document)", _TOP)
    category_text = _required(top, "category", "")
    if not isinstance(category_text, str):
        raise InputError("must be a string", field="category")
    try:
        category = Category.parse(category_text)
    except ValueError as error:
        raise InputError(str(error), field="category") from None
    period_text = _required(top, "period", "")
    if not isinstance(period_text, str):
        raise InputError("must be a string YYYY-MM", field="period")
    try:
        period = Period.parse(period_text)
        version_for_period(category, period)
        check_list_period(category, period)  # NotAListPeriod is a ValueError
    except (ValueError, NoRuleVersion) as error:
        raise InputError(str(error), field="period") from None
    player = _player(_required(top, "player", ""))
    raw_events = _required(top, "events", "")
    if not isinstance(raw_events, list):
        raise InputError("must be a list of events", field="events")
    events = tuple(_event(raw, f"events[{i}]") for i, raw in enumerate(raw_events))
    mode = _choice(top.get("mode", "period"), "mode", Mode)
    expected = top.get("expected")
    expected_method = (
        None if expected is None else _choice(expected, "expected", ExpectedScoreMethod)
    )
    cap = top.get("cap")
    if cap is not None and not isinstance(cap, bool):
        raise InputError("must be true or false", field="cap")
    return CalculatorRequest(category, period, player, events, mode, expected_method, cap)


def _object(value: object, field: str, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InputError("must be a JSON object", field=None if field == "(document)" else field)
    unknown = sorted(set(value) - allowed)
    if unknown:
        prefix = "" if field == "(document)" else f"{field}."
        raise InputError(
            f"unknown field (allowed: {', '.join(sorted(allowed))})", field=prefix + unknown[0]
        )
    return value


def _required(data: Mapping[str, Any], key: str, prefix: str) -> Any:
    if key not in data:
        raise InputError("is required", field=prefix + key)
    return data[key]


def _choice(value: object, field: str, kind: type[_Choice]) -> _Choice:
    allowed = ", ".join(member.value for member in kind)
    if not isinstance(value, str):
        raise InputError(f"must be one of: {allowed}", field=field)
    try:
        return kind(value)
    except ValueError:
        raise InputError(f"must be one of: {allowed}; got {value!r}", field=field) from None


def _integer(value: object, field: str, *, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise InputError(f"must be an integer from {low} to {high}", field=field)
    if isinstance(value, Decimal):
        if value != value.to_integral_value():
            raise InputError(f"must be an integer from {low} to {high}", field=field)
        value = int(value)
    if not low <= value <= high:
        raise InputError(f"must be an integer from {low} to {high}, got {value}", field=field)
    return value


def _rating(value: object, field: str) -> int | None:
    if value is None:
        return None
    return _integer(value, field, low=0, high=MAX_RATING)


def _player(value: object) -> PlayerStatus:
    data = _object(value, "player", _PLAYER)
    rating = _rating(_required(data, "rating", "player."), "player.rating")
    k = data.get("k_factor")
    k_factor = None if k is None else _integer(k, "player.k_factor", low=1, high=100)
    games = data.get("rated_games")
    rated_games = (
        DEFAULT_RATED_GAMES
        if games is None and rating is not None
        else 0
        if games is None
        else _integer(games, "player.rated_games", low=0, high=100_000)
    )
    birth = data.get("birth_year")
    birth_year = (
        None if birth is None else _integer(birth, "player.birth_year", low=1850, high=9999)
    )
    peak = _rating(data.get("peak_rating"), "player.peak_rating")
    if peak is None:
        peak = rating
    elif rating is not None and peak < rating:
        raise InputError(
            f"must be at least the rating ({rating}), got {peak}", field="player.peak_rating"
        )
    standard = _rating(data.get("standard_rating"), "player.standard_rating")
    return PlayerStatus(
        rating=rating,
        rated_games=rated_games,
        peak_rating=peak,
        birth_year=birth_year,
        k_factor=k_factor,
        standard_rating=standard,
    )


def _event(value: object, field: str) -> Event:
    data = _object(value, field, _EVENT)
    raw_games = _required(data, "games", f"{field}.")
    if not isinstance(raw_games, list):
        raise InputError("must be a list of games", field=f"{field}.games")
    games = tuple(_game(raw, f"{field}.games[{i}]") for i, raw in enumerate(raw_games))
    start = data.get("start_date")
    start_date: date | None = None
    if start is not None:
        if not isinstance(start, str):
            raise InputError("must be a date YYYY-MM-DD", field=f"{field}.start_date")
        try:
            start_date = date.fromisoformat(start)
        except ValueError:
            raise InputError(
                f"must be a date YYYY-MM-DD, got {start!r}", field=f"{field}.start_date"
            ) from None
    is_match = data.get("is_match", False)
    if not isinstance(is_match, bool):
        raise InputError("must be true or false", field=f"{field}.is_match")
    event_id = data.get("event_id")
    if event_id is not None and not isinstance(event_id, str):
        raise InputError("must be a string", field=f"{field}.event_id")
    return Event(
        games=games,
        rating_used=_rating(data.get("rating_used"), f"{field}.rating_used"),
        start_date=start_date,
        event_id=event_id,
        is_match=is_match,
    )


def _game(value: object, field: str) -> Game:
    data = _object(value, field, _GAME)
    opponent = _rating(_required(data, "opponent_rating", f"{field}."), f"{field}.opponent_rating")
    raw_score = _required(data, "score", f"{field}.")
    if isinstance(raw_score, bool) or not isinstance(raw_score, int | Decimal | str):
        raise InputError(f"must be 0, 0.5 or 1, got {raw_score!r}", field=f"{field}.score")
    try:
        score = Score.from_points(raw_score)
    except ValueError:
        raise InputError(
            f"must be 0, 0.5 or 1, got {raw_score!r}", field=f"{field}.score"
        ) from None
    opponent_id = data.get("opponent_id")
    if opponent_id is not None and not isinstance(opponent_id, str):
        raise InputError("must be a string", field=f"{field}.opponent_id")
    return Game(opponent, score, opponent_id)


# --- out -------------------------------------------------------------------------------------


def _text(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def result_to_json(request: CalculatorRequest, calculated: CalculatorResult) -> dict[str, Any]:
    result = calculated.result
    steps = iter(calculated.steps)
    events = []
    for event in result.events:
        events.append(_event_json(event, steps if calculated.steps else None))
    out: dict[str, Any] = {
        "category": request.category.value,
        "period": str(request.period),
        "rule_version": calculated.rule_version,
        "mode": calculated.mode.value,
        "expected_method": calculated.version.expected.value,
        "difference_cap": calculated.version.difference_cap,
        "cap_mode": calculated.version.cap_mode.value,
        "k_factor": result.k_factor,
        "k_status": result.k_status,
        "games": result.rated_games,
        "sum_delta": _text(result.sum_delta) if result.base_rating is not None else None,
        "previous_rating": result.base_rating,
        "change": calculated.change,
        "new_rating": calculated.new_rating,
        "below_floor": result.below_floor,
        "floor": calculated.version.floor,
        "performance": calculated.performance,
        "events": events,
    }
    working = first_rating_working(result)
    if result.base_rating is None:
        initial = result.initial
        out["initial_rating"] = initial.rating if initial and initial.published else None
        out["reason"] = _initial_reason(result.initial, result.rated_games)
        out["initial"] = None if working is None else _working_json(working)
    elif working is not None and calculated.mode is Mode.PERIOD:
        # Rapid and blitz from 2024-03: a first rating from the standard rating (§7.2.1).
        out["initial_rating"] = calculated.new_rating
        out["reason"] = working.reason
        out["initial"] = _working_json(working)
    return out


def _working_json(working: FirstRatingWorking) -> dict[str, Any]:
    """A first rating's working (rules.first_rating): decimals as strings."""
    return {
        name: _text(value) if isinstance(value, Decimal) else value
        for name, value in working.figures().items()
    }


def _initial_reason(initial: InitialRating | None, games: int) -> str | None:
    if initial is not None:
        return initial.reason
    return "no games against rated opponents" if games == 0 else None


def _event_json(event: EventCalculation, steps: Iterator[SequentialStep] | None) -> dict[str, Any]:
    games = []
    for game in event.games:
        item = _game_json(game)
        if steps is not None:
            step = next(steps)
            item["rating_before"] = step.rating_before
            item["change"] = step.change
        games.append(item)
    return {
        "start_date": None
        if event.event.start_date is None
        else event.event.start_date.isoformat(),
        "rating_used": event.rating_used,
        "rated_games": event.rated_games,
        "sum_delta": _text(event.sum_delta),
        "games": games,
    }


def _game_json(game: GameCalculation) -> dict[str, Any]:
    return {
        "opponent_rating": game.game.opponent_rating,
        "score": _text(game.game.score.points),
        "rated": game.rated,
        "reason": None if game.not_rated_reason is None else str(game.not_rated_reason),
        "difference": game.difference,
        "difference_used": game.difference_used,
        "capped": game.capped,
        "expected": _text(game.expected),
        "delta": _text(game.delta),
    }
