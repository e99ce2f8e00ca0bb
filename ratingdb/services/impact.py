"""The impact of a correction, computed incrementally: the revisions the cascade
(services.revisions.recalculate) would publish, with the same players changed, from the same
ratings to the same ratings, without recomputing whole periods (issue 16).

A published list is what its stored inputs give (``periods verify`` proves it), so a player's
result in a recomputed period can differ from the stored one only if one of its inputs differs:

- their games of the period (a game the correction superseded or created);
- their standing on the list the period starts from (an entry or a status the cascade changed
  on an earlier list);
- a rating a game of theirs is rated with: their own or an opponent's on the list in force at
  the tournament's start (a list the cascade changed; for rapid and blitz also the standard
  list, for the standard seed and the 2022 uplift);
- a merge (a merged record's standing and games pass to the player kept).

So each period is computed for the *seeds* (the players of changed games in that period, every
player whose entry or status changed on an earlier list of the cascade, the players of every
merge) and everyone who played a seed in the period (their expected scores move), reading only
those players' games, standings and ratings (a few set-based queries per period, whatever the
number of players), with the rules core exactly as the close calls it (services.close:
``rate_player`` with the period's rule version, statuses loaded the same way, merged records,
newcomers, the standard seed). Everyone else's entry is the stored one.

A player's games are found without reading the period's: the stored revision's calculations
hold, per player, the games it was computed from (their primary key starts with the list and
the player); only in the tournaments a correction has touched since that revision (its
``corrections_applied``), the current game rows are read instead (by tournament, through the
current games' index). The players whose
entry or status comes out different are the period's changes; they are the next period's
seeds, and their new rows stand in for the stored ones when a later period reads that list
(the revision the cascade would have published).

Each period's changes are compared as ``revisions._changed`` compares a whole list (every
entry column, the statuses of the players off the list), and the cascade stops, or goes
through, where ``recalculate`` does: the revisions reported are the ones the cascade would
publish. Used for dry runs; a correction applied still runs the cascade.

It rests on the stored lists being what the rules now give from their inputs: lists published
under another rule version than the rules now name for their period (the rules changed since)
are recomputed whole by the cascade; the impact refuses to guess and the dry run then runs the
cascade (``needs_cascade``).
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import ListSource
from ratingdb.models import RatingListRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import impact_inputs
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories.impact_inputs import GameOfPeriod
from ratingdb.rules import (
    Category,
    Event,
    Game,
    Period,
    PeriodResult,
    PeriodRules,
    PlayerStatus,
    rate_player,
)
from ratingdb.services.close import STANDARD_SEEDED, decode_pool, encode_pool, entry_rows
from ratingdb.services.close.computation import previous_list
from ratingdb.services.close.inputs import (
    SCORES,
    drop_unrateable,
    drop_unrateable_ratings,
    merged_records_of,
    ratings_used_by_tournament,
    standard_ratings_wanted,
    unrateable_players,
    with_merged_records,
)
from ratingdb.services.revisions import lists_to_recompute

Entry = tuple[Any, ...]  # rating, previous, change, games, k, rated games, peak
Status = tuple[Any, ...]  # rated games, peak, pool (as stored: JSON)
Change = tuple[str, int | None, int | None]

_JSON = json.JSONEncoder(separators=(",", ":"))


@dataclass(slots=True)
class _Rows:
    """A player's rows on a list: their entry and their status (None: none)."""

    entry: Entry | None
    status: Status | None


