"""Periods and published lists of a category.

Locks (PostgreSQL; SQLite writers take turns, BEGIN IMMEDIATE). Every transaction takes them in
this one order, so that two never wait for each other:

1. the rows of what is decided or corrected, ``SELECT ... FOR UPDATE``: a submission, a
   correction preview, then the players of the game corrected or of the merge (in player id
   order, ``players.lock_players``);
2. the import lock (``players.lock_imports``: new player and tournament ids);
3. the close locks of periods (``lock_close``, ``claim``, ``hold_off_closes``): category by
   category in the order of their names, and within a category the earlier period first.

A close takes only its period's lock (3); an import 2, then 3 for the period it goes to
(services.tournaments.hold_period); a correction 1, then 2 when it reads a file, then 3;
accepting a submission 1, then the import's. Players' rows are written by an import after 2
and before 3 (it may wait there for a merge holding them, which never waits for 2), and by a
list replacement after 3, which is why it takes 2 first.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import CursorResult, func, select, text, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from ratingdb.enums import ListSource, PeriodState
from ratingdb.models import GameRow, PeriodRow, RatingListRow, TournamentRow
from ratingdb.models.rating_list import DIGEST_VERSION
from ratingdb.rules import Category, Period, closing_date
from ratingdb.rules.calendar import next_period


def get_period(session: Session, category: Category, period: Period) -> PeriodRow | None:
    return session.scalars(
        select(PeriodRow).where(
            PeriodRow.category == category, PeriodRow.list_date == period.list_date
        )
    ).one_or_none()


def get_or_create_period(session: Session, category: Category, period: Period) -> PeriodRow:
    """The period's row, created open if missing. Safe when two transactions create it at
    once (a close and an import, two closes): the insert yields to a concurrent one."""
    row = get_period(session, category, period)
    if row is not None:
        return row
    values = {
        "category": category,
        "list_date": period.list_date,
        "closing_date": closing_date(category, period),
        "state": PeriodState.OPEN,
    }
    dialect = session.get_bind().dialect.name
    insert_new = postgresql_insert if dialect == "postgresql" else sqlite_insert
    session.execute(
        insert_new(PeriodRow)
        .values(**values)
        .on_conflict_do_nothing(index_elements=["category", "list_date"])
    )
    row = get_period(session, category, period)
    if row is None:
        raise AssertionError(f"period {category.value} {period} was neither created nor found")
    return row


def periods_of(session: Session, category: Category | None) -> Sequence[PeriodRow]:
    statement = select(PeriodRow).order_by(PeriodRow.category, PeriodRow.list_date)
    if category is not None:
        statement = statement.where(PeriodRow.category == category)
    return session.scalars(statement).all()


def published_periods(session: Session, category: Category) -> set[Period]:
    dates = session.scalars(
        select(PeriodRow.list_date).where(
            PeriodRow.category == category, PeriodRow.state == PeriodState.PUBLISHED
        )
    )
    return {Period.of_list_date(d) for d in dates}


#: The states a close may take a period from: open, or computed and awaiting an officer's
#: approval (the approval, and ``periods close``, publish it).
CLOSABLE_STATES = (PeriodState.OPEN, PeriodState.AWAITING_APPROVAL)


def claim(session: Session, period_row: PeriodRow, claimed_by: str, now: datetime) -> bool:
    """Take the period from open (or awaiting approval) to closing; False when somebody else has
    it or had it.

    On PostgreSQL a transaction-scoped advisory lock first serialises closers of the same
    period, so the conditional UPDATE below always sees the last committed state.
    """
    if session.get_bind().dialect.name == "postgresql":
        _lock(session, period_row.category, period_row.list_date)
    claimed: CursorResult[Any] = session.execute(  # type: ignore[assignment]
        update(PeriodRow)
        .where(PeriodRow.id == period_row.id, PeriodRow.state.in_(CLOSABLE_STATES))
        .values(state=PeriodState.CLOSING, claimed_by=claimed_by, claimed_at=now)
        .execution_options(synchronize_session=False)
    )
    session.refresh(period_row)
    return claimed.rowcount == 1


def lock_close(session: Session, category: Category, period: Period) -> None:
    """Until this transaction ends, the period is not closed (its close waits in ``claim``),
    and a close running now is waited for (PostgreSQL; SQLite writers already take turns). An
    import takes it for the period it stores a tournament in, then looks again at which
    period that is: the close either rates the tournament or, having published the period
    first, sends it to the next one, late."""
    if session.get_bind().dialect.name == "postgresql":
        _lock(session, category, period.list_date)


def _lock(session: Session, category: Category, list_date: date) -> None:
    session.execute(
        text("SELECT pg_advisory_xact_lock(:key)"), {"key": _lock_key(category, list_date)}
    )


def _lock_key(category: Category, list_date: date) -> int:
    """A stable 63-bit key per (category, list date): 'RD' + category index + month index."""
    category_index = list(Category).index(category)
    month_index = Period.of_list_date(list_date).index
    return (0x5244 << 40) | (category_index << 32) | month_index


def hold_off_closes(session: Session, category: Category) -> None:
    """Until this transaction ends, no close of the category publishes a list, and a close
    running now is waited for (PostgreSQL; SQLite writers already take turns): a correction
    recomputes the published periods, and a list published beside it would be computed from the
    revisions the correction replaces. Closes go in order, so only the period after the latest
    published one can be closed: its close lock (``claim``) is taken, and the next one's if a
    close published it meanwhile. A category without a published list has nothing to protect."""
    if session.get_bind().dialect.name != "postgresql":
        return
    locked: set[Period] = set()
    while published := published_periods(session, category):
        following = next_period(category, max(published))
        if following in locked:
            return
        _lock(session, category, following.list_date)
        locked.add(following)


def mark_published(session: Session, period_row: PeriodRow, now: datetime) -> None:
    period_row.state = PeriodState.PUBLISHED
    period_row.published_at = now
    session.flush()


def mark_awaiting_approval(
    session: Session, period_row: PeriodRow, now: datetime, digest: str
) -> None:
    """The period's list is computed (its entries' ``digest``) and waits for an approval."""
    period_row.state = PeriodState.AWAITING_APPROVAL
    period_row.computed_at = now
    period_row.computed_digest = digest
    session.flush()


def lists_of(
    session: Session, category: Category, *, written_before: int | None = None
) -> Sequence[RatingListRow]:
    """The latest revision of every published list of the category, oldest first; with
    ``written_before``, the latest among those written before that list id (what a revision
    was computed from)."""
    conditions = [RatingListRow.category == category]
    if written_before is not None:
        conditions.append(RatingListRow.id < written_before)
    latest = (
        select(RatingListRow.list_date, func.max(RatingListRow.revision).label("revision"))
        .where(*conditions)
        .group_by(RatingListRow.list_date)
        .subquery()
    )
    return session.scalars(
        select(RatingListRow)
        .join(
            latest,
            (RatingListRow.list_date == latest.c.list_date)
            & (RatingListRow.revision == latest.c.revision),
        )
        .where(RatingListRow.category == category)
        .order_by(RatingListRow.list_date)
    ).all()


def list_for(session: Session, category: Category, period: Period) -> RatingListRow | None:
    return session.scalars(
        select(RatingListRow)
        .where(
            RatingListRow.category == category,
            RatingListRow.list_date == period.list_date,
        )
        .order_by(RatingListRow.revision.desc())
        .limit(1)
    ).first()


def in_force(lists: Sequence[RatingListRow], day: date) -> RatingListRow | None:
    """The list in force on ``day``: the latest whose list date is on or before it."""
    found: RatingListRow | None = None
    for rating_list in lists:
        if rating_list.list_date <= day:
            found = rating_list
        else:
            break
    return found


def period_counts(session: Session) -> dict[int, tuple[int, int]]:
    """Tournaments and games per period id."""
    rows = session.execute(
        select(
            TournamentRow.period_id,
            func.count(func.distinct(TournamentRow.tournament_id)),
            func.count(GameRow.id),
        )
        .outerjoin(
            GameRow,
            (GameRow.tournament_id == TournamentRow.tournament_id)
            & GameRow.superseded_by.is_(None),
        )
        .group_by(TournamentRow.period_id)
    )
    return {period_id: (tournaments, games) for period_id, tournaments, games in rows}


def with_ids(session: Session, period_ids: Collection[int]) -> dict[int, PeriodRow]:
    return {
        row.id: row
        for row in session.scalars(select(PeriodRow).where(PeriodRow.id.in_(set(period_ids))))
    }


def get_list(session: Session, list_id: int) -> RatingListRow | None:
    return session.get(RatingListRow, list_id)


def add_list(
    session: Session,
    *,
    period_id: int,
    category: Category,
    list_date: date,
    revision: int,
    source: ListSource,
    rule_version: str | None,
    published_at: datetime,
    entry_count: int,
    digest: str | None,
    cause_correction_id: int | None,
    corrections_applied: int,
    parent_list_id: int | None,
) -> RatingListRow:
    """A revision of a period's list (its rows are written after), flushed for its id;
    ``parent_list_id``: the list it was computed from (None: imported, or the first)."""
    rating_list = RatingListRow(
        period_id=period_id,
        category=category,
        list_date=list_date,
        revision=revision,
        source=source,
        rule_version=rule_version,
        published_at=published_at,
        entry_count=entry_count,
        digest=digest,
        digest_version=DIGEST_VERSION,
        cause_correction_id=cause_correction_id,
        corrections_applied=corrections_applied,
        parent_list_id=parent_list_id,
    )
    session.add(rating_list)
    session.flush()
    return rating_list


def revisions_of(session: Session, category: Category, period: Period) -> dict[int, RatingListRow]:
    """Every revision of a period's list, by revision number."""
    return {
        row.revision: row
        for row in session.scalars(
            select(RatingListRow).where(
                RatingListRow.category == category,
                RatingListRow.list_date == period.list_date,
            )
        )
    }


