"""Writing a published list (``lists export``, the API's downloads) in JSON, a list CSV, FIDE
TXT or FIDE XML, an entry at a time as it is read (the reading: services.published.lists:
``streamed_list``, ``exported_revision``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import IO

from ratingdb.errors import InputError
from ratingdb.formats.fide_list import XML_TAGS, write_fide_txt, write_fide_xml_list
from ratingdb.formats.list_csv import write_list_csv_to
from ratingdb.services.published.lists import ListEntry, PublishedList

EXPORT_FORMATS = ("json", "csv", "fide-txt", "fide-xml")


def write_published(published: PublishedList, file_format: str, out: IO[str]) -> None:
    """``lists export``: the list in one of EXPORT_FORMATS, each written so that its reader
    gives back exactly what was written (a value a format cannot hold is refused with an
    InputError naming the player and the field; a FIDE TXT name is cut as FIDE cuts it).
    CSV, FIDE TXT and FIDE XML are written one entry at a time; JSON as one document."""
    if file_format == "json":
        out.write(list_json(published))
    elif file_format == "csv":
        write_list_csv_to(published.entries, out)
    elif file_format == "fide-txt":
        write_fide_txt(_by_fide_id(published), published.category, out)
    elif file_format == "fide-xml":
        if published.category not in XML_TAGS:
            raise InputError(
                f"a FIDE XML list holds FIDE ratings only, not {published.category.value} "
                "(fide-txt, csv and json hold every category)",
                field="format",
            )
        write_fide_xml_list(_by_fide_id(published), out)
    else:
        raise InputError(f"must be one of {', '.join(EXPORT_FORMATS)}", field="format")


def _by_fide_id(published: PublishedList) -> Iterator[ListEntry]:
    """The entries as FIDE's layouts name them: a player met without a FIDE id and known by
    one since, by that FIDE id (issue 27: a FIDE list holds FIDE ids only)."""
    ids = published.fide_ids
    for entry in published.entries:
        fide_id = ids.get(entry.player_id)
        yield entry if fide_id is None else replace(entry, player_id=fide_id)


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
                "sex": e.sex,
                "title": e.title,
                "birth_year": e.birth_year,
                "rating": e.rating,
                "previous_rating": e.previous_rating,
                "change": e.change,
                "games": e.games,
                "k_factor": e.k_factor,
                "active": e.active,
            }
            for e in published.entries
        ],
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
