"""A tournament, its period and its games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy.orm import Session

from ratingdb.repositories import published as repo
from ratingdb.rules import Category, Period
from ratingdb.services.published.common import NotFound


@dataclass(frozen=True, slots=True)
class TournamentGame:
    round: int
    white_id: str
    white_name: str
    black_id: str
    black_name: str
    result: str
    rated: bool


@dataclass(frozen=True, slots=True)
class Tournament:
    tournament_id: str
    name: str
    category: Category
    start_date: date
    end_date: date
    period: Period
    #: The period's list is out (the games are in its calculations).
    published: bool
    late: bool
    games: tuple[TournamentGame, ...]


def tournament(session: Session, tournament_id: str) -> Tournament:
    found = repo.tournament(session, tournament_id)
    if found is None:
        raise NotFound(f"no tournament {tournament_id}")
    return Tournament(
        tournament_id=found.tournament_id,
        name=found.name,
        category=Category(found.category),
        start_date=found.start_date,
        end_date=found.end_date,
        period=Period.of_list_date(found.list_date),
        published=found.state == "published",
        late=found.late,
        games=tuple(
            TournamentGame(**game._asdict())
            for game in repo.tournament_games(session, tournament_id)
        ),
    )
