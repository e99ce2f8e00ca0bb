"""Title norms (Title Regulations §1.4, §1.7): hand-worked cases, then properties.

Every figure below is worked by hand from the articles and table 1.4.9 (= 8.1.1):
Ra = sum / n rounded 0.5 up, p rounded to a whole per cent 0.5 up, Rp = Ra + dp.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratingdb.rules.games import Score
from ratingdb.rules.norms import (
    NormEvent,
    NormGame,
    Opponent,
    Participant,
    Unplayed,
    check_norm,
    performance,
)
from ratingdb.rules.performance import performance_rating
from ratingdb.rules.titles import FIDE_TITLES_2024_01 as REGS
from ratingdb.rules.titles import FederationExemption, Title

# The issue's case: nine opponents, 6.5 points, the player from FRA.
ISSUE_RATINGS = (2450, 2400, 2380, 2350, 2300, 2280, 2250, 2100, 1990)
ISSUE_FEDERATIONS = ("GER", "ESP", "ITA", "FRA", "NED", "GER", "ESP", "FRA", "ITA")
ISSUE_TITLES = (Title.GM, Title.GM, Title.IM, Title.IM, Title.FM, None, Title.FM, None, None)
ISSUE_SCORES = (
    (Score.DRAW, Score.LOSS, Score.WIN, Score.WIN, Score.DRAW)
    + (Score.WIN,) * 2
    + (
        Score.DRAW,
        Score.WIN,
    )
)


def _games(
    ratings: tuple[int | None, ...],
    scores: tuple[Score, ...],
    federations: tuple[str | None, ...] | None = None,
    titles: tuple[Title | None, ...] | None = None,
) -> list[NormGame]:
    n = len(ratings)
    feds = federations or ("GER", "ESP", "ITA") * (n // 3 + 1)
    tits = titles or (Title.GM,) * n
    return [
        NormGame(
            round=index + 1,
            opponent=Opponent(f"P{index + 1}", ratings[index], feds[index], tits[index]),
            score=scores[index],
        )
        for index in range(n)
    ]


def _check(
    title: Title,
    games: list[NormGame],
    *,
    federation: str | None = "FRA",
    event: NormEvent | None = None,
    unplayed: tuple[Unplayed, ...] = (),
) -> dict[str, bool]:
    result = check_norm(
        title,
        player_federation=federation,
        games=games,
        unplayed=unplayed,
        event=event or NormEvent(rounds=max(9, len(games)), host_federation="FRA"),
        regulations=REGS,
    )
    return {condition.key: condition.met for condition in result.conditions}


def test_the_issue_case_is_an_im_norm_with_the_floor_raise_and_none_without() -> None:
    assert sum(int(s) for s in ISSUE_SCORES) == 13  # 6.5 points
    games = _games(ISSUE_RATINGS, ISSUE_SCORES, ISSUE_FEDERATIONS, ISSUE_TITLES)
    result = check_norm(
        Title.IM,
        player_federation="FRA",
        games=games,
        unplayed=(),
        event=NormEvent(rounds=9, host_federation="FRA"),
        regulations=REGS,
    )
    perf = result.performance
    # 6.5 / 9 = 72.2 % -> 72 % -> dp 166.
    assert (perf.percent, perf.dp) == (72, 166)
    # 20560 / 9 = 2284.4 -> 2284 (1990 raised to 2050); 20500 / 9 = 2277.8 -> 2278.
    assert (perf.average, perf.performance) == (2284, 2450)
    assert (perf.average_without_raise, perf.performance_without_raise) == (2278, 2444)
    assert (perf.raised_player_id, perf.raised_from, perf.raised_to) == ("P9", 1990, 2050)
    assert result.norm
    assert result.counts_as_games == 9
    shown = {c.key: (c.required.english(), c.actual.english()) for c in result.conditions}
    assert shown["performance"] == ("Rp at least 2450", "Rp 2450 = Ra 2284 + dp 166")
    assert shown["average"] == ("Ra at least 2230", "Ra 2284, 1990 raised to 2050")
    # Without the raise (the floor of a title whose floor is below every opponent: none) the
    # same games give Rp 2444, no IM norm: shown by a check with the raise taken away.
    no_raise = dict(REGS.rating_floor) | {Title.IM: 1000}
    result = check_norm(
        Title.IM,
        player_federation="FRA",
        games=games,
        unplayed=(),
        event=NormEvent(rounds=9, host_federation="FRA"),
        regulations=dataclasses.replace(REGS, rating_floor=no_raise),
    )
    assert (result.performance.average, result.performance.performance) == (2278, 2444)
    assert not result.norm
    assert [c.key for c in result.conditions if not c.met] == ["performance"]


def test_the_issue_case_is_no_gm_norm() -> None:
    games = _games(ISSUE_RATINGS, ISSUE_SCORES, ISSUE_FEDERATIONS, ISSUE_TITLES)
    perf = performance(Title.GM, games, REGS)
    # 1990 raised to 2200: 20710 / 9 = 2301.1 -> 2301; Rp 2467.
    assert (perf.average, perf.performance) == (2301, 2467)
    met = _check(Title.GM, games)
    assert not met["average"]
    assert not met["performance"]
    # Two GMs among nine: a GM norm needs three.
    assert not met["norm_level_opponents"]


def test_an_unrated_opponent_counts_1400_and_is_the_one_raised() -> None:
    games = _games((2400,) * 8 + (None,), (Score.DRAW,) * 9)
    perf = performance(Title.IM, games, REGS)
    # 8 x 2400 + 2050 = 21250 / 9 = 2361.1 -> 2361; without: 20600 / 9 = 2288.9 -> 2289.
    assert (perf.average, perf.average_without_raise) == (2361, 2289)
    assert (perf.raised_from, perf.raised_to, perf.unrated_opponents) == (1400, 2050, 1)


def test_only_the_lowest_of_two_opponents_below_the_floor_is_raised() -> None:
    games = _games((2300,) * 7 + (2000, 1900), (Score.DRAW,) * 9)
    perf = performance(Title.IM, games, REGS)
    # 16100 + 2000 + 2050 = 20150 / 9 = 2238.9 -> 2239; without: 20000 / 9 = 2222.2 -> 2222.
    assert (perf.average, perf.average_without_raise) == (2239, 2222)
    assert perf.raised_from == 1900


def test_the_average_rounds_half_up() -> None:
    # 2400 + 2401 = 4801 / 2 = 2400.5 -> 2401; 1 / 2 -> 50 %, dp 0.
    perf = performance(Title.GM, _games((2400, 2401), (Score.WIN, Score.LOSS)), REGS)
    assert (perf.average, perf.performance) == (2401, 2401)


@pytest.mark.parametrize(
    ("games", "halves", "met"),
    [(9, 6, False), (9, 7, True), (20, 14, True), (20, 13, False)],
)
def test_the_minimum_score_is_35_percent(games: int, halves: int, met: bool) -> None:
    # 3 / 9 = 33.3 %, 3.5 / 9 = 38.9 %, 7 / 20 = 35 % exactly, 6.5 / 20 = 32.5 %.
    scores = (Score.WIN,) * (halves // 2) + (Score.DRAW,) * (halves % 2)
    scores += (Score.LOSS,) * (games - len(scores))
    assert _check(Title.IM, _games((2400,) * games, scores))["score"] is met


@pytest.mark.parametrize(("own", "met"), [(5, True), (6, False)])
def test_at_most_three_fifths_from_the_player_federation(own: int, met: bool) -> None:
    # 3/5 of 9 = 5.4: five may come from FRA, six may not.
    feds = ("FRA",) * own + ("GER", "ESP", "ITA", "NED")[: 9 - own] + ("NED",) * 9
    assert (
        _check(Title.IM, _games((2400,) * 9, (Score.DRAW,) * 9, feds[:9]))["own_federation"] is met
    )


@pytest.mark.parametrize(("same", "met"), [(6, True), (7, False)])
def test_at_most_two_thirds_from_one_federation(same: int, met: bool) -> None:
    # 2/3 of 9 = 6.
    feds = ("GER",) * same + ("ESP", "ITA", "NED")[: 9 - same]
    assert _check(Title.IM, _games((2400,) * 9, (Score.DRAW,) * 9, feds))["one_federation"] is met


def test_at_least_two_other_federations() -> None:
    feds = ("GER",) * 5 + ("FRA",) * 4
    met = _check(Title.IM, _games((2400,) * 9, (Score.DRAW,) * 9, feds))
    assert not met["other_federations"]
    assert met["own_federation"]
    assert met["one_federation"]


def test_a_declared_exemption_waives_the_federation_mix() -> None:
    games = _games((2400,) * 9, (Score.DRAW,) * 9, ("FRA",) * 9)
    event = NormEvent(
        rounds=9, host_federation="FRA", exemption=FederationExemption.NATIONAL_CHAMPIONSHIP
    )
    met = _check(Title.IM, games, event=event)
    assert met["federation_exemption"]
    assert "own_federation" not in met


def _participants(
    foreign: int, federations: int, titled: int, rounds: int
) -> tuple[Participant, ...]:
    feds = [f"F{index % federations:02d}" for index in range(foreign)]
    return (
        *tuple(
            Participant(
                f"X{index}", True, feds[index], Title.IM if index < titled else None, rounds
            )
            for index in range(foreign)
        ),
        Participant("H1", True, "FRA", Title.GM, rounds),
    )


@pytest.mark.parametrize(
    ("foreign", "federations", "titled", "rounds_played", "met"),
    [
        (20, 3, 10, 9, True),
        (19, 3, 10, 9, False),
        (20, 2, 10, 9, False),
        (20, 3, 9, 9, False),
        (20, 3, 10, 8, True),  # all rounds but one
        (20, 3, 10, 7, False),
    ],
)
def test_the_swiss_exemption_needs_its_foreign_field(
    foreign: int, federations: int, titled: int, rounds_played: int, met: bool
) -> None:
    event = NormEvent(
        rounds=9,
        host_federation="FRA",
        exemption=FederationExemption.SWISS_FOREIGN_FIELD,
        participants=_participants(foreign, federations, titled, rounds_played),
    )
    games = _games((2400,) * 9, (Score.DRAW,) * 9, ("FRA",) * 9)
    assert _check(Title.IM, games, event=event)["swiss_exemption"] is met


@pytest.mark.parametrize(
    ("n", "holders", "level", "holders_met", "level_met"),
    [
        (9, 5, 3, True, True),  # 1/2 of 9 = 4.5 -> 5; 1/3 of 9 = 3
        (9, 4, 3, False, True),
        (9, 5, 2, True, False),  # at least 3
        (10, 5, 3, True, False),  # 1/3 of 10 = 3.33 -> 4
        (10, 5, 4, True, True),
        (7, 4, 3, True, True),  # 3.5 -> 4; minimum 3
    ],
)
def test_title_holders_and_opponents_of_the_norm_level(
    n: int, holders: int, level: int, holders_met: bool, level_met: bool
) -> None:
    titles = (Title.IM,) * level + (Title.FM,) * (holders - level) + (Title.CM,) * (n - holders)
    met = _check(Title.IM, _games((2400,) * n, (Score.DRAW,) * n, titles=titles))
    assert (met["title_holders"], met["norm_level_opponents"]) == (holders_met, level_met)


def test_women_titles_count_for_a_women_norm_only() -> None:
    titles = (Title.WGM,) * 3 + (Title.WFM,) * 2 + (None,) * 4
    games = _games((2300,) * 9, (Score.DRAW,) * 9, titles=titles)
    assert _check(Title.WGM, games)["norm_level_opponents"]
    assert not _check(Title.IM, games)["norm_level_opponents"]
    assert _check(Title.IM, games)["title_holders"]  # WGM and WFM are title holders


def test_games_nine_seven_for_team_championships_and_the_eight_game_case() -> None:
    eight = _games((2400,) * 8, (Score.DRAW,) * 8)
    assert not _check(Title.IM, eight)["games"]
    assert _check(Title.IM, eight, unplayed=(Unplayed.FORFEIT_WIN,))["games"]
    assert _check(Title.IM, eight, unplayed=(Unplayed.BYE,))["games"]
    assert not _check(Title.IM, eight, unplayed=(Unplayed.FORFEIT_LOSS,))["games"]
    seven = _games((2400,) * 7, (Score.DRAW,) * 7)
    team = NormEvent(rounds=9, host_federation="FRA", team_championship=True)
    assert _check(Title.IM, seven, event=team)["games"]
    assert not _check(Title.IM, seven)["games"]
    assert not _check(Title.IM, _games((2400,) * 6, (Score.DRAW,) * 6), event=team)["games"]


def test_more_than_13_games_count_as_13() -> None:
    games = _games((2400,) * 15, (Score.DRAW,) * 15)
    result = check_norm(
        Title.IM,
        player_federation="FRA",
        games=games,
        unplayed=(),
        event=NormEvent(rounds=15, host_federation="FRA"),
        regulations=REGS,
    )
    assert result.counts_as_games == 13


def test_unknown_federations_fail_the_mix_and_say_so() -> None:
    games = _games((2400,) * 9, (Score.DRAW,) * 9, (None,) + ("GER",) * 8)
    result = check_norm(
        Title.IM,
        player_federation="FRA",
        games=games,
        unplayed=(),
        event=NormEvent(rounds=9, host_federation="FRA"),
        regulations=REGS,
    )
    [known] = [c for c in result.conditions if c.key == "federations_known"]
    assert not known.met
    assert known.actual.english() == "1 opponents' federations unknown"


# --- Properties -------------------------------------------------------------------------------

PROPERTIES = settings(max_examples=200, deadline=None)
ratings = st.one_of(st.none(), st.integers(min_value=1000, max_value=2900))
played = st.lists(st.tuples(ratings, st.sampled_from(list(Score))), min_size=1, max_size=20)
titles = st.sampled_from([Title.GM, Title.IM, Title.WGM, Title.WIM])


def _from(pairs: list[tuple[int | None, Score]]) -> list[NormGame]:
    return [
        NormGame(index + 1, Opponent(f"P{index}", rating, "GER", None), score)
        for index, (rating, score) in enumerate(pairs)
    ]


@PROPERTIES
@given(played, titles)
def test_the_raise_lifts_one_opponent_to_the_floor_and_no_more(
    pairs: list[tuple[int | None, Score]], title: Title
) -> None:
    perf = performance(title, _from(pairs), REGS)
    used = [REGS.unrated_opponent_rating if r is None else r for r, _ in pairs]
    floor = REGS.rating_floor[title]
    lifted = sum(used) + max(0, floor - min(used))
    n = len(used)
    assert perf.average == (2 * lifted + n) // (2 * n)  # half up, in integers
    assert perf.average >= perf.average_without_raise
    assert perf.performance - perf.performance_without_raise == (
        perf.average - perf.average_without_raise
    )
    assert (perf.raised_to is None) == (min(used) >= floor)


@PROPERTIES
@given(played, titles)
def test_without_a_raise_or_unrated_opponents_it_is_the_plain_performance(
    pairs: list[tuple[int | None, Score]], title: Title
) -> None:
    floor = REGS.rating_floor[title]
    rated = [(max(r or floor, floor), s) for r, s in pairs]
    perf = performance(title, _from(rated), REGS)  # type: ignore[arg-type]
    assert perf.performance == performance_rating([r for r, _ in rated], [s for _, s in rated])


@PROPERTIES
@given(played, titles, st.integers(min_value=0, max_value=19))
def test_a_better_result_never_lowers_the_performance(
    pairs: list[tuple[int | None, Score]], title: Title, index: int
) -> None:
    index %= len(pairs)
    rating, score = pairs[index]
    if score is Score.WIN:
        return
    better = list(pairs)
    better[index] = (rating, Score(int(score) + 1))
    assert performance(title, _from(better), REGS).performance >= (
        performance(title, _from(pairs), REGS).performance
    )


@PROPERTIES
@given(
    st.lists(st.sampled_from(["FRA", "GER", "ESP", "ITA", None]), min_size=1, max_size=20),
    st.lists(st.sampled_from([*Title, None]), min_size=20, max_size=20),
    titles,
)
def test_counts_are_exact_fractions_of_the_games(
    feds: list[str | None], opponent_titles: list[Title | None], title: Title
) -> None:
    n = len(feds)
    games = [
        NormGame(i + 1, Opponent(f"P{i}", 2400, feds[i], opponent_titles[i]), Score.DRAW)
        for i in range(n)
    ]
    result = check_norm(
        title,
        player_federation="FRA",
        games=games,
        unplayed=(),
        event=NormEvent(rounds=max(n, 9), host_federation="FRA"),
        regulations=REGS,
    )
    met = {c.key: c.met for c in result.conditions}
    holders = sum(1 for t in opponent_titles[:n] if t in REGS.title_holder_titles)
    assert met["title_holders"] == (Fraction(holders, n) >= Fraction(1, 2))
    level = sum(1 for t in opponent_titles[:n] if t in REGS.norm_level_titles[title])
    assert met["norm_level_opponents"] == (Fraction(level, n) >= Fraction(1, 3) and level >= 3)
    if None in feds:
        assert not met["federations_known"]
    else:
        assert met["own_federation"] == (Fraction(feds.count("FRA"), n) <= Fraction(3, 5))
        top = max(feds.count(f) for f in set(feds))
        assert met["one_federation"] == (Fraction(top, n) <= Fraction(2, 3))
    assert result.norm == all(met.values())
    assert result.counts_as_games == min(n, 13)
