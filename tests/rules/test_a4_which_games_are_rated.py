"""rules.md A4 "Which games are rated", one test per rule:

1. played results only (TRF ``1 = 0``; CSV ``1-0``, ``0-1``, ``1/2-1/2``);
2. forfeits and byes are stored, never rated (and games shorter than one move, B §11.2);
3. a game against an unknown opponent (a player known by no id: neither FIDE nor national) is
   stored, never rated, for either player;
4. a rated player's game against an unrated opponent changes nothing for the rated player and
   counts toward the unrated player's first rating;
5. rapid/blitz 600-point exclusion (B §2.2, S2 §7.3.1): from the 2024-12 versions, a game is not
   rated, for either player, when |D| >= 600 and one player is rated above 2600;
6. matches in which one player is unrated are not rated (the core's ``Event.is_match``).

Where the rule lives in the rules core it is tested through ``rate_player`` with
``PeriodRules.for_period``; where it lives in the import and the close (what is stored, what a
close counts) through a small database (SQLite and PostgreSQL): a baseline list, one tournament
imported with the command line, ``periods close``, and the published list read back with
``lists export --format json``.

Every expected number is worked by hand from table 8.1.2 (rules.md B §7.1) and 8.1.1 (B §7.2):
the difference D, its PD, score - PD, the sum, K and the change rounded once. K is 20 for the
baseline's established adults (60 games, never 2400), 10 for a player whose peak is 2400 or
more (A3). The period is 2026-09 (rule versions fide-standard-2025-10 and
fide-rapid/fide-blitz-2024-12), unless a test says otherwise.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from ratingdb.cli import main
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


# --- the database: what the import stores and what a close counts -------------------------------

LIST_HEADER = (
    "player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,k_factor\n"
)
BASELINE = LIST_HEADER + (
    '1001,"Anna, A",FRA,F,1990,,1850,60,1850,20\n'
    '1002,"Bob, B",FRA,M,1985,,1920,60,1920,20\n'
    '1003,"Gus, G",FRA,M,1980,,1780,60,1780,20\n'
    '1004,"Dan, D",FRA,M,1975,,2010,60,2010,20\n'
    '1005,"Nina, N",FRA,F,2001,,,,,\n'
    '1006,"Eve, E",FRA,F,1988,,1700,60,1700,20\n'
)
GAMES_HEADER = "tournament,start_date,end_date,round,white_id,black_id,result\n"
# Ends 2026-08-12: rated in 2026-09 (closing date 2026-08-29) with the 2026-08 list.
DATES = "2026-08-10,2026-08-12"

# TV-01 for 1001, seen from the other side too:
#   1002 (1920) lost to 1850: D +70, PD .60, -0.60 x 20 = -12 -> 1908;
#   1003 (1780) drew with 1850: D -70, PD .40, +0.10 x 20 = +2 -> 1782;
#   1004 (2010) beat 1850: D +160, PD .71, +0.29 x 20 = +5.8 -> +6 -> 2016.
TV01_ENTRIES = {
    "1001": (1854, 1850, 4, 3),
    "1002": (1908, 1920, -12, 1),
    "1003": (1782, 1780, 2, 1),
    "1004": (2016, 2010, 6, 1),
    "1006": (1700, 1700, 0, 0),
}


def cli(capsys: pytest.CaptureFixture[str], *args: str, url: str) -> str:
    capsys.readouterr()
    code = main([*args, "--database-url", url])
    captured = capsys.readouterr()
    assert code == 0, f"ratingdb {' '.join(args)}: {captured.err}"
    return captured.out


def publish(
    capsys: pytest.CaptureFixture[str],
    url: str,
    tmp_path: Path,
    tournament: tuple[str, str],
    *,
    baseline: str = BASELINE,
    category: str = "fide-standard",
) -> dict[str, Any]:
    """Baseline list 2026-08, the tournament (file name, content), the close of 2026-09: the
    import's JSON line, the tournament as shown, and the 2026-09 list's entries."""
    (tmp_path / "baseline.csv").write_text(baseline, encoding="utf-8")
    cli(capsys, "lists", "import", str(tmp_path / "baseline.csv"), "--category", category,
        "--period", "2026-08", url=url)  # fmt: skip
    name, content = tournament
    (tmp_path / name).write_text(content, encoding="utf-8")
    imported = json.loads(
        cli(capsys, "tournaments", "import", str(tmp_path / name), "--category", category, url=url)
    )
    assert imported["period"] == "2026-09", imported
    shown = json.loads(cli(capsys, "tournaments", "show", imported["tournament_id"], url=url))
    cli(capsys, "periods", "close", "--category", category, "--period", "2026-09", url=url)
    exported = json.loads(
        cli(
            capsys,
            "lists",
            "export",
            "--category",
            category,
            "--period",
            "2026-09",
            "--format",
            "json",
            url=url,
        )
    )
    return {"imported": imported, "shown": shown, "entries": exported["entries"]}


def entries(published: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    """player_id -> (rating, previous_rating, change, games)."""
    return {
        e["player_id"]: (e["rating"], e["previous_rating"], e["change"], e["games"])
        for e in published["entries"]
    }


def stored_games(published: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(round, white, black, result, rated) of every stored game, sorted."""
    return sorted(
        (game["round"], game["white_id"], game["black_id"], game["result"], game["rated"])
        for game in published["shown"]["games"]
    )


