"""The published lists: every list, one revision of a list, a page of its entries, the
differences between two revisions, and a whole list as the exports read it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from ratingdb.enums import ListSource
from ratingdb.errors import InputError
from ratingdb.repositories import player_history
from ratingdb.repositories import player_records as player_records_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import published as repo
from ratingdb.repositories.published import entry_filter, list_pages
from ratingdb.repositories.published import lists as list_repo
from ratingdb.rules import Category, Period, activity
from ratingdb.services import revisions as revision_service
from ratingdb.services.published.common import EntryFigures, NotFound

#: Entries read at a time by an export: its memory stays flat whatever the list's size.
EXPORT_BATCH = 5000


@dataclass(frozen=True, slots=True)
class ListSummary:
    list_id: int
    category: Category
    period: Period
    revision: int
    source: ListSource
    rule_version: str | None
    published_at: datetime
    entries: int
    #: SHA-256 of the list's numbers (None only for lists written before digests existed).
    digest: str | None
    #: How many revisions the list has (1: never corrected; this one may be an older one).
    revisions: int
    #: The id of revision 1, the original list.
    original_list_id: int
    #: The correction this revision was published for (None: the original list).
    correction_id: int | None

    @property
    def is_latest(self) -> bool:
        return self.revision == self.revisions


@dataclass(frozen=True, slots=True)
class Generation:
    """Where a category's lists stand: how many lists (revisions included) and the highest
    list id, and how many times officers edited players' records. Lists are never changed or
    deleted, so it moves with every publication or revision of a list of the category and
    with every edit of a record, and only then: what a player's history (and the player page)
    is rendered from."""

    lists: int
    last_id: int
    #: How many times officers edited players' records (the same in every category): a name,
    #: a federation or a title on a player page changes with it too.
    records: int = 0


def list_generations(session: Session) -> dict[Category, Generation]:
    """Every category's :class:`Generation` (0, 0 before its first list), in two queries."""
    records = player_records_repo.edits(session)
    found = {
        row.category: Generation(int(row.lists), int(row.last_id), records)
        for row in list_repo.list_generations(session)
    }
    return {category: found.get(category, Generation(0, 0, records)) for category in Category}


def games_generation(session: Session) -> tuple[int, int]:
    """Where the games stand: how many tournaments are stored and the latest correction's id.
    Both only grow, and one of them moves with every accepted tournament, correction or merge:
    what an interim rating (services.interim) is computed from, besides the lists."""
    return list_repo.games_generation(session)


@dataclass(frozen=True, slots=True)
class ListEntry(EntryFigures):
    """One entry of a published list: the read model of a list entry, the one definition of
    its columns (the exports write it as it is: formats.list_csv.ListCsvEntry,
    formats.fide_list.FideEntry; the pages show it as a ``ComparedEntry``). Its fields: the
    figures, then the player."""

    player_id: str
    name: str
    federation: str | None
    sex: str | None
    birth_year: int | None
    title: str | None


@dataclass(frozen=True, slots=True)
class ComparedEntry(ListEntry):
    """A list entry beside the original list, as the list pages, the home page's lists and
    ``/v1/lists`` show it."""

    #: The rating on the original list (revision 1); None when the player was not on it.
    original_rating: int | None


def _summary(row: Any) -> ListSummary:
    return ListSummary(
        list_id=row.id,
        category=row.category,
        period=Period.of_list_date(row.list_date),
        revision=row.revision,
        source=row.source,
        rule_version=row.rule_version,
        published_at=row.published_at,
        entries=row.entry_count,
        digest=row.digest,
        revisions=row.revisions,
        original_list_id=row.original_list_id,
        correction_id=row.cause_correction_id,
    )


def published_lists(session: Session, category: Category | None = None) -> tuple[ListSummary, ...]:
    """Every published list (latest revision), newest first, categories in their usual order."""
    order = {c: i for i, c in enumerate(Category)}
    lists = [_summary(row) for row in repo.current_lists(session, category)]
    return tuple(sorted(lists, key=lambda s: (-s.period.index, order[s.category])))


def find_list(
    session: Session, category: Category, period: Period, revision: int | None = None
) -> ListSummary:
    """One revision of a published list (None: the latest). NotFound names the revisions there
    are."""
    row = repo.find_list(session, category, period.list_date, revision)
    if row is not None:
        return _summary(row)
    revisions = repo.list_revisions(session, category, period.list_date)
    if not revisions:
        raise NotFound(f"{category.value} has no published list for {period}")
    raise NotFound(
        f"the {category.value} list of {period} has no revision {revision} "
        f"(revisions: {', '.join(str(r) for r in revisions)})"
    )


