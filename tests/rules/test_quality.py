"""The quality-control flags (issue 28 item 8), worked by hand on both sides of each threshold:
closed groups (3 unrated, half unrated, 4/5 of each one's games inside), repeated pairings
(3 events), large gains (more than 100 points and more than 3 standard deviations above the
mean), new players without a birth date or sex."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ratingdb.rules.quality import (
    THRESHOLDS,
    NewPlayerFacts,
    PlayedGame,
    closed_groups,
    large_gains,
    missing_identity,
    repeated_pairings,
)


def games(event: str, *pairs: tuple[str, str], times: int = 1) -> list[PlayedGame]:
    return [PlayedGame(event, a, b) for a, b in pairs for _ in range(times)]


def round_robin(event: str, players: str, times: int) -> list[PlayedGame]:
    return games(event, *itertools.combinations(players, 2), times=times)


# X and Y are rated players of a large open: 5 games each against Z1..Z5.
OPEN = games("OPEN", *[(p, f"Z{i}") for p in "XY" for i in range(1, 6)])


def test_the_brief_example_four_unrated_players_18_of_20_games_among_themselves() -> None:
    # A, B, C, D meet 3 times each (one game in each of E1, E2, E3): 18 games, 9 each; A also
    # plays X once, B plays Y once. X and Y play mostly elsewhere: peeled off.
    played = [g for e in ("E1", "E2", "E3") for g in round_robin(e, "ABCD", 1)]
    played += games("E4", ("A", "X"), ("B", "Y")) + OPEN
    (group,) = closed_groups(played, unrated={"A", "B", "C", "D"})
    assert group.players == ("A", "B", "C", "D")
    assert (group.inside, group.games) == (18, 20)
    assert [(m.games, m.inside) for m in group.members] == [(10, 9), (10, 9), (9, 9), (9, 9)]
    names = {"A": "Alpha, Ann", "B": "Beta, Bob"}
    assert group.explain(names).english() == (
        "closed group: Alpha, Ann (A), Beta, Bob (B), C and D played 18 of their 20 games "
        "among themselves (each at least 80% of their own); all 4 were unrated, so their first "
        "ratings rest on each other"
    )


def test_each_members_share_of_games_inside_four_fifths_is_enough() -> None:
    # A, B, C (unrated) meet 4 times each pair: 8 games each inside. A plays X 2 times: 8 of 10
    # is 4/5, kept; 3 times: 8 of 11 is below, A is peeled, then B and C fall to 4 of 8.
    base = round_robin("E1", "ABC", 4) + OPEN
    (group,) = closed_groups(base + games("E2", ("A", "X"), times=2), {"A", "B", "C"})
    assert (group.players, group.inside, group.games) == (("A", "B", "C"), 12, 14)
    assert closed_groups(base + games("E2", ("A", "X"), times=3), {"A", "B", "C"}) == []


def test_at_least_three_unrated_players_half_of_the_group() -> None:
    # A small closed round robin: who of its players are unrated decides.
    played = round_robin("E1", "ABCDEFG", 1)
    assert closed_groups(round_robin("E1", "ABC", 1), {"A", "B"}) == []  # 2 unrated
    (group,) = closed_groups(round_robin("E1", "ABC", 1), {"A", "B", "C"})
    assert (
        group.explain({})
        .english()
        .endswith("all 3 were unrated, so their first ratings rest on each other")
    )
    six = round_robin("E1", "ABCDEF", 1)
    (group,) = closed_groups(six, {"A", "B", "C"})  # 3 of 6: half
    assert group.players == tuple("ABCDEF")
    assert "3 of the 6 were unrated (A, B and C)" in group.explain({}).english()
    assert "played 15 of their 15 games" in group.explain({}).english()
    assert closed_groups(played, {"A", "B", "C"}) == []  # 3 of 7: less than half


def test_a_group_needs_an_unrated_player_to_start_from_and_separate_groups_are_separate() -> None:
    assert closed_groups(round_robin("E1", "ABCD", 2), set()) == []
    played = round_robin("E1", "ABCD", 1) + round_robin("E2", "PQR", 1)
    found = closed_groups(played, set("ABCDPQR"))
    assert [g.players for g in found] == [tuple("ABCD"), tuple("PQR")]


def test_players_whose_games_are_not_all_known_are_never_members() -> None:
    played = round_robin("E1", "ABCD", 1)
    assert [g.players for g in closed_groups(played, set("ABCD"))] == [tuple("ABCD")]
    # D's other games unknown: D is outside, and A, B, C then play 4 of 6 games inside.
    assert closed_groups(played, set("ABCD"), partial={"D"}) == []
    played += round_robin("E2", "ABC", 4)  # now 12 + 3 inside, 3 with D: each 10 of 11
    (group,) = closed_groups(played, set("ABCD"), partial={"D"})
    assert (group.players, group.inside, group.games) == (tuple("ABC"), 15, 18)


def test_the_same_pairing_in_three_events() -> None:
    played = games("E1", ("A", "B"), ("A", "C")) + games("E2", ("B", "A"), ("A", "C"))
    assert repeated_pairings(played) == []  # two events each
    played += games("E3", ("A", "B"), ("A", "B"))
    (pairing,) = repeated_pairings(played)
    assert (pairing.players, pairing.events, pairing.games) == (("A", "B"), ("E1", "E2", "E3"), 4)
    assert pairing.explain({"A": "Alpha, Ann"}).english() == (
        "repeated pairing: Alpha, Ann (A) and B met in 3 events of the period (E1, E2, E3), "
        "4 games in all"
    )
    assert repeated_pairings(played, among={frozenset("AC")}) == []


def test_a_gain_more_than_3_deviations_above_the_mean_and_more_than_100() -> None:
    # Ten players at 0 and one at +150: mean 150/11 = 13.6, variance 2475000/1331 (deviation
    # 43.1); +150 is 1500/11 = 136.4 above the mean, sqrt(10) = 3.16 deviations: flagged.
    changes = {f"P{i}": 0 for i in range(10)} | {"W": 150}
    (gain,) = large_gains(changes)
    assert (gain.player_id, gain.change, gain.rated_players) == ("W", 150, 11)
    assert gain.mean == Fraction(150, 11)
    assert gain.variance == Fraction(2475000, 1331)
    assert gain.explain({"W": "Winner, Walt"}).english() == (
        "large gain: Winner, Walt (W) gained +150, far above the period's norm (mean +13.6, "
        "standard deviation 43.1, over 11 rated players who played): more than 3 standard "
        "deviations above the mean and more than 100 points"
    )
    # Nine at 0 and one at +150: exactly (10 - 1) / sqrt(10) ... 9 / 3 = 3 deviations: not more.
    assert large_gains({f"P{i}": 0 for i in range(9)} | {"W": 150}) == []
    # The absolute bound: +100 is not more than 100, +101 is.
    assert large_gains({f"P{i}": 0 for i in range(10)} | {"W": 100}) == []
    assert [g.change for g in large_gains({f"P{i}": 0 for i in range(10)} | {"W": 101})] == [101]
    assert large_gains({}) == []
    assert large_gains({"A": 120, "B": 120}) == []


def test_new_players_without_a_birth_date_or_sex() -> None:
    facts = [
        NewPlayerFacts("3", birth_known=False, sex="F"),
        NewPlayerFacts("1", birth_known=False, sex=None),
        NewPlayerFacts("2", birth_known=True, sex="M"),
    ]
    birth, sex = missing_identity(facts)
    assert (birth.players, sex.players) == (("1", "3"), ("1",))
    assert birth.explain({"1": "Un, Ann"}).english() == (
        "2 new players without a birth date (the K factor of juniors and the age lists need "
        "it): Un, Ann (1) and 3"
    )
    assert sex.explain({}).english() == "1 new player without sex (the women's lists need it): 1"
    assert missing_identity([NewPlayerFacts("2", True, "M")]) == []


# --- properties ---------------------------------------------------------------------------------

PLAYERS = "ABCDEFG"


def _closed(members: frozenset[str], played: list[PlayedGame]) -> bool:
    for p in members:
        mine = [g for g in played if p in (g.white_id, g.black_id)]
        inside = [g for g in mine if {g.white_id, g.black_id} <= members]
        if Fraction(len(inside), len(mine)) < THRESHOLDS.group_min_inside_share:
            return False
    return True


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(PLAYERS), st.sampled_from(PLAYERS), st.sampled_from("EF")),
        max_size=14,
    ),
    st.sets(st.sampled_from(PLAYERS)),
)
def test_groups_are_the_parts_of_the_union_of_every_closed_set(
    pairs: list[tuple[str, str, str]], unrated: set[str]
) -> None:
    played = [PlayedGame(e, a, b) for a, b, e in pairs if a != b]
    players = {p for g in played for p in (g.white_id, g.black_id)}
    start = {p for p in players if p in unrated}
    start |= {q for g in played for p, q in itertools.permutations((g.white_id, g.black_id))
              if p in unrated}  # fmt: skip
    union: set[str] = set()
    for size in range(1, len(start) + 1):
        for subset in itertools.combinations(sorted(start), size):
            if _closed(frozenset(subset), played):
                union |= set(subset)
    found = closed_groups(played, unrated)
    for group in found:
        members = set(group.players)
        assert members <= union
        assert _closed(frozenset(members), played)
        assert sum(p in unrated for p in members) >= 3
        assert 2 * sum(p in unrated for p in members) >= len(members)
        # Nothing in the union outside the group played a member.
        for g in played:
            if g.white_id in members or g.black_id in members:
                pair = {g.white_id, g.black_id}
                assert not (pair & (union - members))
    flagged = {p for group in found for p in group.players}
    assert len(flagged) == sum(len(g.players) for g in found)  # disjoint


@given(st.lists(st.integers(-400, 400), min_size=1, max_size=10))
def test_ten_players_or_fewer_never_flag_a_gain(changes: list[int]) -> None:
    assert large_gains({str(i): c for i, c in enumerate(changes)}) == []
