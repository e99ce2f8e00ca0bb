"""The working of a first rating (method, games, points, opponents' average, p, dp), recomputed
with the rules core from what the close stored: the player's pool on the list before and the
period's calculations, under the rule version the calculations name. Nothing of the working is
stored; recomputing it is exact because the core is, and it is checked against the published
rating (``reproduced``) rather than trusted."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.repositories.published import AnyRow
from ratingdb.repositories.published import initial as repo
from ratingdb.rules import Category, Period
from ratingdb.rules.games import Event, Game, Score
from ratingdb.rules.initial import as_decimal, initial_rating, update_pool
from ratingdb.rules.versions import version_named
from ratingdb.services.close.inputs import decode_pool


@dataclass(frozen=True, slots=True)
class InitialWorking:
    method: str
    games: int
    points: Decimal
    opponents_average: Decimal | None  # Ra, to two decimals
    p: Decimal | None
    dp: int | None
    bonus: Decimal | None  # the half-point bonus of the older methods
    capped_at: int | None
    rating: int | None
    #: The recomputed rating is the published one (False: shown, with the discrepancy).
    reproduced: bool

    def as_json(self) -> dict[str, Any]:
        def text(value: Decimal | None) -> str | None:
            return None if value is None else str(value)

        return {
            "method": self.method,
            "games": self.games,
            "points": text(self.points),
            "opponents_average": text(self.opponents_average),
            "p": text(self.p),
            "dp": self.dp,
            "bonus": text(self.bonus),
            "capped_at": self.capped_at,
            "rating": self.rating,
            "reproduced": self.reproduced,
        }


def initial_working(
    session: Session,
    player_id: str,
    category: Category,
    period: Period,
    rule_version: str,
    rows: Sequence[AnyRow],
    published: int,
) -> InitialWorking:
    """The first rating ``published`` on the list of ``period``, worked again from the pool
    before it and the period's rated games (``rows``: the player's calculations there)."""
    version = version_named(rule_version)
    pool = decode_pool(repo.pool_before(session, category, period.list_date, player_id))
    by_event: dict[str, list[Game]] = defaultdict(list)
    for row in rows:
        if row.rated and row.opponent_rating_used is not None:
            by_event[row.tournament_id].append(
                Game(row.opponent_rating_used, Score.from_points(row.score), row.opponent_id)
            )
    events = [Event(tuple(games), event_id=event) for event, games in by_event.items()]
    update = update_pool(version, period, pool, events)
    result = initial_rating(version, [g for pooled in update.pool for g in pooled.games])
    return InitialWorking(
        method=result.method.value,
        games=result.games,
        points=as_decimal(result.points, 1),
        opponents_average=None
        if result.opponents_average is None
        else as_decimal(result.opponents_average),
        p=None if result.p is None else as_decimal(result.p),
        dp=result.dp,
        bonus=None if result.bonus is None else as_decimal(result.bonus, 1),
        capped_at=result.capped_at,
        rating=result.rating,
        reproduced=result.published and result.rating == published,
    )
