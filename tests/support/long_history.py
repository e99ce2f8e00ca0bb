"""A player with ten years of monthly lists (issue 29: the player page on a phone).

Alessandra (2001) starts on the fide-standard list of 2016-11 and plays, in the month before
each of the 120 periods 2016-12 .. 2026-11, three rated games in two events: two rounds of an
open with a long French name (it must wrap on a phone) against Bruno (2002) and Carla (2003),
and one club game against Dario (2004). Every period is closed through the commands, so each
has a calculation with two tournaments. The results cycle (win, draw, loss...) so the ratings
move both ways; the page's numbers are the close's, checked elsewhere: here only the layout is.

In May 2021 (period 2021-06) she also plays a ten-player, nine-round round robin with long
names (``ROUND_ROBIN``): a crosstable of nine round columns, the widest the tests open.
"""

from __future__ import annotations

from pathlib import Path

from ratingdb.cli import main
from ratingdb.rules import Period
from tests.support.factories import games_csv, list_csv

PLAYER = "2001"
FIRST = Period(2016, 12)
PERIODS = 120
_RESULTS = ("1-0", "1/2-1/2", "0-1", "0-1", "1/2-1/2", "1-0", "1/2-1/2")
#: The round robin's other seven players (2005 .. 2011), and its name and period.
_MORE = [
    f'{2005 + n},"{name}",{federation},M,1985,,{2000 + 37 * n},200,{2000 + 37 * n},20'
    for n, (name, federation) in enumerate([
        ("Oliveira Santos-Pereira, Joaquim Henrique", "POR"),
        ("Vandenberghe-Lefebvre, Maximilien", "BEL"),
        ("Kowalczyk-Wiśniewski, Przemysław", "POL"),
        ("Papadopoulos, Konstantinos-Alexandros", "GRE"),
        ("Fitzgerald-Montgomery, Bartholomew", "IRL"),
        ("Johannesdottir, Sigurbjorg Ragnheidur", "ISL"),
        ("Hernández de la Fuente, Juan Sebastián", "ESP"),
    ])
]  # fmt: skip
ROUND_ROBIN = "Mémorial international des Grands Maîtres de Saint-Rémy-de-Provence 2021"
ROUND_ROBIN_PERIOD = Period(2021, 6)
#: Events are numbered in import order: two a period before it, then its open and club.
ROUND_ROBIN_ID = f"T{2 * (ROUND_ROBIN_PERIOD.index - FIRST.index) + 3:06d}"
BASELINE = list_csv(
    '2001,"Marchetti-Delacroix, Alessandra Beatrice",ITA,F,1994,WFM,2050,200,2050,20',
    '2002,"Bruno, B",ITA,M,1990,,2100,200,2100,20',
    '2003,"Carla, C",FRA,F,1988,,1990,200,1990,20',
    '2004,"Dario, D",SUI,M,1979,,2010,200,2010,20',
    *_MORE,
)


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
        if period == ROUND_ROBIN_PERIOD:
            path = folder / "round-robin.csv"
            path.write_text(_round_robin(period.plus_months(-1)), encoding="utf-8")
            run("tournaments", "import", str(path), "--category", "fide-standard")
        run("periods", "close", "--category", "fide-standard", "--period", str(period))


def _round_robin(month: Period) -> str:
    """Ten players (2001 .. 2004 and the seven others), nine rounds by the circle method."""
    players = [str(2001 + n) for n in range(11) if n != 1]  # Bruno (2002) plays the open only
    day = f"{month.year:04d}-{month.month:02d}"
    rows = []
    for rnd in range(9):
        order = [players[0], *(players[1:][-rnd:] + players[1:][:-rnd] if rnd else players[1:])]
        for board in range(5):
            white, black = order[board], order[9 - board]
            if (rnd + board) % 2:
                white, black = black, white
            result = _RESULTS[(rnd * 5 + board) % len(_RESULTS)]
            rows.append(f'"{ROUND_ROBIN}",{day}-14,{day}-22,{rnd + 1},{white},{black},{result}')
    return games_csv(*rows)
