"""The sample federation's players: made-up names, strengths, FIDE and national ids, the
ratings of the starting lists (with games and peaks, so that each has its K) and titles."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from ratingdb.rules import Category, KStatus, Period, k_factor, version_for_period

FEDERATION = "RUR"
FIDE_PLAYERS = 150
NATIONAL_ONLY = 50
UNRATED_STANDARD = 10
FIRST_FIDE_ID = 79_000_001

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
