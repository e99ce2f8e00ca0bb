"""The small federation most database tests start from, and the files that describe it.

Rows are list CSV lines (``LIST_HEADER``'s columns) and games CSV lines (``GAMES_HEADER``'s),
without their line ends: ``list_csv`` and ``games_csv`` make the files."""

from __future__ import annotations

from tests.support.files import GAMES_HEADER, LIST_HEADER

#: Rated players of the fide-standard baseline (K 20, 60 games): ids 1001 to 1004.
ANNA = '1001,"Anna, A",FRA,F,1990,,1850,60,1850,20'
BOB = '1002,"Bob, B",FRA,M,1985,,1920,60,1920,20'
GUS = '1003,"Gus, G",FRA,M,1980,,1780,60,1780,20'
DAN = '1004,"Dan, D",FRA,M,1975,,2010,60,2010,20'
#: A player without a rating (1005).
NINA = '1005,"Nina, N",FRA,F,2001,,,,,'


def list_csv(*rows: str) -> str:
    """A list CSV: the header, then one line per row."""
    return LIST_HEADER + "".join(f"{row}\n" for row in rows)


def games_csv(*rows: str) -> str:
    """A games CSV: the header, then one line per game."""
    return GAMES_HEADER + "".join(f"{row}\n" for row in rows)


#: Anna, Bob, Gus, Dan and Nina: the baseline list of the import and close tests.
BASELINE = list_csv(ANNA, BOB, GUS, DAN, NINA)