def list_entries(
    session: Session,
    summary: ListSummary,
    *,
    federation: str | None = None,
    search: str | None = None,
    limit: int = 100,
    offset: int = 0,
    strategy: list_pages.Strategy | None = None,
) -> tuple[int, tuple[ComparedEntry, ...]]:
    """One page of the list's entries matching the filters, and how many match in all, read
    as ``list_pages.plan`` chooses once for both (``strategy``: forced, for the tests)."""
    wanted = EntryFilter(federation=federation, search=search)
    chosen = list_pages.plan(session, summary.list_id, wanted, 0, forced=strategy)
    if chosen.strategy is list_pages.Strategy.WHOLE:
        total = summary.entries  # counted when the list was published
    else:
        total = list_pages.count_filtered(session, summary.list_id, wanted, 0, chosen)
    rows = repo.list_entries(
        session,
        summary.list_id,
        original_list_id=summary.original_list_id,
        federation=federation,
        search=search,
        limit=limit,
        offset=offset,
        chosen=chosen,
    )
    # Positional: the query's columns are the dataclass's fields, in order (no per-row dict).
    # Each player's federation and title on the list's date (issue 28 item 2).
    dated = player_history.as_of(session, summary.period.list_date)
    return total, tuple(_dated(ComparedEntry(*row), dated) for row in rows)


def latest_lists(
    session: Session, top: int
) -> tuple[tuple[ListSummary, tuple[ComparedEntry, ...]], ...]:
    """The latest list of each category that has one, with its first ``top`` entries."""
    latest: dict[Category, ListSummary] = {}
    for summary in published_lists(session):
        latest.setdefault(summary.category, summary)
    return tuple(
        (latest[category], list_entries(session, latest[category], limit=top)[1])
        for category in Category
        if category in latest
    )


def list_diff(session: Session, before: ListSummary, after: ListSummary) -> dict[str, Any]:
    """Who changed between two revisions of one list (found with :func:`find_list`), by how
    much, and which corrections caused it: the document of ``ratingdb lists diff``."""
    if (before.category, before.period) != (after.category, after.period):
        raise ValueError("a diff compares two revisions of the same list")
    return revision_service.diff(
        session, before.category, before.period, before.revision, after.revision
    )


# --- the list pages, the archive, the downloads ----------------------------------------------

EntryFilter = entry_filter.EntryFilter
AGE_GROUPS = entry_filter.AGE_GROUPS


@dataclass(frozen=True, slots=True)
class RankedEntry:
    """A list entry as the list page shows it: its rank on the whole list (equal ratings
    share one) and, when the page keeps one federation, its rank in that federation."""

    entry: ComparedEntry
    rank: int
    federation_rank: int | None


