"""Make the bundled sample data: the fictional federation of Ruritania (code RUR).

    python -m ratingdb.sample_data.generate [--anchor 2026-11] [--out DIR]

Deterministic (a fixed seed): running it again gives the same bytes. ``--anchor`` is the last
month with tournaments; the data covers the six months ending there and starts from the lists
dated the 1st of the first of them. The shipped data is made with the anchor 2026-11, so that
``ratingdb demo`` run on 2026-11-30 closes every period up to the December 2026 list (its
closing date, 2026-11-28, has passed); run later, the demo also closes the empty periods since,
which carry the lists forward unchanged.

What it makes (``manifest.json`` lists it in import order):
- 200 players: 150 with a (made-up) FIDE id, 10 of them not yet rated in standard, and 50
  known only by their national id (they play the rapid events, which report national ids and
  ratings in TRF26 National Rating Support records, and get first ratings there);
- the starting lists: FIDE standard as FIDE's TXT download, FIDE rapid and blitz in one
  combined XML download, the national rapid list (``ffe-rapid``) as a list CSV;
- each month: a standard open (TRF16, or TRF26 every other month), a rapid open rated on the
  FIDE and the national rapid lists (TRF26 with NRS records), a blitz round robin and a club
  round robin (games CSV), with the odd forfeit, bye and withdrawal.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ratingdb.formats.cells import spreadsheet_text
from ratingdb.formats.fide_list import FideTxtEntry, FideXmlPlayer, write_fide_txt, write_fide_xml
from ratingdb.formats.games_csv import COLUMNS as GAME_COLUMNS
from ratingdb.formats.list_csv import COLUMNS as LIST_COLUMNS
from ratingdb.formats.trf import PlayerOut, RoundOut, format_trf
from ratingdb.rules import Category, KStatus, Period, k_factor, version_for_period

SEED = 20261130
FEDERATION = "RUR"
ANCHOR = Period(2026, 11)
MONTHS = 6
FIDE_PLAYERS = 150
NATIONAL_ONLY = 50
UNRATED_STANDARD = 10
FIRST_FIDE_ID = 79_000_001
HERE = Path(__file__).resolve().parent

FIRST_NAMES = {
    "M": [
        "Aleksander",
        "Bruno",
        "Casimir",
        "Dorian",
        "Emil",
        "Felix",
        "Gustav",
        "Henrik",
        "Ivo",
        "Jakob",
        "Konrad",
        "Leon",
        "Matej",
        "Nikolai",
        "Oskar",
        "Pavel",
        "Radu",
        "Stefan",
        "Tomas",
        "Viktor",
        "Zoltán",
        "Lukas",
    ],
    "F": [
        "Ada",
        "Bianca",
        "Clara",
        "Dora",
        "Elena",
        "Flora",
        "Greta",
        "Hana",
        "Irina",
        "Jana",
        "Katarina",
        "Lena",
        "Mira",
        "Nadia",
        "Olga",
        "Petra",
        "Rosa",
        "Sofia",
        "Teodora",
        "Vesna",
        "Zoë",
    ],
}
NAME_STARTS = [
    "Vor",
    "Bel",
    "Kast",
    "Mir",
    "Dral",
    "Tesk",
    "Olm",
    "Zar",
    "Pren",
    "Lud",
    "Hav",
    "Grun",
    "Sel",
    "Tor",
    "Wend",
    "Ost",
    "Rav",
    "Bran",
    "Kel",
    "Dun",
]
NAME_ENDS = [
    "ovic",
    "ane",
    "escu",
    "berg",
    "ski",
    "ani",
    "ard",
    "enko",
    "elli",
    "ström",
    "ek",
    "mann",
    "ov",
    "ás",
    "ic",
    "ley",
]
TOWNS = ["Strelsau", "Zenda", "Tarlenheim", "Hofbau", "Dresnitz", "Ostrava Nova"]


@dataclass
class Person:
    number: int
    name: str
    sex: str
    birth: date
    strength: float
    fide_id: str | None
    national_id: str
    title: str | None = None
    ratings: dict[Category, int | None] = field(default_factory=dict)
    rated_games: dict[Category, int] = field(default_factory=dict)
    peaks: dict[Category, int | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Pairing:
    opponent: int | None  # index in the event's field
    colour: str
    code: str


# --- players -----------------------------------------------------------------------------------


def make_people(rng: random.Random, baseline: Period) -> list[Person]:
    names: set[str] = set()
    people: list[Person] = []
    total = FIDE_PLAYERS + NATIONAL_ONLY
    strengths = sorted((rng.gauss(1720, 260) for _ in range(total)), reverse=True)
    fide_strengths = strengths[:FIDE_PLAYERS]
    national_strengths = sorted(rng.sample(strengths[FIDE_PLAYERS // 3 :], NATIONAL_ONLY))
    for number in range(total):
        sex = "F" if rng.random() < 0.27 else "M"
        while True:
            last = rng.choice(NAME_STARTS) + rng.choice(NAME_ENDS)
            name = f"{last}, {rng.choice(FIRST_NAMES[sex])}"
            if name not in names:
                names.add(name)
                break
        junior = rng.random() < 0.2
        year = rng.randint(2009, 2015) if junior else rng.randint(1950, 2005)
        birth = date(year, rng.randint(1, 12), rng.randint(1, 28))
        fide = number < FIDE_PLAYERS
        strength = (
            fide_strengths[number] if fide else national_strengths[number - FIDE_PLAYERS] - 250
        )
        people.append(
            Person(
                number=number,
                name=name,
                sex=sex,
                birth=birth,
                strength=max(1000.0, min(2650.0, strength)),
                fide_id=str(FIRST_FIDE_ID + number) if fide else None,
                national_id=f"R{10001 + number:05d}",
            )
        )
    for person in people[:FIDE_PLAYERS]:
        _baseline_ratings(rng, person, baseline, everywhere=person.number < 3)
    unrated = rng.sample(range(20, FIDE_PLAYERS), UNRATED_STANDARD)
    for number in unrated:
        person = people[number]
        person.ratings = dict.fromkeys(Category)
        person.rated_games = dict.fromkeys(Category, 0)
        person.peaks = dict.fromkeys(Category)
        person.strength = rng.uniform(1450, 1900)
    _titles(people[:FIDE_PLAYERS])
    return people


def _baseline_ratings(
    rng: random.Random, person: Person, baseline: Period, *, everywhere: bool
) -> None:
    standard = round(person.strength + rng.gauss(0, 40))
    offsets = {
        Category.FIDE_STANDARD: 0.0,
        Category.FIDE_RAPID: rng.gauss(-20, 70),
        Category.FIDE_BLITZ: rng.gauss(-40, 90),
        Category.FFE_RAPID: rng.gauss(10, 60),
    }
    share = {
        Category.FIDE_STANDARD: 1.0,
        Category.FIDE_RAPID: 0.8,
        Category.FIDE_BLITZ: 0.65,
        Category.FFE_RAPID: 0.9,
    }
    for category in Category:
        version = version_for_period(category, baseline)
        rating: int | None = round(standard + offsets[category])
        drawn = rng.random()
        if category is not Category.FIDE_STANDARD and drawn > share[category] and not everywhere:
            rating = None
        if rating is not None and rating < version.floor:
            rating = None
        person.ratings[category] = rating
        new = rng.random() < 0.15
        person.rated_games[category] = (
            0 if rating is None else rng.randint(9, 29) if new else rng.randint(30, 600)
        )
        person.peaks[category] = (
            None if rating is None else rating + (0 if rng.random() < 0.6 else rng.randint(1, 90))
        )


def _titles(people: Sequence[Person]) -> None:
    """Titles by standard rating (made-up thresholds, near FIDE's title ratings)."""
    for person in people:
        rating = person.ratings[Category.FIDE_STANDARD] or 0
        for title, woman, threshold in (
            ("GM", "WGM", 2400),
            ("IM", "WIM", 2300),
            ("FM", "WFM", 2200),
            ("CM", "WCM", 2100),
        ):
            if rating >= threshold:
                person.title = woman if person.sex == "F" and rating < threshold + 100 else title
                break


def k_of(person: Person, category: Category, period: Period) -> int | None:
    rating = person.ratings[category]
    if rating is None:
        return None
    status = KStatus(
        rating, person.rated_games[category], person.peaks[category], person.birth.year
    )
    return k_factor(version_for_period(category, period), status, period.year)


# --- games -------------------------------------------------------------------------------------


def play(rng: random.Random, white: float, black: float) -> tuple[str, str]:
    """TRF codes for white and black from the players' strengths (logistic, 30 % of draws
    between equals, fewer between unequal players)."""
    expected = 1 / (1 + math.pow(10, (black - white - 20) / 400))
    draws = 0.3 * (1 - abs(expected - 0.5))
    roll = rng.random()
    if roll < expected - draws / 2:
        return "1", "0"
    if roll < expected + draws / 2:
        return "=", "="
    return "0", "1"


def swiss(
    rng: random.Random, strengths: Sequence[float], rounds: int
) -> list[list[Pairing | None]]:
    """A plain Swiss: score groups paired top-down without rematches, colours balanced, the
    odd player out gets the pairing bye (U), now and then a half-point bye (H), a forfeit or a
    withdrawal (no entries after it)."""
    count = len(strengths)
    table: list[list[Pairing | None]] = [[None] * rounds for _ in range(count)]
    scores = [0.0] * count
    whites = [0] * count
    met: set[tuple[int, int]] = set()
    had_bye: set[int] = set()
    withdrawn: set[int] = set()
    points = {"1": 1.0, "+": 1.0, "U": 1.0, "=": 0.5, "H": 0.5}
    for r in range(rounds):
        active = [i for i in range(count) if i not in withdrawn]
        resting = {i for i in active if r < rounds - 1 and rng.random() < 0.03}
        for i in resting:
            table[i][r] = Pairing(None, "-", "H")
        order = sorted((i for i in active if i not in resting), key=lambda i: (-scores[i], i))
        if len(order) % 2:
            bye = next(i for i in reversed(order) if i not in had_bye)
            order.remove(bye)
            had_bye.add(bye)
            table[bye][r] = Pairing(None, "-", "U")
        paired: set[int] = set()
        for i in order:
            if i in paired:
                continue
            candidates = [j for j in order if j != i and j not in paired]
            j = next((j for j in candidates if (min(i, j), max(i, j)) not in met), candidates[0])
            paired |= {i, j}
            met.add((min(i, j), max(i, j)))
            white, black = (i, j) if (whites[i], i % 2 + r) <= (whites[j], j % 2 + r) else (j, i)
            whites[white] += 1
            if rng.random() < 0.012:
                codes = ("+", "-") if rng.random() < 0.5 else ("-", "+")
            else:
                codes = play(rng, strengths[white], strengths[black])
            table[white][r] = Pairing(black, "w", codes[0])
            table[black][r] = Pairing(white, "b", codes[1])
        for i in active:
            cell = table[i][r]
            if cell is not None:
                scores[i] += points.get(cell.code, 0.0)
        for i in active:
            if 2 < r < rounds - 1 and rng.random() < 0.01:
                withdrawn.add(i)
    return table


def round_robin(rng: random.Random, strengths: Sequence[float]) -> list[tuple[int, int, int, str]]:
    """(round, white, black, result) of an all-play-all by the circle method."""
    count = len(strengths)
    seats: list[int | None] = [*range(count), *([None] if count % 2 else [])]
    games = []
    for r in range(len(seats) - 1):
        for board in range(len(seats) // 2):
            a, b = seats[board], seats[-1 - board]
            if a is None or b is None:
                continue
            white, black = (a, b) if (r + board) % 2 == 0 else (b, a)
            codes = play(rng, strengths[white], strengths[black])
            result = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2"}[codes]
            games.append((r + 1, white, black, result))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return games


# --- files -------------------------------------------------------------------------------------


def trf_text(
    *,
    name: str,
    town: str,
    start: date,
    end: date,
    people: Sequence[Person],
    table: Sequence[Sequence[Pairing | None]],
    category: Category,
    period: Period,
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
    name: str, start: date, end: date, games: Sequence[tuple[int, str, str, str]]
) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GAME_COLUMNS)
    for r, white, black, result in games:
        writer.writerow([name, start.isoformat(), end.isoformat(), r, white, black, result])
    return out.getvalue()


def seeded_field(
    rng: random.Random, pool: Sequence[Person], size: int, category: Category
) -> list[Person]:
    """The three strongest always play (so the showcase player has a history everywhere);
    the others are drawn; the field is ranked by rating, the unrated last."""
    chosen = list(pool[:3]) + rng.sample(list(pool[3:]), size - 3)
    return sorted(chosen, key=lambda p: (-(p.ratings.get(category) or 0), -p.strength))


def generate(out: Path, anchor: Period = ANCHOR) -> dict[str, Any]:
    rng = random.Random(SEED)
    first = anchor.plus_months(1 - MONTHS)
    baseline = first
    people = make_people(rng, baseline)
    fide_people = people[:FIDE_PLAYERS]
    national_only = people[FIDE_PLAYERS:]
    (out / "lists").mkdir(parents=True, exist_ok=True)
    (out / "tournaments").mkdir(parents=True, exist_ok=True)
    lists = _write_lists(out, fide_people, baseline)
    tournaments: list[dict[str, object]] = []
    for offset in range(MONTHS):
        month = first.plus_months(offset)
        y, m = month.year, month.month
        town = TOWNS[offset % len(TOWNS)]
        # Rapid open: FIDE and national rapid, TRF26 with national ids and ratings.
        field_people = seeded_field(rng, fide_people, 28, Category.FIDE_RAPID)
        field_people += sorted(rng.sample(national_only, 12), key=lambda p: -(p.strength))
        table = swiss(rng, [p.strength for p in field_people], 9)
        day = date(y, m, 4)
        name = f"{y}-{m:02d}_rapid_open.trf"
        (out / "tournaments" / name).write_text(
            trf_text(
                name=f"{town} Rapid Open {y}",
                town=town,
                start=day,
                end=day,
                people=field_people,
                table=table,
                category=Category.FIDE_RAPID,
                period=month,
                trf26=True,
                national=True,
                time_control="15 minutes + 10 seconds per move",
                time_control_code="900+10",
            ),
            encoding="utf-8",
        )
        tournaments.append(
            {
                "file": f"tournaments/{name}",
                "categories": ["fide-rapid", "ffe-rapid"],
                "format": "trf",
            }
        )
        # Standard open: TRF16, or TRF26 every other month.
        field_people = seeded_field(rng, fide_people, 36, Category.FIDE_STANDARD)
        table = swiss(rng, [p.strength for p in field_people], 7)
        name = f"{y}-{m:02d}_standard_open.trf"
        (out / "tournaments" / name).write_text(
            trf_text(
                name=f"{town} Open {y}",
                town=town,
                start=date(y, m, 9),
                end=date(y, m, 13),
                people=field_people,
                table=table,
                category=Category.FIDE_STANDARD,
                period=month,
                trf26=offset % 2 == 1,
                national=False,
                time_control="90 minutes for 40 moves + 30 minutes, 30 seconds per move",
                time_control_code="40/5400+30:1800+30",
            ),
            encoding="utf-8",
        )
        tournaments.append(
            {"file": f"tournaments/{name}", "categories": ["fide-standard"], "format": "trf"}
        )
        # Blitz and club round robins: games CSV (players known from the lists).
        for kind, size, category, days in (
            ("blitz", 12, Category.FIDE_BLITZ, (18, 18)),
            ("club", 8, Category.FIDE_STANDARD, (20, 24)),
        ):
            group = seeded_field(rng, fide_people, size, category)
            games = [
                (r, str(group[w].fide_id), str(group[b].fide_id), result)
                for r, w, b, result in round_robin(rng, [p.strength for p in group])
            ]
            name = f"{y}-{m:02d}_{kind}_round_robin.csv"
            title = f"{town} {'Blitz' if kind == 'blitz' else 'Chess Club'} Round Robin {y}-{m:02d}"
            (out / "tournaments" / name).write_text(
                games_csv_text(title, date(y, m, days[0]), date(y, m, days[1]), games),
                encoding="utf-8",
            )
            tournaments.append(
                {"file": f"tournaments/{name}", "categories": [category.value], "format": "csv"}
            )
    manifest: dict[str, Any] = {
        "generated_by": "python -m ratingdb.sample_data.generate",
        "seed": SEED,
        "anchor": str(anchor),
        "federation": FEDERATION,
        "showcase_player": fide_people[0].fide_id,
        "lists": lists,
        "tournaments": tournaments,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def _write_lists(out: Path, people: Sequence[Person], period: Period) -> list[dict[str, str]]:
    standard = f"lists/standard_rating_list_{period}.txt"
    combined = f"lists/players_list_{period}.xml"
    national = f"lists/national_rapid_{period}.csv"
    rng = random.Random(SEED + 1)
    games = {
        (p.number, c): (rng.randint(0, 8) if p.ratings[c] else 0) for p in people for c in Category
    }

    def txt_entry(p: Person) -> FideTxtEntry:
        rating = p.ratings[Category.FIDE_STANDARD]
        rated = rating is not None  # an unrated player has no games nor K in FIDE's list
        return FideTxtEntry(
            str(p.fide_id), p.name, FEDERATION, p.sex, p.title, rating,
            games[(p.number, Category.FIDE_STANDARD)] if rated else None,
            k_of(p, Category.FIDE_STANDARD, period) if rated else None,
            p.birth.year,
        )  # fmt: skip

    text = io.StringIO()
    write_fide_txt(
        (txt_entry(p) for p in people),
        Category.FIDE_STANDARD,
        text,
    )
    (out / standard).write_text(text.getvalue(), encoding="utf-8")

    def triple(p: Person, c: Category) -> tuple[int | None, int, int | None]:
        return p.ratings[c], games[(p.number, c)], k_of(p, c, period)

    xml = io.StringIO()
    write_fide_xml(
        (
            FideXmlPlayer(
                str(p.fide_id),
                p.name,
                FEDERATION,
                p.sex,
                p.title,
                p.birth.year,
                standard=triple(p, Category.FIDE_STANDARD),
                rapid=triple(p, Category.FIDE_RAPID),
                blitz=triple(p, Category.FIDE_BLITZ),
            )
            for p in people
        ),
        xml,
    )
    (out / combined).write_text(xml.getvalue(), encoding="utf-8")
    rows = io.StringIO()
    writer = csv.writer(rows, lineterminator="\n")
    writer.writerow(LIST_COLUMNS)
    for p in people:
        rating = p.ratings[Category.FFE_RAPID]
        if rating is None:
            continue
        writer.writerow(
            [
                p.fide_id,
                spreadsheet_text(p.name),
                FEDERATION,
                p.sex,
                p.birth.year,
                spreadsheet_text(p.title or ""),
                rating,
                p.rated_games[Category.FFE_RAPID],
                p.peaks[Category.FFE_RAPID],
                k_of(p, Category.FFE_RAPID, period),
            ]
        )
    (out / national).write_text(rows.getvalue(), encoding="utf-8")
    return [
        {
            "file": standard,
            "category": "fide-standard",
            "period": str(period),
            "format": "fide-txt",
        },
        {"file": combined, "category": "fide-rapid", "period": str(period), "format": "fide-xml"},
        {"file": combined, "category": "fide-blitz", "period": str(period), "format": "fide-xml"},
        {"file": national, "category": "ffe-rapid", "period": str(period), "format": "csv"},
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anchor", default=str(ANCHOR), help="last month with tournaments")
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write (default: here)")
    args = parser.parse_args(argv)
    manifest = generate(args.out, Period.parse(args.anchor))
    print(f"{args.out}: {len(manifest['lists'])} lists, {len(manifest['tournaments'])} tournaments")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
