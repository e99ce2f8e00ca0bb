"""The game-by-game calculation behind a published rating, and everything the player page
shows."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from sqlalchemy.orm import Session

from ratingdb.repositories import published as repo
from ratingdb.repositories.published import PlayerCalculation
from ratingdb.rules import Category, Period
from ratingdb.services.published.common import NotFound
from ratingdb.services.published.initial import InitialWorking, initial_working
from ratingdb.services.published.lists import find_list
from ratingdb.services.published.players import (
    NO_HISTORY,
    HistoryColumns,
    HistoryPoint,
    Player,
    by_category,
    player,
    point_on,
)


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of a period from the player's side, as it was computed."""

    tournament_id: str
    tournament_name: str
    start_date: date
    round: int
    opponent_id: str
    opponent_name: str
    rating_used: int | None
    opponent_rating: int | None
    difference: int | None
    difference_used: int | None
    expected: Decimal | None
    score: Decimal
    delta: Decimal | None
    rated: bool
    reason: str | None


@dataclass(frozen=True, slots=True)
class PeriodCalculation:
    """How the player's rating of one list came about."""

    category: Category
    period: Period
    revision: int
    rule_version: str | None
    previous_rating: int | None
    rating: int | None  # None: not on the list (unrated, or below the floor)
    original_rating: int | None  # on revision 1 (None: not on it)
    change: int | None
    k_factor: int | None  # K applied (after K x n <= 700); None when no game was rated
    next_k_factor: int | None
    sum_delta: Decimal | None
    first_rating: bool
    games: tuple[GameLine, ...]
    #: A first rating's working, recomputed with the core (None: not a first rating).
    initial: InitialWorking | None = None


def _game_line(row: PlayerCalculation) -> GameLine:
    return GameLine(
        tournament_id=row.tournament_id,
        tournament_name=row.tournament_name,
        start_date=row.start_date,
        round=row.round,
        opponent_id=row.opponent_id,
        opponent_name=row.opponent_name,
        rating_used=row.rating_used,
        opponent_rating=row.opponent_rating_used,
        difference=row.difference,
        difference_used=row.difference_used,
        expected=row.expected,
        score=row.score,
        delta=row.delta,
        rated=row.rated,
        reason=row.reason,
    )


def _calculation(
    category: Category,
    period: Period,
    revision: int,
    list_rule_version: str | None,
    point: HistoryPoint | None,
    games: Sequence[PlayerCalculation],
    original_rating: int | None = None,
) -> PeriodCalculation:
    rule_version = games[0].rule_version if games else list_rule_version
    if point is None:
        return PeriodCalculation(
            category, period, revision, rule_version, None, None, original_rating, None, None,
            None, None, False, tuple(_game_line(row) for row in games),
        )  # fmt: skip
    return PeriodCalculation(
        category=category,
        period=period,
        revision=revision,
        rule_version=rule_version,
        previous_rating=point.previous_rating,
        rating=point.rating,
        original_rating=point.original_rating,
        change=point.change,
        k_factor=point.k_used,
        next_k_factor=point.k_factor,
        sum_delta=point.sum_delta,
        first_rating=point.previous_rating is None and bool(games),
        games=tuple(_game_line(row) for row in games),
    )


def _with_working(
    session: Session, player_id: str, calc: PeriodCalculation, rows: Sequence[PlayerCalculation]
) -> PeriodCalculation:
    """A first rating gets its working (docs/rules.md §9), the others stay as they are."""
    if not calc.first_rating or calc.rating is None or calc.rule_version is None:
        return calc
    working = initial_working(
        session, player_id, calc.category, calc.period, calc.rule_version, rows, calc.rating
    )
    return dataclasses.replace(calc, initial=working)


def calculation(
    session: Session,
    player_id: str,
    category: Category,
    period: Period,
    revision: int | None = None,
) -> PeriodCalculation:
    """The game-by-game calculation of the player's rating on the list of ``period`` (its
    latest revision, or ``revision``)."""
    player(session, player_id)
    summary = find_list(session, category, period, revision)
    entry = repo.entry_on(session, summary.list_id, player_id, summary.original_list_id)
    games = repo.player_calculations(session, player_id, summary.list_id)
    if entry is None and not games:
        raise NotFound(
            f"player {player_id} is not on revision {summary.revision} of the "
            f"{category.value} list of {period}"
            if summary.revisions > 1
            else f"player {player_id} is not on the {category.value} list of {period}"
        )
    if entry is not None:
        original_rating = entry.original_rating
    elif summary.original_list_id == summary.list_id:
        original_rating = None
    else:  # pooled on this revision: perhaps rated on the original
        original_rating = repo.rating_on(session, summary.original_list_id, player_id)
    point = None
    if entry is not None:
        point = point_on(entry, category, period, summary.revision, summary.rule_version)
    calc = _calculation(
        category, period, summary.revision, summary.rule_version, point, games, original_rating
    )
    return _with_working(session, player_id, calc, games)


@dataclass(frozen=True, slots=True)
class CategoryRecord:
    category: Category
    history: HistoryColumns  # oldest first
    calculations: tuple[PeriodCalculation, ...]  # periods with games, newest first


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player: Player
    categories: tuple[CategoryRecord, ...]


def player_record(session: Session, player_id: str) -> PlayerRecord:
    """Everything the player page shows, in two queries past the player: the histories
    column-wise (no object a point), a point made only for the lists with games."""
    found = player(session, player_id)
    listed = repo.listed_entries(session, player_id)
    histories = by_category(listed)
    at = {list_id: index for index, list_id in enumerate(listed.list_ids)}
    starts: dict[Category, int] = {}  # where each category's lists start in ``listed``
    for position, listed_category in enumerate(listed.categories):
        starts.setdefault(listed_category, position)
    games: dict[int, list[PlayerCalculation]] = defaultdict(list)
    for calculation in repo.player_calculations(session, player_id):
        games[calculation.list_id].append(calculation)
    calculations: dict[Category, list[PeriodCalculation]] = defaultdict(list)
    for list_id, rows in games.items():
        category = rows[0].category
        period = Period.of_list_date(rows[0].list_date)
        index = at.get(list_id)
        on_list = None
        if index is not None:
            on_list = histories[category].point(index - starts[category], category)
        version = None if on_list is None else on_list.rule_version
        calc = _calculation(category, period, rows[0].revision, version, on_list, rows)
        calculations[category].append(_with_working(session, player_id, calc, rows))
    return PlayerRecord(
        found,
        tuple(
            CategoryRecord(
                category,
                histories.get(category, NO_HISTORY),
                tuple(sorted(calculations.get(category, ()), key=lambda c: -c.period.index)),
            )
            for category in Category
            if category in histories or category in calculations
        ),
    )
