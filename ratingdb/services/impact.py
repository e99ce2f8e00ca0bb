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
number of players): the close's own loading (services.close.inputs.load) of those players
(``Among``), and the rules core's ``rate_player`` with the period's rule version. Everyone
else's entry is the stored one.

A player's games are found without reading the period's: the stored revision's calculations
hold, per player, the games it was computed from (their primary key starts with the list and
the player); only in the tournaments a correction has touched since that revision (its
``corrections_applied``), the current game rows are read instead (by tournament, through the
current games' index: repositories.period_inputs.played_games_of). The lists are read as the
cascade would have revised them (``_AsRevised``). The players whose entry or status comes out
different are the period's changes; they are the next period's seeds, and their new rows stand
in for the stored ones when a later period reads that list (the revision the cascade would have
published).

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

import json
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from sqlalchemy.orm import Session

from ratingdb.enums import ListSource
from ratingdb.models import RatingListRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import period_inputs
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.period_inputs import Calculated, EntryRow, StatusRow
from ratingdb.rules import Category, Period, PeriodResult, PeriodRules, rate_player
from ratingdb.services.close import STANDARD_SEEDED, encode_pool, entry_rows
from ratingdb.services.close.computation import previous_list
from ratingdb.services.close.inputs import Among, load
from ratingdb.services.close.revision import PeriodImpact
from ratingdb.services.revisions import lists_to_recompute

Change = tuple[str, int | None, int | None]

_JSON = json.JSONEncoder(separators=(",", ":"))


@dataclass(slots=True)
class _Rows:
    """A player's rows on a list: their entry and their status (None: none)."""

    entry: EntryRow | None
    status: StatusRow | None


@dataclass(slots=True)
class Cascade:
    """What the cascade has changed so far: for each list it would have revised, the new rows
    of the players who changed (``revised``), and players to treat as changed on a list whose
    new revision is written already (a replaced imported list: ``seeds``)."""

    #: The correction (the latest): what the periods are loaded as of.
    corrections: int
    #: period id -> players of the games the correction superseded or created in it.
    game_players: dict[int, set[str]]
    #: Players to recompute in every period (birth years changed, merged records).
    everywhere: set[str]
    revised: dict[tuple[Category, date], dict[str, _Rows]] = field(default_factory=dict)
    seeds: dict[tuple[Category, date], set[str]] = field(default_factory=dict)
    #: correction id -> the tournaments corrected after it, by period id.
    touched_after: dict[int, dict[int, frozenset[str]]] = field(default_factory=dict)

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
            {period_id: set(players) for period_id, players in game_players.items()},
            set(everywhere) | merged.keys() | set(merged.values()),
        )

    def touched(self, session: Session, after: int, period_id: int) -> frozenset[str]:
        """The tournaments of the period whose games a correction after ``after`` (up to this
        one) touched."""
        if after not in self.touched_after:
            by_period: dict[int, set[str]] = {}
            for tournament, period in correction_repo.tournaments_corrected_after(
                session, after
            ).items():
                by_period.setdefault(period, set()).add(tournament)
            self.touched_after[after] = {p: frozenset(t) for p, t in by_period.items()}
        return self.touched_after[after].get(period_id, frozenset())

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
    publish: Callable[[RatingListRow, PeriodImpact], None] | None = None,
) -> list[tuple[Category, Period, int, int, tuple[Change, ...]]]:
    """What ``revisions.recalculate(category, first, ...)`` would publish: (category, period,
    from revision, to revision, players changed) for each list revised. The same periods in
    the same order, the same stop (or not, ``through_all``), the same refusal of an imported
    list (unless ``skip_imported``). Nothing written, unless ``publish`` is given: it is
    handed each list revised and what the impact computed of its period, before the next
    period is computed (services.close.revision writes it)."""
    revised: list[tuple[Category, Period, int, int, tuple[Change, ...]]] = []
    for period, current, period_row in lists_to_recompute(
        session, category, first, skip_imported=skip_imported
    ):
        rules = PeriodRules.for_period(category, period)
        computed = _period(session, cascade, rules, period_row.id, current)
        if computed is None:
            if through_all:
                continue
            break
        changed, impact = computed
        if publish is not None:
            publish(current, impact)
        revised.append((category, period, current.revision, current.revision + 1, changed))
    return revised


# --- one period ------------------------------------------------------------------------------


