"""Read queries behind the API and the web pages: what ratingdb has published.

Only ``select()`` statements, run in the caller's (read-only) session; nothing here writes or
commits. A list date may in principle carry several revisions of a list (a correction is a new
revision): every query here reads the latest revision only (:func:`is_current`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    ColumnElement,
    Row,
    Select,
    and_,
    case,
    exists,
    false,
    func,
    or_,
    select,
    true,
)
from sqlalchemy.orm import Session, aliased

from ratingdb.models import (
    CalculationRow,
    GameRow,
    ListEntryRow,
    PeriodRow,
    PlayerRow,
    RatingListRow,
    TournamentRow,
)
from ratingdb.rules import Category

#: A result row of any shape (the columns are named in each query).
AnyRow: TypeAlias = Row[*tuple[Any, ...]]


def schema_revision(session: Session) -> str | None:
    """The Alembic revision the database is at (None: never migrated)."""
    return MigrationContext.configure(session.connection()).get_current_revision()


def is_current() -> ColumnElement[bool]:
    """``RatingListRow`` is the latest revision of its list."""
    newer = aliased(RatingListRow)
    return ~exists().where(
        newer.category == RatingListRow.category,
        newer.list_date == RatingListRow.list_date,
        newer.revision > RatingListRow.revision,
    )


def current_lists(session: Session, category: Category | None) -> Sequence[RatingListRow]:
    """The latest revision of every published list, newest list date first."""
    statement = select(RatingListRow).where(is_current())
    if category is not None:
        statement = statement.where(RatingListRow.category == category.value)
    return session.scalars(
        statement.order_by(RatingListRow.list_date.desc(), RatingListRow.category)
    ).all()


def name_matches(words: Sequence[str]) -> ColumnElement[bool]:
    """Every word occurs in the player's name, ignoring case (SQLite folds ASCII letters only)."""
    if not words:
        return true()
    lowered = func.lower(PlayerRow.name)
    return and_(*(lowered.contains(word.lower(), autoescape=True) for word in words))


def player_matches(text: str) -> ColumnElement[bool]:
    """A search: a player id starting with ``text`` (when it is digits), or a name holding
    every word of ``text``."""
    words = text.replace(",", " ").split()
    by_name = name_matches(words) if words else false()
    if text.isdigit():
        return or_(PlayerRow.player_id.startswith(text, autoescape=True), by_name)
    return by_name


def _count(session: Session, statement: Select[*tuple[Any, ...]]) -> int:
    total = session.scalar(select(func.count()).select_from(statement.subquery()))
    return int(total or 0)


def _list_entries(
    list_id: int, federation: str | None, search: str | None
) -> Select[*tuple[Any, ...]]:
    statement = (
        select(
            ListEntryRow.player_id,
            PlayerRow.name,
            PlayerRow.federation,
            PlayerRow.title,
            ListEntryRow.rating,
            ListEntryRow.previous_rating,
            ListEntryRow.change,
            ListEntryRow.games,
            ListEntryRow.k_factor,
        )
        .join(PlayerRow, PlayerRow.player_id == ListEntryRow.player_id)
        .where(ListEntryRow.list_id == list_id)
    )
    if federation is not None:
        statement = statement.where(PlayerRow.federation == federation)
    if search is not None:
        statement = statement.where(player_matches(search))
    return statement


def count_list_entries(
    session: Session, list_id: int, *, federation: str | None, search: str | None
) -> int:
    """How many entries of the list match the filters."""
    return _count(session, _list_entries(list_id, federation, search))


def list_entries(
    session: Session,
    list_id: int,
    *,
    federation: str | None,
    search: str | None,
    limit: int,
    offset: int,
) -> Sequence[AnyRow]:
    """One page of the list's entries matching the filters, as published: rating descending,
    then player_id (the order of the index ix_list_entries_list_id_rating)."""
    statement = _list_entries(list_id, federation, search)
    return session.execute(
        statement.order_by(ListEntryRow.rating.desc(), ListEntryRow.player_id)
        .limit(limit)
        .offset(offset)
    ).all()


_PLAYER_COLUMNS = (
    PlayerRow.player_id,
    PlayerRow.name,
    PlayerRow.federation,
    PlayerRow.sex,
    PlayerRow.birth_year,
    PlayerRow.title,
)


