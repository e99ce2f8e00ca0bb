"""The game-by-game calculations behind a published rating, and a player's entry on one list."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.db.calculation_format_v1 import StoredCalculation
from ratingdb.models import GameRow, PlayerRow, RatingListRow, TournamentRow
from ratingdb.repositories.list_storage import calculations as stored_calculations
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.players import one_of, rows_by_key
from ratingdb.rules import Category


class PlayerCalculation(NamedTuple):
    """A game from the player's side as computed for a list, with what the page shows of its
    list, tournament and opponent."""

    list_id: int
    category: Category
    list_date: date
    revision: int
    tournament_id: str
    tournament_name: str
    start_date: date
    round: int
    opponent_id: str
    opponent_name: str
    rating_used: int | None
    opponent_rating_used: int | None
    difference: int | None
    difference_used: int | None
    expected: Decimal | None
    score: Decimal
    delta: Decimal | None
    rated: bool
    reason: str | None
    rule_version: str | None
    game_id: int


def player_calculations(
    session: Session, player_id: str, list_id: int | None = None
) -> list[PlayerCalculation]:
    """The player's game-by-game calculations on every current list (or on ``list_id``), in
    the order they were rated: list, tournament start, tournament, round. Each is read where
    it is stored (a correction's revision holds only the players it recomputed:
    repositories.list_storage.calculations) and given as the list's it is shown for (its id
    and revision)."""
    # (the list shown, the list stored on, its calculations)
    held: list[tuple[int, int, list[StoredCalculation]]] = []
    if list_id is not None:
        chain, sources = stored_calculations.sources(session, list_id, [player_id])
        source = sources.get(player_id, chain[-1])
        for _, _, calculations in stored_calculations.stored_rows(session, [source], [player_id]):
            held.append((list_id, source, calculations))
    else:
        rows = stored_calculations.player_rows(session, player_id)
        links = stored_calculations.links(session, {stored_on for stored_on, _ in rows})
        revised = stored_calculations.revised_on(session, list(links), [player_id])
        shown = stored_calculations.current_sources(links, revised.get(player_id, set()))
        for stored_on, calculations in rows:
            shown_on = shown.get(stored_on)
            if shown_on is not None:  # else on a revision replaced since, or recomputed later
                held.append((shown_on.id, stored_on, calculations))
    if not held:
        return []
    lists = _lists(session, {i for shown, stored_on, _ in held for i in (shown, stored_on)})
    games = _games(session, player_id, {c.game_id for *_, cs in held for c in cs})
    found_calculations = [
        PlayerCalculation(
            shown,
            lists[shown][0],
            lists[shown][1],
            lists[shown][2],
            *games[c.game_id],
            c.rating_used,
            c.opponent_rating_used,
            c.difference,
            c.difference_used,
            c.expected,
            c.score,
            c.delta,
            c.rated,
            c.reason,
            lists[stored_on][3],
            c.game_id,
        )
        for shown, stored_on, calculations in held
        for c in calculations
    ]
    found_calculations.sort(key=_rating_order)
    return found_calculations


def _rating_order(c: PlayerCalculation) -> tuple[Any, ...]:
    return (c.category, c.list_date, c.start_date, c.tournament_id, c.round, c.game_id)


def _lists(
    session: Session, list_ids: set[int]
) -> dict[int, tuple[Category, date, int, str | None]]:
    """list id -> its category, date, revision and rule version."""
    rows = session.execute(
        select(
            RatingListRow.id,
            RatingListRow.category,
            RatingListRow.list_date,
            RatingListRow.revision,
            RatingListRow.rule_version,
        ).where(one_of(session, RatingListRow.id, sorted(list_ids)))
    )
    return {int(row[0]): (Category(row[1]), row[2], int(row[3]), row[4]) for row in rows}


def _games(
    session: Session, player_id: str, game_ids: set[int]
) -> dict[int, tuple[str, str, date, int, str, str]]:
    """game id -> its tournament (id, name, start), round and the player's opponent (id,
    name). The games, then their tournaments and the opponents, each read by its key: joined
    in one statement, PostgreSQL hashed the whole players table twice and the tournaments
    once for a player's few hundred games (37 ms a page at 20,000 players, and growing with
    them; 2026-12-05)."""
    games = rows_by_key(
        session, GameRow.id, game_ids, GameRow.tournament_id, GameRow.round, GameRow.white_id,
        GameRow.black_id,
    )  # fmt: skip
    if len(games) != len(game_ids):
        raise AssertionError(f"calculations name games not stored: {sorted(game_ids - set(games))}")
    opponents: dict[int, str] = {}
    for game_id, (_, _, white_id, black_id) in games.items():
        if player_id not in (white_id, black_id):
            raise AssertionError(f"game {game_id} is not player {player_id}'s")
        opponents[game_id] = black_id if white_id == player_id else white_id
    tournaments = rows_by_key(
        session, TournamentRow.tournament_id, {row[0] for row in games.values()},
        TournamentRow.name, TournamentRow.start_date,
    )  # fmt: skip
    names = rows_by_key(session, PlayerRow.player_id, set(opponents.values()), PlayerRow.name)
    return {
        int(game_id): (tournament, *tournaments[tournament], int(round_), opponents[game_id],
                       *names[opponents[game_id]])
        for game_id, (tournament, round_, _, _) in games.items()
    }  # fmt: skip


class EntryOn(NamedTuple):
    """A player's entry on a list (its figures and the calculation's summary: K used, sum of
    deltas) and the rating on the original list."""

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
    active: bool


def entry_on(
    session: Session, list_id: int, player_id: str, original_list_id: int | None = None
) -> EntryOn | None:
    """The player's entry on a list (None: not on it), with ``original_rating``, the rating on
    ``original_list_id`` (default: the list itself); both resolved through their ancestry."""
    entry = list_changes.resolve_one(session, list_id, player_id)
    if entry is None:
        return None
    if original_list_id is None or original_list_id == list_id:
        original: int | None = entry.rating
    else:
        original = rating_on(session, original_list_id, player_id)
    return EntryOn(
        entry.rating, entry.previous_rating, entry.change, entry.games, entry.k_factor,
        entry.rated_games, entry.peak_rating, entry.k_used, entry.sum_delta, original,
        entry.active,
    )  # fmt: skip


def rating_on(session: Session, list_id: int, player_id: str) -> int | None:
    """The player's rating on a list (None: not on it)."""
    entry = list_changes.resolve_one(session, list_id, player_id)
    return None if entry is None else entry.rating
