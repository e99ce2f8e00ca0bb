"""Players: a search, one player, their history and their latest ratings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.repositories import published as repo
from ratingdb.rules import Category, Period
from ratingdb.services.published.common import EntryFigures, NotFound, figures_of


@dataclass(frozen=True, slots=True)
class Player:
    player_id: str
    name: str
    federation: str | None
    sex: str | None
    birth_year: int | None
    title: str | None


def _player(row: Any) -> Player:
    return Player(row.player_id, row.name, row.federation, row.sex, row.birth_year, row.title)


@dataclass(frozen=True, slots=True)
class CurrentRating:
    """A player's rating on a category's latest list."""

    category: Category
    period: Period
    rating: int


@dataclass(frozen=True, slots=True)
class FoundPlayer(Player):
    """A player a search found, with their rating on each category's latest list (in the
    order of Category; a category whose latest list does not rate them is left out)."""

    ratings: tuple[CurrentRating, ...] = ()


def search_players(
    session: Session,
    *,
    search: str | None = None,
    federation: str | None = None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[int, tuple[FoundPlayer, ...]]:
    """Players matching the filters (total, one page), each with their current ratings: the
    page's players' ratings read in one statement."""
    total, rows = repo.search_players(
        session, search=search, federation=federation, limit=limit, offset=offset
    )
    by_player: dict[str, dict[Category, CurrentRating]] = {}
    for found in repo.ratings_on_latest_lists(session, [row.player_id for row in rows]):
        by_player.setdefault(found.player_id, {})[found.category] = CurrentRating(
            found.category, Period.of_list_date(found.list_date), found.rating
        )
    players = []
    for row in rows:
        ratings = by_player.get(row.player_id, {})
        players.append(
            FoundPlayer(
                row.player_id, row.name, row.federation, row.sex, row.birth_year, row.title,
                tuple(ratings[c] for c in Category if c in ratings),
            )
        )  # fmt: skip
    return total, tuple(players)


def player(session: Session, player_id: str) -> Player:
    row = repo.get_player(session, player_id)
    if row is None:
        raise NotFound(f"no player {player_id}")
    return _player(row)


@dataclass(frozen=True, slots=True)
class HistoryPoint(EntryFigures):
    """A player's entry on one published list."""

    category: Category
    period: Period
    revision: int
    rule_version: str | None
    k_used: int | None  # the K applied in this period
    sum_delta: Decimal | None
    #: The rating on the original list (revision 1); None when the player was not on it.
    original_rating: int | None


def point_on(
    entry: Any, category: Category, period: Period, revision: int, rule_version: str | None
) -> HistoryPoint:
    """The player's ``entry`` on a list (its figures, the calculation's summary and
    ``original_rating``)."""
    return HistoryPoint(
        category=category,
        period=period,
        revision=revision,
        rule_version=rule_version,
        k_used=entry.k_used,
        sum_delta=entry.sum_delta,
        original_rating=entry.original_rating,
        **figures_of(entry),
    )


def inactive_since(history: HistoryColumns) -> Period | None:
    """The first list of the run of lists, up to the player's latest, that show them
    inactive; None when the latest shows them active (or there is none)."""
    since = None
    for index in range(len(history) - 1, -1, -1):
        if history.actives[index]:
            break
        since = index
    return None if since is None else Period.of_list_date(history.list_dates[since])


