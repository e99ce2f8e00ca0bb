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

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from ratingdb.db.bulk import bulk_insert_rows
from ratingdb.errors import InputError
from ratingdb.models import (
    CalculationRow,
    CorrectionRow,
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
from ratingdb.repositories.players import chunks, one_of
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
from ratingdb.services import audit
from ratingdb.services.lists import digest_of_sorted
from ratingdb.services.progress import Track, no_progress

#: The categories whose periods read the standard list (the seed and the 2022 uplift).
STANDARD_SEEDED = frozenset({Category.FIDE_RAPID, Category.FIDE_BLITZ})
_POINTS = {score: score.points for score in Score}
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
    revision: int | None = None  # of the list published, or found already published

    @property
    def already_published(self) -> bool:
        return self.state == "already published"

    def as_json(self) -> dict[str, Any]:
        """A period found published reports its list (id, revision, entries, rule version);
        the counts of a computation it did not run are null, not zero."""
        computed = not self.already_published
        out: dict[str, Any] = {
            "category": self.category.value,
            "period": str(self.period),
            "state": self.state,
            "rule_version": self.rule_version,
            "list_id": self.list_id,
            "revision": self.revision,
            "entries": self.entries,
            "first_ratings": self.first_ratings if computed else None,
            "below_floor": self.below_floor if computed else None,
            "players_with_games": self.players_with_games if computed else None,
            "games": self.games if computed else None,
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
        return _already_published(session, category, period)
    if period_row is None:
        if dry_run:
            period_row = PeriodRow(id=-1, category=category.value, list_date=period.list_date)
        else:
            period_row = period_repo.get_or_create_period(session, category, period)
    if not dry_run and not period_repo.claim(session, period_row, closed_by, now):
        # Another closer got there first (its transaction has committed: the lock waited).
        return _already_published(session, category, period)

    with _collector_paused():
        outcome = _close(session, rules, period_row, now=now, dry_run=dry_run, track=track)
    if outcome.state == "published":
        audit.record(
            session, "close", closed_by, now,
            counts={"entries": outcome.entries, "games": outcome.games,
                    "first_ratings": outcome.first_ratings, "rows": outcome.rows_written},
            details={"category": category.value, "period": str(period),
                     "list_id": outcome.list_id, "rule_version": outcome.rule_version},
        )  # fmt: skip
    return outcome


def _already_published(session: Session, category: Category, period: Period) -> CloseOutcome:
    """What a close of a published period reports: the list in force for it (its latest
    revision), not a computation that did not happen."""
    published = period_repo.list_for(session, category, period)
    if published is None:
        raise RuntimeError(f"{category.value} {period} is marked published but has no list")
    return CloseOutcome(
        category,
        period,
        "already published",
        rule_version=published.rule_version,
        list_id=published.id,
        entries=published.entry_count,
        revision=published.revision,
    )


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
    lists = [
        rating_list
        for rating_list in period_repo.lists_of(session, rules.category)
        if rating_list.list_date < rules.period.list_date
    ]
    computation = compute(session, rules, period_row.id, lists, track=track)
    outcome = computation.outcome("dry run" if dry_run else "published")
    if dry_run:
        return dataclasses.replace(outcome, changes=_changes(computation.results))
    started = time.perf_counter()
    rating_list, rows = publish(session, computation, revision=1, now=now)
    period_repo.mark_published(session, period_row, now)
    return dataclasses.replace(
        outcome,
        list_id=rating_list.id,
        revision=rating_list.revision,
        write_s=time.perf_counter() - started,
        rows_written=rows,
    )


@dataclass(slots=True)
class Computation:
    """A period computed in memory from its stored inputs, not yet written: what a close, a
    recalculation after a correction and a verification share."""

    rules: PeriodRules
    period_id: int
    lists: Sequence[RatingListRow]  # the category's lists before the period, as used
    previous: RatingListRow | None
    corrections: int  # the last correction the inputs include
    loaded: _Loaded
    results: dict[str, PeriodResult]
    load_s: float
    compute_s: float

    @property
    def entry_count(self) -> int:
        return sum(1 for r in self.results.values() if r.new_rating is not None)

    def outcome(self, state: str) -> CloseOutcome:
        results = self.results.values()
        return CloseOutcome(
            self.rules.category,
            self.rules.period,
            state,
            rule_version=self.rules.version.name,
            entries=self.entry_count,
            first_ratings=sum(1 for r in results if r.is_first_rating),
            below_floor=sum(1 for r in results if r.below_floor),
            players_with_games=len(self.loaded.events),
            games=self.loaded.game_count,
            load_s=self.load_s,
            compute_s=self.compute_s,
        )


def compute(
    session: Session,
    rules: PeriodRules,
    period_id: int,
    lists: Sequence[RatingListRow],
    *,
    corrections: int | None = None,
    written_before: int | None = None,
    track: Track = no_progress,
) -> Computation:
    """Load the period's inputs in a few set-based queries and compute every player.

    ``lists`` are the category's published lists before the period (one revision each, oldest
    first): the last is the list the period starts from, and each tournament is rated with the
    one in force at its start. ``corrections``: the games as they were after that correction
    (default: as they are now, every correction included). ``written_before``: the standard
    lists a rapid or blitz period reads, as they were before that list id (verification).
    """
    started = time.perf_counter()
    if corrections is None:
        corrections = latest_correction(session)
    previous = _previous_list(rules, lists)
    standard_lists = (
        period_repo.lists_of(session, Category.FIDE_STANDARD, written_before=written_before)
        if rules.category in STANDARD_SEEDED
        else []
    )
    loaded = _load(session, rules, period_id, previous, lists, corrections, standard_lists)
    loaded_at = time.perf_counter()
    label = f"{rules.category.value} {rules.period}: players"
    results = {
        player_id: rate_player(rules, status, loaded.events.get(player_id, ()))
        for player_id, status in track(loaded.statuses.items(), label, len(loaded.statuses))
    }
    return Computation(
        rules, period_id, lists, previous, corrections, loaded, results, loaded_at - started,
        time.perf_counter() - loaded_at,
    )  # fmt: skip


def latest_correction(session: Session) -> int:
    """The id of the latest correction (0 before any): what a computation of now includes."""
    return session.scalar(select(func.coalesce(func.max(CorrectionRow.id), 0))) or 0


def publish(
    session: Session,
    computation: Computation,
    *,
    revision: int,
    now: datetime,
    cause: int | None = None,
) -> tuple[RatingListRow, int]:
    """Write a computed period as revision ``revision`` of its list (for the correction
    ``cause``); returns the list and the number of rows written."""
    rules = computation.rules
    rating_list = RatingListRow(
        period_id=computation.period_id,
        category=rules.category.value,
        list_date=rules.period.list_date,
        revision=revision,
        source="close",
        rule_version=rules.version.name,
        published_at=now,
        entry_count=computation.entry_count,
        digest=entries_digest(computation.results),
        cause_correction_id=cause,
        corrections_applied=computation.corrections,
    )
    session.add(rating_list)
    session.flush()
    rows = _write(session, rating_list.id, rules, computation.results, computation.loaded)
    return rating_list, rows


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
    corrections: int,
    standard_lists: Sequence[RatingListRow],
) -> _Loaded:
    merged = _merges(session, corrections)
    statuses = _merge_statuses(_statuses(session, previous), merged)
    games = [
        _PeriodGame(*row)
        for row in session.connection().execute(
            select(
                GameRow.id,
                GameRow.tournament_id,
                GameRow.white_id,
                GameRow.black_id,
                GameRow.result,
                TournamentRow.start_date,
            )
            .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
            .where(
                TournamentRow.period_id == period_id,
                GameRow.rated.is_(True),
                or_(GameRow.created_by.is_(None), GameRow.created_by <= corrections),
                or_(GameRow.superseded_by.is_(None), GameRow.superseded_by > corrections),
            )
            .order_by(
                TournamentRow.start_date, TournamentRow.tournament_id, GameRow.round, GameRow.id
            )
        )
    ]
    players = {row.white_id for row in games} | {row.black_id for row in games}
    # Players without any id are stored and shown, never rated (issue 4): no status, no result.
    newcomers = players - statuses.keys()
    newcomers -= player_repo.unidentified(session, newcomers)
    for player_id, birth_year in player_repo.birth_years(session, newcomers).items():
        statuses[player_id] = PlayerStatus(rating=None, birth_year=birth_year)

    ratings_of = _ratings_used(
        session, rules, games, lists, previous, statuses, merged, standard_lists
    )
    _add_standard_ratings(session, rules, games, statuses, standard_lists)

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
    merged: Mapping[str, str],
    standard_lists: Sequence[RatingListRow],
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
    seed_from = standard_lists if rules.version.standard_seed else []
    cache: dict[int, dict[str, int]] = {}
    if previous is not None:
        cache[previous.id] = {p: s.rating for p, s in statuses.items() if s.rating is not None}

    def ratings_on(rating_list: RatingListRow | None, needed: set[str]) -> dict[str, int]:
        if rating_list is None:
            return {}
        if rating_list.id in cache:
            known = cache[rating_list.id]
            return {p: known[p] for p in needed if p in known}
        # A merged player's games name the player kept; older lists may hold the other record.
        dropped = {drop: keep for drop, keep in merged.items() if keep in needed}
        ratings = _ratings_on(session, rating_list.id, needed | dropped.keys())
        for drop, keep in dropped.items():
            if keep not in ratings and drop in ratings:
                ratings[keep] = ratings[drop]
        return {p: r for p, r in ratings.items() if p in needed}

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
    standard_lists: Sequence[RatingListRow],
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
    wanted: dict[str, date] = {}
    if uplift:
        start_of_period = rules.period.list_date - timedelta(days=1)
        wanted = {p: start_of_period for p, s in statuses.items() if s.rating is not None}
    if version.standard_seed:
        for row in games:  # ordered by start date: the first tournament wins
            for player in (row.white_id, row.black_id):
                status = statuses.get(player)
                if status is not None and status.rating is None:
                    wanted.setdefault(player, row.start_date)
    by_list: dict[int, set[str]] = defaultdict(set)
    for player, day in wanted.items():
        standard_list = period_repo.in_force(standard_lists, day)
        if standard_list is not None:
            by_list[standard_list.id].add(player)
    for list_id, needed in by_list.items():
        for player, rating in _ratings_on(session, list_id, needed).items():
            statuses[player] = dataclasses.replace(statuses[player], standard_rating=rating)


def _merges(session: Session, corrections: int) -> dict[str, str]:
    """Players merged by the corrections up to ``corrections``: dropped record -> kept one."""
    rows = session.scalars(
        select(CorrectionRow.before).where(
            CorrectionRow.kind == "merge", CorrectionRow.id <= corrections
        )
    )
    return {row["drop"]: row["keep"] for row in rows}


def _merge_statuses(
    statuses: dict[str, PlayerStatus], merged: Mapping[str, str]
) -> dict[str, PlayerStatus]:
    """A merged record's standing passes to the player kept, unless that one has its own."""
    for drop, keep in merged.items():
        status = statuses.pop(drop, None)
        if status is not None and keep not in statuses:
            statuses[keep] = status
    return statuses


def _statuses(session: Session, previous: RatingListRow | None) -> dict[str, PlayerStatus]:
    # The bulk reads of a close run on the session's connection (Core rows): the ORM's result
    # rows were a fifth of the load phase of a 500,000-player close (py-spy).
    statuses: dict[str, PlayerStatus] = {}
    if previous is None:
        return statuses
    entries = session.connection().execute(
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
    others = session.connection().execute(
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
        rows = session.connection().execute(
            select(ListEntryRow.player_id, ListEntryRow.rating).where(
                ListEntryRow.list_id == list_id, one_of(session, ListEntryRow.player_id, chunk)
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


ENTRY_KEYS = (
    "list_id", "player_id", "rating", "previous_rating", "change", "games", "k_factor", "k_used",
    "sum_delta", "rated_games", "peak_rating",
)  # fmt: skip
STATUS_KEYS = ("list_id", "player_id", "rated_games", "peak_rating", "pool")
CALCULATION_KEYS = (
    "list_id", "player_id", "game_id", "tournament_id", "rating_used", "opponent_id",
    "opponent_rating_used", "difference", "difference_used", "expected", "score", "delta",
    "rated", "reason", "rule_version",
)  # fmt: skip


def entry_rows(results: Mapping[str, PeriodResult], list_id: int) -> Iterator[tuple[Any, ...]]:
    """The list's entries as rows of ENTRY_KEYS, produced as they are written."""
    for player_id, r in results.items():
        if r.new_rating is None:
            continue
        on_previous_list = r.published_rating is not None
        peak = r.status.peak_rating
        yield (
            list_id,
            player_id,
            r.new_rating,
            r.base_rating if on_previous_list else None,
            r.change if on_previous_list else None,
            r.rated_games,
            r.next_k_factor,
            r.k_factor if r.rated_games else None,
            r.sum_delta if r.rated_games and on_previous_list else None,
            r.status.rated_games,
            r.new_rating if peak is None else peak,
        )


def entries_digest(results: Mapping[str, PeriodResult]) -> str:
    """The digest of the list's canonical content (as services.lists.list_digest computes it
    for an imported list)."""
    canonical = sorted(
        (player_id, rating, previous, change, games, k)
        for _, player_id, rating, previous, change, games, k, *_ in entry_rows(results, 0)
    )
    return digest_of_sorted(canonical)


def _statuses_to_keep(
    results: Mapping[str, PeriodResult], list_id: int
) -> Iterator[tuple[Any, ...]]:
    """Players off the list who have a history: pooling for a first rating, or below the floor."""
    for player_id, r in results.items():
        status = r.status
        if r.new_rating is None and (
            status.pool or status.rated_games or status.peak_rating is not None
        ):
            yield (list_id, player_id, status.rated_games, status.peak_rating,
                   encode_pool(status.pool))  # fmt: skip


def _calculations(
    results: Mapping[str, PeriodResult], list_id: int, version: str, loaded: _Loaded
) -> Iterator[tuple[Any, ...]]:
    for player_id, r in results.items():
        for index, event in enumerate(r.events):
            ids = loaded.game_ids[(player_id, index)]
            tournament_id = loaded.tournament_of[(player_id, index)]
            for game_id, calc in zip(ids, event.games, strict=True):
                game = calc.game
                if game.opponent_id is None:
                    raise AssertionError("every stored game names its opponent")
                reason = calc.not_rated_reason
                yield (
                    list_id, player_id, game_id, tournament_id, event.rating_used,
                    game.opponent_id, game.opponent_rating, calc.difference, calc.difference_used,
                    calc.expected, _POINTS[game.score], calc.delta, calc.rated,
                    None if reason is None else str(reason), version,
                )  # fmt: skip


def _write(
    session: Session,
    list_id: int,
    rules: PeriodRules,
    results: Mapping[str, PeriodResult],
    loaded: _Loaded,
) -> int:
    """Entries, statuses and calculations, streamed into the database (COPY on PostgreSQL)."""
    written = bulk_insert_rows(session, ListEntryRow, ENTRY_KEYS, entry_rows(results, list_id))
    written += bulk_insert_rows(
        session, PlayerStatusRow, STATUS_KEYS, _statuses_to_keep(results, list_id)
    )
    written += bulk_insert_rows(
        session,
        CalculationRow,
        CALCULATION_KEYS,
        _calculations(results, list_id, rules.version.name, loaded),
    )
    return written


__all__ = ["CloseOutcome", "Decimal", "close_period", "decode_pool", "encode_pool"]
