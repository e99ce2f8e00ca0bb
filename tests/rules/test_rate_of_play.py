"""Rate of play (issue 27, item 1, the rules core): time controls as TRF26 writes them, the
minutes each gives for 60 moves, and which category rates them on which date. Every number
below is worked by hand from the rule (ratingdb/rules/rate_of_play.py's docstring, docs/rules.md
§3.1 and §5)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratingdb.rules import (
    Category,
    Event,
    Game,
    Period,
    PeriodRules,
    PlayerStatus,
    Score,
    rate_player,
)
from ratingdb.rules.rate_of_play import (
    ControlPeriod,
    NoRateOfPlayRule,
    PlayerTime,
    TimeControl,
    eligibility,
    parse_time_control,
)

STANDARD, RAPID, BLITZ, FFE = (Category.FIDE_STANDARD, Category.FIDE_RAPID,
                               Category.FIDE_BLITZ, Category.FFE_RAPID)  # fmt: skip
NOW = date(2026, 6, 1)
IN_2021 = date(2021, 6, 1)
IN_2023 = date(2023, 6, 1)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("5400+30", 120),  # 90 + 60 x 30 s
        ("40/6000+30:900+30", 145),  # 100 + 15 + 60 x 30 s
        ("3600+30", 90),  # 60 + 30
        ("40/7200:1800", 150),  # 120 for 40 moves, then 30 to the end
        ("40/7200", 240),  # 120 for every 40 moves: 60 moves begin a second period
        ("40/5400+30:1800+30", 150),  # the classic FIDE control: 90 + 30 + 60 x 30 s
        ("900+10", 25),  # 15 + 10
        ("600", 10),
        ("180+2", 5),
        ("3540+1", 60),
        ("2700+30", 75),
        ("60/3600:1800", 60),  # the second period begins at move 61: not counted
    ],
)
def test_minutes_for_60_moves(text: str, minutes: int) -> None:
    control = parse_time_control(text)
    assert control.same_for_both
    assert control.white.minutes_for_60_moves() == minutes
    assert str(control) == text


def test_fractional_minutes_are_kept_exact() -> None:
    assert parse_time_control("300+3").white.minutes_for_60_moves() == 8
    assert parse_time_control("170+1").white.minutes_for_60_moves() == Fraction(23, 6)


def test_different_times_for_the_two_players() -> None:
    control = parse_time_control("W300-B240")
    assert not control.same_for_both
    assert control.white.minutes_for_60_moves() == 5
    assert control.black.minutes_for_60_moves() == 4
    assert str(control) == "W300-B240"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("90+30'", "not a period"),
        ("40/", "not a period"),
        ("1800:40/3600", "only the last period"),
        ("0", "no time"),
        ("W300-B", "not a period"),
        ("5400 + 30", "not a period"),
    ],
)
def test_unreadable_time_controls_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_time_control(text)


# Standard ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "text", "white", "black", "rated"),
    [
        (NOW, "5400+30", 2450, 2300, True),  # 120 min: enough for a 2400 player
        (NOW, "3600+30", 2450, 2300, False),  # 90 min < 120
        (NOW, "3600+30", 2399, 1200, True),  # 90 min for a game with a 1800+ player
        (NOW, "2700+30", 2000, 1500, False),  # 75 min < 90
        (NOW, "2700+30", 1799, None, True),  # 75 >= 60, both below 1800 (one unrated)
        (NOW, "3600", 1700, 1750, True),  # exactly 60
        (NOW, "3540", 1700, 1750, False),  # 59 < 60
        (IN_2021, "3600+30", 2300, 2100, False),  # 2021: 2200/1600 bands, 90 < 120
        (IN_2021, "3600+30", 2150, 1700, True),  # 2021: 90 for a 1600+ player
        (IN_2021, "2700+30", 1650, 1500, False),  # 2021: 75 < 90 (1650 >= 1600)
        (IN_2023, "2700+30", 1650, 1500, True),  # 2023: 2400/1800 bands, 75 >= 60
    ],
)
def test_standard_minimum_by_rating_band(
    start: date, text: str, white: int | None, black: int | None, rated: bool
) -> None:
    assert eligibility(STANDARD, start, parse_time_control(text), white, black).rated is rated


def test_standard_refusal_explains_itself() -> None:
    refused = eligibility(STANDARD, NOW, parse_time_control("3600+30"), 2410, 2000)
    assert (refused.rated, refused.code) == (False, "rate-of-play-too-fast")
    assert refused.reason == (
        "rate of play 90 min for 60 moves, below the 120 min required when a "
        "player is rated 2400 or more"
    )
    assert refused.source is not None
    assert "2024" in refused.source


def test_a_first_control_under_30_moves_is_not_rated() -> None:
    refused = eligibility(STANDARD, NOW, parse_time_control("20/3600:3600"), 1500, 1500)
    assert (refused.rated, refused.code) == (False, "first-control-too-short")
    assert refused.reason == "the first time control is for 20 moves, fewer than 30"
    assert eligibility(STANDARD, NOW, parse_time_control("30/5400:1800"), 2500, 2500).rated


def test_different_playing_times_are_not_rated_in_any_category() -> None:
    for category in Category:
        refused = eligibility(category, NOW, parse_time_control("W5400+30-B3600+30"), 1500, 1500)
        assert (refused.rated, refused.code) == (False, "different-playing-times")


# Rapid and blitz -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("category", "start", "text", "rated"),
    [
        (RAPID, NOW, "900+10", True),  # 25 min
        (RAPID, NOW, "600+1", True),  # 11 min > 10
        (RAPID, NOW, "600", False),  # 10 min: not more than 10
        (RAPID, NOW, "3540+1", False),  # 60 min: not less than 60
        (RAPID, NOW, "3480+1", True),  # 59 min
        (RAPID, IN_2023, "600+1", False),  # 2012 rules: at least 15
        (RAPID, IN_2023, "900", True),  # 15 min
        (BLITZ, NOW, "600", True),  # 10 min: at most 10
        (BLITZ, NOW, "600+1", False),  # 11 min
        (BLITZ, NOW, "180+2", True),  # 5 min
        (BLITZ, NOW, "180", False),  # 3 min: not more than 3
        (BLITZ, NOW, "181", True),  # 3 min 1 s
        (BLITZ, IN_2023, "180+2", True),  # 2012 rules: at least 5
        (BLITZ, IN_2023, "240+1", True),  # 4 min + 60 x 1 s = 5: "at least 5"
        (BLITZ, IN_2023, "240", False),  # 4 min
        (BLITZ, IN_2023, "840+1", False),  # 15 min: less than 15 needed
        (FFE, NOW, "900+10", True),
        (FFE, NOW, "600", False),
    ],
)
def test_rapid_and_blitz_bounds(category: Category, start: date, text: str, rated: bool) -> None:
    assert eligibility(category, start, parse_time_control(text)).rated is rated


def test_a_fast_refusal_names_the_bounds() -> None:
    refused = eligibility(BLITZ, NOW, parse_time_control("900"))
    assert refused.code == "rate-of-play-outside-category"
    assert refused.reason == (
        "rate of play 15 min for 60 moves, fide-blitz needs more than 3 and at most 10 minutes"
    )


def test_no_rule_before_the_first_version() -> None:
    with pytest.raises(NoRateOfPlayRule):
        eligibility(RAPID, date(2011, 12, 31), parse_time_control("900"))


# Properties ----------------------------------------------------------------------------------

periods = st.builds(
    ControlPeriod,
    moves=st.one_of(st.none(), st.integers(min_value=1, max_value=99)),
    seconds=st.integers(min_value=1, max_value=20_000),
    increment=st.integers(min_value=0, max_value=120),
)


@st.composite
def player_times(draw: st.DrawFn) -> PlayerTime:
    found = draw(st.lists(periods, min_size=1, max_size=3))
    fixed = [ControlPeriod(p.moves or 40, p.seconds, p.increment) for p in found[:-1]]
    return PlayerTime((*fixed, found[-1]))


@given(player_times())
def test_written_time_controls_read_back_the_same(time: PlayerTime) -> None:
    control = TimeControl(time, time)
    assert parse_time_control(str(control)) == control


@given(player_times(), st.integers(min_value=1, max_value=600))
def test_more_base_time_never_makes_a_control_faster(time: PlayerTime, extra: int) -> None:
    first = time.periods[0]
    slower = PlayerTime(
        (ControlPeriod(first.moves, first.seconds + extra, first.increment), *time.periods[1:])
    )
    # At least the extra time (more when the first period repeats within 60 moves).
    assert slower.minutes_for_60_moves() >= time.minutes_for_60_moves() + Fraction(extra, 60)


@given(player_times(), st.integers(min_value=0, max_value=3000))
def test_a_2400_player_needs_at_least_what_a_1500_player_needs(
    time: PlayerTime, rating: int
) -> None:
    control = TimeControl(time, time)
    if eligibility(STANDARD, NOW, control, 2400, rating).rated:
        assert eligibility(STANDARD, NOW, control, 1500, 1500).rated


# A game not rated for its rate of play, in the period's calculation --------------------------


def test_a_game_the_category_does_not_rate_is_explained_not_counted() -> None:
    """2000 beats two 2000s, once at a rate of play standard does not rate: D 0, PD 0.50, K 20,
    so +10 for the game rated (not +20); the other is kept with its reason."""
    rules = PeriodRules.for_period(STANDARD, Period.parse("2026-12"))
    reason = eligibility(STANDARD, NOW, parse_time_control("1800+30"), 2000, 2000).reason
    assert reason == (
        "rate of play 60 min for 60 moves, below the 90 min required when a player is rated "
        "1800 or more"
    )
    event = Event(
        games=(
            Game(2000, Score.WIN, "a"),
            Game(2000, Score.WIN, "b", not_rated=reason),
        ),
        rating_used=2000,
    )
    status = PlayerStatus(rating=2000, rated_games=100, peak_rating=2000, birth_year=1980)
    result = rate_player(rules, status, [event])
    assert (result.k_factor, result.rated_games, result.change) == (20, 1, 10)
    skipped = result.events[0].games[1]
    assert (skipped.rated, skipped.not_rated_reason, skipped.expected) == (False, reason, None)


def test_a_game_the_category_does_not_rate_is_not_pooled_for_a_first_rating() -> None:
    rules = PeriodRules.for_period(STANDARD, Period.parse("2026-12"))
    games = tuple(Game(1800, Score.DRAW, f"o{i}") for i in range(4))
    event = Event(games=(*games, Game(1800, Score.WIN, "o9", not_rated="too fast")))
    result = rate_player(rules, PlayerStatus(rating=None), [event])
    assert result.pool_update is not None
    assert [len(p.games) for p in result.pool_update.added] == [4]
    assert [g.rated for g in result.events[0].games] == [True, True, True, True, False]
    assert result.events[0].games[4].not_rated_reason == "too fast"
