"""The monthly close: load the period in a few set-based queries, compute every player with the
rules core, write the list, its entries and every calculation in bulk, in the caller's
transaction (rules.md A2-A7; contract "periods close").
"""

from __future__ import annotations

import dataclasses
import gc
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.db import bulk_insert
from ratingdb.errors import InputError
from ratingdb.models import (
    CalculationRow,
    GameRow,
    ListEntryRow,
    PeriodRow,
    PlayerRow,
    PlayerStatusRow,
    RatingListRow,
    TournamentRow,
)
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories.players import chunks
from ratingdb.rules import (
    Category,
    Event,
    Game,
    Period,
    PeriodResult,
    PeriodRules,
    PlayerStatus,
    PooledEvent,
    Score,
    rate_player,
)
from ratingdb.rules.calendar import NotAListPeriod
from ratingdb.rules.versions import NoRuleVersion, OneTimeAdjustment
from ratingdb.services.lists import list_digest
from ratingdb.services.progress import Track, no_progress

_SCORES = {
    "1-0": (Score.WIN, Score.LOSS),
    "0-1": (Score.LOSS, Score.WIN),
    "1/2-1/2": (Score.DRAW, Score.DRAW),
}


@dataclass(frozen=True, slots=True)
class CloseOutcome:
    category: Category
    period: Period
    state: str  # "published", "already published" or "dry run"
    rule_version: str | None = None
    list_id: int | None = None
    entries: int = 0
    first_ratings: int = 0
    below_floor: int = 0
    players_with_games: int = 0
    games: int = 0
    changes: tuple[tuple[str, int | None, int | None], ...] = field(default=())
    # Seconds per phase and rows written, for the benchmark and the logs.
    load_s: float = 0.0
    compute_s: float = 0.0
    write_s: float = 0.0
    rows_written: int = 0

    @property
    def already_published(self) -> bool:
        return self.state == "already published"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "category": self.category.value,
            "period": str(self.period),
            "state": self.state,
            "rule_version": self.rule_version,
            "list_id": self.list_id,
            "entries": self.entries,
            "first_ratings": self.first_ratings,
            "below_floor": self.below_floor,
            "players_with_games": self.players_with_games,
            "games": self.games,
        }
        if self.state == "dry run":
            out["changes"] = [
                {"player_id": p, "previous_rating": before, "rating": after}
                for p, before, after in self.changes
            ]
        return out


def close_period(
    session: Session,
    category: Category,
    period: Period,
    *,
    now: datetime,
    closed_by: str,
    dry_run: bool = False,
    track: Track = no_progress,
) -> CloseOutcome:
    """Compute and publish the list of ``period``. A published period is left as it is."""
    try:
        rules = PeriodRules.for_period(category, period)
    except (NotAListPeriod, NoRuleVersion) as error:
        raise InputError(str(error), field="--period") from None
    period_row = period_repo.get_period(session, category, period)
    if period_row is not None and period_row.state == "published":
        return CloseOutcome(category, period, "already published")
    if period_row is None:
        if dry_run:
            period_row = PeriodRow(id=-1, category=category.value, list_date=period.list_date)
        else:
            period_row = period_repo.get_or_create_period(session, category, period)
    if not dry_run and not period_repo.claim(session, period_row, closed_by, now):
        # Another closer got there first (its transaction has committed: the lock waited).
        return CloseOutcome(category, period, "already published")

    with _collector_paused():
        return _close(session, rules, period_row, now=now, dry_run=dry_run, track=track)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """A close builds millions of small acyclic objects; Python's cyclic collector would rescan
    the growing heap again and again (more than half the compute time of a FIDE-size close).
    Reference counting still frees everything; the collector runs again afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _close(
    session: Session,
    rules: PeriodRules,
    period_row: PeriodRow,
    *,
    now: datetime,
    dry_run: bool,
    track: Track,
) -> CloseOutcome:
    category, period = rules.category, rules.period
    started = time.perf_counter()
    lists = [
        rating_list
        for rating_list in period_repo.lists_of(session, category)
        if rating_list.list_date < period.list_date
    ]
    previous = _previous_list(rules, lists)
    loaded = _load(session, rules, period_row.id, previous, lists)
    loaded_at = time.perf_counter()
    label = f"{category.value} {period}: players"
    results = {
        player_id: rate_player(rules, status, loaded.events.get(player_id, ()))
        for player_id, status in track(loaded.statuses.items(), label, len(loaded.statuses))
    }
    entries = _entries(results)
    computed_at = time.perf_counter()
    outcome = CloseOutcome(
        category,
        period,
        "dry run" if dry_run else "published",
        rule_version=rules.version.name,
        entries=len(entries),
        first_ratings=sum(1 for r in results.values() if r.is_first_rating),
        below_floor=sum(1 for r in results.values() if r.below_floor),
        players_with_games=len(loaded.events),
        games=loaded.game_count,
        load_s=loaded_at - started,
        compute_s=computed_at - loaded_at,
    )
    if dry_run:
        return dataclasses.replace(outcome, changes=_changes(results))
    rating_list = RatingListRow(
        period_id=period_row.id,
        category=category.value,
        list_date=period.list_date,
        revision=1,
        source="close",
        rule_version=rules.version.name,
        published_at=now,
        entry_count=len(entries),
        digest=list_digest(entries),
    )
    session.add(rating_list)
    session.flush()
    rows = _write(session, rating_list.id, rules, results, entries, loaded)
    period_repo.mark_published(session, period_row, now)
    return dataclasses.replace(
        outcome,
        list_id=rating_list.id,
        write_s=time.perf_counter() - computed_at,
        rows_written=rows,
    )


def _changes(results: Mapping[str, PeriodResult]) -> tuple[tuple[str, int | None, int | None], ...]:
    """What a dry run shows: every player whose rating moves or who played."""
    return tuple(
        (player_id, r.base_rating if r.published_rating is not None else None, r.new_rating)
        for player_id, r in sorted(results.items())
        if r.rated_games or r.new_rating != r.published_rating
    )


def _previous_list(rules: PeriodRules, lists: Sequence[RatingListRow]) -> RatingListRow | None:
    """The list the period starts from; refusing to skip a period that has not been closed."""
    if not lists:
        return None
    latest = lists[-1]
    expected = rules.previous_period
    if expected is None or latest.list_date != expected.list_date:
        raise InputError(
            f"{rules.category.value} {expected} is not published yet: close the periods in order "
            f"(the latest published list is {Period.of_list_date(latest.list_date)})",
            field="--period",
        )
    return latest


class _PeriodGame(NamedTuple):
    """A played game of the period, with its tournament's start date."""

    id: int
    tournament_id: str
    white_id: str
    black_id: str
    result: str
    start_date: date