def active_players(
    wanted: entry_filter.EntryFilter, category: Category, period: Period
) -> entry_filter.EntryFilter:
    """``wanted`` keeping only the players active on the category's list of ``period``
    (rules.activity), ranked among them: FIDE's rankings count active players."""
    earliest = activity.earliest_active(category, period)
    return replace(wanted, active_since=date(earliest // 12, earliest % 12 + 1, 1))


SORTS = list_pages.SORTS


def ranked_entries(
    session: Session,
    summary: ListSummary,
    wanted: EntryFilter,
    *,
    limit: int,
    offset: int,
    sort: str = "rating",
    strategy: list_pages.Strategy | None = None,
) -> tuple[int, tuple[RankedEntry, ...]]:
    """One page of the entries ``wanted`` keeps, ranked, and how many it keeps in all, read
    as ``list_pages.plan`` chooses (``strategy``: forced, for the tests). The whole list
    (WHOLE) is paged from its chunks and ranked from the page's position (one count for a
    first rating shared with the page before); a filtered list counts each row's ranks.
    ``sort`` (SORTS): the page's order (by change or games: each descending, ties in list
    order); the ranks stay the ranks by rating."""
    year = summary.period.year
    if sort not in SORTS:
        raise InputError(f"sort must be one of {', '.join(SORTS)}, not {sort!r}", field="sort")
    chosen = list_pages.plan(session, summary.list_id, wanted, year, sort, forced=strategy)
    if chosen.strategy is list_pages.Strategy.WHOLE:
        total, entries = list_entries(
            session, summary, limit=limit, offset=offset, strategy=strategy
        )
        ranked: list[RankedEntry] = []
        for index, entry in enumerate(entries):
            if ranked and ranked[-1].entry.rating == entry.rating:
                rank = ranked[-1].rank
            elif not ranked and offset > 0:
                rank = list_pages.entries_above(session, summary.list_id, entry.rating) + 1
            else:
                rank = offset + index + 1
            ranked.append(RankedEntry(entry, rank, None))
        return total, tuple(ranked)
    total = (
        summary.entries
        if wanted.is_empty
        else list_pages.count_filtered(session, summary.list_id, wanted, year, chosen)
    )
    rows = list_pages.filtered_entries(
        session,
        summary.list_id,
        original_list_id=summary.original_list_id,
        wanted=wanted,
        list_year=year,
        limit=limit,
        offset=offset,
        sort=sort,
        chosen=chosen,
    )
    dated = player_history.as_of(session, summary.period.list_date)
    return total, tuple(
        RankedEntry(_dated(ComparedEntry(*row[:-2]), dated), row[-2], row[-1]) for row in rows
    )


def list_archive(session: Session) -> tuple[ListSummary, ...]:
    """Every published revision of every list, newest publication first."""
    return tuple(_summary(row) for row in list_repo.every_revision(session))


# --- a whole list, as the exports read it ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublishedList:
    """One revision of a published list with its entries, for
    :func:`ratingdb.services.lists.write_published`."""

    category: Category
    period: Period
    revision: int
    rule_version: str | None
    published_at: datetime
    #: A tuple; from ``streamed_list`` and ``exported_revision`` an iterator, read once as it
    #: goes.
    entries: Iterable[ListEntry]
    #: Local id -> FIDE id of the players of a FIDE list met without a FIDE id and known by one
    #: since: FIDE's layouts name them by their FIDE id.
    fide_ids: Mapping[str, str] = field(default_factory=dict)


def published_list(session: Session, category: Category, period: Period) -> PublishedList:
    """The published list of ``period``, its entries in memory."""
    with streamed_list(session, category, period) as published:
        return replace(published, entries=tuple(published.entries))


@contextmanager
def streamed_list(
    session: Session, category: Category, period: Period, revision: int | None = None
) -> Iterator[PublishedList]:
    """``lists export``: the published list of ``period`` (its latest revision, or
    ``revision``), its entries read from the database EXPORT_BATCH at a time as they are used,
    inside the ``with``: an export's memory stays flat whatever the list's size; the cursor is
    closed on leaving, used up or not. No such list or revision: an InputError naming the
    period or the revision."""
    row = repo.find_list(session, category, period.list_date, revision)
    if row is None:
        if revision is not None and repo.list_revisions(session, category, period.list_date):
            raise InputError(
                f"the {category.value} list of {period} has no revision {revision}",
                field="revision",
            )
        raise InputError(f"{category.value} has no published list for {period}", field="period")
    with _streamed(session, _summary(row)) as published:
        yield published


@contextmanager
def exported_revision(session: Session, summary: ListSummary) -> Iterator[PublishedList]:
    """The revision ``summary`` (found with :func:`find_list`) as ``lists export`` reads a
    list (the same query, order and batches), for the API's downloads: NotFound when it was
    the latest revision and a correction has published another since. Inside the ``with``;
    the cursor is closed on leaving."""
    if summary.is_latest:
        latest = repo.find_list(session, summary.category, summary.period.list_date, None)
        if latest is not None and latest.revision != summary.revision:
            raise NotFound(
                f"the {summary.category.value} list of {summary.period} was revised while "
                f"it was read (revision {latest.revision}); ask again"
            )
    with _streamed(session, summary) as published:
        yield published


Entry = TypeVar("Entry", bound=ListEntry)


def _dated(entry: Entry, dated: player_history.DatedValues) -> Entry:
    """The entry with its player's federation and title on the list's date."""
    if entry.player_id not in dated.federation and entry.player_id not in dated.title:
        return entry
    federation, title = player_history.apply(dated, entry.player_id, entry.federation,
                                             entry.title)  # fmt: skip
    return replace(entry, federation=federation, title=title)


@contextmanager
def _streamed(session: Session, summary: ListSummary) -> Iterator[PublishedList]:
    fide_ids = (
        player_repo.fide_ids_of_local_players(session) if summary.category.needs_fide_id else {}
    )
    # The federations and titles on the list's date (issue 28 item 2): a transfer or a title
    # recorded with a later date does not reach an earlier list.
    dated = player_history.as_of(session, summary.period.list_date)
    rows = list_repo.every_entry(session, summary.list_id, yield_per=EXPORT_BATCH)
    try:
        yield PublishedList(
            summary.category,
            summary.period,
            summary.revision,
            summary.rule_version,
            summary.published_at,
            # Positional: the query's columns are the dataclass's fields, in order.
            (_dated(ListEntry(*row), dated) for row in rows),
            fide_ids,
        )
    finally:
        rows.close()
