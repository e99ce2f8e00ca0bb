"""The published lists: their revisions, one page of a list's entries, and every entry of a
list. The list pages' filters and ranks: entry_filter, list_pages and latest_page."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, func, select
from sqlalchemy.orm import Session, aliased

from ratingdb.models import CorrectionRow, RatingListRow, TournamentRow
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.list_storage import players as list_players
from ratingdb.repositories.published.common import (
    PLAYER_COLUMNS,
    SHOWN_FIELDS,
    AnyRow,
    is_current,
)
from ratingdb.repositories.published.entry_filter import EntryFilter
from ratingdb.repositories.published.list_pages import (
    Plan,
    Strategy,
    count_filtered,
    filtered_entries,
)
from ratingdb.rules import Category

#: The other revisions of a list, and its original: one alias each for the process (their
#: columns adapted once, as common.is_current's).
_OTHER = aliased(RatingListRow)
_ORIGINAL = aliased(RatingListRow)


def _revision_count() -> ColumnElement[int]:
    """How many revisions the list of ``RatingListRow`` has (1: never corrected)."""
    return (
        select(func.count())
        .where(
            _OTHER.category == RatingListRow.category, _OTHER.list_date == RatingListRow.list_date
        )
        .scalar_subquery()
        .label("revisions")
    )


def _original_list_id() -> ColumnElement[int]:
    """The id of revision 1 (the original list) of the list of ``RatingListRow``."""
    return (
        select(_ORIGINAL.id)
        .where(
            _ORIGINAL.category == RatingListRow.category,
            _ORIGINAL.list_date == RatingListRow.list_date,
            _ORIGINAL.revision == 1,
        )
        .scalar_subquery()
        .label("original_list_id")
    )


_LIST_COLUMNS = (
    RatingListRow.id,
    RatingListRow.category,
    RatingListRow.list_date,
    RatingListRow.revision,
    RatingListRow.source,
    RatingListRow.rule_version,
    RatingListRow.published_at,
    RatingListRow.entry_count,
    RatingListRow.digest,
    RatingListRow.cause_correction_id,
)


def current_lists(session: Session, category: Category | None) -> Sequence[AnyRow]:
    """The latest revision of every published list with its number of revisions and the id
    of its original, newest list date first."""
    statement = select(*_LIST_COLUMNS, _revision_count(), _original_list_id()).where(is_current())
    if category is not None:
        statement = statement.where(RatingListRow.category == category)
    return session.execute(
        statement.order_by(RatingListRow.list_date.desc(), RatingListRow.category)
    ).all()


def _find_list_statement(*, latest: bool) -> Select[*tuple[Any, ...]]:
    """One revision of a list (``latest``: the highest) with its number of revisions and the id
    of its original, built once: every list page, diff and calculation starts with it."""
    statement = select(*_LIST_COLUMNS, _revision_count(), _original_list_id()).where(
        RatingListRow.category == bindparam("category"),
        RatingListRow.list_date == bindparam("list_date"),
    )
    if latest:
        return statement.order_by(RatingListRow.revision.desc()).limit(1)
    return statement.where(RatingListRow.revision == bindparam("revision"))


_FIND_LATEST = _find_list_statement(latest=True)
_FIND_REVISION = _find_list_statement(latest=False)


def find_list(
    session: Session, category: Category, list_date: date, revision: int | None
) -> AnyRow | None:
    """One revision of a list (None: the latest) with its number of revisions and the id of
    its original; None when there is no such list or revision."""
    parameters = {"category": category, "list_date": list_date, "revision": revision}
    statement = _FIND_LATEST if revision is None else _FIND_REVISION
    return session.connection().execute(statement, parameters).first()


def list_revisions(session: Session, category: Category, list_date: date) -> list[int]:
    """The revision numbers of a list, oldest first (empty: no such list)."""
    return list(
        session.scalars(
            select(RatingListRow.revision)
            .where(RatingListRow.category == category, RatingListRow.list_date == list_date)
            .order_by(RatingListRow.revision)
        )
    )


def latest_revision_of(session: Session, category: Category) -> int | None:
    """The highest revision number of any list of the category (None: no list)."""
    found = session.scalar(
        select(func.max(RatingListRow.revision)).where(RatingListRow.category == category)
    )
    return None if found is None else int(found)


def list_generations(session: Session) -> Sequence[AnyRow]:
    """Per category with a list: how many lists (revisions included) it has and the highest
    list id (``category``, ``lists``, ``last_id``). Lists are never changed or deleted, so
    the count grows with every publication and revision (the highest id too, except when
    two publications commit in the other order than they took their ids)."""
    return session.execute(
        select(
            RatingListRow.category,
            func.count().label("lists"),
            func.max(RatingListRow.id).label("last_id"),
        ).group_by(RatingListRow.category)
    ).all()


def games_generation(session: Session) -> tuple[int, int]:
    """How many tournaments are stored and the latest correction's id (0 before any): what
    moves when games are added (a tournament accepted) or changed (a correction, a merge).
    Tournaments are never deleted, nor corrections, so both only grow."""
    row = session.execute(
        select(
            select(func.count()).select_from(TournamentRow).scalar_subquery(),
            select(func.coalesce(func.max(CorrectionRow.id), 0)).scalar_subquery(),
        )
    ).one()
    return int(row[0]), int(row[1])


def count_list_entries(
    session: Session, list_id: int, *, federation: str | None, search: str | None
) -> int:
    """How many entries of the list match the filters."""
    return count_filtered(session, list_id, EntryFilter(federation=federation, search=search), 0)


def every_entry(
    session: Session, list_id: int, *, yield_per: int
) -> Generator[tuple[Any, ...], None, None]:
    """Every entry of the list as published (rating descending, then player_id), in the
    columns of ``ListEntry``, read from the list's chunks with their players (``yield_per``
    is unused: a chunk batch is 5,000 entries); the caller closes the generator."""
    del yield_per
    fields = (*SHOWN_FIELDS, "player_id")
    for batch in list_players.with_players(session, list_id, fields, PLAYER_COLUMNS[1:]):
        yield from zip(*batch, strict=True)


def list_entries(
    session: Session,
    list_id: int,
    *,
    original_list_id: int | None = None,
    federation: str | None,
    search: str | None,
    limit: int,
    offset: int,
    chosen: Plan | None = None,
) -> Sequence[Any]:
    """One page of the list's entries matching the filters, as published: rating descending,
    then player_id; each with its ``original_rating`` on ``original_list_id`` (default: the
    list itself); read by ``chosen`` (None: list_pages.plan's choice). The whole list's page
    (WHOLE) is cut from its chunks (one or two rows, however deep the offset), its players
    and original ratings read by id; a filtered one is list_pages.filtered_entries'."""
    wanted = EntryFilter(federation=federation, search=search)
    if chosen is None and wanted.is_empty:
        chosen = Plan(Strategy.WHOLE)
    if chosen is not None and chosen.strategy is Strategy.WHOLE:
        if not wanted.is_empty:
            raise ValueError("a WHOLE page keeps every entry: no filter")
        return _page(session, list_id, original_list_id, limit, offset)
    return [
        row[:-2]
        for row in filtered_entries(
            session, list_id, original_list_id=original_list_id, wanted=wanted, list_year=0,
            limit=limit, offset=offset, ranked=False, chosen=chosen,
        )
    ]  # fmt: skip


def _page(
    session: Session, list_id: int, original_list_id: int | None, limit: int, offset: int
) -> list[tuple[Any, ...]]:
    ids, *shown = chunk_reads.page_columns(
        session, list_id, offset, limit, ("player_id", *SHOWN_FIELDS)
    )
    players = list_players.players_by_id(session, ids, PLAYER_COLUMNS[1:])
    with_original = original_list_id is not None and original_list_id != list_id
    original = (
        list_changes.ratings_on(session, original_list_id, ids)
        if with_original and original_list_id is not None
        else dict(zip(ids, shown[0], strict=True))
    )
    return [
        (*figures, player_id, *players[player_id], original.get(player_id))
        for player_id, *figures in zip(ids, *shown, strict=True)
    ]


def every_revision(session: Session) -> Sequence[AnyRow]:
    """Every published revision of every list (the archive, the feed): newest publication
    first, each with its number of revisions and the id of its original."""
    return session.execute(
        select(*_LIST_COLUMNS, _revision_count(), _original_list_id()).order_by(
            RatingListRow.published_at.desc(), RatingListRow.id.desc()
        )
    ).all()
