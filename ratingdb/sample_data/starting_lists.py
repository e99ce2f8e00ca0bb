"""The sample federation's starting lists, as the federation would download them: FIDE
standard as FIDE's TXT download, FIDE rapid and blitz in one combined XML download, and the
national rapid list (``ffe-rapid``) as a list CSV."""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Sequence
from pathlib import Path

from ratingdb.formats.cells import spreadsheet_text
from ratingdb.formats.fide_list import FideTxtEntry, FideXmlPlayer, write_fide_txt, write_fide_xml
from ratingdb.formats.list_csv import COLUMNS as LIST_COLUMNS
from ratingdb.rules import Category, Period
from ratingdb.sample_data.people import FEDERATION, Person, k_of

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


def _standard_txt(people: Sequence[Person], period: Period, games: Games) -> str:
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
            )
            for p in people
        ),
        xml,
    )
    return xml.getvalue()


def _national_csv(people: Sequence[Person], period: Period) -> str:
    """The rated players of the national rapid list (the unrated are not in it)."""
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
    return rows.getvalue()
