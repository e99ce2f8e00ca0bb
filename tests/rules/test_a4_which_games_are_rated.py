"""docs/rules.md §8 "Which games are rated", one test per rule:

1. played results only (TRF ``1 = 0``; CSV ``1-0``, ``0-1``, ``1/2-1/2``);
2. forfeits and byes are stored, never rated (and games shorter than one move, B §11.2);
3. a game against an unknown opponent (a player known by no id: neither FIDE nor national) is
   stored, never rated, for either player;
4. a rated player's game against an unrated opponent changes nothing for the rated player and
   counts toward the unrated player's first rating;
5. rapid/blitz 600-point exclusion (B §2.2, S2 §7.3.1): from the 2024-12 versions, a game is not
   rated, for either player, when |D| >= 600 and one player is rated above 2600;
6. matches in which one player is unrated are not rated (the core's ``Event.is_match``).

Where the rule lives in the rules core it is tested here, through ``rate_player`` with
``PeriodRules.for_period``; where it lives in the import and the close (what is stored, what a
close counts) in tests/services/test_a4_which_games_are_rated.py, on a database.

Every expected number is worked by hand from table 8.1.2 (docs/rules.md §4.1) and 8.1.1 (B §7.2):
the difference D, its PD, score - PD, the sum, K and the change rounded once. K is 20 for the
baseline's established adults (60 games, never 2400), 10 for a player whose peak is 2400 or
more (A3). The period is 2026-09 (rule versions fide-standard-2025-10 and
fide-rapid/fide-blitz-2024-12), unless a test says otherwise.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from ratingdb.rules import (
    Category,
    Event,
    Game,
    Period,
    PeriodResult,
    PeriodRules,
    PlayerStatus,
    Score,
    rate_player,
)
from ratingdb.rules.period import EXCLUDED_600, MATCH_WITH_UNRATED, OPPONENT_UNRATED

STD = Category.FIDE_STANDARD
SEPTEMBER = Period(2026, 9)
_SCORES = {"1": Score.WIN, "=": Score.DRAW, "0": Score.LOSS}


def g(opponent: int | None, score: str) -> Game:
    """A game from the player's side: ``score`` is "1", "=" or "0"; opponent None = unrated."""
    return Game(opponent, _SCORES[score])


def rate(
    status: PlayerStatus,
    *events: Event,
    category: Category = STD,
    period: Period = SEPTEMBER,
) -> PeriodResult:
    return rate_player(PeriodRules.for_period(category, period), status, events)


def rated(rating: int, k: int = 20) -> PlayerStatus:
    return PlayerStatus(rating=rating, rated_games=60, peak_rating=rating, k_factor=k)


def reasons(result: PeriodResult) -> list[str | None]:
    return [calc.not_rated_reason for event in result.events for calc in event.games]


UNRATED = PlayerStatus(rating=None, birth_year=2001)

# TV-01 (B §10): 1850, K 20: 1920 won (D -70, PD .40, +0.60), 1780 drawn (D +70, PD .60,
# -0.10), 2010 lost (D -160, PD .29, -0.29): sum +0.21, x 20 = +4.20 -> +4 -> 1854.
TV01 = (g(1920, "1"), g(1780, "="), g(2010, "0"))

# Nina's first rating (A5, 2024 method): 1780 won, 1920 drawn, 1700 drawn, 1850 won, 2010 lost.
# Sum of the opponents 9260; Ra = (9260 + 2 x 1800) / (5 + 2) = 12860 / 7 = 1837.14;
# W = 3, p = (3 + 1) / 7 = 0.5714 -> 0.57 -> dp 50 (table 8.1.1); Ru = 1887.14 -> 1887.
NINA = (g(1780, "1"), g(1920, "="), g(1700, "="), g(1850, "1"), g(2010, "0"))


# --- 1. played results only (the core's side: a score is a win, a draw or a loss) -------------


def test_1_a_game_in_the_core_is_a_played_result_only() -> None:
    """The core rates only what has a score of 1, 0.5 or 0: forfeit or bye codes cannot even be
    given to it (the import keeps them out, see the database tests below)."""
    assert [s.points for s in Score] == [Decimal("0"), Decimal("0.5"), Decimal("1")]
    assert [Score.from_points(p) for p in ("1", "0.5", "0")] == [
        Score.WIN,
        Score.DRAW,
        Score.LOSS,
    ]
    for code in ("+", "-", "H", "F", "U", "Z", "W", "1.5", "-1"):
        with pytest.raises(ValueError, match="score must be"):
            Score.from_points(code)
    result = rate(rated(1850), Event(TV01))
    assert (result.rated_games, result.sum_delta, result.change) == (3, Decimal("0.21"), 4)


# --- 4. rated against unrated (the core) --------------------------------------------------------


def test_4_a_rated_players_game_against_an_unrated_opponent_changes_nothing() -> None:
    alone = rate(rated(1850), Event((g(None, "1"),)))
    assert (alone.rated_games, alone.change, alone.new_rating) == (0, 0, 1850)
    assert reasons(alone) == [OPPONENT_UNRATED]
    # The same loss to an unrated player beside TV-01's games: still +4, 3 games.
    mixed = rate(rated(1850), Event((*TV01, g(None, "0"))))
    assert (mixed.rated_games, mixed.sum_delta, mixed.change, mixed.new_rating) == (
        3,
        Decimal("0.21"),
        4,
        1854,
    )
    assert reasons(mixed) == [None, None, None, OPPONENT_UNRATED]


