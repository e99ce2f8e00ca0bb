"""Adding a tournament: validate it against what is stored, assign its period (rules.md A7),
store it with its games."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ratingdb.db import bulk_insert
from ratingdb.errors import InputError
from ratingdb.formats.games_csv import TournamentFile, read_games_csv
from ratingdb.models import GameRow, PeriodRow, TournamentRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period, next_period, period_for_end_date
from ratingdb.services.lists import check_period

TOURNAMENT_ID_DIGITS = 6


@dataclass(frozen=True, slots=True)
class ImportedTournament:
    tournament_id: str
    period: Period
    late: bool
    games: int
    rated_games: int

    def as_json(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id,
            "period": str(self.period),
            "late": self.late,
            "games": self.games,
            "rated_games": self.rated_games,
        }


def import_games_csv(
    session: Session, path: Path, category: Category, period: Period | None
) -> ImportedTournament:
    raw = _read_bytes(path)
    tournament = read_games_csv(path)
    return store_tournament(
        session,
        tournament,
        category,
        period,
        digest=hashlib.sha256(raw).hexdigest(),
        source_format="csv",
    )


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", source=str(path)) from None


def store_tournament(
    session: Session,
    tournament: TournamentFile,
    category: Category,
    forced: Period | None,
    *,
    digest: str,
    source_format: str,
) -> ImportedTournament:
    known = player_repo.existing_ids(
        session, {g.white_id for g in tournament.games} | {g.black_id for g in tournament.games}
    )
    for game in tournament.games:
        for player, field in ((game.white_id, "white_id"), (game.black_id, "black_id")):
            if player not in known:
                raise InputError(
                    f"unknown player {player} (import a list or a TRF with this player first)",
                    source=tournament.source,
                    line=game.line,
                    field=field,
                )
    duplicate = session.scalars(
        select(TournamentRow.tournament_id).where(
            TournamentRow.source_digest == digest, TournamentRow.category == category.value
        )
    ).first()
    if duplicate is not None:
        raise InputError(
            f"this file is already imported for {category.value} as tournament {duplicate}",
            source=tournament.source,
        )
    period, late = assign_period(session, category, tournament.end_date, forced)
    period_row = period_repo.get_or_create_period(session, category, period)
    tournament_id = _next_tournament_id(session)
    session.add(
        TournamentRow(
            tournament_id=tournament_id,
            name=tournament.name,
            category=category.value,
            start_date=tournament.start_date,
            end_date=tournament.end_date,
            period_id=period_row.id,
            late=late,
            source_format=source_format,
            source_digest=digest,
        )
    )
    session.flush()
    bulk_insert(
        session,
        GameRow,
        [
            {
                "tournament_id": tournament_id,
                "round": game.round,
                "white_id": game.white_id,
                "black_id": game.black_id,
                "result": game.result,
                "rated": game.played,
            }
            for game in tournament.games
        ],
    )
    rated = sum(1 for game in tournament.games if game.played)
    return ImportedTournament(tournament_id, period, late, len(tournament.games), rated)


def assign_period(
    session: Session, category: Category, end_date: date, forced: Period | None
) -> tuple[Period, bool]:
    """The period a tournament is rated in, and whether it is late (rules.md A7): the first
    period whose closing date is on or after the end date, unless that list is already out."""
    natural = period_for_end_date(category, end_date)
    published = period_repo.published_periods(session, category)
    latest = max(published, default=None)
    if forced is not None:
        check_period(category, forced, field="--period")
        if latest is not None and forced <= latest:
            raise InputError(
                f"{category.value} {forced} is already published (latest list: {latest}); "
                "a published list never changes",
                field="--period",
            )
        if end_date >= forced.list_date:
            raise InputError(
                f"the tournament ends on {end_date.isoformat()}, after the {forced} list date",
                field="--period",
            )
        return forced, latest is not None and natural <= latest
    if latest is None or natural > latest:
        return natural, False
    return next_period(category, latest), True


def _next_tournament_id(session: Session) -> str:
    """``T`` and a zero-padded sequence number, one more than the highest stored."""
    highest = session.scalar(
        select(func.max(TournamentRow.tournament_id)).where(
            TournamentRow.tournament_id.like("T" + "_" * TOURNAMENT_ID_DIGITS)
        )
    )
    number = 1 if highest is None else int(highest[1:]) + 1
    return f"T{number:0{TOURNAMENT_ID_DIGITS}d}"


# --- show ------------------------------------------------------------------------------------


def show_tournament(session: Session, tournament_id: str) -> dict[str, Any]:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise InputError(f"no tournament {tournament_id}", field="ID")
    period_row = session.get(PeriodRow, row.period_id)
    if period_row is None:
        raise AssertionError(f"tournament {tournament_id} has no period")
    games = session.execute(
        select(GameRow.round, GameRow.white_id, GameRow.black_id, GameRow.result, GameRow.rated)
        .where(GameRow.tournament_id == tournament_id)
        .order_by(GameRow.round, GameRow.id)
    )
    return {
        "tournament_id": row.tournament_id,
        "name": row.name,
        "category": row.category,
        "start_date": row.start_date.isoformat(),
        "end_date": row.end_date.isoformat(),
        "period": str(Period.of_list_date(period_row.list_date)),
        "late": row.late,
        "games": [
            {"round": r, "white_id": w, "black_id": b, "result": result, "rated": rated}
            for r, w, b, result, rated in games
        ],
    }