def _period(
    session: Session, cascade: Cascade, rules: PeriodRules, period_id: int, current: RatingListRow
) -> tuple[tuple[Change, ...], PeriodImpact] | None:
    """The players of the period whose entry changes (player, rating before, after), () when
    only statuses of players off the list do, with what was computed; None when nothing
    changes. The new rows of those who changed are kept in ``cascade`` for the later
    periods."""
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
    if not seeds:
        return None
    touched = cascade.touched(session, current.corrections_applied, period_id)
    calculated = Calculated(current.id, touched)
    reached = set(seeds)
    for game in period_inputs.played_games_of(session, period_id, seeds, calculated):
        if game.white_id in seeds:
            reached.add(game.black_id)
        if game.black_id in seeds:
            reached.add(game.white_id)
    # The players of games replaced since the stored revision (by this correction, or by one
    # that changed no list) are recomputed too: the revision written from this stores their
    # calculations with the games as they are now, where the stored ones name the rows
    # replaced; every calculation a revision reads through is then as of its corrections.
    reached |= period_inputs.players_of_games_replaced(
        session, touched, current.corrections_applied
    )
    statuses, loaded = load(
        session, rules, period_id, previous, lists, cascade.corrections, standard_lists,
        Among(reached, calculated, _AsRevised(session, cascade)),
    )  # fmt: skip
    results = {
        player: rate_player(rules, statuses[player], loaded.events.get(player, ()))
        for player in reached
        if player in statuses
    }
    changed = _compare(session, cascade, current, reached, results)
    if changed is None:
        return None
    return changed, PeriodImpact(rules, period_id, frozenset(reached), results, loaded)


class _AsRevised:
    """The lists as the cascade would have published them (close.inputs.ListRows): the stored
    rows, or the new rows of the players it changed. The stored entries read are kept: a
    period reads a list once per tournament rated with it."""

    def __init__(self, session: Session, cascade: Cascade) -> None:
        self.session = session
        self.cascade = cascade
        self.stored: dict[int, dict[str, EntryRow | None]] = {}

    def _revised(self, rating_list: RatingListRow) -> dict[str, _Rows]:
        return self.cascade.revised.get((Category(rating_list.category), rating_list.list_date), {})

    def entries(self, rating_list: RatingListRow, players: Collection[str]) -> dict[str, EntryRow]:
        revised = self._revised(rating_list)
        known = self.stored.setdefault(rating_list.id, {})
        missing = [p for p in players if p not in revised and p not in known]
        if missing:
            found = period_inputs.entries_of(self.session, rating_list.id, missing)
            known.update((player, found.get(player)) for player in missing)
        entries: dict[str, EntryRow] = {}
        for player in players:
            rows = revised.get(player)
            entry = known[player] if rows is None else rows.entry
            if entry is not None:
                entries[player] = entry
        return entries

    def statuses(
        self, rating_list: RatingListRow, players: Collection[str]
    ) -> dict[str, StatusRow]:
        revised = self._revised(rating_list)
        stored = [p for p in players if p not in revised]
        kept = period_inputs.statuses_of(self.session, rating_list.id, stored) if stored else {}
        for player in players:
            rows = revised.get(player)
            if rows is not None and rows.status is not None:
                kept[player] = rows.status
        return kept


# --- the comparison --------------------------------------------------------------------------


def _new_rows(result: PeriodResult | None) -> _Rows:
    """A player's rows on the list a close writes (close.output: entry_rows, the statuses
    kept)."""
    if result is None:
        return _Rows(None, None)
    if result.new_rating is not None:
        (row,) = entry_rows({"": result}, 0)
        return _Rows(tuple(row[2:7]) + tuple(row[9:12]), None)
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
    entries = period_inputs.entries_of(session, current.id, players)
    kept = period_inputs.statuses_of(session, current.id, players)
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


def _as_json(player: str, status: StatusRow | None) -> str | None:
    """A status row as the statuses' digest encodes it (revisions._stored_statuses_digest)."""
    return None if status is None else _JSON.encode([player, *status])


def changed_players(
    session: Session, before: RatingListRow, after: RatingListRow, entries: Iterable[Change]
) -> set[str]:
    """The players whose entry or status differs between two stored revisions of a list
    (``entries``: those whose entry does, as revisions.list_changes gives them)."""
    moved = {player for player, _, _ in entries}
    statuses = [
        period_inputs.statuses_of(session, rating_list.id) for rating_list in (before, after)
    ]
    for player in statuses[0].keys() | statuses[1].keys():
        if _as_json(player, statuses[0].get(player)) != _as_json(player, statuses[1].get(player)):
            moved.add(player)
    return moved


__all__ = ["Cascade", "changed_players", "needs_cascade", "recalculate_impact"]
