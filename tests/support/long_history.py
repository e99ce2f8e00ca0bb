"""A player with ten years of monthly lists (issue 29: the player page on a phone).

Alessandra (2001) starts on the fide-standard list of 2016-11 and plays, in the month before
each of the 120 periods 2016-12 .. 2026-11, three rated games in two events: two rounds of an
open with a long French name (it must wrap on a phone) against Bruno (2002) and Carla (2003),
and one club game against Dario (2004). Every period is closed through the commands, so each
has a calculation with two tournaments. The results cycle (win, draw, loss...) so the ratings
move both ways; the page's numbers are the close's, checked elsewhere: here only the layout is.
"""

from __future__ import annotations

from pathlib import Path

from ratingdb.cli import main
from ratingdb.rules import Period
from tests.support.factories import games_csv, list_csv

PLAYER = "2001"
FIRST = Period(2016, 12)
PERIODS = 120
BASELINE = list_csv(
    '2001,"Marchetti-Delacroix, Alessandra Beatrice",ITA,F,1994,WFM,2050,200,2050,20',
    '2002,"Bruno, B",ITA,M,1990,,2100,200,2100,20',
    '2003,"Carla, C",FRA,F,1988,,1990,200,1990,20',
    '2004,"Dario, D",SUI,M,1979,,2010,200,2010,20',
)
_RESULTS = ("1-0", "1/2-1/2", "0-1", "0-1", "1/2-1/2", "1-0", "1/2-1/2")


def periods() -> list[Period]:
    """The closed periods, oldest first."""
    return [FIRST.plus_months(n) for n in range(PERIODS)]


def build(url: str, folder: Path) -> None:
    """The database at ``url`` (empty): migrated, the 2016-11 list imported, then each period's
    two events imported and the period closed."""

    def run(*args: str) -> None:
        assert main([*args, "--database-url", url]) == 0, args

    run("db", "upgrade")
    baseline = folder / "baseline.csv"
    baseline.write_text(BASELINE, encoding="utf-8")
    run("lists", "import", str(baseline), "--category", "fide-standard", "--period", "2016-11")
    for index, period in enumerate(periods()):
        month = period.plus_months(-1)
        day = f"{month.year:04d}-{month.month:02d}"
        first, second, third = (_RESULTS[(index + k) % len(_RESULTS)] for k in range(3))
        name = f"Open international de Saint-Rémy-de-Provence, {day}"
        club = f"Club evening {day}"
        games = games_csv(
            f'"{name}",{day}-05,{day}-06,1,2001,2002,{first}',
            f'"{name}",{day}-05,{day}-06,2,2003,2001,{second}',
            f"{club},{day}-12,{day}-12,1,2001,2004,{third}",
        )
        for event, rows in (("open", games.splitlines()[:3]), ("club", games.splitlines()[::3])):
            path = folder / f"{period}-{event}.csv"
            path.write_text("\n".join(rows) + "\n", encoding="utf-8")
            run("tournaments", "import", str(path), "--category", "fide-standard")
        run("periods", "close", "--category", "fide-standard", "--period", str(period))
