"""The seeds' calculators (docs/rules.md §14): one player's games in, the expected score of
each game, the change and the new rating out. Period mode is FIDE's; sequential mode updates the
rating after every game, as many online platforms do.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from ratingdb.rules.calendar import check_list_period, previous_period
from ratingdb.rules.categories import Category, Period
from ratingdb.rules.games import Event, PlayerStatus
from ratingdb.rules.performance import performance_rating
from ratingdb.rules.period import (
    EventCalculation,
    PeriodResult,
    PeriodRules,
    rate_player,
    widest_game,
)
from ratingdb.rules.versions import CapMode, ExpectedScoreMethod, RuleVersion, version_for_period

#: The cap the calculator applies when asked to cap under a version that has none.
DEFAULT_CAP = 400


class Mode(StrEnum):
    PERIOD = "period"
    SEQUENTIAL = "sequential"


@dataclass(frozen=True, slots=True)
class CalculatorRequest:
    category: Category
    period: Period
    player: PlayerStatus
    events: tuple[Event, ...]
    mode: Mode = Mode.PERIOD
    expected: ExpectedScoreMethod | None = None  # None: the version's method
    cap: bool | None = None  # None: the version's cap; False: none; True: the version's or 400


@dataclass(frozen=True, slots=True)
class SequentialStep:
    """One game of sequential mode: the rating before it and the change it made, with the
    difference (before and after the cap), the expected score and score - expected of that
    game against the rating before it (None: the game is not rated)."""

    rating_before: int
    change: int
    difference: int | None = None
    difference_used: int | None = None
    expected: Decimal | None = None
    delta: Decimal | None = None


@dataclass(frozen=True, slots=True)
class CalculatorResult:
    version: RuleVersion  # as applied, after the request's options
    rule_version: str  # the name of the version in force
    mode: Mode
    result: PeriodResult  # period mode; in sequential mode the period view of the same games
    change: int | None
    new_rating: int | None
    steps: tuple[SequentialStep, ...]  # sequential mode only
    performance: int | None


def calculate(request: CalculatorRequest) -> CalculatorResult:
    """The request's games rated under the rules of its period, which must have a list
    (NotAListPeriod otherwise: a month between two lists has no rules of its own)."""
    check_list_period(request.category, request.period)
    in_force = version_for_period(request.category, request.period)
    version = _with_options(in_force, request.expected, request.cap)
    rules = PeriodRules(
        request.category, request.period, version, previous_period(request.category, request.period)
    )
    result = rate_player(rules, request.player, request.events)
    change = result.change
    new_rating = result.new_rating
    steps: tuple[SequentialStep, ...] = ()
    if request.mode is Mode.SEQUENTIAL and result.base_rating is not None:
        steps, new_rating = _sequential(rules, request.player, request.events, result)
        change = None if new_rating is None else new_rating - result.base_rating
    return CalculatorResult(
        version=version,
        rule_version=in_force.name,
        mode=request.mode,
        result=result,
        change=change,
        new_rating=new_rating,
        steps=steps,
        performance=_performance(result.events),
    )


def _with_options(
    version: RuleVersion, expected: ExpectedScoreMethod | None, cap: bool | None
) -> RuleVersion:
    if expected is not None:
        version = dataclasses.replace(version, expected=expected)
    if cap is False:
        version = dataclasses.replace(version, difference_cap=None, cap_mode=CapMode.NONE)
    elif cap is True and (version.difference_cap is None or version.cap_mode is CapMode.NONE):
        version = dataclasses.replace(
            version, difference_cap=DEFAULT_CAP, cap_mode=CapMode.EVERY_GAME
        )
    return version


def _sequential(
    rules: PeriodRules, player: PlayerStatus, events: Sequence[Event], period: PeriodResult
) -> tuple[tuple[SequentialStep, ...], int | None]:
    """Each game rated on its own from the rating left by the previous one, with the period's
    K (after K x n <= 700) and the change of each game rounded half away from zero.

    A ``once_per_event`` cap (B.02 2022 §8.3.1) stays once per event: only the game of each
    event with the greatest |D| from the event's starting rating (the game period mode caps)
    is capped, against the rating before it; the event's other games use their full
    difference. Other cap modes apply to each game as in period mode."""
    if period.base_rating is None or period.k_factor is None:
        raise AssertionError("sequential mode needs a rated player")
    rating = period.base_rating
    fixed_k = dataclasses.replace(
        player, rating=rating, k_factor=period.k_factor, standard_rating=None
    )
    version = _without_adjustment(rules.version)
    once = version.difference_cap is not None and version.cap_mode is CapMode.ONCE_PER_EVENT
    plain = dataclasses.replace(rules, version=version)
    capped = dataclasses.replace(
        rules, version=dataclasses.replace(version, cap_mode=CapMode.EVERY_GAME)
    )
    uncapped = dataclasses.replace(
        rules, version=dataclasses.replace(version, difference_cap=None, cap_mode=CapMode.NONE)
    )
    steps: list[SequentialStep] = []
    for event, calculated in zip(events, period.events, strict=True):
        widest = -1
        if once and calculated.rating_used is not None:
            widest = widest_game(version, event.games, calculated.rating_used)
        for index, game in enumerate(event.games):
            single = Event((game,), rating_used=rating, start_date=event.start_date)
            step_rules = plain if not once else capped if index == widest else uncapped
            step = rate_player(step_rules, dataclasses.replace(fixed_k, rating=rating), (single,))
            change = step.change or 0
            (one,) = step.events[0].games
            steps.append(
                SequentialStep(
                    rating, change, one.difference, one.difference_used, one.expected, one.delta
                )
            )
            rating += change
    new_rating: int | None = rating if rating >= rules.version.floor else None
    return tuple(steps), new_rating


def _without_adjustment(version: RuleVersion) -> RuleVersion:
    return dataclasses.replace(version, one_time_adjustment=None)


def _performance(events: Sequence[EventCalculation]) -> int | None:
    opponents: list[int] = []
    scores = []
    for event in events:
        for game in event.games:
            if game.rated and game.game.opponent_rating is not None:
                opponents.append(game.game.opponent_rating)
                scores.append(game.game.score)
    if not opponents:
        return None
    return performance_rating(opponents, scores)


def decimal_text(value: Decimal) -> str:
    """Decimals as the contract writes them: plain notation, no exponent."""
    return format(value, "f")