def calculations(url: str, category: str = "fide-standard") -> list[tuple[Any, ...]]:
    """(player, opponent, rated, reason) of every calculation row of the 2026-09 list."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT c.player_id, c.opponent_id, c.rated, c.reason FROM calculations c "
                    "JOIN rating_lists l ON l.id = c.list_id "
                    "WHERE l.category = :category AND l.list_date = '2026-09-01' "
                    "ORDER BY c.player_id, c.game_id"
                ),
                {"category": category},
            )
            return [(p, o, bool(r), reason) for p, o, r, reason in rows]
    finally:
        engine.dispose()


def statuses_of(url: str, player_id: str) -> int:
    """How many kept statuses (first-rating pools, A5) the player has."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(
                connection.execute(
                    text("SELECT count(*) FROM player_status WHERE player_id = :p"),
                    {"p": player_id},
                ).scalar_one()
            )
    finally:
        engine.dispose()


def test_1_2_only_played_results_are_rated_forfeits_are_stored_never_rated(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A games CSV: TV-01's three played games for 1001, and the three forfeits (+-, -+, --)
    between the others. If a forfeit counted, 1003 (1780, a forfeit win against 2010: PD .21,
    +0.79) or 1004 would move; they move only by their game against 1001."""
    games = GAMES_HEADER + "".join(
        f"A4 Open,{DATES},{row}\n"
        for row in (
            "1,1001,1002,1-0",
            "1,1003,1004,+-",
            "2,1001,1003,1/2-1/2",
            "2,1002,1004,--",
            "3,1004,1001,1-0",
            "3,1003,1002,-+",
        )
    )
    published = publish(capsys, database_url, tmp_path, ("games.csv", games))
    assert (published["imported"]["games"], published["imported"]["rated_games"]) == (6, 3)
    assert stored_games(published) == sorted(
        [
            (1, "1001", "1002", "1-0", True),
            (1, "1003", "1004", "+-", False),
            (2, "1001", "1003", "1/2-1/2", True),
            (2, "1002", "1004", "--", False),
            (3, "1004", "1001", "1-0", True),
            (3, "1003", "1002", "-+", False),
        ]
    )
    assert entries(published) == TV01_ENTRIES
    # Only the played games are calculated: 3 games, 2 sides.
    assert sorted((p, o) for p, o, _, _ in calculations(database_url)) == [
        ("1001", "1002"), ("1001", "1003"), ("1001", "1004"),
        ("1002", "1001"), ("1003", "1001"), ("1004", "1001"),
    ]  # fmt: skip


def _field(line: list[str], column: int, value: str) -> None:
    line[column - 1 : column - 1 + len(value)] = list(value)


def player_line(rank: int, name: str, rating: str, fide_id: str, rounds: list[str]) -> str:
    """A TRF ``001`` line (rules.md B §11.1): rank 5-8, name 15-47, rating 49-52, FIDE id 58-68,
    round r at 92 + 10 (r - 1) (opponent, colour at +5, result at +7)."""
    line = [" "] * (91 + 10 * len(rounds))
    _field(line, 1, "001")
    _field(line, 5, f"{rank:>4}")
    _field(line, 15, name)
    _field(line, 49, f"{rating:>4}")
    _field(line, 54, "FRA")
    _field(line, 58, f"{fide_id:>11}")
    for r, entry in enumerate(rounds):
        _field(line, 92 + 10 * r, entry)
    return "".join(line).rstrip()


# #1-#4 are the baseline's 1001-1004 (their FIDE ids), #5 a stranger with neither id nor rating.
# R1: #1 beats #2; #3-#4 forfeit (+/-); #5 half-point bye H.
# R2: #3 draws #1; #5 beats #2 (an unknown, unrated opponent); #4 pairing bye U.
# R3: #4 beats #1; #2-#3 shorter than one move (W/L); #5 zero-point bye Z.
TRF = "\n".join(
    [
        "012 A4 Report",
        "042 2026/08/10",
        "052 2026/08/12",
        player_line(1, "Anna, A", "1850", "1001", ["   2 w 1", "   3 b =", "   4 b 0"]),
        player_line(2, "Bob, B", "1920", "1002", ["   1 b 0", "   5 w 0", "   3 w W"]),
        player_line(3, "Gus, G", "1780", "1003", ["   4 w +", "   1 w =", "   2 b L"]),
        player_line(4, "Dan, D", "2010", "1004", ["   3 b -", "0000 - U", "   1 w 1"]),
        player_line(5, "Stranger, Sam", "", "", ["0000 - H", "   2 b 1", "0000 - Z"]),
    ]
)


def test_2_3_forfeits_byes_and_unknown_opponents_in_a_trf_are_stored_never_rated(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same played games as TV-01 in a TRF, with a forfeit, a game shorter than one move,
    byes H, U and Z, and a game against a stranger (no FIDE id, no rating: unknown to every
    list, and to ratingdb but for this file: an "unknown opponent", given a local id). Forfeit
    and short game are stored, never rated; byes are not games; the stranger's game is stored
    and rated for nobody: 1002 loses to the stranger and still has -12, from its loss to 1001
    only."""
    published = publish(capsys, database_url, tmp_path, ("a4.trf", TRF))
    stranger = next(p for _, w, p, *_ in stored_games(published) if w == "1002" and p != "1001")
    assert stranger not in {"1001", "1002", "1003", "1004", "1005", "1006"}
    assert stored_games(published) == sorted(
        [
            (1, "1001", "1002", "1-0", True),
            (1, "1003", "1004", "+-", False),
            (2, "1003", "1001", "1/2-1/2", True),
            (2, "1002", stranger, "0-1", True),
            (3, "1004", "1001", "1-0", True),
            (3, "1002", "1003", "W-L", False),
        ]
    )
    assert entries(published) == TV01_ENTRIES
    rows = calculations(database_url)
    assert [row for row in rows if row[0] == "1002"] == [
        ("1002", "1001", True, None),
        ("1002", stranger, False, str(OPPONENT_UNRATED)),
    ]
    # The stranger is known by no id at all: the game is rated for nobody, not even toward a
    # first rating (no calculation, no status kept for the stranger).
    assert [row for row in rows if row[0] == stranger] == []
    assert statuses_of(database_url, stranger) == 0
    assert not any(p in ("1003", "1004") and o in ("1003", "1004") for p, o, _, _ in rows)


def test_4_rated_against_unrated_in_a_close(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nina (1005, unrated on the baseline) plays the five games of NINA against 1003, 1002,
    1006, 1001 and 1004, while 1001 also plays TV-01: Nina gets her first rating 1887 (5 games,
    no previous rating, no change); the rated players' games against her count for nothing
    (1001 lost to her and still gains +4; 1006 drew with her and stays 1700 with 0 games)."""
    games = GAMES_HEADER + "".join(
        f"A4 Open,{DATES},{row}\n"
        for row in (
            "1,1001,1002,1-0",
            "1,1005,1003,1-0",
            "2,1001,1003,1/2-1/2",
            "2,1005,1002,1/2-1/2",
            "3,1004,1001,1-0",
            "3,1005,1006,1/2-1/2",
            "4,1005,1001,1-0",
            "5,1005,1004,0-1",
        )
    )
    published = publish(capsys, database_url, tmp_path, ("games.csv", games))
    assert entries(published) == {**TV01_ENTRIES, "1005": (1887, None, None, 5)}
    rows = calculations(database_url)
    against_nina = [(p, rated_, reason) for p, o, rated_, reason in rows if o == "1005"]
    assert sorted(against_nina) == [
        (p, False, str(OPPONENT_UNRATED)) for p in ("1001", "1002", "1003", "1004", "1006")
    ]
    assert [(o, rated_) for p, o, rated_, _ in rows if p == "1005"] == [
        ("1003", True), ("1002", True), ("1006", True), ("1001", True), ("1004", True),
    ]  # fmt: skip


BLITZ_BASELINE = LIST_HEADER + (
    '3001,"High, H",FRA,M,1990,,2601,60,2601,10\n'
    '3002,"Low, L",FRA,M,1990,,2001,60,2001,20\n'
    '3003,"Mid, M",FRA,M,1990,,2002,60,2002,20\n'
    '3004,"Top, T",FRA,M,1990,,2600,60,2600,10\n'
    '3005,"Base, B",FRA,M,1990,,2000,60,2000,20\n'
)


def test_5_the_600_point_exclusion_in_a_blitz_close(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fide-blitz 2026-09: 3001 (2601) beats 3002 (2001): |D| 600 with a player above 2600, not
    rated for either (3002 stays 2001 with 0 games). 3001 beats 3003 (2002): |D| 599, rated,
    capped at 400: 3001 +0.08 x 10 -> +1 (2602), 3003 -0.08 x 20 = -1.6 -> -2 (2000). 3004
    (2600) beats 3005 (2000): |D| 600 but nobody above 2600: rated, +1 (2601) and -2 (1998)."""
    games = GAMES_HEADER + "".join(
        f"Blitz,{DATES},{row}\n"
        for row in ("1,3001,3002,1-0", "1,3004,3005,1-0", "2,3001,3003,1-0")
    )
    published = publish(
        capsys,
        database_url,
        tmp_path,
        ("blitz.csv", games),
        baseline=BLITZ_BASELINE,
        category="fide-blitz",
    )
    assert entries(published) == {
        "3001": (2602, 2601, 1, 1),
        "3002": (2001, 2001, 0, 0),
        "3003": (2000, 2002, -2, 1),
        "3004": (2601, 2600, 1, 1),
        "3005": (1998, 2000, -2, 1),
    }
    assert calculations(database_url, "fide-blitz") == [
        ("3001", "3002", False, str(EXCLUDED_600)),
        ("3001", "3003", True, None),
        ("3002", "3001", False, str(EXCLUDED_600)),
        ("3003", "3001", True, None),
        ("3004", "3005", True, None),
        ("3005", "3004", True, None),
    ]
