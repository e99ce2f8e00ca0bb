"""``/calculator``: the rating calculator as a page (a GET form, so every answer has a shareable
address), on the core of ``ratingdb calc`` and ``/v1/calculator`` (services.published).

``?category=&period=&rating=&k=&games=1800:1,1650:0.5`` shows the result; the status fields
(``rated_games``, ``birth_year``, ``peak_rating``) stand for K, ``expected`` and ``mode`` choose
the expected score and the mode. The form's own fields are checked here, in the reader's
language, and every refusal is written next to its field with status 422.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ratingdb.api.i18n import CATEGORY_NAMES, Reader, reader_of
from ratingdb.api.routes.pages import page_response
from ratingdb.errors import InputError
from ratingdb.rules import (
    Category,
    ExpectedScoreMethod,
    NoRuleVersion,
    Period,
    RuleVersion,
    is_list_period,
    next_period,
    previous_period,
    version_for_period,
    versions_of,
)
from ratingdb.rules.calculator import CalculatorResult, Mode
from ratingdb.rules.first_rating import STANDARD_SEED, first_rating_working
from ratingdb.services import published as svc

router = APIRouter(include_in_schema=False)

MAX_GAMES: Final = 200
MAX_FIELD: Final = 4000
_PERIOD = re.compile(r"\d{4}-\d{2}")
#: One game: opponent rating, a colon, the result (1, 0.5 or 0; also 0,5 ½ and =).
_GAME = re.compile(r"(\d{1,5})\s*:\s*(1|0\.5|½|=|0)")
_SEPARATOR = re.compile(r"[,;\r\n]+")
_FRENCH_DRAW = re.compile(r":\s*0,5")
_SCORES: Final = {"1": "1", "0.5": "0.5", "½": "0.5", "=": "0.5", "0": "0"}
#: The fields of the calculator document, as the form names them.
_FIELDS: Final = {
    "category": "category",
    "period": "period",
    "player.rating": "rating",
    "player.k_factor": "k",
    "player.rated_games": "rated_games",
    "player.birth_year": "birth_year",
    "player.peak_rating": "peak_rating",
    "player.standard_rating": "standard_rating",
    "mode": "mode",
    "expected": "expected",
}


@dataclass(frozen=True, slots=True)
class Form:
    """The form as typed (shown back as typed), and what it means once checked."""

    values: dict[str, str]
    errors: dict[str, str]
    document: dict[str, Any] | None  # None: nothing to compute (no games, or an error)


def _text(query: Mapping[str, str], name: str) -> str:
    return "".join(ch for ch in query.get(name, "") if ch.isprintable() or ch in "\r\n")[
        :MAX_FIELD
    ].strip()


def _integer(
    reader: Reader, errors: dict[str, str], name: str, text: str, low: int, high: int
) -> int | None:
    if not text:
        return None
    if text.isascii() and text.isdigit() and low <= int(text) <= high:
        return int(text)
    errors[name] = reader.gettext("Enter a whole number from %(low)s to %(high)s.") % {
        "low": low,
        "high": high,
    }
    return None


def _games(reader: Reader, errors: dict[str, str], text: str) -> list[dict[str, Any]]:
    """``1800:1`` per line, or separated by commas as in the address (a French ``0,5`` after
    the colon is a draw, not a separator)."""
    games: list[dict[str, Any]] = []
    items = _SEPARATOR.split(_FRENCH_DRAW.sub(":0.5", text))
    for number, item in enumerate((item for item in items if item.strip()), start=1):
        match = _GAME.fullmatch(item.strip())
        if match is None:
            errors["games"] = reader.gettext(
                "Game %(num)s: write the opponent's rating, a colon and the result "
                "(1, 0.5 or 0), for example 1800:1."
            ) % {"num": number}
            return []
        rating = int(match.group(1))
        if rating > 4000:
            errors["games"] = reader.gettext(
                "Game %(num)s: the opponent's rating must be at most 4000."
            ) % {"num": number}
            return []
        games.append({"opponent_rating": rating, "score": _SCORES[match.group(2)]})
    if len(games) > MAX_GAMES:
        errors["games"] = reader.gettext("At most %(num)s games.") % {"num": MAX_GAMES}
        return []
    return games


def _period_error(reader: Reader, category: Category, period: Period) -> str | None:
    first = versions_of(category)[0].effective_from
    if period.list_date < first:
        return reader.gettext("%(category)s has no rules before %(date)s.") % {
            "category": reader.category(category),
            "date": reader.date(first),
        }
    if is_list_period(category, period):
        return None
    before = previous_period(category, period)
    after = next_period(category, period)
    if before is None:
        return reader.gettext(
            "%(category)s has no list in %(period)s; the first list after it is %(after)s."
        ) % {"category": reader.category(category), "period": period, "after": after}
    return reader.gettext(
        "%(category)s has no list in %(period)s; the lists around it are %(before)s and %(after)s."
    ) % {
        "category": reader.category(category),
        "period": period,
        "before": before,
        "after": after,
    }


def default_period(category: Category, today: date) -> Period:
    """The list of this month, else the latest list before it (the form's first value)."""
    period = Period.of_list_date(today)
    if is_list_period(category, period):
        return period
    before = previous_period(category, period)
    return period if before is None else before


def read_form(reader: Reader, query: Mapping[str, str], today: date) -> Form:
    names = ("category", "period", "rating", "k", "rated_games", "birth_year", "peak_rating",
             "standard_rating")  # fmt: skip
    values = {name: _text(query, name) for name in (*names, "games", "expected", "mode")}
    errors: dict[str, str] = {}
    category = Category.FIDE_STANDARD
    if values["category"]:
        try:
            category = Category(values["category"])
        except ValueError:
            errors["category"] = reader.gettext("Choose a category of the list.")
    values["category"] = category.value
    period: Period | None = None
    if not values["period"]:
        period = default_period(category, today)
        values["period"] = str(period)
    elif _PERIOD.fullmatch(values["period"]) is None:
        errors["period"] = reader.gettext("Write the period as YYYY-MM, for example 2026-12.")
    else:
        try:
            period = Period.parse(values["period"])
        except ValueError:
            errors["period"] = reader.gettext("Write the period as YYYY-MM, for example 2026-12.")
    if period is not None and "category" not in errors:
        problem = _period_error(reader, category, period)
        if problem is not None:
            errors["period"] = problem
    rating = _integer(reader, errors, "rating", values["rating"], 0, 4000)
    k = _integer(reader, errors, "k", values["k"], 1, 100)
    rated_games = _integer(reader, errors, "rated_games", values["rated_games"], 0, 100_000)
    birth_year = _integer(reader, errors, "birth_year", values["birth_year"], 1850, 9999)
    peak = _integer(reader, errors, "peak_rating", values["peak_rating"], 0, 4000)
    standard = _integer(reader, errors, "standard_rating", values["standard_rating"], 0, 4000)
    if peak is not None and rating is not None and peak < rating:
        errors["peak_rating"] = reader.gettext("The peak cannot be below the rating (%(r)s).") % {
            "r": rating
        }
    if values["mode"] not in ("", *(m.value for m in Mode)):
        errors["mode"] = reader.gettext("Choose period or sequential.")
    if values["expected"] not in ("", *(m.value for m in ExpectedScoreMethod)):
        errors["expected"] = reader.gettext("Choose the table or the formula.")
    games = _games(reader, errors, values["games"]) if values["games"] else []
    if games:
        values["games"] = "\n".join(f"{g['opponent_rating']}:{g['score']}" for g in games)
    if errors or not games or period is None:
        return Form(values, errors, None)
    player: dict[str, Any] = {"rating": rating}
    status = {"k_factor": k, "rated_games": rated_games, "birth_year": birth_year,
              "peak_rating": peak, "standard_rating": standard}  # fmt: skip
    player |= {key: value for key, value in status.items() if value is not None}
    document: dict[str, Any] = {
        "category": category.value,
        "period": str(period),
        "player": player,
        "events": [{"games": games}],
        "mode": values["mode"] or Mode.PERIOD.value,
    }
    if values["expected"]:
        document["expected"] = values["expected"]
    return Form(values, errors, document)


def field_of(error: InputError) -> str:
    """The form field behind a refusal of the calculator document."""
    if error.field is None or error.field.startswith("events"):
        return "games"
    return _FIELDS.get(error.field, "games")


@dataclass(frozen=True, slots=True)
class Row:
    """One game as the page shows it."""

    opponent: int | None
    score: Decimal
    rated: bool
    reason: str | None
    rating_before: int | None  # sequential mode
    difference: int | None
    difference_used: int | None
    expected: Decimal | None
    delta: Decimal | None
    k: int | None
    change: Decimal | int | None  # K x delta (period mode), the rounded change (sequential)

    @property
    def capped(self) -> bool:
        return self.difference is not None and self.difference != self.difference_used


def rows_of(calculated: CalculatorResult) -> list[Row]:
    result = calculated.result
    k = result.k_factor
    games = [game for event in result.events for game in event.games]
    if calculated.mode is Mode.SEQUENTIAL and calculated.steps:
        return [
            Row(game.game.opponent_rating, game.game.score.points, game.rated,
                game.not_rated_reason, step.rating_before, step.difference,
                step.difference_used, step.expected, step.delta, k,
                step.change if game.rated else None)
            for game, step in zip(games, calculated.steps, strict=True)
        ]  # fmt: skip
    return [
        Row(game.game.opponent_rating, game.game.score.points, game.rated,
            game.not_rated_reason, None, game.difference, game.difference_used,
            game.expected, game.delta, k,
            None if k is None or game.delta is None else k * game.delta)
        for game in games
    ]  # fmt: skip


def initial_of(calculated: CalculatorResult) -> dict[str, Any] | None:
    """A first rating's working (rules.first_rating), its fractions as decimals to show: from
    the pooled games, or (period mode) from the standard rating in rapid and blitz."""
    working = first_rating_working(calculated.result)
    if working is None or (working.method == STANDARD_SEED and calculated.mode is not Mode.PERIOD):
        return None
    return {**working.figures(), "published": working.published, "reason": working.reason}


def _version_in_force(category: Category, period_text: str) -> RuleVersion | None:
    try:
        return version_for_period(category, Period.parse(period_text))
    except (ValueError, NoRuleVersion):
        return None


@router.get("/calculator", response_class=HTMLResponse)
def calculator_page(request: Request) -> HTMLResponse:
    """The form, and with games the answer game by game (422 with the refusals next to their
    fields)."""
    reader = reader_of(request)
    form = read_form(reader, request.query_params, date.today())
    calculated: CalculatorResult | None = None
    errors = dict(form.errors)
    if form.document is not None:
        try:
            _, calculated = svc.calculator_result(form.document)
        except InputError as error:
            errors[field_of(error)] = error.message
    category = Category(form.values["category"])
    context = {
        "reader": reader,
        "form": form.values,
        "errors": errors,
        "categories": list(CATEGORY_NAMES),
        "version": _version_in_force(category, form.values["period"]),
        "calculated": calculated,
        "rows": [] if calculated is None else rows_of(calculated),
        "initial": None if calculated is None else initial_of(calculated),
    }
    return page_response(request, "calculator.html", context, 422 if errors else 200)