@dataclass(slots=True)
class Cascade:
    """What the cascade has changed so far: for each list it would have revised, the new rows
    of the players who changed (``revised``), and players to treat as changed on a list whose
    new revision is written already (a replaced imported list: ``seeds``)."""

    corrections: int
    merged: dict[str, str]
    #: period id -> players of the games the correction superseded or created in it.
    game_players: dict[int, set[str]]
    #: Players to recompute in every period (birth years changed, merged records).
    everywhere: set[str]
    revised: dict[tuple[Category, date], dict[str, _Rows]] = field(default_factory=dict)
    seeds: dict[tuple[Category, date], set[str]] = field(default_factory=dict)
    touched_after: dict[int, set[str]] = field(default_factory=dict)

    @classmethod
    def of(
        cls,
        session: Session,
        correction_id: int,
        game_players: Mapping[int, Collection[str]],
        everywhere: Collection[str] = (),
    ) -> Cascade:
        """The cascade of the correction ``correction_id`` (written, with its games):
        ``game_players``, period id -> the players of the games it superseded or created
        there; ``everywhere``: players to recompute in every period besides the merged ones."""
        if correction_id != correction_repo.latest_id(session):
            raise AssertionError("an impact is computed for the latest correction only")
        merged = correction_repo.merges(session, correction_id)
        return cls(
            correction_id,
            merged,
            {period_id: set(players) for period_id, players in game_players.items()},
            set(everywhere) | merged.keys() | set(merged.values()),
        )

    def touched(self, session: Session, after: int) -> set[str]:
        """The tournaments whose games a correction after ``after`` (up to this one) touched."""
        if after not in self.touched_after:
            self.touched_after[after] = impact_inputs.touched_tournaments(session, after)
        return self.touched_after[after]

    def changed_on(self, category: Category, list_date: date) -> set[str]:
        key = (category, list_date)
        return set(self.revised.get(key, ())) | self.seeds.get(key, set())


def needs_cascade(session: Session, firsts: Mapping[Category, Period]) -> bool:
    """Whether a list the cascade may recompute was published under another rule version than
    the one its period has now: then every entry may change, and only the cascade knows."""
    categories = set(firsts)
    if Category.FIDE_STANDARD in firsts:
        categories |= STANDARD_SEEDED
    for category in categories:
        first = firsts.get(category, firsts.get(Category.FIDE_STANDARD))
        if first is None:
            continue
        for rating_list in period_repo.lists_of(session, category):
            if rating_list.list_date < first.list_date or rating_list.source != ListSource.CLOSE:
                continue
            period = Period.of_list_date(rating_list.list_date)
            if PeriodRules.for_period(category, period).version.name != rating_list.rule_version:
                return True
    return False


def recalculate_impact(
    session: Session,
    cascade: Cascade,
    category: Category,
    first: Period,
    *,
    through_all: bool = False,
    skip_imported: bool = False,
) -> list[tuple[Category, Period, int, int, tuple[Change, ...]]]:
    """What ``revisions.recalculate(category, first, ...)`` would publish, nothing written:
    (category, period, from revision, to revision, players changed) for each list revised.
    The same periods in the same order, the same stop (or not, ``through_all``), the same
    refusal of an imported list (unless ``skip_imported``)."""
    revised: list[tuple[Category, Period, int, int, tuple[Change, ...]]] = []
    for period, current, period_row in lists_to_recompute(
        session, category, first, skip_imported=skip_imported
    ):
        rules = PeriodRules.for_period(category, period)
        changed = _period(session, cascade, rules, period_row.id, current)
        if changed is None:
            if through_all:
                continue
            break
        revised.append((category, period, current.revision, current.revision + 1, changed))
    return revised


# --- one period ------------------------------------------------------------------------------


