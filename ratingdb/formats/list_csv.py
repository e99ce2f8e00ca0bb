"""The list CSV (docs/formats.md §2): a published list, in and out.

`player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,k_factor,active,
change,games`

``active`` (``1`` active, ``0`` inactive: issue 27) is written by every export and optional on
import (absent or empty: active), as ``k_factor`` is written and ignored on import. ``change``
(the month's change, empty for a first rating or an imported starting list) and ``games``
(games rated in the period) are written by every export and ignored on import (issue 29).

Text cells are written spreadsheet-safe and read back with that escape undone (formats.cells).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Protocol

from ratingdb.errors import InputError
from ratingdb.formats.cells import (
    WrittenPlayer,
    checked_text,
    spreadsheet_text,
    undo_spreadsheet_text,
)
from ratingdb.formats.csv_input import CsvRow, read_csv
from ratingdb.formats.text import MAX_BIRTH_YEAR, MAX_NAME_CHARS, MIN_DATE, check_text

COLUMNS = (
    "player_id",
    "name",
    "federation",
    "sex",
    "birth_year",
    "title",
    "rating",
    "rated_games",
    "peak_rating",
    "k_factor",
    "active",
    "change",
    "games",
)
#: The columns an import needs (k_factor, active, change and games are optional).
REQUIRED = COLUMNS[: COLUMNS.index("k_factor")]
#: "rated_games" when the column is empty: an established player (contract).
DEFAULT_RATED_GAMES = 30
MAX_RATING = 4000


@dataclass(frozen=True, slots=True)
class ListRow:
    """One player of an imported list; ``rating`` None = unrated in this category."""

    line: int
    player_id: str
    name: str
    federation: str | None
    sex: str | None
    birth_year: int | None
    title: str | None
    rating: int | None
    rated_games: int
    peak_rating: int | None
    #: The player's activity on the list (the file's active column; active when it is empty).
    active: bool = True


def read_list_csv(path: Path, *, source: str | None = None) -> list[ListRow]:
    rows: list[ListRow] = []
    seen: dict[str, int] = {}
    for row in read_csv(path, REQUIRED, source=source):
        parsed = _parse(row)
        if parsed.player_id in seen:
            raise row.error(
                "player_id", f"{parsed.player_id} is already on line {seen[parsed.player_id]}"
            )
        seen[parsed.player_id] = row.line
        rows.append(parsed)
    return rows


def _parse(row: CsvRow) -> ListRow:
    player_id = row.player_id("player_id")
    # The length is the name's, once the export's formula quote is taken away.
    name = undo_spreadsheet_text(row.text("name", limit=MAX_NAME_CHARS + 1))
    check_text(name, lambda message: row.error("name", message), limit=MAX_NAME_CHARS)
    federation = undo_spreadsheet_text(row.text("federation", required=False)).upper() or None
    if federation is not None and not re.fullmatch(r"[A-Z]{3}", federation):
        raise row.error("federation", f"must be a 3-letter code, got {federation!r}")
    sex = undo_spreadsheet_text(row.text("sex", required=False)).upper() or None
    if sex not in (None, "M", "F"):
        raise row.error("sex", f"must be M or F, got {sex!r}")
    rating = row.integer("rating", low=0, high=MAX_RATING)
    rated_games = row.integer("rated_games", low=0, high=1_000_000)
    peak = row.integer("peak_rating", low=0, high=MAX_RATING)
    if peak is None:
        peak = rating
    elif rating is not None and peak < rating:
        raise row.error("peak_rating", f"must be at least the rating ({rating}), got {peak}")
    return ListRow(
        line=row.line,
        player_id=player_id,
        name=name,
        federation=federation,
        sex=sex,
        birth_year=row.integer("birth_year", low=MIN_DATE.year, high=MAX_BIRTH_YEAR),
        title=undo_spreadsheet_text(row.text("title", required=False)) or None,
        rating=rating,
        rated_games=DEFAULT_RATED_GAMES if rated_games is None else rated_games,
        peak_rating=peak,
        active=_active(row),
    )


def _active(row: CsvRow) -> bool:
    value = row.text("active", required=False)
    if value not in ("", "0", "1"):
        raise row.error("active", f"must be 1 (active), 0 (inactive) or empty, got {value!r}")
    return value != "0"


class ListCsvEntry(WrittenPlayer, Protocol):
    """What the list CSV writes of an entry (COLUMNS): a published list's entries as they are
    (``services.published.ListEntry``), or ``ExportEntry``."""

    @property
    def rating(self) -> int: ...
    @property
    def rated_games(self) -> int: ...
    @property
    def peak_rating(self) -> int: ...
    @property
    def k_factor(self) -> int: ...
    @property
    def active(self) -> bool: ...
    @property
    def change(self) -> int | None: ...
    @property
    def games(self) -> int: ...


@dataclass(frozen=True, slots=True)
class ExportEntry:
    """One entry to write where there is no published list (the sample data's national
    list)."""

    player_id: str
    name: str
    federation: str | None
    sex: str | None
    birth_year: int | None
    title: str | None
    rating: int
    rated_games: int
    peak_rating: int
    k_factor: int
    active: bool = True
    #: The month's change (None: a first rating, or a list with no month before it).
    change: int | None = None
    #: Games rated in the period.
    games: int = 0


def write_list_csv(entries: Iterable[ListCsvEntry]) -> str:
    """The list CSV as a string."""
    out = io.StringIO()
    write_list_csv_to(entries, out)
    return out.getvalue()


def write_list_csv_to(entries: Iterable[ListCsvEntry], out: IO[str]) -> None:
    """The list CSV, written to ``out`` a row at a time; a text value with a character no
    file may hold is refused."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for e in entries:

        def text(value: str | None, field: str, e: ListCsvEntry = e) -> str:
            most = MAX_NAME_CHARS if field == "name" else None
            checked = checked_text(value or "", e.player_id, e.name, field, max_length=most)
            return spreadsheet_text(checked)

        writer.writerow(
            [
                text(e.player_id, "player_id"),
                text(e.name, "name"),
                text(e.federation, "federation"),
                text(e.sex, "sex"),
                "" if e.birth_year is None else e.birth_year,
                text(e.title, "title"),
                e.rating,
                e.rated_games,
                e.peak_rating,
                e.k_factor,
                int(e.active),
                "" if e.change is None else e.change,
                e.games,
            ]
        )


__all__ = [
    "COLUMNS",
    "ExportEntry",
    "InputError",
    "ListCsvEntry",
    "ListRow",
    "read_list_csv",
    "write_list_csv",
    "write_list_csv_to",
]
