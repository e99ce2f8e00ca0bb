"""The sample tournaments, one function per kind: each month has a rapid open (TRF26 with
National Rating Support records, rated on the FIDE and national rapid lists), a standard open
(TRF16, or TRF26 every other month), a blitz round robin and a club round robin (games CSV).
Each writes its file and returns its entry of the manifest."""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ratingdb.formats.games_csv import COLUMNS as GAME_COLUMNS
from ratingdb.formats.trf import PlayerOut, RoundOut, format_trf
from ratingdb.rules import Category, Period
from ratingdb.sample_data.pairings import Pairing, round_robin, swiss
from ratingdb.sample_data.people import FEDERATION, Person

TOWNS = ["Strelsau", "Zenda", "Tarlenheim", "Hofbau", "Dresnitz", "Ostrava Nova"]


@dataclass(frozen=True)
class Month:
    """What the events of one month draw on. They share ``rng``, so they are made in a fixed
    order (that of ``generate``)."""

    rng: random.Random
    out: Path
    period: Period
    town: str
    fide_people: Sequence[Person]
    national_only: Sequence[Person]

    def prefix(self) -> str:
        return f"{self.period.year}-{self.period.month:02d}"

    def day(self, day: int) -> date:
        return date(self.period.year, self.period.month, day)


@dataclass(frozen=True)
class _Open:
    """What sets one kind of Swiss open apart from another."""

    title: str
    file: str
    category: Category
    categories: list[str]
    rounds: int
    days: tuple[int, int]
    national: bool
    time_control: str
    time_control_code: str


_RAPID = _Open(
    "Rapid Open", "rapid_open", Category.FIDE_RAPID, ["fide-rapid", "ffe-rapid"], 9, (4, 4),
    national=True, time_control="15 minutes + 10 seconds per move",
    time_control_code="900+10",
)  # fmt: skip
_STANDARD = _Open(
    "Open", "standard_open", Category.FIDE_STANDARD, ["fide-standard"], 7, (9, 13),
    national=False, time_control="90 minutes for 40 moves + 30 minutes, 30 seconds per move",
    time_control_code="40/5400+30:1800+30",
)  # fmt: skip


def rapid_open(month: Month) -> dict[str, object]:
    """FIDE and national rapid in one day, TRF26 with national ids and ratings: 28 players
    of the FIDE list and 12 known only by their national id."""
    rng = month.rng
    field_people = seeded_field(rng, month.fide_people, 28, Category.FIDE_RAPID)
    field_people += sorted(rng.sample(month.national_only, 12), key=lambda p: -(p.strength))
    return _swiss_open(month, _RAPID, field_people, trf26=True)


def standard_open(month: Month, *, trf26: bool) -> dict[str, object]:
    """FIDE standard over five days, 36 players."""
    field_people = seeded_field(month.rng, month.fide_people, 36, Category.FIDE_STANDARD)
    return _swiss_open(month, _STANDARD, field_people, trf26=trf26)


def _swiss_open(
    month: Month, kind: _Open, field_people: Sequence[Person], *, trf26: bool
) -> dict[str, object]:
    """A Swiss open of ``field_people``, written as a TRF."""
    table = swiss(month.rng, [p.strength for p in field_people], kind.rounds)
    text = trf_text(
        name=f"{month.town} {kind.title} {month.period.year}",
        town=month.town,
        start=month.day(kind.days[0]),
        end=month.day(kind.days[1]),
        people=field_people,
        table=table,
        category=kind.category,
        trf26=trf26,
        national=kind.national,
        time_control=kind.time_control,
        time_control_code=kind.time_control_code,
    )
    name = f"{month.prefix()}_{kind.file}.trf"
    return _write(month, name, text, kind.categories, "trf")


def blitz_round_robin(month: Month) -> dict[str, object]:
    """Twelve players, FIDE blitz, in one day."""
    return _round_robin_event(month, "blitz", "Blitz", 12, Category.FIDE_BLITZ, (18, 18))


