"""Players: a search, one player, and their entries on the published lists."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import Select, and_, bindparam, select
from sqlalchemy.orm import Session

from ratingdb.models import (
    LatestEntryRow,
    LatestListRow,
    ListEntryRow,
    PlayerRow,
    RatingListRow,
)
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.published.common import (
    PLAYER_COLUMNS,
    AnyRow,
    count_rows,
    exact_id_first,
    player_matches,
)
from ratingdb.rules import Category, carry_forward


def search_players(
    session: Session, *, search: str | None, federation: str | None, limit: int, offset: int
) -> tuple[int, Sequence[AnyRow]]:
    """Players matching the filters (total, one page): an exact id first, then by name."""
    statement = select(*PLAYER_COLUMNS)
    if search is not None:
        statement = statement.where(player_matches(search))
    if federation is not None:
        statement = statement.where(PlayerRow.federation == federation)
    total = count_rows(session, statement)
    rows = session.execute(
        statement.order_by(exact_id_first(search), PlayerRow.name, PlayerRow.player_id)
        .limit(limit)
        .offset(offset)
    ).all()
    return total, rows


class LatestRating(NamedTuple):
    """A player's rating on a category's latest list."""

    player_id: str
    category: Category
    rating: int
    list_date: date


def ratings_on_latest_lists(session: Session, player_ids: Sequence[str]) -> list[LatestRating]:
    """The players' ratings on each category's latest list (latest_entries, which hold it), in
    one statement for them all: a player not on a category's latest list has none there. The
    categories are named so that the key (category, player_id) is probed, not scanned."""
    if not player_ids:
        return []
    rows = session.execute(
        select(
            LatestEntryRow.player_id,
            LatestEntryRow.category,
            LatestEntryRow.rating,
            RatingListRow.list_date,
        )
        .join(LatestListRow, LatestListRow.category == LatestEntryRow.category)
        .join(RatingListRow, RatingListRow.id == LatestListRow.list_id)
        .where(
            LatestEntryRow.category.in_(list(Category)),
            LatestEntryRow.player_id.in_(list(player_ids)),
        )
    ).all()
    return [LatestRating(*row) for row in rows]


_GET_PLAYER = select(*PLAYER_COLUMNS).where(PlayerRow.player_id == bindparam("player_id"))


def get_player(session: Session, player_id: str) -> AnyRow | None:
    return session.connection().execute(_GET_PLAYER, {"player_id": player_id}).one_or_none()


class PlayerEntry(NamedTuple):
    """A player's entry on a list, with the list and the rating on its original revision."""

    list_id: int
    category: Category
    list_date: date
    revision: int
    rule_version: str | None
    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    rated_games: int
    peak_rating: int
    k_used: int | None
    sum_delta: Decimal | None
    original_rating: int | None
    last_rated: date | None
    active: bool


@cache
def _lists_with_rows(*, by_category: bool) -> Select[Any]:
    """Every list (of a category) with the player's row on it, if any (ENTRY's fields, from
    the player id on; the id None where there is none): one statement, built once."""
    entry = ListEntryRow.__table__.c
    statement = select(
        RatingListRow.id,
        RatingListRow.category,
        RatingListRow.list_date,
        RatingListRow.revision,
        RatingListRow.rule_version,
        RatingListRow.parent_list_id,
        *(entry[key] for key in list_changes.ENTRY_KEYS[1:]),
    ).outerjoin(
        ListEntryRow,
        and_(
            ListEntryRow.list_id == RatingListRow.id,
            ListEntryRow.player_id == bindparam("player_id"),
        ),
    )
    if by_category:
        statement = statement.where(RatingListRow.category == bindparam("category"))
    return statement


class ListedEntries(NamedTuple):
    """A player's entries on the lists shown, column-wise: item i of each column is one
    list's (by category, then list date, oldest first). Beside the entries resolved through
    the ancestry (carry_forward's), no object a list."""

    list_ids: list[int]
    categories: list[Category]
    list_dates: list[date]
    revisions: list[int]
    rule_versions: list[str | None]
    entries: list[carry_forward.Entry]
    #: The rating on the original list (revision 1); None when the player was not on it.
    original_ratings: list[int | None]


def listed_entries(
    session: Session, player_id: str, category: Category | None = None, upto: int | None = None
) -> ListedEntries:
    """The player's entries on every current list (or, with ``upto``, on the latest revision
    up to ``upto`` of every list), by category then list date (oldest first), each with the
    rating on the original list. The lists and the player's rows read in one statement, each
    list's entry resolved through its ancestry here (entries_on_lists)."""
    parameters = {"player_id": player_id, "category": category}
    lists = (
        session.connection()
        .execute(_lists_with_rows(by_category=category is not None), parameters)
        .all()
    )
    found = ListedEntries([], [], [], [], [], [], [])
    # Each row: id, category, list_date, revision, rule_version, parent_list_id, then the
    # player's row on the list (player_id None where there is none).
    parents: dict[int, int | None] = {}
    rows: list[Sequence[Any]] = []
    shown: dict[tuple[Category, date], Any] = {}  # (category, list date) -> the revision shown
    originals: dict[tuple[Category, date], int] = {}
    for row in lists:
        list_id, revision = row[0], row[3]
        parents[list_id] = row[5]
        if row[6] is not None:
            rows.append((list_id, *row[6:]))
        key = (row[1], row[2])
        if revision == 1:
            originals[key] = list_id
        if upto is not None and revision > upto:
            continue
        before = shown.get(key)
        if before is None or before[3] < revision:
            shown[key] = row
    if not rows:
        return found
    dates = {int(row[0]): row[2] for row in lists}
    revising = {
        list_id
        for list_id, parent in parents.items()
        if parent is not None and dates.get(parent) == dates[list_id]
    }
    on_lists = carry_forward.entries_on_lists(parents, rows, revising)
    # (category, list date) keys sort as the category's name, then the date: a StrEnum.
    for key in sorted(shown):
        row = shown[key]
        entry = on_lists.get(row[0])
        if entry is None:
            continue
        original_id = originals.get(key)
        original = None if original_id is None else on_lists.get(original_id)
        found.list_ids.append(row[0])
        found.categories.append(row[1])
        found.list_dates.append(row[2])
        found.revisions.append(row[3])
        found.rule_versions.append(row[4])
        found.entries.append(entry)
        found.original_ratings.append(None if original is None else original[1])
    return found


def player_entries(
    session: Session, player_id: str, category: Category | None = None, upto: int | None = None
) -> list[PlayerEntry]:
    """:func:`listed_entries`, an entry with its list each."""
    found = listed_entries(session, player_id, category, upto)
    return [
        PlayerEntry(
            list_id, list_category, list_date, revision, rule_version, entry.rating,
            entry.previous_rating, entry.change, entry.games, entry.k_factor, entry.rated_games,
            entry.peak_rating, entry.k_used, entry.sum_delta, original, entry.last_rated,
            entry.active,
        )
        for list_id, list_category, list_date, revision, rule_version, entry, original in zip(
            *found, strict=True
        )
    ]  # fmt: skip
