"""Importing a list published elsewhere as a period's published list (the starting point): a
list CSV here, a FIDE download in services.lists.fide; with a Replacement, a corrected
revision of an imported list."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.list_csv import ListRow, read_list_csv
from ratingdb.models.player import is_local_id
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunks as list_chunks
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.rules import Category, KStatus, Period, RuleVersion, k_factor, version_for_period
from ratingdb.rules.messages import N_, Message, one_of
from ratingdb.services.lists.digest import list_digest
from ratingdb.services.lists.fide import import_fide_list
from ratingdb.services.lists.imported import (
    ImportedList,
    Replacement,
    add_imported_list,
    check_period,
    check_publishable,
    imported_entry,
    no_entries,
)
from ratingdb.services.progress import Track, no_progress

IMPORT_FORMATS = ("csv", "fide-txt", "fide-xml")


def import_list_csv(
    session: Session,
    path: Path,
    category: Category,
    period: Period,
    now: datetime,
    *,
    replaces: Replacement | None = None,
) -> ImportedList:
    """Load a list CSV as the published list of ``period``: the category's starting point."""
    check_period(category, period)
    rows = read_list_csv(path)
    if category.needs_fide_id:
        _refuse_local_ids(rows, category, str(path))
    return _publish_imported(
        session, rows, category, period, now, source=str(path), replaces=replaces
    )


def _refuse_local_ids(rows: Sequence[ListRow], category: Category, source: str) -> None:
    """A FIDE list holds FIDE ids only (issue 27): a list CSV of a FIDE category is read as
    FIDE's players, and a local id (a player met without a FIDE id) has no place in it."""
    for row in rows:
        if is_local_id(row.player_id):
            raise InputError(
                Message(
                    N_(
                        "%(id)s is a local id (a player without a FIDE id): a %(category)s "
                        "list holds FIDE ids only; register the player with FIDE "
                        "(`ratingdb players export-unregistered`) or leave them out"
                    ),
                    {"id": row.player_id, "category": category.value},
                ),
                field="player_id",
                source=source,
                line=row.line,
            )


def import_list_file(
    session: Session,
    path: Path,
    category: Category,
    period: Period,
    now: datetime,
    file_format: str = "csv",
    track: Track = no_progress,
    *,
    replaces: Replacement | None = None,
) -> ImportedList:
    """``lists import``: a list CSV, or a FIDE download (``fide-txt``, ``fide-xml``); with
    ``replaces``, a corrected revision of the period's published list."""
    if file_format not in IMPORT_FORMATS:
        raise InputError(one_of(IMPORT_FORMATS), field="format")

    if file_format == "csv":
        return import_list_csv(session, path, category, period, now, replaces=replaces)
    return import_fide_list(
        session, path, category, period, now, file_format, track=track, replaces=replaces
    )


def _publish_imported(
    session: Session,
    rows: Sequence[ListRow],
    category: Category,
    period: Period,
    now: datetime,
    *,
    source: str,
    replaces: Replacement | None,
) -> ImportedList:
    if replaces is None:
        check_publishable(session, category, period)
    created, updated = _upsert_players(session, rows)
    period_row = period_repo.get_or_create_period(session, category, period)
    version = version_for_period(category, period)
    rated: list[ListRow] = []
    unrated: list[ListRow] = []
    for row in rows:
        (rated if row.rating is not None and row.rating >= version.floor else unrated).append(row)
    if not rated:
        raise no_entries(source, category, len(rows), version.floor)
    entries = [_entry(row, version, period) for row in rated]
    rating_list = add_imported_list(
        session,
        period_row,
        period,
        now,
        entry_count=len(entries),
        digest=list_digest(entries),
        replaces=replaces,
    )
    for entry in entries:
        entry["list_id"] = rating_list.id
    list_changes.insert_entries(session, entries)
    list_chunks.write_chunks_of_entries(session, rating_list.id)
    list_latest.write_latest(session, rating_list.id)
    _write_statuses(session, rating_list.id, unrated)
    if replaces is None:
        period_repo.mark_published(session, period_row, now)
    return ImportedList(
        category,
        period,
        rating_list.id,
        rating_list.revision,
        len(entries),
        len(unrated),
        created,
        updated,
    )


def _upsert_players(session: Session, rows: Sequence[ListRow]) -> tuple[int, int]:
    """The list's players created or updated; returns (created, updated)."""
    return player_repo.upsert(
        session,
        [
            {
                "player_id": row.player_id,
                "name": row.name,
                "federation": row.federation,
                "sex": row.sex,
                "birth_year": row.birth_year,
                "title": row.title,
            }
            for row in rows
        ],
    )


def _write_statuses(session: Session, list_id: int, unrated: Sequence[ListRow]) -> None:
    """The players off the list (no rating, or below the floor), with their history."""
    list_changes.insert_statuses(
        session,
        [
            {
                "list_id": list_id,
                "player_id": row.player_id,
                "rated_games": row.rated_games if row.rating is not None else 0,
                "peak_rating": row.peak_rating,
                "pool": [],
            }
            for row in unrated
        ],
    )


def _entry(row: ListRow, version: RuleVersion, period: Period) -> dict[str, Any]:
    """A rated row's entry (its list id set once the list row is written): the K its status
    gives in the period's year."""
    if row.rating is None:
        raise AssertionError("only a rated row has an entry")
    return imported_entry(
        None,
        row.player_id,
        row.rating,
        games=0,
        k_factor=k_factor(
            version,
            KStatus(row.rating, row.rated_games, row.peak_rating, row.birth_year),
            period.year,
        ),
        rated_games=row.rated_games,
        peak_rating=row.peak_rating if row.peak_rating is not None else row.rating,
        list_date=period.list_date,
        active=row.active,
    )