@dataclass(slots=True)
class _Loaded:
    statuses: dict[str, PlayerStatus]
    events: dict[str, list[Event]]
    game_ids: dict[tuple[str, int], list[int]]  # (player, event index) -> game ids, in order
    tournament_of: dict[tuple[str, int], str]
    game_count: int


def _load(
    session: Session,
    rules: PeriodRules,
    period_id: int,
    previous: RatingListRow | None,
    lists: Sequence[RatingListRow],
) -> _Loaded:
    statuses = _statuses(session, previous)
    games = [
        _PeriodGame(*row)
        for row in session.execute(
            select(
                GameRow.id,
                GameRow.tournament_id,
                GameRow.white_id,
                GameRow.black_id,
                GameRow.result,
                TournamentRow.start_date,
            )
            .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
            .where(TournamentRow.period_id == period_id, GameRow.rated.is_(True))
            .order_by(
                TournamentRow.start_date, TournamentRow.tournament_id, GameRow.round, GameRow.id
            )
        )
    ]
    players = {row.white_id for row in games} | {row.black_id for row in games}
    newcomers = players - statuses.keys()
    for player_id, birth_year in player_repo.birth_years(session, newcomers).items():
        statuses[player_id] = PlayerStatus(rating=None, birth_year=birth_year)

    ratings_of = _ratings_used(session, rules, games, lists, previous, statuses)
    _add_standard_ratings(session, rules, games, statuses)

    events: dict[str, list[Event]] = {}
    game_ids: dict[tuple[str, int], list[int]] = {}
    tournament_of: dict[tuple[str, int], str] = {}
    open_event: dict[tuple[str, str], tuple[int, list[Game]]] = {}
    starts: dict[str, date] = {}
    for row in games:
        ratings = ratings_of[row.tournament_id]
        starts[row.tournament_id] = row.start_date
        white_score, black_score = _SCORES[row.result]
        for player, opponent, score in (
            (row.white_id, row.black_id, white_score),
            (row.black_id, row.white_id, black_score),
        ):
            key = (player, row.tournament_id)
            if key not in open_event:
                index = len(events.setdefault(player, []))
                events[player].append(Event(games=()))  # placeholder, filled below
                open_event[key] = (index, [])
                game_ids[(player, index)] = []
                tournament_of[(player, index)] = row.tournament_id
            index, event_games = open_event[key]
            event_games.append(Game(ratings.get(opponent), score, opponent))
            game_ids[(player, index)].append(row.id)
    for (player, tournament_id), (index, event_games) in open_event.items():
        events[player][index] = Event(
            games=tuple(event_games),
            rating_used=ratings_of[tournament_id].get(player),
            start_date=starts[tournament_id],
            event_id=tournament_id,
        )
    return _Loaded(statuses, events, game_ids, tournament_of, len(games))


