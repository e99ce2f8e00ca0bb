"""Which periods are due: every period of a category, oldest first, from the one after the
latest published list up to the last whose closing date has passed (docs/cli.md §10)."""

from __future__ import annotations

from datetime import date

from sqlalchemy.orm import Session

from ratingdb.repositories import periods as period_repo
from ratingdb.rules import Category, Period, closing_date, next_period


def due_periods(session: Session, category: Category, today: date) -> list[Period]:
    """Periods to close on ``today``: a closing date has passed once its day is over."""
    lists = period_repo.lists_of(session, category)
    if lists:
        start = next_period(category, Period.of_list_date(lists[-1].list_date))
    else:
        first_open = period_repo.first_open(session, category)
        if first_open is None:
            return []
        start = Period.of_list_date(first_open)
    due: list[Period] = []
    period = start
    while closing_date(category, period) < today:
        due.append(period)
        period = next_period(category, period)
    return due