def club_round_robin(month: Month) -> dict[str, object]:
    """Eight players, FIDE standard, over five days, at an hour and 30 seconds a move: 90
    minutes for 60 moves, too fast for FIDE standard when a player is rated 2400 or more, so
    the demo shows games that are not rated, and why (docs/rules.md §8)."""
    return _round_robin_event(
        month, "club", "Chess Club", 8, Category.FIDE_STANDARD, (20, 24), time_control="3600+30"
    )


def _round_robin_event(
    month: Month,
    kind: str,
    title: str,
    size: int,
    category: Category,
    days: tuple[int, int],
    *,
    time_control: str | None = None,
) -> dict[str, object]:
    """A round robin as a games CSV (its players known from the lists by their FIDE ids)."""
    group = seeded_field(month.rng, month.fide_people, size, category)
    games = [
        (r, str(group[w].fide_id), str(group[b].fide_id), result)
        for r, w, b, result in round_robin(month.rng, [p.strength for p in group])
    ]
    name = f"{month.prefix()}_{kind}_round_robin.csv"
    text = games_csv_text(
        f"{month.town} {title} Round Robin {month.prefix()}",
        month.day(days[0]),
        month.day(days[1]),
        games,
        time_control,
    )
    return _write(month, name, text, [category.value], "csv")


def _write(
    month: Month, name: str, text: str, categories: list[str], file_format: str
) -> dict[str, object]:
    """Write a tournament file; its entry of the manifest."""
    (month.out / "tournaments" / name).write_text(text, encoding="utf-8")
    return {"file": f"tournaments/{name}", "categories": categories, "format": file_format}


def trf_text(
    *,
    name: str,
    town: str,
    start: date,
    end: date,
    people: Sequence[Person],
    table: Sequence[Sequence[Pairing | None]],
    category: Category,
    trf26: bool,
    national: bool,
    time_control: str,
    time_control_code: str,
) -> str:
    players = []
    for index, person in enumerate(people):
        rounds = tuple(
            None
            if cell is None
            else RoundOut(
                None if cell.opponent is None else cell.opponent + 1, cell.colour, cell.code
            )
            for cell in table[index]
        )
        players.append(
            PlayerOut(
                rank=index + 1,
                name=person.name,
                sex=person.sex,
                title=person.title,
                rating=person.ratings.get(category),
                federation=FEDERATION,
                fide_id=person.fide_id,
                birth_date=person.birth,
                rounds=rounds,
                national=(FEDERATION, person.national_id, person.ratings.get(Category.FFE_RAPID))
                if national
                else None,
            )
        )
    return format_trf(
        name=name,
        city=town,
        federation=FEDERATION,
        start_date=start,
        end_date=end,
        time_control=time_control,
        time_control_code=time_control_code,
        players=players,
        trf26=trf26,
        arbiter="IA Rudolf Rassendyll",
    )


def games_csv_text(
    name: str,
    start: date,
    end: date,
    games: Sequence[tuple[int, str, str, str]],
    time_control: str | None = None,
) -> str:
    """A games CSV; with ``time_control``, its optional column of that name on every row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    tail = [] if time_control is None else [time_control]
    writer.writerow([*GAME_COLUMNS, *(["time_control"] if tail else [])])
    for r, white, black, result in games:
        writer.writerow([name, start.isoformat(), end.isoformat(), r, white, black, result, *tail])
    return out.getvalue()


def seeded_field(
    rng: random.Random, pool: Sequence[Person], size: int, category: Category
) -> list[Person]:
    """The three strongest always play (so the showcase player has a history everywhere);
    the others are drawn; the field is ranked by rating, the unrated last."""
    chosen = list(pool[:3]) + rng.sample(list(pool[3:]), size - 3)
    return sorted(chosen, key=lambda p: (-(p.ratings.get(category) or 0), -p.strength))
