"""The players who need a FIDE id (``players export-unregistered``, the back office's download):
what FIDE's registration asks of each, and where ratingdb met them (docs/formats.md §8)."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import IO

from ratingdb.formats.cells import spreadsheet_text

COLUMNS = (
    "player_id", "name", "sex", "birth_date", "birth_year", "federation",
    "national_federation", "national_id", "tournaments", "last_played",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Unregistered:
    player_id: str
    name: str
    sex: str | None
    birth_date: date | None
    birth_year: int | None
    federation: str | None
    national_federation: str | None
    national_id: str | None
    #: Tournaments of FIDE's categories the player's games are stored in, and the latest end.
    tournaments: int
    last_played: date


def write_unregistered_csv(players: Iterable[Unregistered], out: IO[str]) -> None:
    """UTF-8 CSV, a header row, one player a row; text cells a spreadsheet shows as text."""

    def text(value: str | None) -> str:
        return "" if value is None else spreadsheet_text(value)

    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for p in players:
        writer.writerow(
            [
                p.player_id, text(p.name), text(p.sex),
                "" if p.birth_date is None else p.birth_date.isoformat(),
                "" if p.birth_year is None else p.birth_year,
                text(p.federation), text(p.national_federation), text(p.national_id),
                p.tournaments, p.last_played.isoformat(),
            ]
        )  # fmt: skip
