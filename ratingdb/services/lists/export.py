"""Exporting a published list (``lists export``): its entries read in batches as they are
written, in JSON, a list CSV, FIDE TXT or FIDE XML."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import IO

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.fide_list import (
    XML_TAGS,
    FideTxtEntry,
    write_fide_txt,
    write_fide_xml_list,
)
from ratingdb.formats.list_csv import ExportEntry, write_list_csv_to
from ratingdb.repositories import list_entries
from ratingdb.repositories import periods as period_repo
from ratingdb.rules import Category, Period
from ratingdb.services.lists.digest import READ_BATCH

EXPORT_FORMATS = ("json", "csv", "fide-txt", "fide-xml")


@dataclass(frozen=True, slots=True)
class PublishedEntry:
    player_id: str
    name: str
    federation: str | None
    sex: str | None
    birth_year: int | None
    title: str | None
    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    rated_games: int
    peak_rating: int


@dataclass(frozen=True, slots=True)
class PublishedList:
    category: Category
    period: Period
    revision: int
    rule_version: str | None
    published_at: datetime
    #: A tuple; from ``streamed_list`` an iterator, read once as it goes.
    entries: Iterable[PublishedEntry]


def published_list(session: Session, category: Category, period: Period) -> PublishedList:
    """The published list of ``period``, its entries in memory."""
    with streamed_list(session, category, period) as published:
        return replace(published, entries=tuple(published.entries))


@contextmanager
def streamed_list(
    session: Session, category: Category, period: Period, revision: int | None = None
) -> Iterator[PublishedList]:
    """The published list of ``period`` (its latest revision, or ``revision``), its entries
    read from the database READ_BATCH at a time as they are used, inside the ``with``: an
    export's memory stays flat whatever the list's size; the cursor is closed on leaving, used
    up or not."""
    if revision is None:
        rating_list = period_repo.list_for(session, category, period)
    else:
        rating_list = period_repo.revisions_of(session, category, period).get(revision)
        if rating_list is None and period_repo.list_for(session, category, period) is not None:
            raise InputError(
                f"the {category.value} list of {period} has no revision {revision}",
                field="revision",
            )
    if rating_list is None:
        raise InputError(f"{category.value} has no published list for {period}", field="period")
    rows = list_entries.published_rows(session, rating_list.id, yield_per=READ_BATCH)
    try:
        yield PublishedList(
            category,
            period,
            rating_list.revision,
            rating_list.rule_version,
            rating_list.published_at,
            (PublishedEntry(**row._asdict()) for row in rows),
        )
    finally:
        rows.close()


def write_published(published: PublishedList, file_format: str, out: IO[str]) -> None:
    """``lists export``: the list in one of EXPORT_FORMATS, each written so that its reader
    gives back exactly what was written (a value a format cannot hold is refused with an
    InputError naming the player and the field; a FIDE TXT name is cut as FIDE cuts it).
    CSV, FIDE TXT and FIDE XML are written one entry at a time; JSON as one document."""
    if file_format == "json":
        out.write(list_json(published))
    elif file_format == "csv":
        list_csv(published, out)
    elif file_format == "fide-txt":
        write_fide_txt(fide_entries(published), published.category, out)
    elif file_format == "fide-xml":
        if published.category not in XML_TAGS:
            raise InputError(
                f"a FIDE XML list holds FIDE ratings only, not {published.category.value} "
                "(fide-txt, csv and json hold every category)",
                field="format",
            )
        write_fide_xml_list(fide_entries(published), out)
    else:
        raise InputError(f"must be one of {', '.join(EXPORT_FORMATS)}", field="format")


def list_json(published: PublishedList) -> str:
    document = {
        "category": published.category.value,
        "period": str(published.period),
        "list_date": published.period.list_date.isoformat(),
        "revision": published.revision,
        "rule_version": published.rule_version,
        "entries": [
            {
                "player_id": e.player_id,
                "name": e.name,
                "federation": e.federation,
                "rating": e.rating,
                "previous_rating": e.previous_rating,
                "change": e.change,
                "games": e.games,
                "k_factor": e.k_factor,
            }
            for e in published.entries
        ],
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def list_csv(published: PublishedList, out: IO[str]) -> None:
    write_list_csv_to(
        (
            ExportEntry(
                e.player_id,
                e.name,
                e.federation,
                e.sex,
                e.birth_year,
                e.title,
                e.rating,
                e.rated_games,
                e.peak_rating,
                e.k_factor,
            )
            for e in published.entries
        ),
        out,
    )


def fide_entries(published: PublishedList) -> Iterator[FideTxtEntry]:
    """The list's entries as the FIDE writers take them, one at a time."""
    for e in published.entries:
        yield FideTxtEntry(
            e.player_id,
            e.name,
            e.federation,
            e.sex,
            e.title,
            e.rating,
            e.games,
            e.k_factor,
            e.birth_year,
        )
