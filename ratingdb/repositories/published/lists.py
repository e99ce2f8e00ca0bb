"""The published lists: their revisions, and one page of a list's entries."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    and_,
    bindparam,
    func,
    literal,
    select,
)
from sqlalchemy.orm import Session, aliased

from ratingdb.db.chunks import CHUNK_SIZE, ENTRY, list_order
from ratingdb.models import (
    LatestEntryRow,
    LatestListRow,
    ListEntryRow,
    PlayerRow,
    RatingListRow,
)
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.repositories.list_storage import players as list_players
from ratingdb.repositories.published.common import (
    PLAYER_COLUMNS,
    AnyRow,
    is_current,
    player_matches,
)
from ratingdb.rules import Category, carry_forward
from ratingdb.rules.carry_forward import Entry


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


#: What a published list shows of an entry (its exports, the API's page), as fields of a packed
#: entry (ratingdb.db.chunks.ENTRY).
SHOWN_FIELDS = ("rating", "previous_rating", "change", "games", "k_factor", "rated_games",
                "peak_rating")  # fmt: skip


def list_entries(
    session: Session,
    list_id: int,
    *,
    original_list_id: int | None = None,
    federation: str | None,
    search: str | None,
    limit: int,
    offset: int,
) -> Sequence[Any]:
    """One page of the list's entries matching the filters, as published: rating descending,
    then player_id; each with its ``original_rating`` on ``original_list_id`` (default: the
    list itself). The whole list's page is cut from its chunks (one or two rows, however deep
    the offset), its players and original ratings read by id."""
    if federation is None and search is None:
        return _page(session, list_id, original_list_id, limit, offset)
    wanted = EntryFilter(federation=federation, search=search)
    return [
        row[:-2]
        for row in filtered_entries(
            session, list_id, original_list_id=original_list_id, wanted=wanted, list_year=0,
            limit=limit, offset=offset, ranked=False,
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


# --- the list pages: filters, ranks, the archive -----------------------------------------------

#: The age groups of the list pages, from the birth year against the list's year (FIDE's way:
#: a junior is under 20 on 1 January, a senior reaches 50 or 65 during the year).
AGE_GROUPS = ("juniors", "girls", "seniors-50", "seniors-65")
JUNIOR_AGE = 20


@dataclass(frozen=True, slots=True)
class EntryFilter:
    """What a list page keeps of a list: each field None keeps everyone."""

    federation: str | None = None
    sex: str | None = None
    title: str | None = None
    age: str | None = None  # one of AGE_GROUPS
    search: str | None = None

    @property
    def is_empty(self) -> bool:
        return all(value is None for value in (self.federation, self.sex, self.title,
                                               self.age, self.search))  # fmt: skip


def _age_condition(age: str, list_year: int) -> ColumnElement[bool]:
    born = PlayerRow.birth_year
    if age == "juniors":
        return born >= list_year - JUNIOR_AGE
    if age == "girls":
        return and_(born >= list_year - JUNIOR_AGE, PlayerRow.sex == "F")
    if age == "seniors-50":
        return born <= list_year - 50
    if age == "seniors-65":
        return born <= list_year - 65
    raise ValueError(f"unknown age group {age!r} (one of {', '.join(AGE_GROUPS)})")


def _filter_conditions(wanted: EntryFilter, list_year: int) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if wanted.federation is not None:
        conditions.append(PlayerRow.federation == wanted.federation)
    if wanted.sex is not None:
        conditions.append(PlayerRow.sex == wanted.sex)
    if wanted.title is not None:
        conditions.append(PlayerRow.title == wanted.title)
    if wanted.age is not None:
        conditions.append(_age_condition(wanted.age, list_year))
    if wanted.search is not None:
        conditions.append(player_matches(wanted.search))
    return conditions


#: Up to this many players matching a filter, the list's entries kept are theirs resolved by id
#: (list_entries' key starts with the player); more, and the list's ids and ratings are decoded
#: from its chunks and filtered here. (PostgreSQL, 20,000 entries x 25 lists: 1,000 players
#: resolved 30 ms, the list decoded and filtered 8 ms; 100 resolved 1-2 ms.)
FEW_MATCHING = 200


class _Kept:
    """The entries of a list a filter keeps, in list order: ``ids``, ``ratings``, and each
    one's shown figures on demand (:meth:`figures`)."""

    __slots__ = ("_entries", "_positions", "every_rating", "ids", "ratings")

    def __init__(
        self,
        ids: list[str],
        ratings: list[int],
        entries: dict[str, Entry] | None,
        positions: list[int] | None,
        every_rating: list[int] | None = None,
    ) -> None:
        self.ids, self.ratings = ids, ratings
        self._entries, self._positions = entries, positions
        #: Every rating of the list in list order, when it was decoded.
        self.every_rating = every_rating

    def figures(self, session: Session, list_id: int, start: int, stop: int) -> list[list[Any]]:
        """The SHOWN_FIELDS of kept entries ``start`` to ``stop``, one list per field: from
        the resolved entries, or decoded from the chunks the entries are in (only those)."""
        if self._entries is not None:
            fields = [ENTRY.index(name) for name in SHOWN_FIELDS]
            rows = [self._entries[player_id] for player_id in self.ids[start:stop]]
            return [[row[index] for row in rows] for index in fields]
        assert self._positions is not None
        places = self._positions[start:stop]
        numbers = sorted({place // CHUNK_SIZE for place in places})
        decoded = chunk_reads.chunk_columns(session, list_id, numbers, SHOWN_FIELDS)
        return [
            [decoded[place // CHUNK_SIZE][index][place % CHUNK_SIZE] for place in places]
            for index in range(len(SHOWN_FIELDS))
        ]


#: Whether a filtered page of the list latest_entries hold reads them (tests turn it off to
#: read the other ways).
READ_LATEST = True


def _kept(session: Session, list_id: int, wanted: EntryFilter, list_year: int) -> _Kept:
    """The entries of a list the filter keeps (a list latest_entries do not hold): the
    filter's players read from the players table (one query); few, their entries resolved
    through the list's ancestry; else the list's ids and ratings decoded from its chunks and
    filtered here."""
    conditions = _filter_conditions(wanted, list_year)
    keep = _players_matching(session, conditions)
    if len(keep) <= FEW_MATCHING:
        entries = list_changes.resolve(session, list_id, keep)
        ordered = sorted(entries.values(), key=list_order)
        return _Kept([e[0] for e in ordered], [e[1] for e in ordered], entries, None)
    ids, ratings = chunk_reads.list_columns(session, list_id, ("player_id", "rating"))
    positions = [index for index, player_id in enumerate(ids) if player_id in keep]
    kept_ids = [ids[index] for index in positions]
    return _Kept(kept_ids, [ratings[index] for index in positions], None, positions, ratings)


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


def _ancestry() -> Any:
    """The list ``:list_id`` and the lists it was computed from (``id``, ``parent``,
    ``depth``: 0 for the list), a recursive CTE over rating_lists' parents (as
    list_changes.resolve walks it)."""
    chain = (
        select(
            RatingListRow.id,
            RatingListRow.parent_list_id.label("parent"),
            literal(0).label("depth"),
        )
        .where(RatingListRow.id == bindparam("list_id"))
        .cte("chain", recursive=True)
    )
    parent = aliased(RatingListRow)
    return chain.union_all(
        select(parent.id, parent.parent_list_id, chain.c.depth + 1).where(
            parent.id == chain.c.parent
        )
    )


def _ranks_above(page: Any, federation: bool) -> Any:
    """Per rating of the page (``rating``, ``above``): how many entries of the held
    latest_entries (of the federation ``:rank_federation``'s players) are rated above it,
    counted in the page's rating range per rating and above it in one count, summed by a
    window over the ratings (the index (category, rating, player_id) read once over the
    range)."""

    def counting(*columns: Any) -> Select[Any]:
        statement = (
            select(*columns)
            .select_from(LatestEntryRow)
            .where(LatestEntryRow.category == _held_category())
        )
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


def _bound_filter(
    wanted: EntryFilter, list_year: int
) -> tuple[tuple[Any, ...] | None, list[ColumnElement[bool]], dict[str, Any]]:
    """The filter's conditions for a statement built once per shape: (the shape, or None
    with a search (its words shape the statement: the conditions hold their values), the
    conditions, their parameters ``f_*``)."""
    if wanted.search is not None:
        return None, _filter_conditions(wanted, list_year), {}
    conditions: list[ColumnElement[bool]] = []
    parameters: dict[str, Any] = {}
    for name, column in (
        ("federation", PlayerRow.federation),
        ("sex", PlayerRow.sex),
        ("title", PlayerRow.title),
    ):
        value = getattr(wanted, name)
        if value is not None:
            conditions.append(column == bindparam(f"f_{name}"))
            parameters[f"f_{name}"] = value
    born = PlayerRow.birth_year
    if wanted.age in ("juniors", "girls"):
        conditions.append(born >= bindparam("f_born"))
        parameters["f_born"] = list_year - JUNIOR_AGE
        if wanted.age == "girls":
            conditions.append(PlayerRow.sex == "F")
    elif wanted.age in ("seniors-50", "seniors-65"):
        conditions.append(born <= bindparam("f_born"))
        parameters["f_born"] = list_year - (50 if wanted.age == "seniors-50" else 65)
    elif wanted.age is not None:
        raise ValueError(f"unknown age group {wanted.age!r} (one of {', '.join(AGE_GROUPS)})")
    shape = (wanted.federation is not None, wanted.sex is not None, wanted.title is not None,
             wanted.age)  # fmt: skip
    return shape, conditions, parameters


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


def _latest_count_statement(conditions: Sequence[ColumnElement[bool]]) -> Select[Any]:
    """Whether latest_entries hold the list ``:list_id`` (the category, NULL: not), and how
    many of their entries the conditions keep."""
    kept = _latest_kept(conditions).subquery()
    return select(_held_category(), select(func.count()).select_from(kept).scalar_subquery())


def _latest_page_statement(
    conditions: Sequence[ColumnElement[bool]],
    postgresql: bool,
    world: bool,
    federation: bool,
) -> Select[Any]:
    """The page of :func:`_latest_kept` (``:limit`` from ``:offset``, list order) joined to
    each page player's row on the nearest list of the list's ancestry (a window over their
    rows there: one row per player), with the world rank's and the federation rank's counts
    above (``world``, ``federation``) when wanted: one statement (SQLAlchemy caches its
    compiled form per filter shape)."""
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
    chain = _ancestry()
    fields = [ListEntryRow.__table__.c[name].label(f"e_{name}") for name in ENTRY[1:]]
    nearness = func.row_number().over(partition_by=page.c.player_id, order_by=chain.c.depth)
    nearest = (
        select(*page.c, chain.c.depth, *fields, nearness.label("nearness"))
        .select_from(
            page.join(ListEntryRow, ListEntryRow.player_id == page.c.player_id).join(
                chain, chain.c.id == ListEntryRow.list_id
            )
        )
        .subquery("nearest")
    )
    columns: list[Any] = [column for column in nearest.c if column.name != "nearness"]
    joined: Any = nearest
    for wanted, name in ((world, "world"), (federation, "federation")):
        if wanted:
            above = _ranks_above(page, name == "federation")
            joined = joined.join(above, above.c.rating == nearest.c.rating)
            columns.append(above.c.above.label(f"{name}_above"))
        else:
            columns.append(literal(None).label(f"{name}_above"))
    return select(*columns).select_from(joined).where(nearest.c.nearness == 1)


def _latest_page(
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
    page read there joined to the players in list order, each entry resolved through the
    list's ancestry and, ``ranked``, the counts above each rating, in one statement (as main
    read list_entries: count and page); a federation's first page ranks its rows in the
    federation by their places. Only an empty page asks whether latest_entries hold the list.
    Without ``ranked`` the two ranks are None."""
    postgresql = session.get_bind().dialect.name == "postgresql"
    first_of_federation = (
        wanted.federation is not None
        and offset == 0
        and wanted == EntryFilter(federation=wanted.federation)
    )
    rank_federation = ranked and wanted.federation is not None and not first_of_federation
    shape, conditions, parameters = _bound_filter(wanted, list_year)
    statement = _built(
        None if shape is None else ("page", shape, postgresql, ranked, rank_federation),
        lambda: _latest_page_statement(
            conditions, postgresql, world=ranked, federation=rank_federation
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
    shown = [ENTRY.index(name) for name in SHOWN_FIELDS]
    first_at: dict[int, int] = {}
    found: list[tuple[Any, ...]] = []
    for at, row in enumerate(ordered):
        player_id, rating = row[0], int(row[1])
        entry = (player_id, *row[width + 1 : width + len(ENTRY)])
        if entry[1] is None:
            raise LookupError(f"latest_entries hold {player_id}, off list {list_id}")
        if row[width] > 0:
            entry = carry_forward.carried(entry)
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


def _players_matching(session: Session, conditions: Sequence[ColumnElement[bool]]) -> set[str]:
    found = session.connection().execute(select(PlayerRow.player_id).where(*conditions))
    return set(found.scalars())


def count_filtered(session: Session, list_id: int, wanted: EntryFilter, list_year: int) -> int:
    """How many entries of the list the filter keeps: counted in latest_entries when they
    hold the list (one statement: whether they hold it, and the count there), else
    :func:`_kept`'s."""
    if READ_LATEST:
        shape, conditions, parameters = _bound_filter(wanted, list_year)
        statement = _built(
            None if shape is None else ("count", shape),
            lambda: _latest_count_statement(conditions),
        )
        parameters["list_id"] = list_id
        held, count = session.connection().execute(statement, parameters).one()
        if held is not None:
            return int(count)
    return len(_kept(session, list_id, wanted, list_year).ids)


def entries_above(
    session: Session, list_id: int, rating: int, federation: str | None = None
) -> int:
    """How many entries of the list (of ``federation``'s players) are rated above ``rating``:
    a rank is one more. Counted from the list's chunks: those wholly above by their sizes, the
    one or two the rating falls in entry by entry; for a federation, the ids of the entries
    above counted among the federation's players in the database (one query)."""
    if federation is None:
        return chunk_reads.entries_in_chunks_above(session, list_id, rating) + sum(
            1 for rated in chunk_reads.ratings_across(session, list_id, rating) if rated > rating
        )
    above = chunk_reads.ids_rated_above(session, list_id, rating)
    return list_players.count_of_federation(session, above, federation)


def filtered_entries(
    session: Session,
    list_id: int,
    *,
    original_list_id: int | None,
    wanted: EntryFilter,
    list_year: int,
    limit: int,
    offset: int,
    ranked: bool = True,
) -> list[tuple[Any, ...]]:
    """One page of the entries the filter keeps, in list order (rating descending, then
    player_id), each row the ListEntry's columns then ``rank`` (on the whole list: one more
    than the entries rated above, so equal ratings share a rank) and ``federation_rank``
    (the same among the players of ``wanted.federation``; None without that filter; both
    None without ``ranked``). The list latest_entries hold: :func:`_latest_page`. Another:
    the entries kept as :func:`_kept` finds them; the ranks by bisection of the whole list's
    ratings (decoded from its chunks) and of the federation's; the page's players and
    original ratings read by id."""
    with_original = original_list_id is not None and original_list_id != list_id
    if READ_LATEST:
        original_id = original_list_id if with_original else None
        found = _latest_page(
            session, list_id, original_id, wanted, list_year, limit, offset, ranked=ranked
        )
        if found is not None:
            return found
    kept = _kept(session, list_id, wanted, list_year)
    stop = offset + max(limit, 0)
    page_ids = kept.ids[offset:stop]
    if not page_ids:
        return []
    page_ratings = kept.ratings[offset:stop]
    ratings = kept.every_rating
    if ratings is None and ranked:
        (ratings,) = chunk_reads.list_columns(session, list_id, ("rating",))
    descending = None if ratings is None else [-rating for rating in ratings]  # for bisect
    federation_ratings: list[int] | None = None
    if wanted.federation is not None and ranked:
        if wanted == EntryFilter(federation=wanted.federation):
            federation_ratings = [-rating for rating in kept.ratings]
        else:
            members = _kept(session, list_id, EntryFilter(federation=wanted.federation), 0)
            federation_ratings = [-rating for rating in members.ratings]
    shown = kept.figures(session, list_id, offset, stop)
    players = list_players.players_by_id(session, page_ids, PLAYER_COLUMNS[1:])
    original = (
        list_changes.ratings_on(session, original_list_id, page_ids)
        if with_original and original_list_id is not None
        else None
    )
    rows: list[tuple[Any, ...]] = []
    for at, (player_id, rating) in enumerate(zip(page_ids, page_ratings, strict=True)):
        rows.append(
            (
                *(column[at] for column in shown),
                player_id,
                *players[player_id],
                rating if original is None else original.get(player_id),
                None if descending is None else bisect.bisect_left(descending, -rating) + 1,
                None
                if federation_ratings is None
                else bisect.bisect_left(federation_ratings, -rating) + 1,
            )
        )
    return rows


def every_revision(session: Session) -> Sequence[AnyRow]:
    """Every published revision of every list (the archive, the feed): newest publication
    first, each with its number of revisions and the id of its original."""
    return session.execute(
        select(*_LIST_COLUMNS, _revision_count(), _original_list_id()).order_by(
            RatingListRow.published_at.desc(), RatingListRow.id.desc()
        )
    ).all()
