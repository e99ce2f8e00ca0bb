"""The inputs of a period's computation, loaded in a few set-based queries: the standing of
every player on the list the period starts from, the period's games as events per player, and
the ratings each tournament's players are rated with; or the same inputs of some players only
(``Among``: an impact preview, services.impact)."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Protocol

from sqlalchemy.orm import Session

from ratingdb.models import RatingListRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import period_inputs, player_history
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories.period_inputs import Calculated, EntryRow, PeriodGame, StatusRow
from ratingdb.rules import (
    Category,
    Event,
    Game,
    PeriodRules,
    PlayerStatus,
    Score,
)
from ratingdb.rules.rate_of_play import RateOfPlayCheck
from ratingdb.rules.versions import OneTimeAdjustment
from ratingdb.services.close.eligibility import (
    drop_unrateable,
    drop_unrateable_ratings,
    not_rated_for_rate_of_play,
    rate_of_play_checks,
    unrateable_players,
)
from ratingdb.services.close.statuses import decode_pool, merge_statuses, period_of, statuses_of

#: A played game's result as each side's score.
SCORES = {
    "1-0": (Score.WIN, Score.LOSS),
    "0-1": (Score.LOSS, Score.WIN),
    "1/2-1/2": (Score.DRAW, Score.DRAW),
}


_PLACEHOLDER = Event(games=())


@dataclass(slots=True)
class Loaded:
    """The period's games as each player's events, and where each event's games come from.
    (The players' statuses are handed to the computation apart: it needs them only once.)"""

    events: dict[str, list[Event]]
    game_ids: dict[tuple[str, int], list[int]]  # (player, event index) -> game ids, in order
    tournament_of: dict[tuple[str, int], str]
    game_count: int


class ListRows(Protocol):
    """Where a load of some players reads the rows of published lists (``period_inputs``'
    ``entries_of`` and ``statuses_of``, or services.impact's: the lists as the cascade would
    have revised them)."""

    def entries(self, rating_list: RatingListRow, players: Collection[str]) -> dict[str, EntryRow]:
        """The entries of those of ``players`` on the list."""
        ...

    def statuses(
        self, rating_list: RatingListRow, players: Collection[str]
    ) -> dict[str, StatusRow]:
        """The statuses of those of ``players`` kept off the list with a history."""
        ...


@dataclass(frozen=True, slots=True)
class Among:
    """A load of ``players`` only: their events, their statuses and their opponents' (the
    opponents' events are left out), read as the whole period's load reads them, the games
    found through ``games`` (as they are now: the load is of the latest correction), the lists'
    rows read from ``lists``."""

    players: Collection[str]
    games: Calculated
    lists: ListRows


def load(
    session: Session,
    rules: PeriodRules,
    period_id: int,
    previous: RatingListRow | None,
    lists: Sequence[RatingListRow],
    corrections: int,
    standard_lists: Sequence[RatingListRow],
    among: Among | None = None,
) -> tuple[dict[str, PlayerStatus], Loaded]:
    """Everything the rules core needs to rate the period, as of the correction
    ``corrections``: every player's status, and the events (``among``: of some players)."""
    merged = correction_repo.merges(session, corrections)
    if among is None:
        statuses = merge_statuses(statuses_of(session, previous), merged)
        games = period_inputs.played_games(session, period_id, corrections)
    else:
        games = period_inputs.played_games_of(session, period_id, among.players, among.games)
        statuses = merge_statuses(_statuses_among(session, among, previous, games, merged), merged)
    unrateable = unrateable_players(session, rules.category, games, statuses)
    drop_unrateable(statuses, unrateable)
    _add_newcomers(session, games, statuses, unrateable)
    ratings_of = _ratings_used(
        session, rules, games, lists, previous, statuses, merged, standard_lists, among
    )
    drop_unrateable_ratings(ratings_of, unrateable)
    _add_standard_ratings(session, rules, games, statuses, standard_lists, among)
    # A player deceased on the list's date is left out of it (docs/rules.md §22): not rated,
    # not listed (a marker where the parent listed them); their games still rate opponents.
    for player in player_history.deceased_on(session, rules.period.list_date):
        statuses.pop(player, None)
    loaded = _events(games, ratings_of, rate_of_play_checks(rules.category, games))
    return statuses, loaded if among is None else _only(loaded, among.players)


def _add_newcomers(
    session: Session,
    games: Sequence[PeriodGame],
    statuses: dict[str, PlayerStatus],
    unrateable: Collection[str],
) -> None:
    """A status for each player of the games not on the previous list: unrated, with the
    birth year; none for a player the category does not rate (no status, no result)."""
    players = {row.white_id for row in games} | {row.black_id for row in games}
    newcomers = players - statuses.keys() - set(unrateable)
    for player_id, birth_year in player_repo.birth_years(session, newcomers).items():
        statuses[player_id] = PlayerStatus(rating=None, birth_year=birth_year)


def _events(
    games: Sequence[PeriodGame],
    ratings_of: Mapping[str, Mapping[str, int]],
    checks: Mapping[str, RateOfPlayCheck],
) -> Loaded:
    """The games as events: one per player and tournament, in the order played, each game
    with its opponent's rating used and, when its rate of play is not rated, why; the game ids
    and tournament of each event kept to write the calculations."""
    events: dict[str, list[Event]] = {}
    game_ids: dict[tuple[str, int], list[int]] = {}
    tournament_of: dict[tuple[str, int], str] = {}
    open_event: dict[tuple[str, str], tuple[int, list[Game], list[int]]] = {}
    starts: dict[str, date] = {}
    for row in games:
        ratings = ratings_of[row.tournament_id]
        starts[row.tournament_id] = row.start_date
        white_score, black_score = SCORES[row.result]
        not_rated = not_rated_for_rate_of_play(
            checks.get(row.tournament_id), ratings.get(row.white_id), ratings.get(row.black_id)
        )
        for player, opponent, score in (
            (row.white_id, row.black_id, white_score),
            (row.black_id, row.white_id, black_score),
        ):
            key = (player, row.tournament_id)
            event = open_event.get(key)
            if event is None:
                player_events = events.setdefault(player, [])
                at = (player, len(player_events))  # one key for both maps
                player_events.append(_PLACEHOLDER)  # filled below
                event = open_event[key] = (at[1], [], [])
                game_ids[at] = event[2]
                tournament_of[at] = row.tournament_id
            event[1].append(Game(ratings.get(opponent), score, opponent, not_rated))
            event[2].append(row.id)
    for (player, tournament_id), (index, event_games, _) in open_event.items():
        events[player][index] = Event(
            games=tuple(event_games),
            rating_used=ratings_of[tournament_id].get(player),
            start_date=starts[tournament_id],
            event_id=tournament_id,
        )
    return Loaded(events, game_ids, tournament_of, len(games))


def _ratings_used(
    session: Session,
    rules: PeriodRules,
    games: Sequence[PeriodGame],
    lists: Sequence[RatingListRow],
    previous: RatingListRow | None,
    statuses: Mapping[str, PlayerStatus],
    merged: Mapping[str, str],
    standard_lists: Sequence[RatingListRow],
    among: Among | None,
) -> dict[str, dict[str, int]]:
    """Per tournament, the ratings its players are rated with: the category's list in force at
    the tournament's start (docs/README.md "Words"); in rapid and blitz from 2024-03, a player
    unrated there who has a standard rating on the standard list in force then is rated with it
    (B.02 rapid/blitz §7.2.1)."""
    seed_from = standard_lists if rules.version.standard_seed else []

    def ratings_on(rating_list: RatingListRow | None, needed: set[str]) -> dict[str, int]:
        if rating_list is None:
            return {}
        if previous is not None and rating_list.id == previous.id:
            # The list the period starts from: its ratings are the statuses' (merges applied).
            return {
                p: rating
                for p in needed
                if (status := statuses.get(p)) is not None and (rating := status.rating) is not None
            }
        dropped = merged_records_of(merged, needed)
        ratings = _ratings(session, among, rating_list, needed | dropped.keys())
        return with_merged_records(ratings, dropped, needed)

    return ratings_used_by_tournament(games, lists, seed_from, ratings_on)


class TournamentGame(Protocol):
    """What ``ratings_used_by_tournament`` reads of a game."""

    @property
    def tournament_id(self) -> str: ...
    @property
    def start_date(self) -> date: ...
    @property
    def white_id(self) -> str: ...
    @property
    def black_id(self) -> str: ...


def ratings_used_by_tournament(
    games: Iterable[TournamentGame],
    lists: Sequence[RatingListRow],
    seed_from: Sequence[RatingListRow],
    ratings_on: Callable[[RatingListRow | None, set[str]], dict[str, int]],
) -> dict[str, dict[str, int]]:
    """Per tournament of ``games``, its players' ratings on the list of ``lists`` in force at
    its start, read by ``ratings_on``; with ``seed_from`` (the standard lists, in rapid and
    blitz from 2024-03), a player unrated there is rated with the standard list in force."""
    starts: dict[str, date] = {}
    players: dict[str, set[str]] = defaultdict(set)
    for row in games:
        starts[row.tournament_id] = row.start_date
        players[row.tournament_id].update((row.white_id, row.black_id))
    used: dict[str, dict[str, int]] = {}
    for tournament_id, start in starts.items():
        needed = players[tournament_id]
        ratings = ratings_on(period_repo.in_force(lists, start), needed)
        if seed_from:
            unrated = needed - ratings.keys()
            ratings |= ratings_on(period_repo.in_force(seed_from, start), unrated)
        used[tournament_id] = ratings
    return used


def merged_records_of(merged: Mapping[str, str], needed: set[str]) -> dict[str, str]:
    """The records merged into players of ``needed`` (dropped id -> kept id): a merged
    player's games name the player kept, and older lists may hold the other record."""
    return {drop: keep for drop, keep in merged.items() if keep in needed}


def with_merged_records(
    ratings: dict[str, int], dropped: Mapping[str, str], needed: set[str]
) -> dict[str, int]:
    """The ratings of ``needed``, a kept player without one of their own rated with their
    merged record's."""
    for drop, keep in dropped.items():
        if keep not in ratings and drop in ratings:
            ratings[keep] = ratings[drop]
    return {p: r for p, r in ratings.items() if p in needed}


def _add_standard_ratings(
    session: Session,
    rules: PeriodRules,
    games: Sequence[PeriodGame],
    statuses: dict[str, PlayerStatus],
    standard_lists: Sequence[RatingListRow],
    among: Among | None,
) -> None:
    """Rapid and blitz: the standard rating the core needs for the one-time uplift of
    2022-10-01 (every rated player) and for the standard-rating seed from 2024-03 (unrated
    players with games): the standard list in force at the period's start, or at the player's
    first tournament's start for the seed."""
    for standard_list, needed in standard_ratings_wanted(
        rules, games, statuses, standard_lists, among=None if among is None else among.players
    ):
        for player, rating in _ratings(session, among, standard_list, needed).items():
            statuses[player] = dataclasses.replace(statuses[player], standard_rating=rating)


def _ratings(
    session: Session, among: Among | None, rating_list: RatingListRow, players: Collection[str]
) -> dict[str, int]:
    """The ratings of those of ``players`` on the list (``among``: from its lists' rows)."""
    if among is None:
        return period_inputs.ratings_on(session, rating_list.id, players)
    return {p: int(entry[0]) for p, entry in among.lists.entries(rating_list, players).items()}


def standard_ratings_wanted(
    rules: PeriodRules,
    games: Iterable[TournamentGame],
    statuses: Mapping[str, PlayerStatus],
    standard_lists: Sequence[RatingListRow],
    among: Collection[str] | None = None,
) -> list[tuple[RatingListRow, set[str]]]:
    """The players (of ``among``, when given) whose standard rating the period needs, by the
    standard list to read it from: in rapid and blitz, every rated player for the one-time
    uplift (the list in force at the period's start), and from 2024-03 every unrated player
    with games for the seed (the list in force at their first tournament's start: ``games``
    ordered by start date)."""
    version = rules.version
    uplift = (
        version.one_time_adjustment is OneTimeAdjustment.STANDARD_MINUS_100
        and rules.period.list_date == version.effective_from
    )
    if rules.category is Category.FIDE_STANDARD or not (uplift or version.standard_seed):
        return []
    wanted: dict[str, date] = {}
    if uplift:
        start_of_period = rules.period.list_date - timedelta(days=1)
        wanted = {
            p: start_of_period
            for p, s in statuses.items()
            if s.rating is not None and (among is None or p in among)
        }
    if version.standard_seed:
        for row in games:  # ordered by start date: the first tournament wins
            for player in (row.white_id, row.black_id):
                status = statuses.get(player)
                if (
                    (among is None or player in among)
                    and status is not None
                    and status.rating is None
                ):
                    wanted.setdefault(player, row.start_date)
    by_list: dict[int, tuple[RatingListRow, set[str]]] = {}
    for player, day in wanted.items():
        standard_list = period_repo.in_force(standard_lists, day)
        if standard_list is not None:
            by_list.setdefault(standard_list.id, (standard_list, set()))[1].add(player)
    return list(by_list.values())


def _statuses_among(
    session: Session,
    among: Among,
    previous: RatingListRow | None,
    games: Sequence[PeriodGame],
    merged: Mapping[str, str],
) -> dict[str, PlayerStatus]:
    """As statuses.statuses_of, for ``among``'s players, their opponents in ``games`` and the
    records merged into them."""
    if previous is None:
        return {}
    players = set(among.players)
    players.update(row.white_id for row in games)
    players.update(row.black_id for row in games)
    players |= merged_records_of(merged, players).keys()
    entries = among.lists.entries(previous, players)
    kept = among.lists.statuses(previous, players)
    years = player_repo.birth_years(session, entries.keys() | kept.keys())
    statuses = {
        player_id: PlayerStatus(
            entry[0], entry[5], entry[6], years[player_id], last_rated=period_of(entry[7])
        )
        for player_id, entry in entries.items()
    }
    for player_id, (rated_games, peak, pool) in kept.items():
        statuses[player_id] = PlayerStatus(
            None, rated_games, peak, years[player_id], pool=decode_pool(pool)
        )
    return statuses


def _only(loaded: Loaded, players: Collection[str]) -> Loaded:
    """The events of ``players`` (an opponent's, made of its games with them, are not theirs)."""
    return Loaded(
        {p: events for p, events in loaded.events.items() if p in players},
        {key: ids for key, ids in loaded.game_ids.items() if key[0] in players},
        {key: t for key, t in loaded.tournament_of.items() if key[0] in players},
        loaded.game_count,
    )
