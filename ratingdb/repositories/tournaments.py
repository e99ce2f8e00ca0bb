"""Tournaments: lookups, the duplicate-file check, new tournament ids, storing one; the back
office's browse (filtered, newest first, a page at a time)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeAlias

from sqlalchemy import Row, Select, func, select
from sqlalchemy.orm import Session

from ratingdb.models import GameRow, PeriodRow, TournamentRow
from ratingdb.rules import Category

TOURNAMENT_ID_DIGITS = 6
#: A result row of any shape (the columns are named in each query).
AnyRow: TypeAlias = Row[*tuple[Any, ...]]


def get(session: Session, tournament_id: str) -> TournamentRow | None:
    return session.get(TournamentRow, tournament_id)


def with_ids(session: Session, tournament_ids: Collection[str]) -> Sequence[TournamentRow]:
    """The tournaments with these ids, by id: the same order whatever order the database keeps
    their rows in (a correction recomputes them in it)."""
    return session.scalars(
        select(TournamentRow)
        .where(TournamentRow.tournament_id.in_(set(tournament_ids)))
        .order_by(TournamentRow.tournament_id)
    ).all()


def imported_from(session: Session, digest: str, category: Category) -> str | None:
    """The tournament already imported from the file of ``digest`` for ``category``, if any."""
    return session.scalars(
        select(TournamentRow.tournament_id).where(
            TournamentRow.source_digest == digest, TournamentRow.category == category
        )
    ).first()


def next_tournament_id(session: Session) -> str:
    """``T`` and a zero-padded sequence number, one more than the highest stored."""
    highest = session.scalar(
        select(func.max(TournamentRow.tournament_id)).where(
            TournamentRow.tournament_id.like("T" + "_" * TOURNAMENT_ID_DIGITS)
        )
    )
    number = 1 if highest is None else int(highest[1:]) + 1
    return f"T{number:0{TOURNAMENT_ID_DIGITS}d}"


def add(session: Session, row: TournamentRow) -> None:
    session.add(row)
    session.flush()


# --- The back office's tournament browser -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Wanted:
    """Which stored tournaments a browse shows (None: any): a category, the rated periods from
    ``first_list`` to ``last_list`` (their list dates, both included), a federation."""

    category: Category | None = None
    first_list: date | None = None
    last_list: date | None = None
    federation: str | None = None


def _matching(statement: Select[*tuple[Any, ...]], wanted: Wanted) -> Select[*tuple[Any, ...]]:
    statement = statement.join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
    if wanted.category is not None:
        statement = statement.where(TournamentRow.category == wanted.category)
    if wanted.first_list is not None:
        statement = statement.where(PeriodRow.list_date >= wanted.first_list)
    if wanted.last_list is not None:
        statement = statement.where(PeriodRow.list_date <= wanted.last_list)
    if wanted.federation is not None:
        statement = statement.where(TournamentRow.federation == wanted.federation)
    return statement


#: Newest first: by start date, then id (a later import first).
_NEWEST_FIRST = (TournamentRow.start_date.desc(), TournamentRow.tournament_id.desc())


def count_matching(session: Session, wanted: Wanted) -> int:
    return int(session.scalar(_matching(select(func.count()).select_from(TournamentRow), wanted))
               or 0)  # fmt: skip


def names_matching(session: Session, wanted: Wanted) -> Sequence[AnyRow]:
    """(tournament_id, name) of every tournament ``wanted``, newest first: what a search by
    name filters (the names' search keys are not stored)."""
    statement = _matching(select(TournamentRow.tournament_id, TournamentRow.name), wanted)
    return session.execute(statement.order_by(*_NEWEST_FIRST)).all()


def _summary_columns() -> tuple[Any, ...]:
    games = (
        select(func.count())
        .where(
            GameRow.tournament_id == TournamentRow.tournament_id, GameRow.superseded_by.is_(None)
        )
        .correlate(TournamentRow)
        .scalar_subquery()
    )
    return (
        TournamentRow.tournament_id,
        TournamentRow.name,
        TournamentRow.category,
        TournamentRow.start_date,
        TournamentRow.end_date,
        PeriodRow.list_date,
        PeriodRow.state,
        TournamentRow.late,
        TournamentRow.federation,
        games.label("games"),
    )


def page_matching(session: Session, wanted: Wanted, *, limit: int, offset: int) -> Sequence[AnyRow]:
    """A page of the tournaments ``wanted``, newest first, each with its period's list date and
    state and its games in force (counted for the page's tournaments only)."""
    statement = _matching(select(*_summary_columns()), wanted)
    return session.execute(statement.order_by(*_NEWEST_FIRST).limit(limit).offset(offset)).all()


def summaries(session: Session, tournament_ids: Collection[str]) -> Sequence[AnyRow]:
    """The tournaments ``tournament_ids`` as :func:`page_matching` gives them, newest first."""
    if not tournament_ids:
        return ()
    statement = select(*_summary_columns()).join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
    statement = statement.where(TournamentRow.tournament_id.in_(list(tournament_ids)))
    return session.execute(statement.order_by(*_NEWEST_FIRST)).all()


def federations(session: Session) -> list[str]:
    """The organising federations stored, in alphabetical order."""
    return list(
        session.scalars(
            select(TournamentRow.federation)
            .where(TournamentRow.federation.is_not(None))
            .distinct()
            .order_by(TournamentRow.federation)
        )
    )
