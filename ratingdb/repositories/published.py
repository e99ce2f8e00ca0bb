"""Read queries behind the API and the web pages: what ratingdb has published.

Only ``select()`` statements, run in the caller's (read-only) session; nothing here writes or
commits. A list date may carry several revisions of a list (a correction publishes a new
revision; revision 1 is the original list): the queries read the latest revision by default, or
the revision asked for (:func:`is_current` with ``upto``), and give beside each rating the
original one (revision 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any, TypeAlias

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    Row,
    Select,
    and_,
    bindparam,
    case,
    column,
    exists,
    false,
    func,
    inspect,
    or_,
    select,
    table,
    text,
    true,
)
from sqlalchemy.exc import DBAPIError
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


_VERSION = table("alembic_version", column("version_num"))

#: PostgreSQL: the revision, and in the same query whether the database is a standby and,
#: only if it is, how many seconds its replay is behind: 0 when it has replayed all the WAL it
#: received, else the age of the last transaction it replayed (NULL: none replayed since it
#: started). Never negative, whatever the clocks of the primary and the standby say.
_STATE_POSTGRESQL = text(
    "SELECT version_num, in_recovery, "
    "CASE WHEN NOT in_recovery THEN NULL "
    "WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
    "ELSE greatest(0, extract(epoch FROM now() - pg_last_xact_replay_timestamp())) "
    "END::float8 AS lag_seconds "
    "FROM alembic_version, pg_is_in_recovery() AS in_recovery"
)


@dataclass(frozen=True, slots=True)
class Standby:
    """The database read is a PostgreSQL standby (a streaming replica)."""

    #: Seconds its replay is behind what it received (None: nothing replayed yet).
    lag_seconds: float | None


def schema_revision(session: Session) -> str | None:
    """The Alembic revision the database is at (None: never migrated).

    One query where Alembic's own reading takes several (it looks the table up first): the
    API's ``/health`` asks on every call. Only when that query fails is the table looked up,
    to tell a database never migrated (None) from one that cannot be read (the error). The
    session must be one a failed statement does not end (the API's: autocommit on PostgreSQL;
    SQLite)."""
    connection = session.connection()
    try:
        return connection.execute(select(_VERSION.c.version_num)).scalar()
    except DBAPIError:
        if inspect(connection).has_table("alembic_version"):
            raise
        return None


def schema_state(session: Session) -> tuple[str | None, Standby | None]:
    """:func:`schema_revision`, and whether the database is a standby and how far behind (None:
    a primary, or SQLite), in the same one query."""
    connection = session.connection()
    if connection.dialect.name != "postgresql":
        return schema_revision(session), None
    try:
        row = connection.execute(_STATE_POSTGRESQL).first()
    except DBAPIError:
        if inspect(connection).has_table("alembic_version"):
            raise
        return None, None
    if row is None:
        return None, None
    revision, in_recovery, lag_seconds = row
    return revision, Standby(lag_seconds) if in_recovery else None


def is_current(upto: int | ColumnElement[int] | None = None) -> ColumnElement[bool]:
    """``RatingListRow`` is the latest revision of its list (``upto``: the latest revision up
    to that number; combine with ``revision <= upto``)."""
    newer = aliased(RatingListRow)
    condition = exists().where(
        newer.category == RatingListRow.category,
        newer.list_date == RatingListRow.list_date,
        newer.revision > RatingListRow.revision,
    )
    if upto is not None:
        condition = condition.where(newer.revision <= upto)
    return ~condition


def _revision_count() -> ColumnElement[int]:
    """How many revisions the list of ``RatingListRow`` has (1: never corrected)."""
    other = aliased(RatingListRow)
    return (
        select(func.count())
        .where(other.category == RatingListRow.category, other.list_date == RatingListRow.list_date)
        .scalar_subquery()
        .label("revisions")
    )


def _original_list_id() -> ColumnElement[int]:
    """The id of revision 1 (the original list) of the list of ``RatingListRow``."""
    original = aliased(RatingListRow)
    return (
        select(original.id)
        .where(
            original.category == RatingListRow.category,
            original.list_date == RatingListRow.list_date,
            original.revision == 1,
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
        statement = statement.where(RatingListRow.category == category.value)
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
    parameters = {"category": category.value, "list_date": list_date, "revision": revision}
    statement = _FIND_LATEST if revision is None else _FIND_REVISION
    return session.connection().execute(statement, parameters).first()


def list_revisions(session: Session, category: Category, list_date: date) -> list[int]:
    """The revision numbers of a list, oldest first (empty: no such list)."""
    return list(
        session.scalars(
            select(RatingListRow.revision)
            .where(RatingListRow.category == category.value, RatingListRow.list_date == list_date)
            .order_by(RatingListRow.revision)
        )
    )


def latest_revision_of(session: Session, category: Category) -> int | None:
    """The highest revision number of any list of the category (None: no list)."""
    found = session.scalar(
        select(func.max(RatingListRow.revision)).where(RatingListRow.category == category.value)
    )
    return None if found is None else int(found)


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
    list_id: int,
    federation: str | None,
    search: str | None,
    original_list_id: int | None = None,
) -> Select[*tuple[Any, ...]]:
    """The entries of ``list_id`` with their names; with ``original_list_id`` (another list),
    each entry's rating on it too (``original_rating``, None when the player is not on it)."""
    original = aliased(ListEntryRow)
    with_original = original_list_id is not None and original_list_id != list_id
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
            (original.rating if with_original else ListEntryRow.rating).label("original_rating"),
        )
        .join(PlayerRow, PlayerRow.player_id == ListEntryRow.player_id)
        .where(ListEntryRow.list_id == list_id)
    )
    if with_original:
        statement = statement.outerjoin(
            original,
            and_(
                original.list_id == original_list_id, original.player_id == ListEntryRow.player_id
            ),
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


def _page_statement(with_original: bool) -> Select[*tuple[Any, ...]]:
    """One page of a whole list (no filter), built once: the page is cut from the covering
    index ix_list_entries_list_id_rating alone (an index-only scan, however deep the offset),
    and only its entries are then joined to their rows, names and original ratings."""
    page = (
        select(ListEntryRow.player_id, ListEntryRow.rating)
        .where(ListEntryRow.list_id == bindparam("list_id"))
        .order_by(ListEntryRow.rating.desc(), ListEntryRow.player_id)
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
        .subquery("page")
    )
    original = aliased(ListEntryRow)
    statement = (
        select(
            page.c.player_id,
            PlayerRow.name,
            PlayerRow.federation,
            PlayerRow.title,
            page.c.rating,
            ListEntryRow.previous_rating,
            ListEntryRow.change,
            ListEntryRow.games,
            ListEntryRow.k_factor,
            (original.rating if with_original else page.c.rating).label("original_rating"),
        )
        .select_from(page)
        .join(
            ListEntryRow,
            and_(
                ListEntryRow.list_id == bindparam("list_id"),
                ListEntryRow.player_id == page.c.player_id,
            ),
        )
        .join(PlayerRow, PlayerRow.player_id == page.c.player_id)
    )
    if with_original:
        statement = statement.outerjoin(
            original,
            and_(
                original.list_id == bindparam("original_list_id"),
                original.player_id == page.c.player_id,
            ),
        )
    return statement.order_by(page.c.rating.desc(), page.c.player_id)


_PAGE = _page_statement(with_original=False)
_PAGE_WITH_ORIGINAL = _page_statement(with_original=True)


def list_entries(
    session: Session,
    list_id: int,
    *,
    original_list_id: int | None = None,
    federation: str | None,
    search: str | None,
    limit: int,
    offset: int,
) -> Sequence[AnyRow]:
    """One page of the list's entries matching the filters, as published: rating descending,
    then player_id (the order of the index ix_list_entries_list_id_rating); each with its
    ``original_rating`` on ``original_list_id`` (default: the list itself)."""
    if federation is None and search is None:
        with_original = original_list_id is not None and original_list_id != list_id
        return session.connection().execute(
            _PAGE_WITH_ORIGINAL if with_original else _PAGE,
            {"list_id": list_id, "original_list_id": original_list_id, "limit": limit,
             "offset": offset},
        ).all()  # fmt: skip
    statement = _list_entries(list_id, federation, search, original_list_id)
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


_GET_PLAYER = select(*_PLAYER_COLUMNS).where(PlayerRow.player_id == bindparam("player_id"))


def get_player(session: Session, player_id: str) -> AnyRow | None:
    return session.connection().execute(_GET_PLAYER, {"player_id": player_id}).one_or_none()


#: A player's entry on a list, with the figures behind it (the calculation's summary).
_ENTRY_COLUMNS = (
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


@cache
def _player_entries_statement(*, by_category: bool, upto: bool) -> Select[*tuple[Any, ...]]:
    """Built once per shape (the read paths run it for every request)."""
    original_list = aliased(RatingListRow)
    original = aliased(ListEntryRow)
    player_id: BindParameter[str] = bindparam("player_id")
    statement = (
        select(
            RatingListRow.id.label("list_id"),
            RatingListRow.category,
            RatingListRow.list_date,
            RatingListRow.revision,
            RatingListRow.rule_version,
            *_ENTRY_COLUMNS,
            original.rating.label("original_rating"),
        )
        .join(RatingListRow, RatingListRow.id == ListEntryRow.list_id)
        .outerjoin(
            original_list,
            and_(
                original_list.category == RatingListRow.category,
                original_list.list_date == RatingListRow.list_date,
                original_list.revision == 1,
            ),
        )
        .outerjoin(
            original,
            and_(original.list_id == original_list.id, original.player_id == player_id),
        )
        .where(ListEntryRow.player_id == player_id)
    )
    if upto:
        statement = statement.where(
            is_current(bindparam("upto")), RatingListRow.revision <= bindparam("upto")
        )
    else:
        statement = statement.where(is_current())
    if by_category:
        statement = statement.where(RatingListRow.category == bindparam("category"))
    return statement.order_by(RatingListRow.category, RatingListRow.list_date)


def player_entries(
    session: Session, player_id: str, category: Category | None = None, upto: int | None = None
) -> Sequence[AnyRow]:
    """The player's entries on every current list (or, with ``upto``, on the latest revision up
    to ``upto`` of every list), by category then list date (oldest first), each with the
    rating on the original list (``original_rating``, None when the player was not on it)."""
    statement = _player_entries_statement(by_category=category is not None, upto=upto is not None)
    parameters = {"player_id": player_id, "upto": upto,
                  "category": None if category is None else category.value}  # fmt: skip
    return session.connection().execute(statement, parameters).all()


@cache
def _player_calculations_statement(*, of_list: bool) -> Select[*tuple[Any, ...]]:
    opponent = aliased(PlayerRow)
    statement = (
        select(
            CalculationRow.list_id,
            RatingListRow.category,
            RatingListRow.list_date,
            RatingListRow.revision,
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
        .where(CalculationRow.player_id == bindparam("player_id"))
    )
    if of_list:
        statement = statement.where(CalculationRow.list_id == bindparam("list_id"))
    else:
        statement = statement.where(is_current())
    return statement.order_by(
        RatingListRow.category,
        RatingListRow.list_date,
        TournamentRow.start_date,
        CalculationRow.tournament_id,
        GameRow.round,
        CalculationRow.game_id,
    )


def player_calculations(
    session: Session, player_id: str, list_id: int | None = None
) -> Sequence[AnyRow]:
    """The player's game-by-game calculations on every current list (or on ``list_id``), in
    the order they were rated: list date, tournament start, tournament, round."""
    statement = _player_calculations_statement(of_list=list_id is not None)
    return (
        session.connection().execute(statement, {"player_id": player_id, "list_id": list_id}).all()
    )


def _entry_statement() -> Select[*tuple[Any, ...]]:
    original = aliased(ListEntryRow)
    return (
        select(*_ENTRY_COLUMNS, original.rating.label("original_rating"))
        .outerjoin(
            original,
            and_(
                original.list_id == bindparam("original_list_id"),
                original.player_id == ListEntryRow.player_id,
            ),
        )
        .where(
            ListEntryRow.list_id == bindparam("list_id"),
            ListEntryRow.player_id == bindparam("player_id"),
        )
    )


_ENTRY = _entry_statement()
_ORIGINAL_RATING = select(ListEntryRow.rating).where(
    ListEntryRow.list_id == bindparam("list_id"), ListEntryRow.player_id == bindparam("player_id")
)


def entry_on(
    session: Session, list_id: int, player_id: str, original_list_id: int | None = None
) -> AnyRow | None:
    """The player's entry on a list (None: not on it), with ``original_rating``, the rating on
    ``original_list_id`` (default: the list itself)."""
    original = list_id if original_list_id is None else original_list_id
    parameters = {"list_id": list_id, "player_id": player_id, "original_list_id": original}
    return session.connection().execute(_ENTRY, parameters).one_or_none()


def rating_on(session: Session, list_id: int, player_id: str) -> int | None:
    """The player's rating on a list (None: not on it)."""
    found = (
        session.connection()
        .execute(_ORIGINAL_RATING, {"list_id": list_id, "player_id": player_id})
        .scalar()
    )
    return None if found is None else int(found)


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