def _period(
    session: Session, cascade: Cascade, rules: PeriodRules, period_id: int, current: RatingListRow
) -> tuple[Change, ...] | None:
    """The players of the period whose entry changes (player, rating before, after), () when
    only statuses of players off the list do, None when nothing does; the new rows of those
    who changed are kept in ``cascade`` for the later periods."""
    category, period = rules.category, rules.period
    lists = [
        row for row in period_repo.lists_of(session, category) if row.list_date < period.list_date
    ]
    previous = previous_list(rules, lists)
    standard_lists = (
        list(period_repo.lists_of(session, Category.FIDE_STANDARD))
        if category in STANDARD_SEEDED
        else []
    )
    seeds = set(cascade.everywhere) | cascade.game_players.get(period_id, set())
    for rating_list in lists:
        seeds |= cascade.changed_on(category, rating_list.list_date)
    for rating_list in standard_lists:
        seeds |= cascade.changed_on(Category.FIDE_STANDARD, rating_list.list_date)
    games, reached = _games(session, cascade, period_id, current, seeds)
    present = reached | {g.white_id for g in games} | {g.black_id for g in games}
    statuses = _statuses(session, cascade, category, previous, present)
    unrateable = unrateable_players(session, category, games, statuses)
    drop_unrateable(statuses, unrateable)
    _add_newcomers(session, games, statuses, unrateable)
    ratings_of = _ratings_used(
        session, cascade, rules, games, lists, previous, statuses, standard_lists
    )
    drop_unrateable_ratings(ratings_of, unrateable)
    computed = {p for p in reached if p in statuses}
    _add_standard_ratings(session, cascade, rules, games, statuses, standard_lists, computed)
    events = _events(games, ratings_of, computed)
    results = {p: rate_player(rules, statuses[p], events.get(p, ())) for p in computed}
    return _compare(session, cascade, current, reached, results)


def _games(
    session: Session,
    cascade: Cascade,
    period_id: int,
    current: RatingListRow,
    seeds: set[str],
) -> tuple[list[GameOfPeriod], set[str]]:
    """The current rated games of the period of the ``seeds`` and of everyone who played one of
    them (the players reached), in rating order (as period_inputs.played_games orders them).

    Read per player, not per period: the games the stored revision was computed from (its
    calculations, by their primary key), but in the tournaments a correction since has touched
    (every game there read as it is now). A player's games differ from those only there."""
    touched = cascade.touched(session, current.corrections_applied)
    touched_games = impact_inputs.current_games_of(session, period_id, touched) if touched else []

    def games_of(players: set[str]) -> list[GameOfPeriod]:
        if not players:
            return []
        found = impact_inputs.calculated_games(session, current.id, players, touched)
        found += [g for g in touched_games if g.white_id in players or g.black_id in players]
        return found

    games = {g.id: g for g in games_of(seeds)}
    reached = set(seeds)
    for game in games.values():
        if game.white_id in seeds:
            reached.add(game.black_id)
        if game.black_id in seeds:
            reached.add(game.white_id)
    games.update((g.id, g) for g in games_of(reached - seeds))
    ordered = sorted(games.values(), key=lambda g: (g.start_date, g.tournament_id, g.round, g.id))
    return ordered, reached


def _rows_on(
    session: Session,
    cascade: Cascade,
    rating_list: RatingListRow,
    players: Collection[str],
    *,
    statuses: bool = True,
) -> tuple[dict[str, Entry], dict[str, Status]]:
    """The entries (and statuses) of ``players`` on the revision of ``rating_list`` the cascade
    would have published: the stored rows, or the new rows of those it changed."""
    revised = cascade.revised.get((Category(rating_list.category), rating_list.list_date), {})
    stored = [p for p in players if p not in revised]
    entries = impact_inputs.entries_of(session, rating_list.id, stored) if stored else {}
    kept = impact_inputs.statuses_of(session, rating_list.id, stored) if stored and statuses else {}
    for player in players:
        rows = revised.get(player)
        if rows is None:
            continue
        if rows.entry is not None:
            entries[player] = rows.entry
        if rows.status is not None and statuses:
            kept[player] = rows.status
    return entries, kept