def lists_matching(
    session: Session, category: Category | None, period: Period | None
) -> Sequence[RatingListRow]:
    """Every revision of every list, of ``category`` and ``period`` when given."""
    statement = select(RatingListRow).order_by(
        RatingListRow.category, RatingListRow.list_date, RatingListRow.revision
    )
    if category is not None:
        statement = statement.where(RatingListRow.category == category)
    if period is not None:
        statement = statement.where(RatingListRow.list_date == period.list_date)
    return session.scalars(statement).all()


def unpublished_periods(session: Session) -> Sequence[tuple[PeriodRow, date | None]]:
    """Every period not published yet (open, being closed, or awaiting approval), by category
    and list date, each with its category's latest published list date (None: no list)."""
    latest = (
        select(func.max(RatingListRow.list_date))
        .where(RatingListRow.category == PeriodRow.category)
        .scalar_subquery()
    )
    rows = session.execute(
        select(PeriodRow, latest)
        .where(PeriodRow.state != PeriodState.PUBLISHED)
        .order_by(PeriodRow.category, PeriodRow.list_date)
    ).all()
    return [(row, last) for row, last in rows]


def first_open(session: Session, category: Category) -> date | None:
    """The list date of the category's earliest period still to close (open, or awaiting
    approval), if any."""
    return session.scalar(
        select(PeriodRow.list_date)
        .where(PeriodRow.category == category, PeriodRow.state.in_(CLOSABLE_STATES))
        .order_by(PeriodRow.list_date)
        .limit(1)
    )
