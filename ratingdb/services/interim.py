"""Interim ratings: a player's rating as if the open period closed now (issue 28, item 7).

The *open period* of a category is the first period after its latest published list (the
earliest unpublished one before any list). Its interim rating for a player is what the close
would give them from the games accepted into it so far: the same loading (services.close.inputs
``load`` of some players, ``Among``: the player's status on the latest list, their events, the
ratings their games are rated with) and the same arithmetic (the rules core's ``rate_player``
with the period's rule version), so publishing the period gives the same figure, unless games
are added or corrected before it closes. Nothing is written, nothing is stored: it is computed
on demand, for the players asked for only (a few set-based queries, whatever their number).

It is never official: every edge shows it as unofficial (``official`` is always False).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy.orm import Session

from ratingdb.models import PeriodRow, RatingListRow
from ratingdb.repositories import games as game_repo
from ratingdb.repositories import period_inputs
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.games import ShownGame
from ratingdb.repositories.period_inputs import Calculated, EntryRow, StatusRow
from ratingdb.rules import Category, Period, PeriodResult, PeriodRules, rate_player
from ratingdb.rules.calendar import NotAListPeriod, next_period
from ratingdb.rules.first_rating import first_rating_working
from ratingdb.rules.versions import NoRuleVersion
from ratingdb.services.close import STANDARD_SEEDED, entry_rows, latest_correction
from ratingdb.services.close.computation import previous_list
from ratingdb.services.close.inputs import Among, Loaded, load
from ratingdb.services.published.calculations import GameLine, PeriodCalculation
from ratingdb.services.published.common import NotFound
from ratingdb.services.published.initial import FIGURES, InitialWorking
from ratingdb.services.published.players import player

#: The revision an interim calculation carries: none was published.
NO_REVISION = 0


@dataclass(frozen=True, slots=True)
class AsOf:
    """The latest accepted tournament the interim rating counts: it changes when a tournament
    of the player's is accepted into the open period (or one is corrected)."""

    tournament_id: str
    name: str
    end_date: date
    accepted_at: datetime


@dataclass(frozen=True, slots=True)
class Interim:
    """A player's interim rating in one category: the open period's calculation as if it
    closed now, in the published calculation's structure (``calculation``: its ``rating``,
    ``change``, games and per-game explanation), never official."""

    player_id: str
    category: Category
    period: Period
    as_of: AsOf
    tournaments: int
    calculation: PeriodCalculation

    @property
    def official(self) -> bool:
        return False


class StoredLists:
    """The published lists' rows as stored (close.inputs.ListRows)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def entries(self, rating_list: RatingListRow, players: Collection[str]) -> dict[str, EntryRow]:
        return period_inputs.entries_of(self.session, rating_list.id, players)

    def statuses(
        self, rating_list: RatingListRow, players: Collection[str]
    ) -> dict[str, StatusRow]:
        return period_inputs.statuses_of(self.session, rating_list.id, players)


def open_periods(session: Session) -> dict[Category, PeriodRow]:
    """Each category's open period, when it has a row (a tournament was imported into it):
    the first period after the latest published list, or the earliest unpublished period of a
    category without a list. One query."""
    found: dict[Category, PeriodRow] = {}
    for row, last in period_repo.unpublished_periods(session):
        category = Category(row.category)
        if category in found:
            continue
        if last is None:
            found[category] = row  # the earliest (ordered by list date)
            continue
        try:
            wanted = next_period(category, Period.of_list_date(last))
        except (NotAListPeriod, AssertionError):
            continue
        if row.list_date == wanted.list_date:
            found[category] = row
    return found


def interim_ratings(
    session: Session, player_ids: Collection[str], categories: Iterable[Category] = Category
) -> dict[Category, dict[str, Interim]]:
    """The interim ratings of ``player_ids`` in ``categories``: per category, those of them who
    played rated games in its open period. Nothing is written."""
    wanted = set(categories)
    periods = {c: row for c, row in open_periods(session).items() if c in wanted}
    played = period_inputs.tournaments_played(
        session, [row.id for row in periods.values()], player_ids
    )
    found: dict[Category, dict[str, Interim]] = {}
    for category, period_row in periods.items():
        tournaments = played.get(period_row.id)
        if not tournaments:
            continue
        interims = _interims(session, category, period_row, set(player_ids), tournaments)
        if interims:
            found[category] = interims
    return found


def player_interims(session: Session, player_id: str) -> tuple[Interim, ...]:
    """The player's interim ratings, in the order of the categories (NotFound: no player)."""
    player(session, player_id)
    by_category = interim_ratings(session, [player_id])
    return tuple(
        by_category[c][player_id]
        for c in Category
        if c in by_category and player_id in by_category[c]
    )


