"""What every list import shares (CSV and FIDE downloads): the checks before a list is
published, its list row, and the entries of an imported list."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import ListSource
from ratingdb.errors import InputError
from ratingdb.models import PeriodRow, RatingListRow
from ratingdb.repositories import periods as period_repo
from ratingdb.rules import Category, Period
from ratingdb.rules.calendar import NotAListPeriod, check_list_period
from ratingdb.rules.messages import N_, Message


@dataclass(frozen=True, slots=True)
class Replacement:
    """An import that publishes a corrected revision of a published imported list
    (``lists import --replace``): the revision it writes and the correction it is written for.
    The caller (services.corrections.replace_list) has checked that the period is published
    from an import."""

    revision: int
    cause: int


@dataclass(frozen=True, slots=True)
class ImportedList:
    category: Category
    period: Period
    list_id: int
    revision: int
    rated: int
    unrated: int
    players_created: int
    players_updated: int
    #: Players whose K, derived from the list (see derive_status), differs from the K the list
    #: prints (FIDE formats only).
    k_differs: int = 0
    #: What the reader read leniently, with the lines (an empty name, a name not in UTF-8, a
    #: header not over its columns), for stderr.
    notes: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "period": str(self.period),
            "list_id": self.list_id,
            "entries": self.rated,
            "unrated": self.unrated,
            "players_created": self.players_created,
            "players_updated": self.players_updated,
        }


def check_period(category: Category, period: Period) -> None:
    try:
        check_list_period(category, period)
    except (NotAListPeriod, LookupError) as error:
        raise InputError(str(error), field="period") from None


def add_imported_list(
    session: Session,
    period_row: PeriodRow,
    period: Period,
    now: datetime,
    *,
    entry_count: int,
    digest: str | None,
    replaces: Replacement | None,
) -> RatingListRow:
    """The list row of an imported list (revision 1, or the replacement's revision naming its
    correction; no rule version), flushed for its id."""
    return period_repo.add_list(
        session,
        period_id=period_row.id,
        category=period_row.category,
        list_date=period.list_date,
        revision=1 if replaces is None else replaces.revision,
        source=ListSource.IMPORT,
        rule_version=None,
        published_at=now,
        entry_count=entry_count,
        digest=digest,
        cause_correction_id=None if replaces is None else replaces.cause,
        corrections_applied=0 if replaces is None else replaces.cause,
        parent_list_id=None,
    )


def check_publishable(session: Session, category: Category, period: Period) -> None:
    existing = period_repo.get_period(session, category, period)
    # A list computed and awaiting approval is not published: an imported list may be.
    if existing is not None and existing.state not in period_repo.CLOSABLE_STATES:
        raise InputError(
            Message(N_("%(category)s %(period)s is already %(state)s; a published list never "
                       "changes"),
                    {"category": category.value, "period": str(period),
                     "state": Message(str(existing.state))}),
            field="period",
        )  # fmt: skip
    later = [p for p in period_repo.published_periods(session, category) if p > period]
    if later:
        raise InputError(
            Message(N_("%(category)s already has a published list after %(period)s (%(later)s)"),
                    {"category": category.value, "period": str(period),
                     "later": str(max(later))}),
            field="period",
        )  # fmt: skip


def no_entries(source: str, category: Category, players: int, floor: int) -> InputError:
    """A list without entries is never published: the next close would start from nobody, and
    a published list cannot be taken back. Refused whether the file holds no player at all or
    only players without a rating at or above the floor (the caller's transaction rolls back
    the players it may have written)."""
    why = (
        Message(N_("the list has no entries"))
        if players == 0
        else Message(N_("the list has no entries: none of its %(players)s players has a "
                        "%(category)s rating at or above the floor (%(floor)s)"),
                     {"players": players, "category": category.value, "floor": floor})
    )  # fmt: skip
    return InputError(why, source=source)


def imported_entry(
    list_id: int | None,
    player_id: str,
    rating: int,
    *,
    games: int,
    k_factor: int,
    rated_games: int,
    peak_rating: int,
    list_date: date,
    active: bool,
) -> dict[str, Any]:
    """An entry of an imported list (column -> value): no previous rating, change, K used or
    sum of changes, as nothing was computed for it. Its activity is the list's (a FIDE list's
    flag; active when the file says nothing): an active player counts as last rated on this
    list (the file does not say when: at the latest, docs/rules.md §10.1), an inactive one as
    never (not known)."""
    return {
        "list_id": list_id,
        "player_id": player_id,
        "rating": rating,
        "previous_rating": None,
        "change": None,
        "games": games,
        "k_factor": k_factor,
        "k_used": None,
        "sum_delta": None,
        "rated_games": rated_games,
        "peak_rating": peak_rating,
        "last_rated": list_date if active else None,
        "active": active,
    }
