"""What a tournament's crosstable needs beyond its games: the calculations of its period's
current list (each player's rating used, each game's delta, the K applied) and, before that list
is out, the ratings on the list in force at its start."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields, replace
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import GameRow, RatingListRow, TournamentRow
from ratingdb.repositories.list_storage import calculations as stored_calculations
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.published.common import is_current
from ratingdb.rules import Category


@dataclass(frozen=True, slots=True)
class GameSide:
    """A game from one player's side as computed on a revision of its period's list."""

    player_id: str
    game_id: int
    rating_used: int | None
    opponent_id: str
    opponent_rating_used: int | None
    score: Any
    delta: Any
    rated: bool
    reason: str | None
    revision: int


@dataclass(frozen=True, slots=True)
class CalculationWithEntry(GameSide):
    """A game from one player's side, with the player's entry on the list (``rating``,
    ``previous_rating``, ``k_used``: None when not on it)."""

    rating: int | None
    previous_rating: int | None
    k_used: int | None


#: The fields a game side has whatever else a row carries.
_SIDE = tuple(f.name for f in fields(GameSide))


@dataclass(frozen=True, slots=True)
class _Stored(GameSide):
    """A calculation of the tournament as stored on one revision (``list_id``) of its period's
    list."""

    list_id: int


def tournament_calculations(session: Session, tournament_id: str) -> list[CalculationWithEntry]:
    """The tournament's games as computed on the latest revision of its period's list, from
    each player's side, with the player's entry on that list (``k_used``, ``previous_rating``,
    ``rating``; None when not on it), resolved through the list's ancestry."""
    stored = _stored_calculations(session, tournament_id)
    rows = _on_current_list(session, stored)
    players: dict[int, set[str]] = {}
    for row in rows:
        players.setdefault(row.list_id, set()).add(row.player_id)
    entries = {
        list_id: list_changes.resolve(session, list_id, ids) for list_id, ids in players.items()
    }
    found: list[CalculationWithEntry] = []
    for row in rows:
        entry = entries[row.list_id].get(row.player_id)
        found.append(
            CalculationWithEntry(
                **{name: getattr(row, name) for name in _SIDE},
                rating=None if entry is None else entry[1],
                previous_rating=None if entry is None else entry[2],
                k_used=None if entry is None else entry[6],
            )
        )
    return found


def _stored_calculations(session: Session, tournament_id: str) -> list[_Stored]:
    """The calculations of the tournament's games on every revision of its period's lists, by
    player, round and game."""
    games = {
        int(game_id): (int(round_), white_id, black_id)
        for game_id, round_, white_id, black_id in session.execute(
            select(GameRow.id, GameRow.round, GameRow.white_id, GameRow.black_id).where(
                GameRow.tournament_id == tournament_id
            )
        )
    }
    lists = {
        int(list_id): int(revision)
        for list_id, revision in session.execute(
            select(RatingListRow.id, RatingListRow.revision)
            .join(TournamentRow, TournamentRow.period_id == RatingListRow.period_id)
            .where(TournamentRow.tournament_id == tournament_id)
        )
    }
    players = {player for _, white, black in games.values() for player in (white, black)}
    found: list[tuple[tuple[str, int, int], _Stored]] = []
    for list_id, player_id, calculations in stored_calculations.stored_rows(
        session, lists, players
    ):
        for c in calculations:
            game = games.get(c.game_id)
            if game is None:
                continue  # a game of another tournament of the period
            round_, white_id, black_id = game
            opponent = black_id if white_id == player_id else white_id
            row = _Stored(
                player_id=player_id, game_id=c.game_id, rating_used=c.rating_used,
                opponent_id=opponent, opponent_rating_used=c.opponent_rating_used,
                score=c.score, delta=c.delta, rated=c.rated, reason=c.reason,
                revision=lists[list_id], list_id=list_id,
            )  # fmt: skip
            found.append(((player_id, round_, c.game_id), row))
    found.sort(key=lambda item: item[0])
    return [row for _, row in found]


def _on_current_list(session: Session, rows: Sequence[_Stored]) -> list[_Stored]:
    """The rows (any revision of the period's list) that the current revision shows, each
    player's read where it is stored (a correction's revision holds only the players it
    recomputed: repositories.list_storage.calculations), given as the current revision's (its
    revision and id)."""
    if not rows:
        return []
    lists = stored_calculations.links(session, {int(row.list_id) for row in rows})
    current = max(lists.values(), key=lambda link: link.revision)
    chain = stored_calculations.revision_chain(lists, current.id)
    revised = stored_calculations.revised_on(session, chain[:-1], {row.player_id for row in rows})
    shown: list[_Stored] = []
    for row in rows:
        source = stored_calculations.source_of(chain, revised.get(row.player_id, ()))
        if row.list_id == source:
            shown.append(replace(row, revision=current.revision, list_id=current.id))
    return shown


def ratings_in_force(
    session: Session, category: Category, day: date, player_ids: Collection[str]
) -> dict[str, int]:
    """The players' ratings on the category's list in force on ``day`` (the latest revision of
    the latest list dated on or before it); players not on it are left out."""
    list_id = session.scalar(
        select(RatingListRow.id)
        .where(RatingListRow.category == category, RatingListRow.list_date <= day, is_current())
        .order_by(RatingListRow.list_date.desc())
        .limit(1)
    )
    if list_id is None or not player_ids:
        return {}
    return list_changes.ratings_on(session, list_id, player_ids)
