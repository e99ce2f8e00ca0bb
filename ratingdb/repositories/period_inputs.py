"""What a close (and a recalculation, a verification) loads: the period's played games, the
standing of every player on the list it starts from, and ratings on earlier lists; or the same
rows of some players only (an impact preview, services.impact), one set-based query each.

These bulk reads run on the session's connection and return Core rows: the ORM's result rows
were a fifth of the load phase of a 500,000-player close (py-spy). The big ones are streamed
(``STREAM_BATCH`` rows at a time): read at once, the previous list's two million rows held
more than 200 MB in the driver while they were turned into statuses, memory the process then
kept."""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ratingdb.db import raw
from ratingdb.models import GameRow, PlayerRow, PlayerStatusRow, TournamentRow
from ratingdb.repositories.list_storage import calculations as stored_calculations
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import players as list_players
from ratingdb.repositories.players import chunks, one_of

#: Rows a streamed read fetches at a time.
STREAM_BATCH = 20_000
#: Up to this many players, a restricted load names them in its query of a tournament's games.
FEW_PLAYERS = 100


class PeriodGame(NamedTuple):
    """A played game of the period, with its tournament's start date and encoded time control
    (TRF26 222; None: not given)."""

    id: int
    tournament_id: str
    white_id: str
    black_id: str
    result: str
    start_date: date
    time_control: str | None = None


#: What a load reads of each game (with its round, which orders a restricted load's games).
_GAME_COLUMNS = (
    GameRow.id,
    GameRow.tournament_id,
    GameRow.white_id,
    GameRow.black_id,
    GameRow.result,
    TournamentRow.start_date,
    GameRow.round,
    TournamentRow.time_control_code,
)


def played_games(session: Session, period_id: int, corrections: int) -> list[PeriodGame]:
    """The rated games of the period's tournaments as they were after the correction
    ``corrections``, in rating order: tournament start, tournament, round, game.

    A player's id, a tournament's id and start, a result: one object each, shared by every game
    that has it (the driver makes one per row and column: a million games held four million
    strings)."""
    shared: dict[Any, Any] = {}
    same = shared.setdefault
    rows = session.connection().execute(
        select(*_GAME_COLUMNS)
        .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
        .where(
            TournamentRow.period_id == period_id,
            GameRow.rated.is_(True),
            or_(GameRow.created_by.is_(None), GameRow.created_by <= corrections),
            or_(GameRow.superseded_by.is_(None), GameRow.superseded_by > corrections),
        )
        .order_by(TournamentRow.start_date, TournamentRow.tournament_id, GameRow.round, GameRow.id)
        .execution_options(yield_per=STREAM_BATCH)
    )
    return [
        PeriodGame(
            game_id,
            same(tournament, tournament),
            same(white, white),
            same(black, black),
            same(result, result),
            same(start, start),
            same(control, control),
        )
        for game_id, tournament, white, black, result, start, _, control in rows
    ]


def entries_with_birth_years(session: Session, list_id: int) -> Iterator[Any]:
    """(player_id, rating, rated_games, peak_rating, last_rated, birth_year) of every entry of a
    list (last_rated a date, or its ISO text as SQLite's driver reads it), in
    no particular order: from latest_entries joined to the players when they hold the list (a
    close of the next period), as the driver's tuples, STREAM_BATCH at a time; else from the
    list's chunks (the tuples made and chained in C, not passed through a generator one by
    one)."""
    # One statement: no rows where latest_entries hold another list (or the list is empty).
    held = raw.raw_row_batches(
        session,
        "SELECT l.player_id, l.rating, l.rated_games, l.peak_rating, l.last_rated, p.birth_year "
        "FROM latest_lists AS x JOIN latest_entries AS l ON l.category = x.category "
        "JOIN players AS p ON p.player_id = l.player_id WHERE x.list_id = ?",
        (list_id,),
        STREAM_BATCH,
    )
    first = next(held, None)
    if first:
        return itertools.chain(first, itertools.chain.from_iterable(held))
    held.close()
    batches = list_players.with_players(
        session, list_id, ("player_id", "rating", "rated_games", "peak_rating", "last_rated"),
        (PlayerRow.birth_year,),
    )  # fmt: skip
    return itertools.chain.from_iterable(zip(*batch, strict=True) for batch in batches)


def statuses_with_birth_years(session: Session, list_id: int) -> Iterator[Any]:
    """(player_id, rated_games, peak_rating, pool, birth_year) of the players kept off a list
    with a history (pooling for a first rating, or below the floor)."""
    return iter(
        session.connection().execute(
            select(
                PlayerStatusRow.player_id,
                PlayerStatusRow.rated_games,
                PlayerStatusRow.peak_rating,
                PlayerStatusRow.pool,
                PlayerRow.birth_year,
            )
            .join(PlayerRow, PlayerRow.player_id == PlayerStatusRow.player_id)
            .where(PlayerStatusRow.list_id == list_id)
            .execution_options(yield_per=STREAM_BATCH)
        )
    )


def ratings_on(session: Session, list_id: int, player_ids: Iterable[str]) -> dict[str, int]:
    """The ratings of ``player_ids`` on a list (those who have an entry)."""
    return list_changes.ratings_on(session, list_id, player_ids)


# --- some players only -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Calculated:
    """Where some players' games of a period are found without reading the period's (the games
    have no index by player): the calculations of a stored revision of its list (``list_id``),
    which hold, per player, the games it was computed from (their primary key starts with the
    list and the player); but in the tournaments of the period ``corrected_since`` (a correction
    touched them after that revision), the games as they are now. ``list_id`` None: no revision
    yet (an open period's interim ratings, services.interim): every game is found through
    ``corrected_since``, the tournaments read as they are now."""

    list_id: int | None
    corrected_since: frozenset[str]


