"""A tournament, its period and its games: the one read model behind ``ratingdb tournaments
show`` (:meth:`Tournament.as_json`, the contract's document) and ``/v1/tournaments/{id}`` (the
API's schema is built from it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import PeriodState, TournamentFormat
from ratingdb.repositories import published as repo
from ratingdb.rules import Category, Period
from ratingdb.services.published.common import NotFound


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """A game in force (a correction may have superseded others)."""

    round: int
    white_id: str
    white_name: str
    black_id: str
    black_name: str
    result: str  # as in the games CSV: 1-0, 0-1, 1/2-1/2, or a forfeit +-, -+, --
    rated: bool


@dataclass(frozen=True, slots=True)
class LinkedTournament:
    """A tournament made from the same file for another category."""

    tournament_id: str
    category: Category
    period: Period


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A tournament accepted by mistake and withdrawn by a rating officer: why and when."""

    reason: str
    at: date


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
    city: str | None
    federation: str | None
    time_control: str | None
    time_control_code: str | None
    source_format: TournamentFormat
    linked: tuple[LinkedTournament, ...]
    games: tuple[TournamentGame, ...]
    #: Withdrawn (its games all superseded by a correction that left none), else None.
    withdrawn: Withdrawal | None = None

    def as_json(self) -> dict[str, Any]:
        """The document of ``ratingdb tournaments show`` (contract), keys in its order."""
        return _heading(self) | {
            "city": self.city,
            "federation": self.federation,
            "time_control": self.time_control,
            "time_control_code": self.time_control_code,
            "source_format": self.source_format,
            "linked": [
                {
                    "tournament_id": t.tournament_id,
                    "category": t.category.value,
                    "period": str(t.period),
                }
                for t in self.linked
            ],
            "games": [
                {
                    "round": g.round,
                    "white_id": g.white_id,
                    "black_id": g.black_id,
                    "result": g.result,
                    "rated": g.rated,
                }
                for g in self.games
            ],
        }


def tournament(session: Session, tournament_id: str) -> Tournament:
    """The tournament (NotFound: no such id) with its games in force and its linked ones."""
    found = repo.tournament(session, tournament_id)
    if found is None:
        raise NotFound(f"no tournament {tournament_id}")
    linked = (
        ()
        if found.group_id is None
        else repo.linked_tournaments(session, tournament_id, found.group_id)
    )
    games = tuple(
        TournamentGame(**game._asdict()) for game in repo.tournament_games(session, tournament_id)
    )
    return Tournament(
        tournament_id=found.tournament_id,
        name=found.name,
        category=found.category,
        start_date=found.start_date,
        end_date=found.end_date,
        period=Period.of_list_date(found.list_date),
        published=found.state == PeriodState.PUBLISHED,
        late=found.late,
        city=found.city,
        federation=found.federation,
        time_control=found.time_control,
        time_control_code=found.time_control_code,
        source_format=found.source_format,
        linked=tuple(
            LinkedTournament(row.tournament_id, row.category, Period.of_list_date(row.list_date))
            for row in linked
        ),
        games=games,
        withdrawn=None if games else _withdrawal(session, tournament_id),
    )


def _withdrawal(session: Session, tournament_id: str) -> Withdrawal | None:
    """The withdrawal that left the tournament without games, if that is what its last
    correction did."""
    last = repo.last_tournament_correction(session, tournament_id)
    if last is None or not last.after.get("withdrawn", False):
        return None
    return Withdrawal(last.reason, last.created_at.date())


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A stored tournament without its games (``ratingdb tournaments list``)."""

    tournament_id: str
    name: str
    category: Category
    start_date: date
    end_date: date
    period: Period
    late: bool
    #: Games in force (a correction may have superseded others), forfeits included.
    games: int

    def as_json(self) -> dict[str, Any]:
        return _heading(self) | {"games": self.games}


def tournaments(
    session: Session, category: Category | None = None, period: Period | None = None
) -> tuple[TournamentSummary, ...]:
    """Every stored tournament, published or not (of the category, rated in the period), by
    period, start date, then id: how a tournament's id is found again."""
    rows = repo.tournament_summaries(
        session,
        category,
        None if period is None else period.list_date,
    )
    return tuple(
        TournamentSummary(
            tournament_id=row.tournament_id,
            name=row.name,
            category=row.category,
            start_date=row.start_date,
            end_date=row.end_date,
            period=Period.of_list_date(row.list_date),
            late=row.late,
            games=row.games,
        )
        for row in rows
    )


@dataclass(frozen=True, slots=True)
class PeriodTournament:
    """A tournament rated in a list, as the page of the list's tournaments shows it."""

    tournament_id: str
    name: str
    start_date: date
    end_date: date
    city: str | None
    #: It missed the list its end date belonged to.
    late: bool
    #: Games in force, forfeits included.
    games: int


def count_period_tournaments(session: Session, category: Category, period: Period) -> int:
    """How many tournaments ``period``'s list of ``category`` rated."""
    return repo.count_period_tournaments(session, category.value, period.list_date)


def period_tournaments(
    session: Session, category: Category, period: Period, *, limit: int, offset: int
) -> tuple[int, tuple[PeriodTournament, ...]]:
    """A page of the tournaments ``period``'s list of ``category`` rated, by start date then
    id, and how many there are in all."""
    total = count_period_tournaments(session, category, period)
    rows = repo.period_tournaments(
        session, category.value, period.list_date, limit=limit, offset=offset
    )
    return total, tuple(PeriodTournament(*row) for row in rows)


def tournament_names(session: Session, tournament_ids: Sequence[str]) -> dict[str, str]:
    """The name of each of ``tournament_ids`` that exists, by id."""
    return {row.tournament_id: row.name for row in repo.tournament_names(session, tournament_ids)}


def _heading(tournament: Tournament | TournamentSummary) -> dict[str, Any]:
    """What ``tournaments show`` and ``tournaments list`` both start with, in that order."""
    return {
        "tournament_id": tournament.tournament_id,
        "name": tournament.name,
        "category": tournament.category.value,
        "start_date": tournament.start_date.isoformat(),
        "end_date": tournament.end_date.isoformat(),
        "period": str(tournament.period),
        "late": tournament.late,
    }
