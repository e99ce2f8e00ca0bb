"""Published lists: importing a list published elsewhere (the starting point) and exporting a
published list."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.db import bulk_insert
from ratingdb.errors import InputError
from ratingdb.formats.list_csv import ListRow, read_list_csv
from ratingdb.models import ListEntryRow, PlayerRow, PlayerStatusRow, RatingListRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, KStatus, Period, k_factor, version_for_period
from ratingdb.rules.calendar import NotAListPeriod, check_list_period


@dataclass(frozen=True, slots=True)
class ImportedList:
    category: Category
    period: Period
    list_id: int
    rated: int
    unrated: int
    players_created: int
    players_updated: int

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "period": str(self.period),
            "list_id": self.list_id,
            "entries": self.rated,
            "unrated": self.unrated,
            "players_created": self.players_created,
            "players_updated": self.players_updated,
        }


def import_list_csv(
    session: Session, path: Path, category: Category, period: Period, now: datetime
) -> ImportedList:
    """Load a list CSV as the published list of ``period``: the category's starting point."""
    check_period(category, period, field="--period")
    rows = read_list_csv(path)
    return _publish_imported(session, rows, category, period, now, source=str(path))


def check_period(category: Category, period: Period, *, field: str) -> None:
    try:
        check_list_period(category, period)
    except (NotAListPeriod, LookupError) as error:
        raise InputError(str(error), field=field) from None


def _publish_imported(
    session: Session,
    rows: Sequence[ListRow],
    category: Category,
    period: Period,
    now: datetime,
    *,
    source: str,
) -> ImportedList:
    existing = period_repo.get_period(session, category, period)
    if existing is not None and existing.state != "open":
        raise InputError(
            f"{category.value} {period} is already {existing.state}; "
            "a published list never changes",
            field="--period",
        )
    later = [p for p in period_repo.published_periods(session, category) if p > period]
    if later:
        raise InputError(
            f"{category.value} already has a published list after {period} ({max(later)})",
            field="--period",
        )
    created, updated = player_repo.upsert(
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
    period_row = period_repo.get_or_create_period(session, category, period)
    version = version_for_period(category, period)
    rated = [row for row in rows if row.rating is not None and row.rating >= version.floor]
    unrated = [row for row in rows if row not in set(rated)] if len(rated) != len(rows) else []
    entries = [
        {
            "player_id": row.player_id,
            "rating": row.rating,
            "previous_rating": None,
            "change": None,
            "games": 0,
            "k_factor": k_factor(
                version,
                KStatus(row.rating, row.rated_games, row.peak_rating, row.birth_year),
                period.year,
            ),
            "k_used": None,
            "sum_delta": None,
            "rated_games": row.rated_games,
            "peak_rating": row.peak_rating if row.peak_rating is not None else row.rating,
        }
        for row in rated
    ]
    rating_list = RatingListRow(
        period_id=period_row.id,
        category=category.value,
        list_date=period.list_date,
        revision=1,
        source="import",
        rule_version=None,
        published_at=now,
        entry_count=len(entries),
        digest=list_digest(entries),
    )
    session.add(rating_list)
    session.flush()
    for entry in entries:
        entry["list_id"] = rating_list.id
    bulk_insert(session, ListEntryRow, entries)
    bulk_insert(
        session,
        PlayerStatusRow,
        [
            {
                "list_id": rating_list.id,
                "player_id": row.player_id,
                "rated_games": row.rated_games if row.rating is not None else 0,
                "peak_rating": row.peak_rating,
                "pool": [],
            }
            for row in unrated
        ],
    )
    period_repo.mark_published(session, period_row, now)
    return ImportedList(
        category, period, rating_list.id, len(entries), len(unrated), created, updated
    )


def list_digest(entries: Sequence[dict[str, Any]]) -> str:
    """SHA-256 of the list's canonical content: what proves later that it never changed."""
    canonical = sorted(
        (e["player_id"], e["rating"], e["previous_rating"], e["change"], e["games"], e["k_factor"])
        for e in entries
    )
    return hashlib.sha256(json.dumps(canonical, separators=(",", ":")).encode()).hexdigest()


# --- export ----------------------------------------------------------------------------------


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
    entries: tuple[PublishedEntry, ...]


def published_list(session: Session, category: Category, period: Period) -> PublishedList:
    rating_list = period_repo.list_for(session, category, period)
    if rating_list is None:
        raise InputError(f"{category.value} has no published list for {period}", field="--period")
    rows = session.execute(
        select(
            ListEntryRow.player_id,
            PlayerRow.name,
            PlayerRow.federation,
            PlayerRow.sex,
            PlayerRow.birth_year,
            PlayerRow.title,
            ListEntryRow.rating,
            ListEntryRow.previous_rating,
            ListEntryRow.change,
            ListEntryRow.games,
            ListEntryRow.k_factor,
            ListEntryRow.rated_games,
            ListEntryRow.peak_rating,
        )
        .join(PlayerRow, PlayerRow.player_id == ListEntryRow.player_id)
        .where(ListEntryRow.list_id == rating_list.id)
        .order_by(ListEntryRow.rating.desc(), ListEntryRow.player_id)
    )
    return PublishedList(
        category,
        period,
        rating_list.revision,
        rating_list.rule_version,
        rating_list.published_at,
        tuple(PublishedEntry(**row._asdict()) for row in rows),
    )
