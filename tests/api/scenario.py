"""The database the API tests read, built through the commands a federation runs
(``db upgrade``, ``lists import``, ``tournaments import``, ``periods close``).

fide-standard is the end-to-end scenario of tests/end_to_end/test_monthly_close.py (its docstring
works every number by hand from FIDE table 8.1.2 under fide-standard-2025-10), plus one player,
Olga (1008), unrated, who wins one game against Gus in tournament E (2026-10-17..18, period
2026-11): one game is not enough for a first rating, so she is pooled (no list entry, one
calculation), and the game does not count for Gus, whose opponent was unrated (change 0, no game).
ffe-rapid gets one imported list (2026-10) for Anna and Bob, so there are two categories.

The numbers the tests check (from the end-to-end docstring):
  2026-09  Anna vs Bob 1-0: D -70 -> .40, +.60; K 20 -> +12, 1850 -> 1862.
           Jo: vs Max D -800 capped -400 -> .08, -.08; vs Dan D -360 -> .10, +.90;
           +0.82 x 40 = 32.8 -> +33, 1650 -> 1683.
  2026-10  Nina's first rating: 5 games, 3 points, Ra 1832.14, dp 50 -> 1882. Anna's draw with
           Nina is not rated (opponent unrated): no change, no game.
           Max vs Dan D +465 capped 400 -> .92, -.42; K 10 -> -4.2 -> -4, 2451 -> 2447.
  2026-11  Anna: vs Max D -585 capped -400 -> .08, +.42; vs Jo D +179 -> .73, -.23;
           +0.19 x 20 = 3.8 -> +4, 1862 -> 1866.  Nina: vs Jo D +199 -> .76, -.76; K 40 ->
           -30.4 -> -30, 1882 -> 1852.

The corrected scenario (:func:`correct`, after all three closes): Anna - Bob of tournament A,
round 1, was 0-1, not 1-0. Every closed list gets a revision 2 (correction 1):
  2026-09  Anna: D -70 -> .40, score 0, -.40 x 20 = -8, 1850 -> 1842 (was 1862).
           Bob: vs Anna D +70 -> .60, +.40; vs Gus D +140 -> .69, +.31; +0.71 x 20 = 14.2 ->
           +14, 1920 -> 1934 (was 1914).
  2026-10  Bob: vs Gus (tournament D) D +154 -> .71, -.71 x 20 = -14.2 -> -14, 1934 -> 1920
           (was 1900). Gus: D -154 -> .29, +.71 -> +14, 1794 as before. Anna: no game, 1842.
           Nina's first rating: Anna -20 and Bob +20 leave her opponents' average, so 1882.
  2026-11  Anna: vs Max D -605 capped -400 -> .08, +.42; vs Jo D +159 -> .71, -.21; +0.21 x 20
           = 4.2 -> +4, 1842 -> 1846 (was 1866). Jo: vs Nina D -199 -> .24, +.76; vs Anna
           D -159 -> .29, +.21; +0.97 x 40 = 38.8 -> +39, 1683 -> 1722 (was 1723).
           Bob: no game, 1920 (was 1900).
"""

from __future__ import annotations

from pathlib import Path

from ratingdb.cli import main
from tests.support.files import GAMES_HEADER as HEADER
from tests.support.files import LIST_HEADER

FIDE_BASELINE = (
    LIST_HEADER
    + """\
1001,"Anna, A",FRA,F,1990,,1850,60,1850,20
1002,"Bob, B",FRA,M,1985,,1920,60,1920,20
1003,"Gus, G",FRA,M,1980,,1780,60,1780,20
1004,"Dan, D",GER,M,1975,,2010,60,2010,20
1005,"Jo, J",FRA,F,2012,,1650,10,1650,40
1006,"Max, M",NOR,M,1995,IM,2450,300,2450,10
1007,"Nina, N",FRA,F,2001,,,,,
1008,"Olga, O",ESP,F,1999,,,,,
"""
)
FFE_BASELINE = (
    LIST_HEADER
    + """\
1001,"Anna, A",FRA,F,1990,,1700,40,1700,20
1002,"Bob, B",FRA,M,1985,,1650,40,1650,20
"""
)


def _games(name: str, start: str, end: str, games: list[tuple[int, int, int, str]]) -> str:
    return HEADER + "".join(
        f"{name},{start},{end},{r},{w},{b},{result}\n" for r, w, b, result in games
    )


A = _games("A", "2026-08-10", "2026-08-12", [
    (1, 1001, 1002, "1-0"), (1, 1003, 1004, "1/2-1/2"), (1, 1005, 1006, "0-1"),
    (2, 1002, 1003, "1-0"), (2, 1004, 1005, "0-1"), (2, 1006, 1001, "+-"),
])  # fmt: skip
B = _games("B", "2026-09-05", "2026-09-06", [
    (1, 1007, 1001, "1/2-1/2"), (1, 1004, 1006, "1/2-1/2"), (2, 1002, 1007, "1/2-1/2"),
    (3, 1007, 1003, "1-0"), (4, 1004, 1007, "1-0"), (5, 1007, 1005, "1-0"),
])  # fmt: skip
C = _games("C", "2026-10-10", "2026-10-11", [
    (1, 1007, 1005, "0-1"), (1, 1001, 1006, "1/2-1/2"), (2, 1005, 1001, "1/2-1/2"),
])  # fmt: skip
D = _games("D", "2026-08-18", "2026-08-20", [(1, 1003, 1002, "1-0")])
E = _games("E", "2026-10-17", "2026-10-18", [(1, 1008, 1003, "1-0")])

