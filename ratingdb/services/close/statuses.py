"""The standing of each player on the list a period starts from (its entries, and the players
kept off it with a history), as the close's computation starts from it (services.close.inputs
loads it; an impact preview loads it for some players only, there too)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.models import RatingListRow
from ratingdb.repositories import period_inputs
from ratingdb.rules import Game, Period, PlayerStatus, PooledEvent, Score


def merge_statuses(
    statuses: dict[str, PlayerStatus], merged: Mapping[str, str]
) -> dict[str, PlayerStatus]:
    """A merged record's standing passes to the player kept, unless that one has its own."""
    for drop, keep in merged.items():
        status = statuses.pop(drop, None)
        if status is not None and keep not in statuses:
            statuses[keep] = status
    return statuses


def statuses_of(session: Session, previous: RatingListRow | None) -> dict[str, PlayerStatus]:
    """The standing of every player on the list the period starts from: its entries, and the
    players kept off it with a history."""
    statuses: dict[str, PlayerStatus] = {}
    if previous is None:
        return statuses
    # One int object per value (a few thousand ratings, counts and years), not one per player
    # and column as the driver makes them: a third of the statuses' memory.
    shared: dict[Any, Any] = {}
    same = shared.setdefault
    periods: dict[Any, Period | None] = {None: None}
    for (
        player_id,
        rating,
        rated_games,
        peak,
        last_rated,
        birth_year,
    ) in period_inputs.entries_with_birth_years(session, previous.id):
        last = periods.get(last_rated, _UNSEEN)
        if last is _UNSEEN:
            last = periods[last_rated] = period_of(last_rated)
        statuses[player_id] = PlayerStatus(
            same(rating, rating), same(rated_games, rated_games), same(peak, peak),
            same(birth_year, birth_year), last_rated=last,
        )  # fmt: skip
    for player_id, rated_games, peak, pool, birth_year in period_inputs.statuses_with_birth_years(
        session, previous.id
    ):
        statuses[player_id] = PlayerStatus(
            None, same(rated_games, rated_games), same(peak, peak), same(birth_year, birth_year),
            pool=decode_pool(pool),
        )  # fmt: skip
    return statuses


_UNSEEN: Any = object()


def period_of(last_rated: date | str | None) -> Period | None:
    """The period of a last_rated list date (as the driver reads it: SQLite's gives text)."""
    if last_rated is None:
        return None
    if isinstance(last_rated, str):
        last_rated = date.fromisoformat(last_rated)
    return Period.of_list_date(last_rated)


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
