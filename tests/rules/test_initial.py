"""First ratings (docs/rules.md §9, TV-07/TV-08): pooling, disregarded first events, methods."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ratingdb.rules import (
    Category,
    Event,
    Game,
    InitialRatingMethod,
    Period,
    PeriodRules,
    PlayerStatus,
    PooledEvent,
    Score,
    initial_rating,
    rate_player,
    update_pool,
    version_for_period,
)
from ratingdb.rules.period import FIRST_EVENT_DISREGARDED, MATCH_WITH_UNRATED, OPPONENT_UNRATED

STD = Category.FIDE_STANDARD
V2024 = version_for_period(STD, Period(2025, 12))
V2022 = version_for_period(STD, Period(2023, 6))
V2000 = version_for_period(STD, Period(2009, 4))
V2009 = version_for_period(STD, Period(2009, 7))
V2012 = version_for_period(STD, Period(2013, 6))
_SCORES = {"1": Score.WIN, "=": Score.DRAW, "0": Score.LOSS}


def g(opponent: int | None, score: str) -> Game:
    return Game(opponent, _SCORES[score])


def games(*pairs: tuple[int | None, str]) -> tuple[Game, ...]:
    return tuple(g(opponent, score) for opponent, score in pairs)


# --- Pooling over 26 months ------------------------------------------------------------------

P1 = PooledEvent(Period(2023, 12), games((1700, "1"), (1700, "0"), (1700, "=")), "p1")
P2 = PooledEvent(Period(2024, 1), games((1800, "1"), (1800, "0")), "p2")
NEW = Event(games((1600, "1")), event_id="new")


def test_pool_keeps_events_less_than_26_periods_old() -> None:
    # 2026-01 is 25 months after 2023-12: both pooled events stay.
    assert V2024.pool_months == 26
    update = update_pool(V2024, Period(2026, 1), (P1, P2), [NEW])
    assert update.expired == ()
    assert [p.event_id for p in update.pool] == ["p1", "p2", "new"]
    assert [p.event_id for p in update.added] == ["new"]
    assert update.added[0].period == Period(2026, 1)


def test_pool_drops_events_26_periods_old_or_more() -> None:
    # 2026-02 is 26 months after 2023-12: P1 drops out; 2024-01 is 25 months back and stays.
    update = update_pool(V2024, Period(2026, 2), (P1, P2), [NEW])
    assert [p.event_id for p in update.expired] == ["p1"]
    assert [p.event_id for p in update.pool] == ["p2", "new"]
    update = update_pool(V2024, Period(2026, 3), (P1, P2), [NEW])
    assert [p.event_id for p in update.expired] == ["p1", "p2"]
    assert [p.event_id for p in update.pool] == ["new"]


def test_first_rating_from_a_pool_spanning_25_months() -> None:
    # Period 2026-01: P1 + P2 + the new game = 6 games; opponents 3 x 1700 + 2 x 1800 + 1600
    # = 10300; Ra = (10300 + 3600) / 8 = 1737.5; W = 1.5 + 1 + 1 = 3.5; p = 4.5 / 8 = .5625
    # -> .56 -> dp 43; Ru = 1780.5 -> 1781 (half up). rated_games = the 6 pooled games.
    rules = PeriodRules.for_period(STD, Period(2026, 1))
    result = rate_player(rules, PlayerStatus(rating=None, pool=(P1, P2)), [NEW])
    assert result.initial is not None
    assert result.initial.games == 6
    assert result.initial.opponents_average == Fraction(13900, 8)
    assert result.initial.p == Fraction(56, 100)
    assert result.initial.dp == 43
    assert result.new_rating == 1781
    assert result.is_first_rating
    assert result.status.rated_games == 6
    assert result.status.pool == ()


def test_no_first_rating_once_old_events_dropped_out() -> None:
    # Period 2026-02: P1 expired, 2 + 1 = 3 games < 5: no rating, the 3 games stay pooled.
    rules = PeriodRules.for_period(STD, Period(2026, 2))
    result = rate_player(rules, PlayerStatus(rating=None, pool=(P1, P2)), [NEW])
    assert result.new_rating is None
    assert result.initial is not None
    assert not result.initial.published
    assert result.initial.games == 3
    assert [p.event_id for p in result.status.pool] == ["p2", "new"]


# --- A first event with zero points is disregarded -------------------------------------------

ZERO = Event(games((1700, "0"), (1750, "0"), (1800, "0")), event_id="zero")
SOME = Event(games((1700, "1"), (1750, "0")), event_id="some")


def test_zero_point_first_event_is_disregarded() -> None:
    update = update_pool(V2024, Period(2025, 12), (), [ZERO])
    assert update.pool == ()
    assert [p.event_id for p in update.disregarded] == ["zero"]
    assert update.disregarded_events == frozenset({0})


def test_zero_point_first_event_disregarded_then_next_event_pooled() -> None:
    update = update_pool(V2024, Period(2025, 12), (), [ZERO, SOME])
    assert [p.event_id for p in update.pool] == ["some"]
    assert update.disregarded_events == frozenset({0})


def test_zero_point_event_counts_when_it_is_not_the_first() -> None:
    update = update_pool(V2024, Period(2025, 12), (), [SOME, ZERO])
    assert [p.event_id for p in update.pool] == ["some", "zero"]
    assert update.disregarded == ()
    pooled = PooledEvent(Period(2025, 11), games((1700, "1")), "earlier")
    update = update_pool(V2024, Period(2025, 12), (pooled,), [ZERO])
    assert [p.event_id for p in update.pool] == ["earlier", "zero"]


def test_zero_point_first_event_via_rate_player() -> None:
    rules = PeriodRules.for_period(STD, Period(2025, 12))
    result = rate_player(rules, PlayerStatus(rating=None), [ZERO, SOME])
    zero_games = result.events[0].games
    assert all(not c.rated for c in zero_games)
    assert all(c.not_rated_reason == FIRST_EVENT_DISREGARDED for c in zero_games)
    assert all(c.rated for c in result.events[1].games)
    assert result.rated_games == 2
    assert [p.event_id for p in result.status.pool] == ["some"]


def test_half_point_first_event_before_2014_is_disregarded() -> None:
    # 2009 rules: the first event needs one point; from 2014 half a point is enough.
    half = Event(games((1700, "="), (1750, "0")), event_id="half")
    assert update_pool(V2009, Period(2009, 9), (), [half]).pool == ()
    assert [p.event_id for p in update_pool(V2024, Period(2025, 12), (), [half]).pool] == ["half"]


def test_games_against_unrated_opponents_and_matches_are_not_pooled() -> None:
    mixed = Event(games((1700, "1"), (None, "1"), (1800, "0")), event_id="mixed")
    match = Event(games((1900, "1"), (1900, "1")), event_id="match", is_match=True)
    update = update_pool(V2024, Period(2025, 12), (), [mixed, match])
    assert [p.event_id for p in update.pool] == ["mixed"]
    assert update.pool[0].games == games((1700, "1"), (1800, "0"))
    result = rate_player(
        PeriodRules.for_period(STD, Period(2025, 12)), PlayerStatus(rating=None), [mixed, match]
    )
    assert result.events[0].games[1].not_rated_reason == OPPONENT_UNRATED
    assert result.events[1].games[0].not_rated_reason == MATCH_WITH_UNRATED
    assert result.rated_games == 2


# --- A result below the floor stays in the pool ----------------------------------------------

WEAK = games((1500, "0"), (1600, "0"), (1450, "="), (1550, "0"), (1480, "0"))


def test_below_floor_result_stays_in_the_pool_and_counts_later() -> None:
    # TV-08 weak newcomer: 1367 < 1400, not published, games pooled.
    first = rate_player(
        PeriodRules.for_period(STD, Period(2025, 12)), PlayerStatus(rating=None), [Event(WEAK)]
    )
    assert first.new_rating is None
    assert first.initial is not None
    assert first.initial.rating == 1367
    assert first.initial.reason is not None
    assert len(first.status.pool) == 1
    assert first.status.rated_games == 0
    # Next period, two wins against 1500: n = 7, opponents 7580 + 3000 = 10580;
    # Ra = (10580 + 3600) / 9 = 14180 / 9 = 1575.56; W = 2.5, p = 3.5 / 9 = .3889 -> .39 -> -80;
    # Ru = 1495.56 -> 1496 >= 1400: published, rated_games 7.
    second = rate_player(
        PeriodRules.for_period(STD, Period(2026, 1)),
        first.status,
        [Event(games((1500, "1"), (1500, "1")))],
    )
    assert second.initial is not None
    assert second.initial.games == 7
    assert second.initial.opponents_average == Fraction(14180, 9)
    assert second.initial.p == Fraction(39, 100)
    assert second.initial.dp == -80
    assert second.new_rating == 1496
    assert second.status.rated_games == 7
    assert second.status.pool == ()
    assert second.next_k_factor == 40


def test_fewer_than_five_games_no_rating() -> None:
    initial = initial_rating(V2024, WEAK[:4])
    assert not initial.published
    assert initial.rating is None
    assert initial.reason == "4 games against rated opponents, 5 needed"


def test_unrated_opponent_refused_in_the_initial_rating() -> None:
    with pytest.raises(ValueError, match="rated opponents"):
        initial_rating(
            V2024, games((1700, "1"), (None, "1"), (1700, "1"), (1700, "1"), (1700, "1"))
        )


# --- Rounding-tie fixtures (TV-08) -----------------------------------------------------------


def test_tie_in_p_rounds_p_half_up() -> None:
    # 6 x 1700, W = 2: Ra = 13800 / 8 = 1725; p = 3 / 8 = .375 -> .38 -> -87 -> 1638.
    initial = initial_rating(V2024, games(*([(1700, "1")] * 2 + [(1700, "0")] * 4)))
    assert initial.p == Fraction(38, 100)
    assert initial.rating == 1638


def test_tie_in_ru_rounds_half_up() -> None:
    # Opponents summing 10204, W = 3: Ra = 13804 / 8 = 1725.5; p = .50 -> 0 -> 1726.
    six = games((1700, "1"), (1700, "1"), (1700, "1"), (1700, "0"), (1700, "0"), (1704, "0"))
    initial = initial_rating(V2024, six)
    assert initial.unrounded == Fraction(3451, 2)
    assert initial.rating == 1726


def test_2022_method_below_and_at_50_percent() -> None:
    # 5 x 1800, 2 points: p = .40 -> dp -72 -> 1728.
    below = initial_rating(V2022, games(*([(1800, "1")] * 2 + [(1800, "0")] * 3)))
    assert below.p == Fraction(40, 100)
    assert below.dp == -72
    assert below.rating == 1728
    # 5 x 1700 + 1703 = 10203 with 3 of 6: Ra = 10203 / 6 = 1700.5 -> 1701 (Ru = Ra, half up).
    at = initial_rating(
        V2022,
        games((1700, "1"), (1700, "0"), (1700, "1"), (1700, "0"), (1700, "="), (1703, "=")),
    )
    assert at.opponents_average == Fraction(10203, 6)
    assert at.dp == 0
    assert at.bonus is None
    assert at.rating == 1701
    # No maximum under 2022: 5 wins against 2300 -> 2300 + 20 x 5 = 2400.
    strong = initial_rating(V2022, games(*([(2300, "1")] * 5)))
    assert strong.bonus == 100
    assert strong.rating == 2400
    assert strong.capped_at is None


# --- The pre-2014 method: 9 games, +12.5 per half point ---------------------------------------


def test_2009_method_above_50_percent() -> None:
    # 9 x 2000, 6 wins: 12 - 9 = 3 half points above 50 % -> +37.5 -> 2037.5 -> 2038.
    assert V2000.initial_rating_method is InitialRatingMethod.RA_PLUS_12_5
    initial = initial_rating(V2000, games(*([(2000, "1")] * 6 + [(2000, "0")] * 3)))
    assert initial.bonus == Fraction(75, 2)
    assert initial.rating == 2038


def test_2009_method_below_50_percent_and_floors() -> None:
    # 9 x 2000, 3 wins: p = .3333 -> .33 -> -125 -> 1875.
    assert initial_rating(V2000, games(*([(2000, "1")] * 3 + [(2000, "0")] * 6))).rating == 1875
    # 9 x 1500, 1 win: p = .1111 -> .11 -> -351 -> 1149: below 1400 (2000-01) and 1200 (2009-07),
    # published under the 1000 floor of 2012-07.
    weak = games(*([(1500, "1")] + [(1500, "0")] * 8))
    for version, published in ((V2000, False), (V2009, False), (V2012, True)):
        initial = initial_rating(version, weak)
        assert initial.rating == 1149
        assert initial.published is published, version.name


def test_2009_method_needs_nine_games() -> None:
    assert not initial_rating(V2000, games(*([(2000, "1")] * 8))).published


# --- Rapid/blitz standard-rating seed (B.02 rapid/blitz 2024 §7.2.1) --------------------------


def test_rapid_unrated_player_with_standard_rating_is_rated_with_it() -> None:
    # Rapid 2024-06: unrated in rapid, standard 1900 -> rated as 1900; K 40 (no rapid games);
    # win against 1900: D 0 -> +0.50 x 40 = +20 -> 1920.
    rules = PeriodRules.for_period(Category.FIDE_RAPID, Period(2024, 6))
    status = PlayerStatus(rating=None, standard_rating=1900)
    result = rate_player(rules, status, [Event(games((1900, "1")))])
    assert result.seeded_from_standard
    assert result.base_rating == 1900
    assert result.k_factor == 40
    assert result.change == 20
    assert result.new_rating == 1920


def test_rapid_standard_seed_not_before_march_2024() -> None:
    rules = PeriodRules.for_period(Category.FIDE_RAPID, Period(2023, 6))
    status = PlayerStatus(rating=None, standard_rating=1900)
    result = rate_player(rules, status, [Event(games((1900, "1")))])
    assert not result.seeded_from_standard
    assert result.new_rating is None
    assert len(result.status.pool) == 1


# --- Dropping below the floor (A2, B §3.7) ---------------------------------------------------


def test_drop_below_floor_makes_the_player_unrated_and_keeps_the_game_count() -> None:
    # 1410, K 20, two losses to 1410: D 0 -> .50 -> -0.50 each; -1.00 x 20 = -20 -> 1390 < 1400:
    # shown as unrated (not clamped), games counter kept (100 + 2), empty pool.
    status = PlayerStatus(rating=1410, rated_games=100, peak_rating=1700)
    rules = PeriodRules.for_period(STD, Period(2025, 12))
    result = rate_player(rules, status, [Event(games((1410, "0"), (1410, "0")))])
    assert result.change == -20
    assert result.below_floor
    assert result.new_rating is None
    assert result.status.rating is None
    assert result.status.rated_games == 102
    assert result.status.pool == ()
    # Afterwards treated as any unrated player: the next period's games go to a new pool.
    later = rate_player(
        PeriodRules.for_period(STD, Period(2026, 1)),
        result.status,
        [Event(games((1500, "1"), (1500, "0")))],
    )
    assert later.published_rating is None
    assert later.new_rating is None
    assert len(later.status.pool) == 1
    assert later.status.rated_games == 102