def search_players(
    session: Session, *, search: str | None, federation: str | None, limit: int, offset: int
) -> tuple[int, Sequence[AnyRow]]:
    """Players matching the filters (total, one page): an exact id first, then by name."""
    statement = select(*_PLAYER_COLUMNS)
    if search is not None:
        statement = statement.where(player_matches(search))
    if federation is not None:
        statement = statement.where(PlayerRow.federation == federation)
    total = _count(session, statement)
    exact_first = case((PlayerRow.player_id == (search or ""), 0), else_=1)
    rows = session.execute(
        statement.order_by(exact_first, PlayerRow.name, PlayerRow.player_id)
        .limit(limit)
        .offset(offset)
    ).all()
    return total, rows


def get_player(session: Session, player_id: str) -> AnyRow | None:
    return session.execute(
        select(*_PLAYER_COLUMNS).where(PlayerRow.player_id == player_id)
    ).one_or_none()


def player_entries(
    session: Session, player_id: str, category: Category | None = None
) -> Sequence[AnyRow]:
    """The player's entries on every current list, by category then list date (oldest first)."""
    statement = (
        select(
            RatingListRow.id.label("list_id"),
            RatingListRow.category,
            RatingListRow.list_date,
            RatingListRow.rule_version,
            ListEntryRow.rating,
            ListEntryRow.previous_rating,
            ListEntryRow.change,
            ListEntryRow.games,
            ListEntryRow.k_factor,
            ListEntryRow.k_used,
            ListEntryRow.sum_delta,
            ListEntryRow.rated_games,
            ListEntryRow.peak_rating,
        )
        .join(RatingListRow, RatingListRow.id == ListEntryRow.list_id)
        .where(ListEntryRow.player_id == player_id, is_current())
    )
    if category is not None:
        statement = statement.where(RatingListRow.category == category.value)
    return session.execute(
        statement.order_by(RatingListRow.category, RatingListRow.list_date)
    ).all()


def player_calculations(
    session: Session, player_id: str, list_id: int | None = None
) -> Sequence[AnyRow]:
    """The player's game-by-game calculations on every current list (or on ``list_id``), in
    the order they were rated: list date, tournament start, tournament, round."""
    opponent = aliased(PlayerRow)
    statement = (
        select(
            CalculationRow.list_id,
            RatingListRow.category,
            RatingListRow.list_date,
            CalculationRow.tournament_id,
            TournamentRow.name.label("tournament_name"),
            TournamentRow.start_date,
            GameRow.round,
            CalculationRow.opponent_id,
            opponent.name.label("opponent_name"),
            CalculationRow.rating_used,
            CalculationRow.opponent_rating_used,
            CalculationRow.difference,
            CalculationRow.difference_used,
            CalculationRow.expected,
            CalculationRow.score,
            CalculationRow.delta,
            CalculationRow.rated,
            CalculationRow.reason,
            CalculationRow.rule_version,
        )
        .join(RatingListRow, RatingListRow.id == CalculationRow.list_id)
        .join(GameRow, GameRow.id == CalculationRow.game_id)
        .join(TournamentRow, TournamentRow.tournament_id == CalculationRow.tournament_id)
        .join(opponent, opponent.player_id == CalculationRow.opponent_id)
        .where(CalculationRow.player_id == player_id)
    )
    if list_id is None:
        statement = statement.where(is_current())
    else:
        statement = statement.where(CalculationRow.list_id == list_id)
    return session.execute(
        statement.order_by(
            RatingListRow.category,
            RatingListRow.list_date,
            TournamentRow.start_date,
            CalculationRow.tournament_id,
            GameRow.round,
            CalculationRow.game_id,
        )
    ).all()


def entry_on(session: Session, list_id: int, player_id: str) -> ListEntryRow | None:
    return session.get(ListEntryRow, (list_id, player_id))


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
            PeriodRow.list_date,
            PeriodRow.state,
        )
        .join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
        .where(TournamentRow.tournament_id == tournament_id)
    ).one_or_none()


def tournament_games(session: Session, tournament_id: str) -> Sequence[AnyRow]:
    white = aliased(PlayerRow)
    black = aliased(PlayerRow)
    return session.execute(
        select(
            GameRow.round,
            GameRow.white_id,
            white.name.label("white_name"),
            GameRow.black_id,
            black.name.label("black_name"),
            GameRow.result,
            GameRow.rated,
        )
        .join(white, white.player_id == GameRow.white_id)
        .join(black, black.player_id == GameRow.black_id)
        .where(GameRow.tournament_id == tournament_id, GameRow.superseded_by.is_(None))
        .order_by(GameRow.round, GameRow.id)
    ).all()