def test_4_it_counts_toward_the_unrated_players_first_rating() -> None:
    result = rate(UNRATED, Event(NINA))
    assert result.initial is not None
    assert (result.initial.games, result.initial.dp, result.new_rating) == (5, 50, 1887)
    assert result.change is None
    assert reasons(result) == [None] * 5
    # A sixth game, against another unrated player, counts for nobody.
    with_unrated = rate(UNRATED, Event((*NINA, g(None, "1"))))
    assert with_unrated.new_rating == 1887
    assert reasons(with_unrated) == [None] * 5 + [OPPONENT_UNRATED]
    # Four games against rated players are not enough (5 needed): no rating yet.
    assert rate(UNRATED, Event(NINA[:4])).new_rating is None


# --- 5. the 600-point exclusion (the core) ------------------------------------------------------

BLITZ = Category.FIDE_BLITZ
RAPID = Category.FIDE_RAPID


def k_of(rating: int) -> int:
    return 10 if rating >= 2400 else 20


@pytest.mark.parametrize("category", [BLITZ, RAPID])
@pytest.mark.parametrize(
    ("own", "opponent"),
    [
        (2601, 2001),  # |D| 600, one player above 2600
        (2650, 2040),  # TV-13: |D| 610
        (2900, 2100),  # |D| 800
    ],
)
def test_5_600_points_apart_with_a_player_above_2600_is_not_rated_for_either(
    category: Category, own: int, opponent: int
) -> None:
    higher = rate(rated(own, k_of(own)), Event((g(opponent, "1"),)), category=category)
    lower = rate(rated(opponent, k_of(opponent)), Event((g(own, "0"),)), category=category)
    for side, rating in ((higher, own), (lower, opponent)):
        assert (side.rated_games, side.change, side.new_rating) == (0, 0, rating)
        assert reasons(side) == [EXCLUDED_600]


@pytest.mark.parametrize("category", [BLITZ, RAPID])
@pytest.mark.parametrize(
    ("own", "opponent", "why"),
    [
        (2601, 2002, "|D| 599"),
        (2600, 2000, "|D| 600 but nobody above 2600"),
        (2600, 1999, "|D| 601 but nobody above 2600"),
    ],
)
def test_5_below_600_or_nobody_above_2600_is_rated(
    category: Category, own: int, opponent: int, why: str
) -> None:
    """D over 400 is capped (rapid/blitz: every game, no 2650 exemption): the higher player
    scores 1 against PD .92 (+0.08, K 10: +0.8 -> +1); the lower one 0 against PD .08
    (-0.08, K 20: -1.6 -> -2)."""
    higher = rate(rated(own, 10), Event((g(opponent, "1"),)), category=category)
    lower = rate(rated(opponent, 20), Event((g(own, "0"),)), category=category)
    assert (higher.rated_games, higher.change, higher.new_rating) == (1, 1, own + 1), why
    assert (lower.rated_games, lower.change, lower.new_rating) == (1, -2, opponent - 2), why
    assert reasons(higher) == reasons(lower) == [None]


@pytest.mark.parametrize(
    ("category", "period", "excluded"),
    [
        (BLITZ, Period(2024, 11), False),  # fide-blitz-2024-03
        (BLITZ, Period(2024, 12), True),  # fide-blitz-2024-12, its first list
        (RAPID, Period(2024, 11), False),
        (RAPID, Period(2024, 12), True),
        (STD, Period(2026, 9), False),  # the standard list has no such rule
    ],
)
def test_5_the_exclusion_applies_from_the_2024_12_rapid_and_blitz_versions_only(
    category: Category, period: Period, excluded: bool
) -> None:
    """2601 beats 2001. Rated, the difference 600 is capped at 400 (in standard too: 2601 is
    below 2650): +0.08 x 10 = +0.8 -> +1."""
    result = rate(rated(2601, 10), Event((g(2001, "1"),)), category=category, period=period)
    if excluded:
        assert (result.rated_games, result.change, reasons(result)) == (0, 0, [EXCLUDED_600])
    else:
        assert (result.rated_games, result.change, reasons(result)) == (1, 1, [None])


# --- 6. matches (the core) ----------------------------------------------------------------------


def test_6_a_match_in_which_one_player_is_unrated_is_not_rated() -> None:
    """Nina's five games as a match (against rated opponents): no first rating, nothing pooled;
    the same games in a tournament give 1887 (test 4). The rated side of such a match has an
    unrated opponent: nothing changes."""
    match = rate(UNRATED, Event(NINA, is_match=True))
    assert match.new_rating is None
    assert match.rated_games == 0
    assert match.status.pool == ()
    assert reasons(match) == [MATCH_WITH_UNRATED] * 5
    assert rate(UNRATED, Event(NINA)).new_rating == 1887

    rated_side = rate(rated(1850), Event((g(None, "0"),) * 4, is_match=True))
    assert (rated_side.rated_games, rated_side.change, rated_side.new_rating) == (0, 0, 1850)


def test_6_a_match_between_two_rated_players_is_rated() -> None:
    """1850 beats 1920 in a match: D -70, PD .40, +0.60 x 20 = +12 -> 1862."""
    result = rate(rated(1850), Event((g(1920, "1"),), is_match=True))
    assert (result.rated_games, result.change, result.new_rating) == (1, 12, 1862)
