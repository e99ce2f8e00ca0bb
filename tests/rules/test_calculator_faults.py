"""Two faults of the calculator core (issue 15), with numbers worked by hand from FIDE table
8.1.2 (docs/rules.md §4; seed 002 prints the same table):

* a month without a list (2009-05, when FIDE standard lists were quarterly) was computed with
  the rules of the version in force instead of being refused;
* sequential mode under the 2022 rules (400-point rule once per event, B.02 2022 §8.3.1:
  "only the game with the greatest difference") capped every game, because each game was rated
  as an event of its own.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratingdb.rules import (
    CapMode,
    Category,
    Event,
    Game,
    Period,
    PlayerStatus,
    Score,
    is_list_period,
    next_period,
    previous_period,
    version_for_period,
    versions_of,
)
from ratingdb.rules.calculator import CalculatorRequest, Mode, calculate
from ratingdb.rules.calendar import NotAListPeriod

W, D, L = Score.WIN, Score.DRAW, Score.LOSS


def request(
    period: Period,
    events: tuple[Event, ...],
    *,
    rating: int = 2000,
    k: int = 20,
    mode: Mode = Mode.SEQUENTIAL,
    category: Category = Category.FIDE_STANDARD,
) -> CalculatorRequest:
    return CalculatorRequest(
        category, period, PlayerStatus(rating=rating, k_factor=k), events, mode=mode
    )


# --- (a) a month without a list is refused ------------------------------------------------------


def test_may_2009_has_no_list_and_is_refused_naming_the_lists_around_it() -> None:
    # Before 2009-07 FIDE standard lists were quarterly (January, April, July, October): May
    # 2009 has no list; the lists before and after it are 2009-04 and 2009-07 (the first list
    # of the 2009-07 version, every two months).
    games = (Event((Game(2035, D),)),)
    with pytest.raises(NotAListPeriod) as refused:
        calculate(request(Period(2009, 5), games, rating=1848, k=25, mode=Mode.PERIOD))
    message = str(refused.value)
    assert "2009-05" in message
    assert "2009-04 and 2009-07" in message


def test_every_other_month_from_2009_07_to_2012_06() -> None:
    # Lists every two months (odd months) from July 2009: February 2010 lies between the
    # January and March lists; March 2010 is computed.
    games = (Event((Game(2035, D),)),)
    with pytest.raises(NotAListPeriod, match=r"2010-02 .*2010-01 and 2010-03"):
        calculate(request(Period(2010, 2), games, mode=Mode.PERIOD))
    assert calculate(request(Period(2010, 3), games, mode=Mode.PERIOD)).new_rating is not None


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(list(Category)),
    st.integers(min_value=2000, max_value=2030),
    st.integers(min_value=1, max_value=12),
)
def test_a_period_is_computed_exactly_when_it_has_a_list(
    category: Category, year: int, month: int
) -> None:
    period = Period(year, month)
    if versions_of(category)[0].effective_from > period.list_date:
        return  # before the category's first rules: another refusal (NoRuleVersion)
    games = (Event((Game(1900, W),)),)
    if is_list_period(category, period):
        assert calculate(request(period, games, category=category)).result.period == period
        return
    with pytest.raises(NotAListPeriod) as refused:
        calculate(request(period, games, category=category))
    before = previous_period(category, period)
    assert str(period) in str(refused.value)
    assert str(next_period(category, period)) in str(refused.value)
    if before is not None:
        assert str(before) in str(refused.value)


# --- (b) sequential mode keeps the 2022 cap once per event --------------------------------------
#
# fide-standard 2023-01 is under fide-standard-2022-01 (cap 400, once per event). Player 2000,
# K 20, one event: wins against 1500 and 1550.
#
# Period mode (FIDE's): D +500 (the widest, capped to 400: row 392-411, PD .92) -> +0.08;
# D +450 (not capped: row 433-456, PD .94) -> +0.06. Sum 0.14 x 20 = 2.8 -> +3 -> 2003.
#
# Sequential mode: the game period mode caps is the one capped, against the rating before it.
#   2000 vs 1500: D 500 -> 400 -> PD .92 -> 20 x 0.08 = 1.6 -> +2 -> 2002
#   2002 vs 1550: D 452, not capped -> row 433-456 PD .94 -> 20 x 0.06 = 1.2 -> +1 -> 2003
# (Capping every game, the old fault: D 400 -> .92 -> 1.6 -> +2 -> 2004.)

ONE_EVENT = (Event((Game(1500, W), Game(1550, W))),)


def test_2022_sequential_caps_one_game_per_event() -> None:
    assert version_for_period(Category.FIDE_STANDARD, Period(2023, 1)).cap_mode is (
        CapMode.ONCE_PER_EVENT
    )
    out = calculate(request(Period(2023, 1), ONE_EVENT))
    assert [(s.rating_before, s.difference, s.difference_used) for s in out.steps] == [
        (2000, 500, 400),
        (2002, 452, 452),
    ]
    assert [s.expected for s in out.steps] == [Decimal("0.92"), Decimal("0.94")]
    assert [s.change for s in out.steps] == [2, 1]
    assert (out.change, out.new_rating) == (3, 2003)


def test_2022_period_mode_same_games() -> None:
    out = calculate(request(Period(2023, 1), ONE_EVENT, mode=Mode.PERIOD))
    games = out.result.events[0].games
    assert [(g.difference, g.difference_used, g.expected) for g in games] == [
        (500, 400, Decimal("0.92")),
        (450, 450, Decimal("0.94")),
    ]
    assert (out.change, out.new_rating) == (3, 2003)


def test_2022_sequential_caps_once_in_each_event() -> None:
    # A second event, a win against 1560, gets its own capped game: rated from 2003,
    # D 443 -> 400 -> PD .92 -> 1.6 -> +2 -> 2005 (uncapped it would be .94 -> 1.2 -> +1).
    two_events = (*ONE_EVENT, Event((Game(1560, W),)))
    out = calculate(request(Period(2023, 1), two_events))
    assert [(s.rating_before, s.difference_used, s.change) for s in out.steps] == [
        (2000, 400, 2),
        (2002, 452, 1),
        (2003, 400, 2),
    ]
    assert out.new_rating == 2005


def test_2024_sequential_still_caps_every_game() -> None:
    # fide-standard-2024-03 caps every game: 2000 vs 1500 D 500 -> 400 -> +2 -> 2002;
    # 2002 vs 1550 D 452 -> 400 -> .92 -> 1.6 -> +2 -> 2004.
    out = calculate(request(Period(2024, 6), ONE_EVENT))
    assert [(s.rating_before, s.difference_used, s.change) for s in out.steps] == [
        (2000, 400, 2),
        (2002, 400, 2),
    ]
    assert out.new_rating == 2004


ONCE_PER_EVENT_PERIODS = [
    (Category.FIDE_STANDARD, Period(2023, 6)),
    (Category.FIDE_RAPID, Period(2022, 6)),
    (Category.FIDE_BLITZ, Period(2023, 12)),
]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(ONCE_PER_EVENT_PERIODS),
    st.integers(min_value=1400, max_value=2800),
    st.lists(
        st.lists(
            st.builds(
                Game, st.integers(min_value=1000, max_value=3000), st.sampled_from(list(Score))
            ),
            min_size=1,
            max_size=8,
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_sequential_caps_at_most_one_game_per_event_under_once_per_event(
    where: tuple[Category, Period], own: int, events: list[list[Game]]
) -> None:
    category, period = where
    out = calculate(
        request(period, tuple(Event(tuple(g)) for g in events), rating=own, category=category)
    )
    steps = iter(out.steps)
    for event in events:
        event_steps = [next(steps) for _ in event]
        capped = [s for s in event_steps if s.difference != s.difference_used]
        assert len(capped) <= 1
        for step in capped:
            assert step.difference is not None
            assert abs(step.difference) > 400
            assert step.difference_used == (400 if step.difference > 0 else -400)
    # The new rating is the start plus every step's change.
    assert out.new_rating == own + sum(s.change for s in out.steps)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(
        [
            *ONCE_PER_EVENT_PERIODS,
            (Category.FIDE_STANDARD, Period(2024, 6)),
            (Category.FIDE_STANDARD, Period(2009, 4)),
            (Category.FFE_RAPID, Period(2027, 4)),
        ]
    ),
    # K 20 moves a rating at most 20 points: never below a floor (1400 at most) from 1500.
    st.integers(min_value=1500, max_value=2800),
    st.builds(Game, st.integers(min_value=1000, max_value=3000), st.sampled_from(list(Score))),
)
def test_one_game_sequential_is_period_mode(
    where: tuple[Category, Period], own: int, game: Game
) -> None:
    # With a single game there is nothing to update between games: both modes agree.
    category, period = where
    events = (Event((game,)),)
    sequential = calculate(request(period, events, rating=own, category=category))
    in_period = calculate(request(period, events, rating=own, category=category, mode=Mode.PERIOD))
    assert sequential.change == in_period.change
    assert sequential.new_rating == in_period.new_rating
    (step,) = sequential.steps
    (calc,) = in_period.result.events[0].games
    assert (step.difference_used, step.expected, step.delta) == (
        calc.difference_used,
        calc.expected,
        calc.delta,
    )