#: Tournament ids in import order.
TOURNAMENTS = {"A": "T000001", "B": "T000002", "D": "T000003", "C": "T000004", "E": "T000005"}

#: Lists as published: (player_id, rating, previous_rating, change, games, k_factor).
SEPTEMBER = [
    ("1006", 2451, 2450, 1, 1, 10),
    ("1004", 1986, 2010, -24, 2, 20),
    ("1002", 1914, 1920, -6, 2, 20),
    ("1001", 1862, 1850, 12, 1, 20),
    ("1003", 1780, 1780, 0, 2, 20),
    ("1005", 1683, 1650, 33, 2, 40),
]
OCTOBER = [
    ("1006", 2447, 2451, -4, 1, 10),
    ("1004", 1994, 1986, 8, 1, 20),
    ("1002", 1900, 1914, -14, 1, 20),
    ("1007", 1882, None, None, 5, 40),
    ("1001", 1862, 1862, 0, 0, 20),
    ("1003", 1794, 1780, 14, 1, 20),
    ("1005", 1683, 1683, 0, 0, 40),
]
NOVEMBER = [
    ("1006", 2443, 2447, -4, 1, 10),
    ("1004", 1994, 1994, 0, 0, 20),
    ("1002", 1900, 1900, 0, 0, 20),
    ("1001", 1866, 1862, 4, 2, 20),
    ("1007", 1852, 1882, -30, 1, 40),
    ("1003", 1794, 1794, 0, 0, 20),
    ("1005", 1723, 1683, 40, 2, 40),
]


def build(url: str, folder: Path) -> None:
    """Build the scenario in the empty database at ``url``."""
    files = {}
    for name, text in {"fide.csv": FIDE_BASELINE, "ffe.csv": FFE_BASELINE, "A.csv": A,
                       "B.csv": B, "C.csv": C, "D.csv": D, "E.csv": E}.items():  # fmt: skip
        files[name] = folder / name
        files[name].write_text(text, encoding="utf-8")

    def run(*args: str) -> None:
        assert main([*args, "--database-url", url]) == 0, args

    def tournament(name: str) -> None:
        run("tournaments", "import", str(files[f"{name}.csv"]), "--category", "fide-standard")

    run("db", "upgrade")
    run("lists", "import", str(files["fide.csv"]), "--category", "fide-standard",
        "--period", "2026-08")  # fmt: skip
    run("lists", "import", str(files["ffe.csv"]), "--category", "ffe-rapid", "--period", "2026-10")
    tournament("A")
    run("periods", "close", "--category", "fide-standard", "--period", "2026-09")
    for name in ("B", "D", "C", "E"):  # D arrives after 2026-09 is out: late, rated in 2026-10
        tournament(name)
    for period in ("2026-10", "2026-11"):
        run("periods", "close", "--category", "fide-standard", "--period", period)


CORRECTION_REASON = "the scoresheet shows Bob won"
#: Who made the correction: the public pages and API never show it (they say "rating officer").
CORRECTION_ACTOR = "mallory-officer"
#: ``ratingdb games correct`` arguments of the corrected scenario (it becomes correction 1).
CORRECTION = (
    "games", "correct", "--tournament", TOURNAMENTS["A"], "--round", "1", "--white", "1001",
    "--black", "1002", "--result", "0-1", "--reason", CORRECTION_REASON,
    "--actor", CORRECTION_ACTOR,
)  # fmt: skip

#: The lists' revision 2 after the correction, as the originals above.
SEPTEMBER_REVISED = [
    ("1006", 2451, 2450, 1, 1, 10),
    ("1004", 1986, 2010, -24, 2, 20),
    ("1002", 1934, 1920, 14, 2, 20),
    ("1001", 1842, 1850, -8, 1, 20),
    ("1003", 1780, 1780, 0, 2, 20),
    ("1005", 1683, 1650, 33, 2, 40),
]
OCTOBER_REVISED = [
    ("1006", 2447, 2451, -4, 1, 10),
    ("1004", 1994, 1986, 8, 1, 20),
    ("1002", 1920, 1934, -14, 1, 20),
    ("1007", 1882, None, None, 5, 40),
    ("1001", 1842, 1842, 0, 0, 20),
    ("1003", 1794, 1780, 14, 1, 20),
    ("1005", 1683, 1683, 0, 0, 40),
]
NOVEMBER_REVISED = [
    ("1006", 2443, 2447, -4, 1, 10),
    ("1004", 1994, 1994, 0, 0, 20),
    ("1002", 1920, 1920, 0, 0, 20),
    ("1007", 1852, 1882, -30, 1, 40),
    ("1001", 1846, 1842, 4, 2, 20),
    ("1003", 1794, 1794, 0, 0, 20),
    ("1005", 1722, 1683, 39, 2, 40),
]


def correct(url: str) -> None:
    """Apply the correction of the corrected scenario through the command line."""
    assert main([*CORRECTION, "--database-url", url]) == 0
