"""The small case the publication tests share, worked out by hand.

The fide-standard list of 2026-11 (Anna 1850, Bob 1920, Gus 1780 with 28 rated games so K 40,
Dan 2010, Nina unrated) and one tournament of period 2026-12 (closing date 2026-11-28), the
Autumn Open, 10-12 November 2026: Anna beats Bob, draws Gus; Gus beats Bob; Nina plays five
games against the four rated players. The 2026-12 list is rated under fide-standard-2025-10:
FIDE table 8.1.2, K 40 / 20 / 10, a first rating with two hypothetical draws against 1800
(docs/rules.md §3, §4.1, §6, §9). ``EXPECTED`` below is computed here from those rules, with the
two rows of the table the games need written out, not by ratingdb.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

from ratingdb.cli import main
from tests.support.factories import games_csv, list_csv
from tests.support.rolled_back import sessions_for

CATEGORY = "fide-standard"
STARTING_PERIOD = "2026-11"
PERIOD = "2026-12"
CLOSING_DATE = "2026-11-28"
RULE_VERSION = "fide-standard-2025-10"

STARTING_LIST = list_csv(
    '1001,"Anna, A",FRA,F,1990,,1850,60,1850,20',
    '1002,"Bob, B",FRA,M,1985,,1920,60,1920,20',
    '1003,"Gus, G",FRA,M,1980,,1780,28,1780,40',
    '1004,"Dan, D",FRA,M,1975,,2010,60,2010,20',
    '1005,"Nina, N",FRA,F,2001,,,,,',
)
AUTUMN = "Autumn Open,2026-11-10,2026-11-12"
TOURNAMENT = games_csv(
    f"{AUTUMN},1,1001,1002,1-0",
    f"{AUTUMN},1,1005,1004,0-1",
    f"{AUTUMN},2,1001,1003,1/2-1/2",
    f"{AUTUMN},2,1005,1002,1/2-1/2",
    f"{AUTUMN},3,1002,1003,0-1",
    f"{AUTUMN},3,1005,1001,0-1",
    f"{AUTUMN},4,1005,1003,1-0",
    f"{AUTUMN},5,1001,1005,1/2-1/2",
)
#: A second tournament of the same period (ends before the closing date): Dan beats Anna.
LATE_ENTRY = games_csv("Club Evening,2026-11-20,2026-11-20,1,1004,1001,1-0")

#: Table 8.1.2 (docs/rules.md §4.1): the rows D 69-76 and 138-145, for the higher-rated side.
_TABLE = {70: Fraction("0.60"), 140: Fraction("0.69")}


def _expected(difference: int) -> Fraction:
    return _TABLE[difference] if difference >= 0 else 1 - _TABLE[-difference]


def _rounded(value: Fraction) -> int:
    """To a whole number, half away from zero (Decimal's ROUND_HALF_UP; docs/rules.md §7)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)  # K x hundredths: exact
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _change(k: int, games: list[tuple[int, Fraction]]) -> int:
    """K x the sum of (score - expected) over (D, score) pairs, rounded once."""
    return _rounded(k * sum((score - _expected(d) for d, score in games), Fraction(0)))


HALF, ONE, ZERO = Fraction(1, 2), Fraction(1), Fraction(0)
# Anna 1850, K 20: Bob 1920 (D -70) won, Gus 1780 (D +70) drawn; Nina is unrated: not rated.
ANNA = 1850 + _change(20, [(-70, ONE), (70, HALF)])
# Bob 1920, K 20: Anna (D +70) lost, Gus (D +140) lost.
BOB = 1920 + _change(20, [(70, ZERO), (140, ZERO)])
# Gus 1780 with 28 rated games: K 40 (a new player); Anna (D -70) drawn, Bob (D -140) won. Two
# more rated games make 30: K 20 on the new list.
GUS = 1780 + _change(40, [(-70, HALF), (-140, ONE)])
# Nina, unrated: 5 games against 2010 (0), 1920 (1/2), 1850 (0), 1780 (1), 1850 (1/2), 2 points.
# Ra = (9410 + 2 x 1800) / 7; p = (2 + 1) / 7 = 0.4286 -> 0.43; dp(0.43) = -dp(0.57) = -50
# (table 8.1.1); Ru = Ra - 50 rounded half up; published with K 40 (five rated games).
_RA = Fraction(2010 + 1920 + 1850 + 1780 + 1850 + 2 * 1800, 7)
NINA = int((_RA - 50 + HALF) // 1)

#: (player id, name, previous rating, new rating) of everyone who changes, by player id.
EXPECTED_CHANGES = [
    ("1001", "Anna, A", 1850, ANNA),
    ("1002", "Bob, B", 1920, BOB),
    ("1003", "Gus, G", 1780, GUS),
    ("1005", "Nina, N", None, NINA),
]
#: Dan played only Nina (unrated then): his entry is carried unchanged. Five entries.
EXPECTED_ENTRIES = 5
#: The rated games of the period: 3 between rated players, 5 of Nina's.
EXPECTED_GAMES = 8


def assert_worked_by_hand() -> None:
    """The numbers above, as they come out: a guard on the arithmetic of this module."""
    assert (ANNA, BOB, GUS, NINA) == (1860, 1894, 1812, 1809)


def prepare(url: str, folder: Path, *, tournament: bool = True) -> None:
    """The 2026-11 list imported and (by default) the Autumn Open, through the command line
    (in the test's rolled-back transaction when it holds ``url``)."""
    starting = folder / "starting.csv"
    starting.write_text(STARTING_LIST, encoding="utf-8")
    assert main(["lists", "import", str(starting), "--category", CATEGORY, "--period",
                 STARTING_PERIOD, "--database-url", url, "--actor", "setup"],
                sessions=sessions_for(url)) == 0  # fmt: skip
    if tournament:
        add_tournament(url, folder, "autumn.csv", TOURNAMENT)


def add_tournament(url: str, folder: Path, name: str, content: str) -> None:
    path = folder / name
    path.write_text(content, encoding="utf-8")
    assert main(["tournaments", "import", str(path), "--category", CATEGORY,
                 "--database-url", url, "--actor", "setup"],
                sessions=sessions_for(url)) == 0  # fmt: skip
