"""A player's world and federation rank on each category's latest list (the player page).

A rank is 1 + the entries of the list rated higher (ties share a rank), in the world and among
the players of the same federation (the players' federations as they are now), counting the
players active on the list only, as FIDE's rankings do (rules.activity): an inactive player
has no rank. Counted in the
database for each page, that is two counts over the whole list (~90 ms at 500,000 entries);
a :class:`RankTable` holds, once per list, how many entries have each rating in the world and
in each federation, and answers any player's ranks by bisection.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from ratingdb.repositories.published import ranks as repo
from ratingdb.rules import Category, Period, activity


@dataclass(frozen=True, slots=True)
class Rank:
    category: Category
    period: Period
    world: int
    federation: int | None  # None: the player has no federation


@dataclass(frozen=True, slots=True)
class RatingCounts:
    """Entries by rating: the distinct ratings ascending, and how many entries are rated at or
    below each."""

    ratings: tuple[int, ...]
    at_or_below: tuple[int, ...]

    @classmethod
    def of(cls, counts: Mapping[int, int]) -> RatingCounts:
        ratings = tuple(sorted(counts))
        running, at_or_below = 0, []
        for rating in ratings:
            running += counts[rating]
            at_or_below.append(running)
        return cls(ratings, tuple(at_or_below))

    def rated_higher(self, rating: int) -> int:
        """How many entries are rated above ``rating``."""
        if not self.ratings:
            return 0
        below = bisect_right(self.ratings, rating)
        return self.at_or_below[-1] - (self.at_or_below[below - 1] if below else 0)


@dataclass(frozen=True, slots=True)
class RankTable:
    """The ratings of one list (a revision: fixed once published) in the world and per
    federation, the players' federations as they were when it was read."""

    list_id: int
    world: RatingCounts
    federations: Mapping[str, RatingCounts]

    @classmethod
    def of(cls, list_id: int, rows: Iterable[tuple[str | None, int, int]]) -> RankTable:
        """From (federation, rating, entries) rows, each (federation, rating) once."""
        world: dict[int, int] = defaultdict(int)
        federations: dict[str, dict[int, int]] = defaultdict(dict)
        for federation, rating, entries in rows:
            world[rating] += entries
            if federation is not None:
                federations[federation][rating] = entries
        return cls(
            list_id,
            RatingCounts.of(world),
            {name: RatingCounts.of(counts) for name, counts in federations.items()},
        )

    def ranks(self, rating: int, federation: str | None) -> tuple[int, int | None]:
        """(world rank, federation rank) of an entry rated ``rating`` whose player is of
        ``federation`` (None: no federation rank)."""
        world = 1 + self.world.rated_higher(rating)
        if federation is None:
            return world, None
        counts = self.federations.get(federation)
        return world, 1 + (0 if counts is None else counts.rated_higher(rating))


def active_since(category: Category, period: Period) -> date:
    """The earliest list date whose rated games keep a player active on the list of
    ``period`` (rules.activity): the ranks count the players last rated then or later."""
    earliest = activity.earliest_active(category, period)
    return date(earliest // 12, earliest % 12 + 1, 1)


def rank_table(session: Session, list_id: int, since: date) -> RankTable:
    """The list's :class:`RankTable` of its active players (last rated on ``since`` or
    later: :func:`active_since`): one grouped read of its entries."""
    return RankTable.of(list_id, repo.rating_counts(session, list_id, since))


#: Where :func:`latest_ranks` may find a list's table: (list id, its active_since) -> the
#: table, or None to count in the database instead.
TableOf = Callable[[int, date], RankTable | None]


def latest_ranks(
    session: Session,
    player_id: str,
    categories: tuple[Category, ...],
    table_of: TableOf | None = None,
) -> dict[Category, Rank]:
    """Per category, the ranks on its latest list (left out where the player is not on it):
    from the list's table when ``table_of`` gives one, else counted in the database."""
    found: dict[Category, Rank] = {}
    for category in categories:
        latest = repo.latest_list(session, category)
        if latest is None:
            continue
        period = Period.of_list_date(latest.list_date)
        since = active_since(category, period)
        table = None if table_of is None else table_of(latest.id, since)
        if table is None:
            ranks = repo.ranks_on(session, latest.id, player_id, since)
        else:
            own = repo.own_entry(session, latest.id, player_id)
            active = own is not None and own.last_rated is not None and own.last_rated >= since
            ranks = table.ranks(own.rating, own.federation) if own and active else None
        if ranks is not None:
            found[category] = Rank(category, period, *ranks)
    return found