def _ratings_used(
    session: Session,
    rules: PeriodRules,
    games: Sequence[_PeriodGame],
    lists: Sequence[RatingListRow],
    previous: RatingListRow | None,
    statuses: Mapping[str, PlayerStatus],
) -> dict[str, dict[str, int]]:
    """Per tournament, the ratings its players are rated with: the category's list in force at
    the tournament's start (contract "Words"); in rapid and blitz from 2024-03, a player unrated
    there who has a standard rating on the standard list in force then is rated with it
    (B.02 rapid/blitz §7.2.1)."""
    starts: dict[str, date] = {}
    players: dict[str, set[str]] = defaultdict(set)
    for row in games:
        starts[row.tournament_id] = row.start_date
        players[row.tournament_id].update((row.white_id, row.black_id))
    seed_from = (
        period_repo.lists_of(session, Category.FIDE_STANDARD)
        if rules.version.standard_seed and rules.category is not Category.FIDE_STANDARD
        else []
    )
    cache: dict[int, dict[str, int]] = {}
    if previous is not None:
        cache[previous.id] = {p: s.rating for p, s in statuses.items() if s.rating is not None}

    def ratings_on(rating_list: RatingListRow | None, needed: set[str]) -> dict[str, int]:
        if rating_list is None:
            return {}
        if rating_list.id in cache:
            known = cache[rating_list.id]
            return {p: known[p] for p in needed if p in known}
        return _ratings_on(session, rating_list.id, needed)

    used: dict[str, dict[str, int]] = {}
    for tournament_id, start in starts.items():
        needed = players[tournament_id]
        ratings = ratings_on(period_repo.in_force(lists, start), needed)
        if seed_from:
            unrated = needed - ratings.keys()
            ratings |= ratings_on(period_repo.in_force(seed_from, start), unrated)
        used[tournament_id] = ratings
    return used


def _add_standard_ratings(
    session: Session,
    rules: PeriodRules,
    games: Sequence[_PeriodGame],
    statuses: dict[str, PlayerStatus],
) -> None:
    """Rapid and blitz: the standard rating the core needs for the one-time uplift of
    2022-10-01 (every rated player) and for the standard-rating seed from 2024-03 (unrated
    players with games): the standard list in force at the period's start, or at the player's
    first tournament's start for the seed."""
    version = rules.version
    uplift = (
        version.one_time_adjustment is OneTimeAdjustment.STANDARD_MINUS_100
        and rules.period.list_date == version.effective_from
    )
    if rules.category is Category.FIDE_STANDARD or not (uplift or version.standard_seed):
        return
    standard_lists = period_repo.lists_of(session, Category.FIDE_STANDARD)
    wanted: dict[str, date] = {}
    if uplift:
        start_of_period = rules.period.list_date - timedelta(days=1)
        wanted = {p: start_of_period for p, s in statuses.items() if s.rating is not None}
    if version.standard_seed:
        for row in games:  # ordered by start date: the first tournament wins
            for player in (row.white_id, row.black_id):
                if statuses[player].rating is None:
                    wanted.setdefault(player, row.start_date)
    by_list: dict[int, set[str]] = defaultdict(set)
    for player, day in wanted.items():
        standard_list = period_repo.in_force(standard_lists, day)
        if standard_list is not None:
            by_list[standard_list.id].add(player)
    for list_id, needed in by_list.items():
        for player, rating in _ratings_on(session, list_id, needed).items():
            statuses[player] = dataclasses.replace(statuses[player], standard_rating=rating)


def _statuses(session: Session, previous: RatingListRow | None) -> dict[str, PlayerStatus]:
    statuses: dict[str, PlayerStatus] = {}
    if previous is None:
        return statuses
    entries = session.execute(
        select(
            ListEntryRow.player_id,
            ListEntryRow.rating,
            ListEntryRow.rated_games,
            ListEntryRow.peak_rating,
            PlayerRow.birth_year,
        )
        .join(PlayerRow, PlayerRow.player_id == ListEntryRow.player_id)
        .where(ListEntryRow.list_id == previous.id)
    )
    for player_id, rating, rated_games, peak, birth_year in entries:
        statuses[player_id] = PlayerStatus(rating, rated_games, peak, birth_year)
    others = session.execute(
        select(
            PlayerStatusRow.player_id,
            PlayerStatusRow.rated_games,
            PlayerStatusRow.peak_rating,
            PlayerStatusRow.pool,
            PlayerRow.birth_year,
        )
        .join(PlayerRow, PlayerRow.player_id == PlayerStatusRow.player_id)
        .where(PlayerStatusRow.list_id == previous.id)
    )
    for player_id, rated_games, peak, pool, birth_year in others:
        statuses[player_id] = PlayerStatus(
            None, rated_games, peak, birth_year, pool=decode_pool(pool)
        )
    return statuses