def played_games_of(
    session: Session, period_id: int, player_ids: Collection[str], calculated: Calculated
) -> list[PeriodGame]:
    """The current rated games of the period that ``player_ids`` played, in rating order (as
    :func:`played_games`), found through ``calculated``: the revision's calculations of those
    players, and the current games of the tournaments corrected since (read through the current
    games' index: tournament first)."""
    rows: dict[int, Any] = {}
    corrected = sorted(calculated.corrected_since)
    # Each player's calculations where they are stored: a correction's revision holds only the
    # players it recomputed, the others' are the revision's it replaces.
    game_ids: set[int] = set()
    if calculated.list_id is not None:
        held = stored_calculations.calculations_of(session, calculated.list_id, player_ids)
        game_ids = {c.game_id for calculations in held.values() for c in calculations}
    for chunk in chunks(sorted(game_ids)):
        query = (
            select(*_GAME_COLUMNS)
            .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
            .where(GameRow.id.in_(chunk))
        )
        if corrected:
            query = query.where(GameRow.tournament_id.not_in(corrected))
        rows.update((row[0], row) for row in session.connection().execute(query))
    players = set(player_ids)
    # A few players (an interim rating's, a small impact's): only their games leave the
    # database, not every game of their tournaments (a 200-player open is 1,100 games; on
    # PostgreSQL 1.9 ms instead of 5.6-8.4 ms for one player, benchmarks/interim_page.py).
    few = sorted(players) if len(players) <= FEW_PLAYERS else None
    for chunk in chunks(corrected):
        query = (
            select(*_GAME_COLUMNS)
            .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
            .where(
                one_of(session, GameRow.tournament_id, chunk),
                TournamentRow.period_id == period_id,
                GameRow.superseded_by.is_(None),
                GameRow.rated.is_(True),
            )
        )
        if few is not None:
            query = query.where(
                or_(one_of(session, GameRow.white_id, few), one_of(session, GameRow.black_id, few))
            )
        rows.update(
            (row[0], row)
            for row in session.connection().execute(query)
            if row[2] in players or row[3] in players
        )
    ordered = sorted(rows.values(), key=lambda row: (row[5], row[1], row[6], row[0]))
    return [PeriodGame(r[0], r[1], r[2], r[3], r[4], r[5], r[7]) for r in ordered]


def players_of_games_replaced(
    session: Session, tournament_ids: Collection[str], after: int
) -> set[str]:
    """The players of the game rows of the tournaments that a correction after ``after``
    superseded (a revision's calculations stored before name those rows)."""
    found: set[str] = set()
    for chunk in chunks(sorted(tournament_ids)):
        rows = session.connection().execute(
            select(GameRow.white_id, GameRow.black_id)
            .where(one_of(session, GameRow.tournament_id, chunk), GameRow.superseded_by > after)
            .distinct()
        )
        for white, black in rows:
            found.update((white, black))
    return found


def tournaments_played(
    session: Session, period_ids: Collection[int], player_ids: Collection[str]
) -> dict[int, frozenset[str]]:
    """Per period of ``period_ids``, the tournaments in which any of ``player_ids`` played a
    current rated game (the periods' tournaments through their index, then their games through
    the current games' index, tournament first: the games have no index by player)."""
    found: dict[int, set[str]] = {}
    if not period_ids:
        return {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.connection().execute(
            select(TournamentRow.period_id, GameRow.tournament_id)
            .join(TournamentRow, TournamentRow.tournament_id == GameRow.tournament_id)
            .where(
                TournamentRow.period_id.in_(sorted(period_ids)),
                GameRow.superseded_by.is_(None),
                GameRow.rated.is_(True),
                or_(
                    one_of(session, GameRow.white_id, chunk),
                    one_of(session, GameRow.black_id, chunk),
                ),
            )
            .distinct()
        )
        for period_id, tournament_id in rows:
            found.setdefault(period_id, set()).add(tournament_id)
    return {period_id: frozenset(tournaments) for period_id, tournaments in found.items()}


#: A player's entry on a list as a load reads it (list_changes.resolve's, less k_used and
#: sum_delta): rating, previous_rating, change, games, k_factor, rated_games, peak_rating,
#: last_rated.
EntryRow = tuple[Any, ...]
#: A player kept off a list with a history: rated_games, peak_rating, pool (as stored: JSON).
StatusRow = tuple[Any, ...]


def entries_of(session: Session, list_id: int, player_ids: Iterable[str]) -> dict[str, EntryRow]:
    """The entries of those of ``player_ids`` on the list, resolved through its ancestry."""
    return {
        player_id: (*entry[1:6], *entry[8:11])
        for player_id, entry in list_changes.resolve(session, list_id, player_ids).items()
    }


def statuses_of(
    session: Session, list_id: int, player_ids: Iterable[str] | None = None
) -> dict[str, StatusRow]:
    """The statuses of those of ``player_ids`` (default: of everyone) kept off the list with a
    history."""
    query = select(
        PlayerStatusRow.player_id,
        PlayerStatusRow.rated_games,
        PlayerStatusRow.peak_rating,
        PlayerStatusRow.pool,
    ).where(PlayerStatusRow.list_id == list_id)
    if player_ids is None:
        return {row[0]: tuple(row[1:]) for row in session.connection().execute(query)}
    found: dict[str, StatusRow] = {}
    for chunk in chunks(sorted(player_ids)):
        rows = session.connection().execute(
            query.where(one_of(session, PlayerStatusRow.player_id, chunk))
        )
        found.update((row[0], tuple(row[1:])) for row in rows)
    return found
