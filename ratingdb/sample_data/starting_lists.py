"""The sample federation's starting lists, as the federation would download them: FIDE
standard as FIDE's TXT download, FIDE rapid and blitz in one combined XML download, and the
national rapid list (``ffe-rapid``) as a list CSV."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path

from ratingdb.formats.fide_list import FideTxtEntry, FideXmlPlayer, write_fide_txt, write_fide_xml
from ratingdb.formats.fide_list.rows import fide_flag
from ratingdb.formats.list_csv import ExportEntry, write_list_csv
from ratingdb.rules import Category, Period
from ratingdb.sample_data.people import FEDERATION, Person, k_of

RAPID = Category.FFE_RAPID
#: The games each player had rated in the month before the lists, by category.
Games = dict[tuple[int, Category], int]


def write_lists(
    out: Path, people: Sequence[Person], period: Period, rng: random.Random
) -> list[dict[str, str]]:
    """Write the lists of ``period``; their entries of the manifest."""
    standard = f"lists/standard_rating_list_{period}.txt"
    combined = f"lists/players_list_{period}.xml"
    national = f"lists/national_rapid_{period}.csv"
    games = {
        (p.number, c): (rng.randint(0, 8) if p.ratings[c] else 0) for p in people for c in Category
    }
    (out / standard).write_text(_standard_txt(people, period, games), encoding="utf-8")
    (out / combined).write_text(_combined_xml(people, period, games), encoding="utf-8")
    (out / national).write_text(_national_csv(people, period), encoding="utf-8")
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


def _standard_active(p: Person, games: Games) -> bool:
    """Whether FIDE's standard list shows the player active: two in three of those without
    games this month (by number) are inactive, flagged ``i`` or ``wi`` as FIDE does."""
    return games[(p.number, Category.FIDE_STANDARD)] > 0 or p.number % 3 == 1


def _standard_txt(people: Sequence[Person], period: Period, games: Games) -> str:
    def txt_entry(p: Person) -> FideTxtEntry:
        rating = p.ratings[Category.FIDE_STANDARD]
        rated = rating is not None  # an unrated player has no games nor K in FIDE's list
        return FideTxtEntry(
            str(p.fide_id), p.name, FEDERATION, p.sex, p.title, rating,
            games[(p.number, Category.FIDE_STANDARD)] if rated else None,
            k_of(p, Category.FIDE_STANDARD, period) if rated else None,
            p.birth.year, _standard_active(p, games),
        )  # fmt: skip

    text = io.StringIO()
    write_fide_txt((txt_entry(p) for p in people), Category.FIDE_STANDARD, text)
    return text.getvalue()


def _combined_xml(people: Sequence[Person], period: Period, games: Games) -> str:
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
                # In FIDE's combined download, the flag is the standard list's.
                flag=fide_flag(p.sex, _standard_active(p, games)) or None,
            )
            for p in people
        ),
        xml,
    )
    return xml.getvalue()


def _national_csv(people: Sequence[Person], period: Period) -> str:
    """The rated players of the national rapid list (the unrated are not in it), each known by
    their FIDE id."""
    return write_list_csv(
        _national_entry(p, period) for p in people if p.ratings[RAPID] is not None
    )


def _national_entry(p: Person, period: Period) -> ExportEntry:
    rating, peak, k = p.ratings[RAPID], p.peaks[RAPID], k_of(p, RAPID, period)
    if p.fide_id is None or rating is None or peak is None or k is None:
        raise AssertionError(f"player {p.number} is rated without a FIDE id, a peak or a K")
    return ExportEntry(
        p.fide_id, p.name, FEDERATION, p.sex, p.birth.year, p.title, rating,
        p.rated_games[RAPID], peak, k,
    )  # fmt: skip
