"""Properties of the rating rules that hold for any input (hypothesis)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from ratingdb.rules import (
    Category,
    Event,
    ExpectedScoreMethod,
    Game,
    Period,
    PeriodResult,
    PeriodRules,
    PlayerStatus,
    Score,
    expected_score,
    probability_from_table,
    rate_player,
    round_half_away_from_zero,
)

PROPERTY_SETTINGS = settings(max_examples=200, deadline=None)

# One period per rule shape: 350 cap, 400 cap, cap once per event, cap every game, 2650
# exemption, rapid without cap, blitz with the 600-point exclusion, FFE rapid with the formula.
PERIODS = [
    (Category.FIDE_STANDARD, Period(2009, 4)),
    (Category.FIDE_STANDARD, Period(2009, 7)),
    (Category.FIDE_STANDARD, Period(2013, 6)),
    (Category.FIDE_STANDARD, Period(2023, 6)),
    (Category.FIDE_STANDARD, Period(2024, 6)),
    (Category.FIDE_STANDARD, Period(2025, 12)),
    (Category.FIDE_RAPID, Period(2015, 6)),
    (Category.FIDE_BLITZ, Period(2025, 6)),
    (Category.FFE_RAPID, Period(2027, 4)),
]

rules_strategy = st.sampled_from(PERIODS).map(lambda cp: PeriodRules.for_period(*cp))
rating = st.integers(min_value=1400, max_value=2900)
opponent = st.integers(min_value=1000, max_value=3000)
score = st.sampled_from(list(Score))
games = st.lists(st.builds(Game, opponent, score), min_size=1, max_size=12)
events_strategy = st.lists(games, min_size=1, max_size=4)


@st.composite
def statuses(draw: st.DrawFn) -> PlayerStatus:
    own = draw(rating)
    peak = draw(st.one_of(st.none(), st.integers(min_value=own, max_value=2900)))
    return PlayerStatus(
        rating=own,
        rated_games=draw(st.integers(min_value=0, max_value=300)),
        peak_rating=peak,
        birth_year=draw(st.one_of(st.none(), st.integers(min_value=1950, max_value=2020))),
        k_factor=draw(st.one_of(st.none(), st.sampled_from([10, 15, 20, 25, 30, 40]))),
    )


def _rate(rules: PeriodRules, status: PlayerStatus, events: list[list[Game]]) -> PeriodResult:
    return rate_player(rules, status, [Event(tuple(games)) for games in events])


# --- Expected score ----------------------------------------------------------------------------


@given(st.integers(min_value=-3000, max_value=3000))
def test_table_pd_of_both_sides_sum_to_one(difference: int) -> None:
    assert probability_from_table(difference) + probability_from_table(-difference) == 1
    assert expected_score(difference, ExpectedScoreMethod.TABLE) + expected_score(
        -difference, ExpectedScoreMethod.TABLE
    ) == Decimal(1)


@given(st.integers(min_value=-3000, max_value=3000), st.sampled_from([2, 3, 4, 6]))
def test_formula_pd_of_both_sides_sum_to_one(difference: int, decimals: int) -> None:
    higher = expected_score(difference, ExpectedScoreMethod.FORMULA, decimals)
    lower = expected_score(-difference, ExpectedScoreMethod.FORMULA, decimals)
    assert higher + lower == 1
    assert 0 <= higher <= 1


@given(st.integers(min_value=-3000, max_value=3000))
def test_table_pd_is_monotonic_in_d(difference: int) -> None:
    assert probability_from_table(difference) <= probability_from_table(difference + 1)


# --- The change of a period --------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(rules_strategy, statuses(), events_strategy, st.data())
def test_raising_one_score_never_lowers_the_change(
    rules: PeriodRules, status: PlayerStatus, events: list[list[Game]], data: st.DataObject
) -> None:
    event_index = data.draw(st.integers(min_value=0, max_value=len(events) - 1))
    game_index = data.draw(st.integers(min_value=0, max_value=len(events[event_index]) - 1))
    game = events[event_index][game_index]
    if game.score is Score.WIN:
        return
    better = [list(event) for event in events]
    better[event_index][game_index] = Game(game.opponent_rating, Score(game.score + 1))
    before = _rate(rules, status, events)
    after = _rate(rules, status, better)
    assert before.change is not None
    assert after.change is not None
    assert after.change >= before.change
    assert after.sum_delta >= before.sum_delta


@PROPERTY_SETTINGS
@given(rules_strategy, statuses(), events_strategy)
def test_change_is_at_most_k_times_n(
    rules: PeriodRules, status: PlayerStatus, events: list[list[Game]]
) -> None:
    # |score - PD| <= 1 per game, so |K x sum| <= K x n, an integer the rounding cannot pass.
    result = _rate(rules, status, events)
    assert result.change is not None
    assert result.k_factor is not None
    assert abs(result.change) <= result.k_factor * result.rated_games
    if rules.version.kn_cap is not None:
        assert result.k_factor * result.rated_games <= rules.version.kn_cap
    assert result.k_factor <= (result.k_status or 0)


@PROPERTY_SETTINGS
@given(
    rules_strategy,
    statuses(),
    st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=4),
)
def test_draws_against_equal_rated_opponents_change_nothing(
    rules: PeriodRules, status: PlayerStatus, sizes: list[int]
) -> None:
    assert status.rating is not None
    own = status.rating
    events = [[Game(own, Score.DRAW)] * size for size in sizes]
    result = _rate(rules, status, events)
    assert result.sum_delta == 0
    assert result.change == 0
    assert result.base_rating == own
    assert result.new_rating == own


@PROPERTY_SETTINGS
@given(rules_strategy, statuses(), events_strategy)
def test_change_is_k_times_the_sum_rounded_once(
    rules: PeriodRules, status: PlayerStatus, events: list[list[Game]]
) -> None:
    result = _rate(rules, status, events)
    assert result.k_factor is not None
    assert result.sum_delta == sum((e.sum_delta for e in result.events), Decimal(0))
    exact = result.k_factor * result.sum_delta
    assert result.change is not None
    assert abs(Decimal(result.change) - exact) <= Decimal("0.5")


# --- Rounding ----------------------------------------------------------------------------------

decimals = st.decimals(
    min_value=Decimal(-100000),
    max_value=Decimal(100000),
    allow_nan=False,
    allow_infinity=False,
    places=4,
)


@given(decimals)
def test_rounding_is_symmetric(value: Decimal) -> None:
    assert round_half_away_from_zero(-value) == -round_half_away_from_zero(value)


@given(decimals)
def test_rounding_is_to_the_nearest_whole_number(value: Decimal) -> None:
    rounded = round_half_away_from_zero(value)
    assert abs(rounded - value) <= Decimal("0.5")


@given(st.integers(min_value=-100000, max_value=100000))
def test_half_is_rounded_away_from_zero(whole: int) -> None:
    half = Decimal(whole) + (Decimal("0.5") if whole >= 0 else Decimal("-0.5"))
    expected = whole + 1 if whole >= 0 else whole - 1
    assert round_half_away_from_zero(half) == expected


def test_rounding_examples() -> None:
    assert round_half_away_from_zero(Decimal("-2.50")) == -3
    assert round_half_away_from_zero(Decimal("2.50")) == 3
    assert round_half_away_from_zero(Decimal("92.48")) == 92
    assert round_half_away_from_zero(Decimal("-0.40")) == 0
    assert round_half_away_from_zero(Decimal("-0.5")) == -1
    assert round_half_away_from_zero(Decimal("0.49")) == 0
