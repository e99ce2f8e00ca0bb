"""A tournament with its period's list date and state, the tournaments made from the same file,
and its games."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.orm import Session

from ratingdb.models import CorrectionRow, GameRow, PeriodRow, PlayerRow, TournamentRow
from ratingdb.repositories.published.common import AnyRow
from ratingdb.rules import Category


def tournament(session: Session, tournament_id: str) -> AnyRow | None:
    """The tournament with the list date and state of its period."""
    return session.execute(
        select(
            TournamentRow.tournament_id,
            TournamentRow.name,
            TournamentRow.category,
            TournamentRow.start_date,
            TournamentRow.end_date,
            TournamentRow.late,
            TournamentRow.city,
            TournamentRow.federation,
            TournamentRow.time_control,
            TournamentRow.time_control_code,
            TournamentRow.source_format,
            TournamentRow.group_id,
            PeriodRow.list_date,
            PeriodRow.state,
        )
        .join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
        .where(TournamentRow.tournament_id == tournament_id)
    ).one_or_none()


def last_tournament_correction(session: Session, tournament_id: str) -> AnyRow | None:
    """The latest correction of the tournament's file (its reason, when, and what it left:
    ``after``, with ``withdrawn`` when it left no game)."""
    return session.execute(
        select(CorrectionRow.reason, CorrectionRow.created_at, CorrectionRow.after)
        .where(
            CorrectionRow.tournament_id == tournament_id,
            CorrectionRow.kind == "tournament",
        )
        .order_by(CorrectionRow.id.desc())
        .limit(1)
    ).one_or_none()


def linked_tournaments(session: Session, tournament_id: str, group_id: str) -> Sequence[AnyRow]:
    """The other tournaments of the group ``group_id`` (made from one file, one per category;
    the group is named after its first tournament), with their periods' list dates, by id."""
    return session.execute(
        select(TournamentRow.tournament_id, TournamentRow.category, PeriodRow.list_date)
        .join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
        .where(
            or_(TournamentRow.group_id == group_id, TournamentRow.tournament_id == group_id),
            TournamentRow.tournament_id != tournament_id,
        )
        .order_by(TournamentRow.tournament_id)
    ).all()


def _name_of(player_id: Any, label: str) -> Any:
    """The name of the player ``player_id`` (a column of the game), looked up by key for each
    game."""
    found = select(PlayerRow.name).where(PlayerRow.player_id == player_id).correlate(GameRow)
    return found.scalar_subquery().label(label)


#: A game's players' names, each by key, where joining both players made PostgreSQL hash the
#: whole players table twice: 14-19 ms for a tournament of a median 180 games against 4 (a
#: 20,000-player database, 2026-12-05), and growing with the players.
_WHITE_NAME = _name_of(GameRow.white_id, "white_name")
_BLACK_NAME = _name_of(GameRow.black_id, "black_name")


def tournament_games(session: Session, tournament_id: str) -> Sequence[AnyRow]:
    """The tournament's games in force (not superseded by a correction), with the players'
    names, by round then as stored."""
    return session.execute(
        select(
            GameRow.round,
            GameRow.white_id,
            _WHITE_NAME,
            GameRow.black_id,
            _BLACK_NAME,
            GameRow.result,
            GameRow.rated,
        )
        .where(GameRow.tournament_id == tournament_id, GameRow.superseded_by.is_(None))
        .order_by(GameRow.round, GameRow.id)
    ).all()


def tournament_summaries(
    session: Session, category: Category | None, list_date: date | None
) -> Sequence[AnyRow]:
    """Every stored tournament (of the category, of the period dated ``list_date``) with its
    period's list date and how many games it has in force; by period, start date, then id."""
    games = (
        select(GameRow.tournament_id, func.count().label("games"))
        .where(GameRow.superseded_by.is_(None))
        .group_by(GameRow.tournament_id)
        .subquery()
    )
    statement = (
        select(
            TournamentRow.tournament_id,
            TournamentRow.name,
            TournamentRow.category,
            TournamentRow.start_date,
            TournamentRow.end_date,
            PeriodRow.list_date,
            TournamentRow.late,
            func.coalesce(games.c.games, 0).label("games"),
        )
        .join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
        .outerjoin(games, games.c.tournament_id == TournamentRow.tournament_id)
    )
    if category is not None:
        statement = statement.where(TournamentRow.category == category)
    if list_date is not None:
        statement = statement.where(PeriodRow.list_date == list_date)
    return session.execute(
        statement.order_by(
            PeriodRow.list_date, TournamentRow.start_date, TournamentRow.tournament_id
        )
    ).all()


def _in_period(category: str, list_date: date) -> ColumnElement[bool]:
    """The tournaments of the period of ``category`` dated ``list_date`` (joined to it)."""
    return and_(PeriodRow.category == category, PeriodRow.list_date == list_date)


def count_period_tournaments(session: Session, category: str, list_date: date) -> int:
    """How many tournaments the period of ``category`` dated ``list_date`` rates (one indexed
    lookup by ``period_id``: cheap enough for every list page)."""
    return session.execute(
        select(func.count())
        .select_from(TournamentRow)
        .join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
        .where(_in_period(category, list_date))
    ).scalar_one()


def period_tournaments(
    session: Session, category: str, list_date: date, *, limit: int, offset: int
) -> Sequence[AnyRow]:
    """A page of the tournaments rated in the period of ``category`` dated ``list_date``, by
    start date then id, each with its games in force (counted for the page's tournaments
    only, from the games' tournament index)."""
    games = (
        select(func.count())
        .where(
            GameRow.tournament_id == TournamentRow.tournament_id, GameRow.superseded_by.is_(None)
        )
        .correlate(TournamentRow)
        .scalar_subquery()
    )
    return session.execute(
        select(
            TournamentRow.tournament_id,
            TournamentRow.name,
            TournamentRow.start_date,
            TournamentRow.end_date,
            TournamentRow.city,
            TournamentRow.late,
            games.label("games"),
        )
        .join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
        .where(_in_period(category, list_date))
        .order_by(TournamentRow.start_date, TournamentRow.tournament_id)
        .limit(limit)
        .offset(offset)
    ).all()


def tournament_names(session: Session, tournament_ids: Sequence[str]) -> Sequence[AnyRow]:
    """(tournament_id, name) of each of ``tournament_ids`` that exists."""
    if not tournament_ids:
        return ()
    return session.execute(
        select(TournamentRow.tournament_id, TournamentRow.name).where(
            TournamentRow.tournament_id.in_(tournament_ids)
        )
    ).all()