def _statuses(
    session: Session,
    cascade: Cascade,
    category: Category,
    previous: RatingListRow | None,
    players: Collection[str],
) -> dict[str, PlayerStatus]:
    """The standing of ``players`` on the list the period starts from, as the close loads it
    (close.inputs._statuses, then the merged records)."""
    statuses: dict[str, PlayerStatus] = {}
    if previous is not None:
        entries, kept = _rows_on(session, cascade, previous, players)
        years = player_repo.birth_years(session, entries.keys() | kept.keys())
        for player_id, entry in entries.items():
            statuses[player_id] = PlayerStatus(entry[0], entry[5], entry[6], years[player_id])
        for player_id, (rated_games, peak, pool) in kept.items():
            statuses[player_id] = PlayerStatus(
                None, rated_games, peak, years[player_id], pool=decode_pool(pool)
            )
    for drop, keep in cascade.merged.items():
        status = statuses.pop(drop, None)
        if status is not None and keep not in statuses:
            statuses[keep] = status
    return statuses


def _add_newcomers(
    session: Session,
    games: Sequence[GameOfPeriod],
    statuses: dict[str, PlayerStatus],
    unrateable: Collection[str],
) -> None:
    """As close.inputs._add_newcomers, for the players of ``games``."""
    players = {row.white_id for row in games} | {row.black_id for row in games}
    newcomers = players - statuses.keys() - set(unrateable)
    for player_id, birth_year in player_repo.birth_years(session, newcomers).items():
        statuses[player_id] = PlayerStatus(rating=None, birth_year=birth_year)


def _ratings_used(
    session: Session,
    cascade: Cascade,
    rules: PeriodRules,
    games: Sequence[GameOfPeriod],
    lists: Sequence[RatingListRow],
    previous: RatingListRow | None,
    statuses: Mapping[str, PlayerStatus],
    standard_lists: Sequence[RatingListRow],
) -> dict[str, dict[str, int]]:
    """As close.inputs._ratings_used, for the players of ``games``: per tournament, the
    ratings on the list in force at its start (the previous list's from the statuses), the
    standard seed in rapid and blitz from 2024-03."""
    seed_from = standard_lists if rules.version.standard_seed else []
    on_previous = {p: s.rating for p, s in statuses.items() if s.rating is not None}
    looked_up: dict[int, dict[str, int | None]] = defaultdict(dict)

    def ratings_on(rating_list: RatingListRow | None, needed: set[str]) -> dict[str, int]:
        if rating_list is None:
            return {}
        if previous is not None and rating_list.id == previous.id:
            return {p: on_previous[p] for p in needed if p in on_previous}
        dropped = merged_records_of(cascade.merged, needed)
        known = looked_up[rating_list.id]
        missing = (needed | dropped.keys()) - known.keys()
        if missing:
            entries, _ = _rows_on(session, cascade, rating_list, missing, statuses=False)
            for player in missing:
                entry = entries.get(player)
                known[player] = None if entry is None else int(entry[0])
        ratings = {p: r for p in needed | dropped.keys() if (r := known[p]) is not None}
        return with_merged_records(ratings, dropped, needed)

    return ratings_used_by_tournament(games, lists, seed_from, ratings_on)


def _add_standard_ratings(
    session: Session,
    cascade: Cascade,
    rules: PeriodRules,
    games: Sequence[GameOfPeriod],
    statuses: dict[str, PlayerStatus],
    standard_lists: Sequence[RatingListRow],
    computed: Collection[str],
) -> None:
    """As close.inputs._add_standard_ratings, for the players ``computed``."""
    for standard_list, needed in standard_ratings_wanted(
        rules, games, statuses, standard_lists, among=computed
    ):
        entries, _ = _rows_on(session, cascade, standard_list, needed, statuses=False)
        for player, entry in entries.items():
            statuses[player] = dataclasses.replace(statuses[player], standard_rating=int(entry[0]))


