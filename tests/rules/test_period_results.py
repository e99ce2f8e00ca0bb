"""rate_players (every player's result, held in little memory) against rate_player, the
reference: the same results, field by field, in the same order, and the same counts; and
idle_unmoved (a player without a game recognised as unmoved without rating them) against
rate_player's result for that player."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ratingdb.rules import (
    Category,
    Event,
    Game,
    Period,
    PeriodResult,
    PeriodRules,
    PlayerStatus,
    PooledEvent,
    Score,
    rate_player,
    rate_players,
)
from ratingdb.rules.period import idle_unmoved
from ratingdb.rules.results import PeriodResults

# Standard, rapid on the day of the 2022 uplift (a one-time adjustment: the base moves), rapid
# with the standard-rating seed, blitz with the 600-point exclusion, a list whose K status is of
# another year (January), and a national formula.
PERIODS = [
    (Category.FIDE_STANDARD, Period(2025, 12)),
    (Category.FIDE_STANDARD, Period(2026, 1)),
    (Category.FIDE_STANDARD, Period(2013, 6)),
    (Category.FIDE_RAPID, Period(2022, 10)),
    (Category.FIDE_RAPID, Period(2024, 6)),
    (Category.FIDE_BLITZ, Period(2025, 6)),
    (Category.FFE_RAPID, Period(2027, 4)),
]

rating = st.one_of(st.integers(min_value=1000, max_value=2900), st.just(1401))
opponent = st.one_of(st.none(), st.integers(min_value=1000, max_value=3000))
game = st.builds(Game, opponent, st.sampled_from(list(Score)), st.sampled_from(["a", "b"]))
event = st.builds(Event, st.lists(game, min_size=1, max_size=6).map(tuple))
pooled = st.builds(
    PooledEvent,
    st.just(Period(2025, 1)),
    st.lists(
        st.builds(Game, st.integers(min_value=1400, max_value=2500), st.sampled_from(list(Score))),
        min_size=1,
        max_size=4,
    ).map(tuple),
)


@st.composite
def status(draw: st.DrawFn) -> PlayerStatus:
    own = draw(st.one_of(st.none(), rating))
    return PlayerStatus(
        rating=own,
        rated_games=draw(st.integers(min_value=0, max_value=300)),
        peak_rating=draw(st.one_of(st.none(), st.integers(min_value=1000, max_value=2900))),
        birth_year=draw(st.one_of(st.none(), st.integers(min_value=1950, max_value=2020))),
        k_factor=draw(st.one_of(st.none(), st.none(), st.sampled_from([10, 20, 40]))),
        standard_rating=draw(st.one_of(st.none(), rating)),
        pool=draw(st.lists(pooled, max_size=2).map(tuple)) if own is None else (),
    )


players = st.lists(st.tuples(status(), st.lists(event, max_size=2)), min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PERIODS), players)
def test_every_result_is_rate_players_for_each_player(
    category_period: tuple[Category, Period],
    drawn: list[tuple[PlayerStatus, list[Event]]],
) -> None:
    rules = PeriodRules.for_period(*category_period)
    statuses = {f"p{i}": s for i, (s, _) in enumerate(drawn)}
    events = {f"p{i}": e for i, (_, e) in enumerate(drawn) if e}
    reference: dict[str, PeriodResult] = {
        player_id: rate_player(rules, s, events.get(player_id, ()))
        for player_id, s in statuses.items()
    }

    results = rate_players(rules, dict(statuses), events)

    assert list(results) == list(reference)
    assert len(results) == len(reference)
    assert list(results.items()) == list(reference.items())
    assert list(results.values()) == list(reference.values())
    for player_id, expected in reference.items():
        assert player_id in results
        assert results[player_id] == expected
        assert results[player_id].status == expected.status
    assert "nobody" not in results
    assert results.entries == sum(1 for r in reference.values() if r.new_rating is not None)
    assert results.first_ratings == sum(1 for r in reference.values() if r.is_first_rating)
    assert results.below_floor == sum(1 for r in reference.values() if r.below_floor)
    # moved(): at least every player who played or is off the list, in order, as computed.
    moved = dict(results.moved())
    assert list(moved) == [p for p in reference if p in moved]
    assert all(moved[p] == reference[p] for p in moved)
    for player_id, r in reference.items():
        if r.events or r.new_rating is None:
            assert player_id in moved
    # drop_events (a close, once a player's calculations are written): every other field kept.
    for player_id in moved:
        results.drop_events(player_id)
        assert results[player_id] == reference[player_id]._replace(events=())
    assert list(results.items()) == [
        (p, r._replace(events=()) if p in moved else r) for p, r in reference.items()
    ]


def test_players_without_games_whose_standing_stays_are_held_small() -> None:
    rules = PeriodRules.for_period(Category.FIDE_STANDARD, Period(2025, 12))
    idle = PlayerStatus(rating=2012, rated_games=40, peak_rating=2100, birth_year=1990)
    played = PlayerStatus(rating=1800, rated_games=40, peak_rating=1850, birth_year=1990)
    one_game = Event((Game(1900, Score.WIN, "idle"),))

    results = rate_players(rules, {"idle": idle, "played": played}, {"played": [one_game]})

    assert [p for p, _ in results.moved()] == ["played"]
    # K 20 (adult under 2400 with 30 games or more; docs/rules.md §6); 1800 + 20 x (1 - 0.36)
    # = 1812.8 -> 1813.
    assert results["idle"].new_rating == 2012
    assert results["idle"].next_k_factor == 20
    assert results["idle"].status is idle
    assert results["played"].new_rating == 1813
    assert (results.entries, results.first_ratings, results.below_floor) == (2, 0, 0)


@st.composite
def likely_idle(draw: st.DrawFn) -> PlayerStatus:
    """A rated player with a peak at or above the rating and no K of their own: most of a
    list, and nearly always unmoved without a game (the floor, a one-time adjustment and the K
    status' year aside)."""
    own = draw(rating)
    return PlayerStatus(
        rating=own,
        rated_games=draw(st.integers(min_value=0, max_value=300)),
        peak_rating=own + draw(st.integers(min_value=0, max_value=300)),
        birth_year=draw(st.one_of(st.none(), st.integers(min_value=1950, max_value=2020))),
        standard_rating=draw(st.one_of(st.none(), rating)),
    )


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(PERIODS), st.one_of(status(), likely_idle()))
# A junior's last list of the year they turn 18 is December: on the January list the K status
# is still of 2025 (K 40, docs/rules.md §6) and the K after it of 2026 (20, 50 games).
@example(
    (Category.FIDE_STANDARD, Period(2026, 1)),
    PlayerStatus(rating=2000, rated_games=50, peak_rating=2000, birth_year=2007),
)
def test_a_player_without_games_is_idle_exactly_when_rate_player_leaves_them_unmoved(
    category_period: tuple[Category, Period], drawn: PlayerStatus
) -> None:
    """idle_unmoved gives the K figures of a player without a game exactly when rate_player's
    result is the status as it was, the same rating, no change (the result PeriodResults holds
    as the status and its three K figures), and they are that result's."""
    rules = PeriodRules.for_period(*category_period)
    reference = rate_player(rules, drawn, ())
    held = (drawn, reference.k_status, reference.k_factor, reference.next_k_factor)
    unmoved = (
        drawn.rating is not None
        and reference.status is drawn
        # What PeriodResults makes again from the held form: equal, field by field.
        and PeriodResults(rules, {})._made_again(held) == reference
    )

    found = idle_unmoved(rules, drawn)

    if unmoved:
        assert found == held[1:]
    else:
        assert found is None
