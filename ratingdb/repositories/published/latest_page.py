"""A filtered page of the list latest_entries hold (each category's latest list, one row per
player: ratingdb.repositories.list_storage.latest), read there in one statement with its
players and the ranks of its ratings, its entries then resolved through the list's ancestry
(list_storage.changes.resolve)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, func, literal, select
from sqlalchemy.orm import Session

from ratingdb.db.chunks import ENTRY
from ratingdb.models import LatestEntryRow, LatestListRow, PlayerRow
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.repositories.published.common import PLAYER_COLUMNS, SHOWN_FIELDS
from ratingdb.repositories.published.entry_filter import EntryFilter, bound_filter, latest_active


def _held_category() -> ColumnElement[Any]:
    """The category whose latest_entries hold the list ``:list_id`` (NULL: none)."""
    return (
        select(LatestListRow.category)
        .where(LatestListRow.list_id == bindparam("list_id"))
        .scalar_subquery()
    )


def _latest_kept(conditions: Sequence[ColumnElement[bool]]) -> Select[Any]:
    """The entries of the latest_entries holding the list ``:list_id`` whose players the
    conditions keep (none when latest_entries hold another list)."""
    return (
        select(LatestEntryRow.player_id, LatestEntryRow.rating, *PLAYER_COLUMNS[1:])
        .join(PlayerRow, PlayerRow.player_id == LatestEntryRow.player_id)
        .where(LatestEntryRow.category == _held_category(), *conditions)
    )


def _ranks_above(page: Any, federation: bool, active: bool) -> Any:
    """Per rating of the page (``rating``, ``above``): how many entries of the held
    latest_entries (of the federation ``:rank_federation``'s players; ``active``: of the
    players active on the list) are rated above it,
    counted in the page's rating range per rating and above it in one count, summed by a
    window over the ratings (the index (category, rating, player_id) read once over the
    range)."""

    def counting(*columns: Any) -> Select[Any]:
        statement = (
            select(*columns)
            .select_from(LatestEntryRow)
            .where(LatestEntryRow.category == _held_category())
        )
        if active:
            statement = statement.where(latest_active())
        if federation:
            statement = statement.join(
                PlayerRow, PlayerRow.player_id == LatestEntryRow.player_id
            ).where(PlayerRow.federation == bindparam("rank_federation"))
        return statement

    lowest = select(func.min(page.c.rating)).scalar_subquery()
    highest = select(func.max(page.c.rating)).scalar_subquery()
    beyond = counting(func.count()).where(LatestEntryRow.rating > highest).scalar_subquery()
    counts = (
        counting(LatestEntryRow.rating, func.count().label("n"))
        .where(LatestEntryRow.rating >= lowest, LatestEntryRow.rating <= highest)
        .group_by(LatestEntryRow.rating)
        .subquery()
    )
    running = func.sum(counts.c.n).over(order_by=counts.c.rating.desc())
    return select(counts.c.rating, (beyond + running - counts.c.n).label("above")).subquery()


#: The statements of :func:`_latest_page_statement` and :func:`_latest_count_statement` by
#: their shape (built once: building one costs about 2 ms of CPU, more than the page's read).
_STATEMENTS: dict[tuple[Any, ...], Select[Any]] = {}


def _built(key: tuple[Any, ...] | None, build: Callable[[], Select[Any]]) -> Select[Any]:
    if key is None:
        return build()
    statement = _STATEMENTS.get(key)
    if statement is None:
        statement = _STATEMENTS[key] = build()
    return statement


def _latest_count_statement(
    conditions: Sequence[ColumnElement[bool]], players: bool
) -> Select[Any]:
    """Whether latest_entries hold the list ``:list_id`` (the category, NULL: not), and how
    many of their entries the conditions keep; ``players``: the conditions are on the players
    too (else latest_entries alone are counted: every entry has its player, a foreign key, and
    joining the players table to count 486,637 active entries took 750 ms, the count alone
    about 60 ms; PostgreSQL, a loaded host, 2026-12-04)."""
    if players:
        kept = _latest_kept(conditions).subquery()
    else:
        kept = (
            select(LatestEntryRow.player_id)
            .where(LatestEntryRow.category == _held_category(), *conditions)
            .subquery()
        )
    return select(_held_category(), select(func.count()).select_from(kept).scalar_subquery())


def latest_count(session: Session, list_id: int, wanted: EntryFilter, list_year: int) -> int | None:
    """How many entries of the list the filter keeps, counted in latest_entries (one
    statement: whether they hold the list, and the count there); None: they hold another."""
    shape, conditions, parameters = bound_filter(wanted, list_year)
    players = wanted.asks_players
    statement = _built(
        None if shape is None else ("count", shape, players),
        lambda: _latest_count_statement(conditions, players),
    )
    parameters["list_id"] = list_id
    held, count = session.connection().execute(statement, parameters).one()
    return None if held is None else int(count)


def _latest_page_statement(
    conditions: Sequence[ColumnElement[bool]],
    postgresql: bool,
    world: bool,
    federation: bool,
    active: bool,
) -> Select[Any]:
    """The page of :func:`_latest_kept` (``:limit`` from ``:offset``, list order), with the
    world rank's and the federation rank's counts above (``world``, ``federation``) when
    wanted: one statement (SQLAlchemy caches its compiled form per filter shape)."""
    player_id: Any = LatestEntryRow.player_id
    if postgresql:
        player_id = player_id.collate("C")  # list order: code point order of the ids
    page = (
        _latest_kept(conditions)
        .order_by(LatestEntryRow.rating.desc(), player_id)
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
        .cte("page")
    )
    columns: list[Any] = list(page.c)
    joined: Any = page
    for wanted, name in ((world, "world"), (federation, "federation")):
        if wanted:
            above = _ranks_above(page, name == "federation", active)
            joined = joined.join(above, above.c.rating == page.c.rating)
            columns.append(above.c.above.label(f"{name}_above"))
        else:
            columns.append(literal(None).label(f"{name}_above"))
    return select(*columns).select_from(joined)


def latest_page(
    session: Session,
    list_id: int,
    original_list_id: int | None,
    wanted: EntryFilter,
    list_year: int,
    limit: int,
    offset: int,
    *,
    ranked: bool,
) -> list[tuple[Any, ...]] | None:
    """filtered_entries of the list latest_entries hold (None: they hold another list): the
    page read there joined to the players in list order and, ``ranked``, the counts above
    each rating, in one statement; then the page's entries resolved through the list's
    ancestry (list_storage.changes.resolve, one statement). A federation's first page ranks
    its rows in the federation by their places. Only an empty page asks whether
    latest_entries hold the list. Without ``ranked`` the two ranks are None."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    first_of_federation = (
        wanted.federation is not None
        and offset == 0
        and wanted == EntryFilter(federation=wanted.federation, active_since=wanted.active_since)
    )
    rank_federation = ranked and wanted.federation is not None and not first_of_federation
    shape, conditions, parameters = bound_filter(wanted, list_year)
    statement = _built(
        None if shape is None else ("page", shape, postgresql, ranked, rank_federation),
        lambda: _latest_page_statement(
            conditions,
            postgresql,
            world=ranked,
            federation=rank_federation,
            active=wanted.active_since is not None,
        ),
    )
    parameters |= {
        "list_id": list_id,
        "limit": max(limit, 0),
        "offset": offset,
        "rank_federation": wanted.federation,
    }
    width = len(PLAYER_COLUMNS) + 1  # the page's columns: player_id, rating, the player's
    read = session.connection().execute(statement, parameters).all()
    if not read:
        return [] if list_latest.latest_category(session, list_id) is not None else None
    ordered = sorted(read, key=lambda row: (-row[1], row[0]))
    original = (
        None
        if original_list_id is None
        else list_changes.ratings_on(session, original_list_id, [row[0] for row in read])
    )
    entries = list_changes.resolve(session, list_id, [row[0] for row in read])
    shown = [ENTRY.index(name) for name in SHOWN_FIELDS]
    first_at: dict[int, int] = {}
    found: list[tuple[Any, ...]] = []
    for at, row in enumerate(ordered):
        player_id, rating = row[0], int(row[1])
        entry = entries.get(player_id)
        if entry is None:
            raise LookupError(f"latest_entries hold {player_id}, off list {list_id}")
        world, federation = row[-2], row[-1]
        if first_of_federation and ranked:
            federation = first_at.setdefault(rating, at)
        found.append(
            (
                *(entry[index] for index in shown),
                player_id,
                *row[2:width],
                rating if original is None else original.get(player_id),
                None if world is None else int(world) + 1,
                None if federation is None else int(federation) + 1,
            )
        )
    return found