def _events(
    games: Sequence[GameOfPeriod],
    ratings_of: Mapping[str, Mapping[str, int]],
    players: Collection[str],
) -> dict[str, list[Event]]:
    """As close.inputs._events, for ``players``: one event per tournament, in the order
    played, each game with the opponent's rating used."""
    events: dict[str, list[Event]] = {}
    open_event: dict[tuple[str, str], tuple[int, list[Game]]] = {}
    starts: dict[str, date] = {}
    for row in games:
        ratings = ratings_of[row.tournament_id]
        starts[row.tournament_id] = row.start_date
        white_score, black_score = SCORES[row.result]
        for player, opponent, score in (
            (row.white_id, row.black_id, white_score),
            (row.black_id, row.white_id, black_score),
        ):
            if player not in players:
                continue
            key = (player, row.tournament_id)
            if key not in open_event:
                index = len(events.setdefault(player, []))
                events[player].append(Event(games=()))
                open_event[key] = (index, [])
            open_event[key][1].append(Game(ratings.get(opponent), score, opponent))
    for (player, tournament_id), (index, event_games) in open_event.items():
        events[player][index] = Event(
            games=tuple(event_games),
            rating_used=ratings_of[tournament_id].get(player),
            start_date=starts[tournament_id],
            event_id=tournament_id,
        )
    return events


# --- the comparison --------------------------------------------------------------------------


def _new_rows(result: PeriodResult | None) -> _Rows:
    """A player's rows on the list a close writes (close.output: entry_rows, the statuses
    kept)."""
    if result is None:
        return _Rows(None, None)
    if result.new_rating is not None:
        (row,) = entry_rows({"": result}, 0)
        return _Rows(tuple(row[2:7]) + tuple(row[9:11]), None)
    status = result.status
    if status.pool or status.rated_games or status.peak_rating is not None:
        return _Rows(None, (status.rated_games, status.peak_rating, encode_pool(status.pool)))
    return _Rows(None, None)


def _compare(
    session: Session,
    cascade: Cascade,
    current: RatingListRow,
    players: Collection[str],
    results: Mapping[str, PeriodResult],
) -> tuple[Change, ...] | None:
    """As revisions._changed, for ``players`` (everyone else's rows are the stored ones)."""
    entries = impact_inputs.entries_of(session, current.id, players)
    kept = impact_inputs.statuses_of(session, current.id, players)
    changed: list[Change] = []
    revised: dict[str, _Rows] = {}
    statuses_differ = False
    for player in sorted(players):
        new = _new_rows(results.get(player))
        old_entry = entries.get(player)
        old_status = kept.get(player)
        entry_differs = old_entry != new.entry
        status_differs = _as_json(player, old_status) != _as_json(player, new.status)
        if entry_differs:
            changed.append(
                (
                    player,
                    None if old_entry is None else int(old_entry[0]),
                    None if new.entry is None else int(new.entry[0]),
                )
            )
        statuses_differ = statuses_differ or status_differs
        if entry_differs or status_differs:
            revised[player] = new
    if not changed and not statuses_differ:
        return None
    cascade.revised[(Category(current.category), current.list_date)] = revised
    return tuple(changed)


def _as_json(player: str, status: Status | None) -> str | None:
    """A status row as the statuses' digest encodes it (revisions._stored_statuses_digest)."""
    return None if status is None else _JSON.encode([player, *status])


def changed_players(
    session: Session, before: RatingListRow, after: RatingListRow, entries: Iterable[Change]
) -> set[str]:
    """The players whose entry or status differs between two stored revisions of a list
    (``entries``: those whose entry does, as revisions.list_changes gives them)."""
    moved = {player for player, _, _ in entries}
    statuses = [
        impact_inputs.statuses_of(session, rating_list.id, players)
        for rating_list in (before, after)
        for players in [impact_inputs.status_players(session, rating_list.id)]
    ]
    for player in statuses[0].keys() | statuses[1].keys():
        if _as_json(player, statuses[0].get(player)) != _as_json(player, statuses[1].get(player)):
            moved.add(player)
    return moved


__all__ = ["Cascade", "changed_players", "needs_cascade", "recalculate_impact"]