def history_point(row: Any) -> HistoryPoint:
    """A row of ``player_entries``: the entry with its list."""
    return point_on(
        row, row.category, Period.of_list_date(row.list_date), row.revision,
        row.rule_version,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class HistoryColumns:
    """A player's published ratings in one category, column-wise: item i of each column is
    their entry on the i-th list, oldest first. Made by transposing the lists' resolved
    entries (``zip``), with no object a point: what the history's JSON and the player page
    are written from."""

    list_dates: Sequence[date]
    revisions: Sequence[int]
    rule_versions: Sequence[str | None]
    ratings: Sequence[int]
    #: The rating on the original list (revision 1); None when the player was not on it.
    original_ratings: Sequence[int | None]
    previous_ratings: Sequence[int | None]
    changes: Sequence[int | None]
    games: Sequence[int]
    k_factors: Sequence[int]  # the K the next period starts from
    k_used: Sequence[int | None]  # the K applied in the period
    sum_deltas: Sequence[Decimal | None]
    rated_games: Sequence[int]
    peak_ratings: Sequence[int]
    actives: Sequence[bool]

    def __len__(self) -> int:
        return len(self.list_dates)

    def periods(self) -> list[Period]:
        return [Period(day.year, day.month) for day in self.list_dates]

    def point(self, index: int, category: Category) -> HistoryPoint:
        """The point of the list ``index`` (one object, for the few places that want one)."""
        return HistoryPoint(
            rating=self.ratings[index],
            previous_rating=self.previous_ratings[index],
            change=self.changes[index],
            games=self.games[index],
            k_factor=self.k_factors[index],
            rated_games=self.rated_games[index],
            peak_rating=self.peak_ratings[index],
            active=self.actives[index],
            category=category,
            period=Period.of_list_date(self.list_dates[index]),
            revision=self.revisions[index],
            rule_version=self.rule_versions[index],
            k_used=self.k_used[index],
            sum_delta=self.sum_deltas[index],
            original_rating=self.original_ratings[index],
        )


NO_HISTORY = HistoryColumns(*([()] * 14))


def history_columns(
    list_dates: Sequence[date],
    revisions: Sequence[int],
    rule_versions: Sequence[str | None],
    entries: Sequence[Sequence[Any]],
    original_ratings: Sequence[int | None],
) -> HistoryColumns:
    """The columns of lists and of their ``entries`` (carry_forward.Entry each, in the order
    of its fields: player_id, rating, previous_rating, change, games, k_factor, k_used,
    sum_delta, rated_games, peak_rating, last_rated, active)."""
    if not entries:
        return NO_HISTORY
    (_, ratings, previous, changes, games, k_factors, k_used, sum_deltas, rated, peaks, _,
     actives) = zip(*entries, strict=True)  # fmt: skip
    return HistoryColumns(
        list_dates, revisions, rule_versions, ratings, original_ratings, previous, changes,
        games, k_factors, k_used, sum_deltas, rated, peaks, actives,
    )  # fmt: skip


def by_category(found: repo.ListedEntries) -> dict[Category, HistoryColumns]:
    """The columns of each category of ``found`` (which holds them a category after another)."""
    histories: dict[Category, HistoryColumns] = {}
    start, count = 0, len(found.categories)
    while start < count:
        category = found.categories[start]
        end = start + 1
        while end < count and found.categories[end] == category:
            end += 1
        part = slice(start, end)
        histories[category] = history_columns(
            found.list_dates[part], found.revisions[part], found.rule_versions[part],
            found.entries[part], found.original_ratings[part],
        )  # fmt: skip
        start = end
    return histories


def history(
    session: Session, player_id: str, category: Category, revision: int | None = None
) -> HistoryColumns:
    """The player's published ratings in the category, oldest first: on the latest revision of
    each list, or with ``revision`` on the latest revision up to it (1: the original lists).
    NotFound: no player, or no list of the category has that revision."""
    if revision is not None:
        player(session, player_id)
        latest = repo.latest_revision_of(session, category)
        if latest is None or revision > latest:
            raise NotFound(
                f"no {category.value} list has a revision {revision} "
                f"(the highest is {latest or 'none: nothing is published'})"
            )
    found = repo.listed_entries(session, player_id, category, upto=revision)
    if not found.entries:
        player(session, player_id)  # no such player, or one never on a list of the category
    return history_columns(
        found.list_dates, found.revisions, found.rule_versions, found.entries,
        found.original_ratings,
    )  # fmt: skip


def latest_ratings(session: Session, player_id: str) -> tuple[HistoryPoint, ...]:
    """The player's latest published rating in each category where they have one."""
    latest: dict[Category, HistoryPoint] = {}
    for row in repo.player_entries(session, player_id):
        point = history_point(row)
        latest[point.category] = point  # oldest first: the last one wins
    return tuple(latest[c] for c in Category if c in latest)