def _ratings_on(session: Session, list_id: int, player_ids: Iterable[str]) -> dict[str, int]:
    ratings: dict[str, int] = {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.execute(
            select(ListEntryRow.player_id, ListEntryRow.rating).where(
                ListEntryRow.list_id == list_id, ListEntryRow.player_id.in_(chunk)
            )
        )
        ratings.update(dict(rows.all()))
    return ratings


def decode_pool(pool: Sequence[Mapping[str, Any]]) -> tuple[PooledEvent, ...]:
    return tuple(
        PooledEvent(
            Period.parse(item["period"]),
            tuple(
                Game(g["opponent_rating"], Score.from_points(g["score"]), g.get("opponent_id"))
                for g in item["games"]
            ),
            item.get("tournament_id"),
        )
        for item in pool
    )


def encode_pool(pool: Sequence[PooledEvent]) -> list[dict[str, Any]]:
    return [
        {
            "period": str(pooled.period),
            "tournament_id": pooled.event_id,
            "games": [
                {
                    "opponent_rating": g.opponent_rating,
                    "score": str(g.score.points),
                    "opponent_id": g.opponent_id,
                }
                for g in pooled.games
            ],
        }
        for pooled in pool
    ]


def _entries(results: Mapping[str, PeriodResult]) -> list[dict[str, Any]]:
    entries = []
    for player_id, r in results.items():
        if r.new_rating is None:
            continue
        on_previous_list = r.published_rating is not None
        peak = r.status.peak_rating
        entries.append(
            {
                "player_id": player_id,
                "rating": r.new_rating,
                "previous_rating": r.base_rating if on_previous_list else None,
                "change": r.change if on_previous_list else None,
                "games": r.rated_games,
                "k_factor": r.next_k_factor,
                "k_used": r.k_factor if r.rated_games else None,
                "sum_delta": r.sum_delta if r.rated_games and on_previous_list else None,
                "rated_games": r.status.rated_games,
                "peak_rating": r.new_rating if peak is None else peak,
            }
        )
    return entries


def _write(
    session: Session,
    list_id: int,
    rules: PeriodRules,
    results: Mapping[str, PeriodResult],
    entries: list[dict[str, Any]],
    loaded: _Loaded,
) -> int:
    for entry in entries:
        entry["list_id"] = list_id
    bulk_insert(session, ListEntryRow, entries)
    statuses = [
        {
            "list_id": list_id,
            "player_id": player_id,
            "rated_games": r.status.rated_games,
            "peak_rating": r.status.peak_rating,
            "pool": encode_pool(r.status.pool),
        }
        for player_id, r in results.items()
        if r.new_rating is None
        and (r.status.pool or r.status.rated_games or r.status.peak_rating is not None)
    ]
    bulk_insert(session, PlayerStatusRow, statuses)
    version = rules.version.name
    calculations: list[dict[str, Any]] = []
    for player_id, r in results.items():
        for index, event in enumerate(r.events):
            ids = loaded.game_ids[(player_id, index)]
            tournament_id = loaded.tournament_of[(player_id, index)]
            for game_id, calc in zip(ids, event.games, strict=True):
                opponent_id = calc.game.opponent_id
                if opponent_id is None:
                    raise AssertionError("every stored game names its opponent")
                calculations.append(
                    {
                        "list_id": list_id,
                        "player_id": player_id,
                        "game_id": game_id,
                        "tournament_id": tournament_id,
                        "rating_used": event.rating_used,
                        "opponent_id": opponent_id,
                        "opponent_rating_used": calc.game.opponent_rating,
                        "difference": calc.difference,
                        "difference_used": calc.difference_used,
                        "expected": calc.expected,
                        "score": calc.game.score.points,
                        "delta": calc.delta,
                        "rated": calc.rated,
                        "reason": None
                        if calc.not_rated_reason is None
                        else str(calc.not_rated_reason),
                        "rule_version": version,
                    }
                )
    bulk_insert(session, CalculationRow, calculations)
    return len(entries) + len(statuses) + len(calculations)


__all__ = ["CloseOutcome", "Decimal", "close_period", "decode_pool", "encode_pool"]
