"""What a close (and a recalculation, a verification) loads: the period's played games, the
standing of every player on the list it starts from, and ratings on earlier lists.

These bulk reads run on the session's connection and return Core rows: the ORM's result rows
were a fifth of the load phase of a 500,000-player close (py-spy). The big ones are streamed
(``STREAM_BATCH`` rows at a time): read at once, the previous list's two million rows held
more than 200 MB in the driver while they were turned into statuses, memory the process then
kept."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ratingdb.db import raw
from ratingdb.models import GameRow, PlayerRow, PlayerStatusRow, TournamentRow
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import players as list_players

#: Rows a streamed read fetches at a time.
STREAM_BATCH = 20_000


class PeriodGame(NamedTuple):
    """A played game of the period, with its tournament's start date."""

    id: int
    tournament_id: str
    white_id: str
    black_id: str
    result: str
    start_date: date


def played_games(session: Session, period_id: int, corrections: int) -> list[PeriodGame]:
    """The rated games of the period's tournaments as they were after the correction
    ``corrections``, in rating order: tournament start, tournament, round, game.

    A player's id, a tournament's id and start, a result: one object each, shared by every game
    that has it (the driver makes one per row and column: a million games held four million
    strings)."""
    shared: dict[Any, Any] = {}
    same = shared.setdefault
    return [
        PeriodGame(
            game_id,
            same(tournament, tournament),
            same(white, white),
            same(black, black),
            same(result, result),
            same(start, start),
        )
        for game_id, tournament, white, black, result, start in session.connection().execute(
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
            .execution_options(yield_per=STREAM_BATCH)
        )
    ]


def entries_with_birth_years(session: Session, list_id: int) -> Iterator[Any]:
    """(player_id, rating, rated_games, peak_rating, birth_year) of every entry of a list, in
    no particular order: from latest_entries joined to the players when they hold the list (a
    close of the next period), as the driver's tuples, STREAM_BATCH at a time; else from the
    list's chunks (the tuples made and chained in C, not passed through a generator one by
    one)."""
    # One statement: no rows where latest_entries hold another list (or the list is empty).
    held = raw.raw_row_batches(
        session,
        "SELECT l.player_id, l.rating, l.rated_games, l.peak_rating, p.birth_year "
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
        session, list_id, ("player_id", "rating", "rated_games", "peak_rating"),
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