def _interims(
    session: Session,
    category: Category,
    period_row: PeriodRow,
    players: set[str],
    tournaments: frozenset[str],
) -> dict[str, Interim]:
    """The open period computed for ``players`` as the close computes it (its loading of some
    players, the core's rate_player), their games found through the tournaments they played
    in (read as they are now: no revision of the period exists)."""
    period = Period.of_list_date(period_row.list_date)
    try:
        rules = PeriodRules.for_period(category, period)
    except (NotAListPeriod, NoRuleVersion):
        return {}
    lists = [
        row for row in period_repo.lists_of(session, category) if row.list_date < period.list_date
    ]
    previous = previous_list(rules, lists)
    standard_lists = (
        list(period_repo.lists_of(session, Category.FIDE_STANDARD))
        if category in STANDARD_SEEDED
        else []
    )
    statuses, loaded = load(
        session, rules, period_row.id, previous, lists, latest_correction(session),
        standard_lists, Among(players, Calculated(None, tournaments), StoredLists(session)),
    )  # fmt: skip
    results = {
        p: rate_player(rules, statuses[p], loaded.events[p])
        for p in sorted(players)
        if p in statuses and loaded.events.get(p)
    }
    if not results:
        return {}
    game_ids = [g for key, ids in loaded.game_ids.items() if key[0] in results for g in ids]
    shown = game_repo.shown_games(session, game_ids)
    rounds = {game.id: game.round for game in shown}
    names = {game.white_id: game.white_name for game in shown}
    names.update((game.black_id, game.black_name) for game in shown)
    held = {game.tournament_id: game for game in shown}
    return {
        p: _interim(p, r, loaded, rounds, names, held, standard_lists) for p, r in results.items()
    }


def _interim(
    player_id: str,
    r: PeriodResult,
    loaded: Loaded,
    rounds: Mapping[int, int],
    names: Mapping[str, str],
    held: Mapping[str, ShownGame],
    standard_lists: Sequence[RatingListRow],
) -> Interim:
    lines = _lines(player_id, r, loaded, rounds, names, held)
    played = {loaded.tournament_of[(player_id, i)] for i in range(len(r.events))}
    latest = max((held[t] for t in played), key=lambda t: (t.imported_at, t.tournament_id))
    return Interim(
        player_id,
        r.version.category,
        r.period,
        AsOf(latest.tournament_id, latest.tournament_name, latest.end_date, latest.imported_at),
        len(played),
        _calculation(r, lines, standard_lists),
    )


def _lines(
    player_id: str,
    r: PeriodResult,
    loaded: Loaded,
    rounds: Mapping[int, int],
    names: Mapping[str, str],
    held: Mapping[str, ShownGame],
) -> tuple[GameLine, ...]:
    """The games as the close's calculations would store them (close.output), each with what
    the published explanation joins to it: the round, the tournament's and opponent's names."""
    lines: list[GameLine] = []
    for index, event in enumerate(r.events):
        tournament = held[loaded.tournament_of[(player_id, index)]]
        ids = loaded.game_ids[(player_id, index)]
        for game_id, calc in zip(ids, event.games, strict=True):
            opponent = calc.game.opponent_id or ""
            reason = calc.not_rated_reason
            lines.append(
                GameLine(
                    tournament_id=tournament.tournament_id,
                    tournament_name=tournament.tournament_name,
                    start_date=tournament.start_date,
                    round=rounds[game_id],
                    opponent_id=opponent,
                    opponent_name=names.get(opponent, opponent),
                    rating_used=event.rating_used,
                    opponent_rating=calc.game.opponent_rating,
                    difference=calc.difference,
                    difference_used=calc.difference_used,
                    expected=calc.expected,
                    score=calc.game.score.points,
                    delta=calc.delta,
                    rated=calc.rated,
                    reason=None if reason is None else str(reason),
                )
            )
    return tuple(lines)


def _calculation(
    r: PeriodResult, lines: tuple[GameLine, ...], standard_lists: Sequence[RatingListRow]
) -> PeriodCalculation:
    """As the published calculation reads the entry the close would write (close.output's
    entry_rows): rating, previous rating, change, K used, next K, sum of deltas."""
    category, period = r.version.category, r.period
    rows = list(entry_rows({"": r}, 0))
    if not rows:  # not on the list: unrated yet (games pooled), or below the floor
        return PeriodCalculation(
            category, period, NO_REVISION, r.version.name, None, None, None, None, None, None,
            None, False, lines,
        )  # fmt: skip
    (row,) = rows
    rating, previous, change, k_used, sum_delta = row[2], row[3], row[4], row[7], row[8]
    first = previous is None and bool(lines)
    return PeriodCalculation(
        category=category,
        period=period,
        revision=NO_REVISION,
        rule_version=r.version.name,
        previous_rating=previous,
        rating=rating,
        original_rating=None,
        change=change,
        k_factor=k_used,
        next_k_factor=row[6],
        sum_delta=None if sum_delta is None else Decimal(sum_delta),
        first_rating=first,
        games=lines,
        initial=_working(r, lines, standard_lists) if first else None,
    )


def _working(
    r: PeriodResult, lines: Sequence[GameLine], standard_lists: Sequence[RatingListRow]
) -> InitialWorking | None:
    """A first rating's working, as the published one shows it (services.published.initial),
    from the core's result itself."""
    working = first_rating_working(r)
    if working is None or not working.published:
        return None
    figures = {name: value for name, value in working.figures().items() if name in FIGURES}
    standard_list = None
    if working.standard_rating and lines:
        seeded_from = period_repo.in_force(standard_lists, min(line.start_date for line in lines))
        if seeded_from is not None:
            standard_list = Period.of_list_date(seeded_from.list_date)
    return InitialWorking(working.method, True, figures, standard_list)


__all__ = [
    "AsOf",
    "Interim",
    "NotFound",
    "interim_ratings",
    "open_periods",
    "player_interims",
]
