"""The preview: a period's list as a close now would publish it, computed by the dry-run close
and kept as shown; and each category's next period for the Publication page."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from datetime import date, datetime

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.models import PeriodRow, PublicationPreviewRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import publication as repo
from ratingdb.rules import Category, Period, PeriodRules, closing_date
from ratingdb.rules.calendar import NotAListPeriod, next_period
from ratingdb.rules.messages import N_, Message, Param, worded
from ratingdb.rules.versions import NoRuleVersion
from ratingdb.services.close import CloseOutcome, Computation, close_period, entries_digest
from ratingdb.services.publication.differences import entries_of, inputs_of
from ratingdb.services.publication.shown import (
    AlreadyPublished,
    Approval,
    NextPeriod,
    Preview,
    changes_of,
    mode_of,
    tournaments_of,
)
from ratingdb.services.quality import period_flags

_DIGEST = re.compile(r"[0-9a-f]{64}")


# --- reading the request ---------------------------------------------------------------------


def parse_category(text: str) -> Category:
    try:
        return Category.parse(text)
    except ValueError as error:
        raise InputError(worded(error), field="category") from None


def parse_period(category: Category, text: str) -> Period:
    """A period of the category that has a list, under rules ratingdb knows."""
    try:
        period = Period.parse(text)
        PeriodRules.for_period(category, period)
    except (ValueError, NotAListPeriod, NoRuleVersion) as error:
        raise InputError(worded(error), field="period") from None
    return period


def parse_digest(text: str) -> str:
    digest = text.strip().lower()
    if not _DIGEST.fullmatch(digest):
        raise InputError(
            Message(N_("must be the 64 hexadecimal digits of a preview's digest, got %(given)s"),
                    {"given": repr(text)}),
            field="digest",
        )  # fmt: skip
    return digest


# --- the Publication page --------------------------------------------------------------------


def next_periods(session: Session, today: date, approval: Collection[Category]) -> list[NextPeriod]:
    """Each category's next period: the one after its latest published list, else its first
    period with tournaments; with its state, mode and what it holds."""
    counts = period_repo.period_counts(session)
    found: list[NextPeriod] = []
    for category in Category:
        lists = period_repo.lists_of(session, category)
        latest = Period.of_list_date(lists[-1].list_date) if lists else None
        if latest is not None:
            period: Period | None = next_period(category, latest)
        else:
            first = period_repo.first_open(session, category)
            period = None if first is None else Period.of_list_date(first)
        row = None if period is None else period_repo.get_period(session, category, period)
        cut_off = None if period is None else closing_date(category, period)
        tournaments, games = (0, 0) if row is None else counts.get(row.id, (0, 0))
        found.append(
            NextPeriod(
                category,
                mode_of(category, approval),
                period,
                "open" if row is None else row.state,
                cut_off,
                cut_off is not None and cut_off < today,
                tournaments,
                games,
                latest,
                None if row is None else row.computed_at,
                () if period is None else approvals_of(session, category, period),
            )
        )
    return found


def approvals_of(session: Session, category: Category, period: Period) -> tuple[Approval, ...]:
    """The approvals given to lists of the period before its cut-off, earliest first."""
    return tuple(
        Approval(row.digest, row.approved_by, row.approved_at)
        for row in repo.approved_previews(session, category.value, period.list_date)
        if row.approved_by is not None and row.approved_at is not None  # both, by a CHECK
    )


# --- preview ---------------------------------------------------------------------------------


def preview(
    session: Session,
    category: Category,
    period: Period,
    *,
    now: datetime,
    viewer: str,
    approval: Collection[Category],
) -> Preview:
    """The list a close now would publish (nothing of it written), kept as previewed by
    ``viewer`` so that an approval can be checked against it."""
    row = unpublished(session, category, period)
    computation, outcome = dry_run(session, category, period, now=now, actor=viewer)
    shown = _preview(session, computation, outcome, row, approval, now)
    _remember(session, computation, shown, viewer, now)
    return shown


def unpublished(session: Session, category: Category, period: Period) -> PeriodRow | None:
    """The period's row (None: not created yet) if its list may be published next; a published
    period (409) or one before the latest published list (422) is refused."""
    row = period_repo.get_period(session, category, period)
    if row is not None and row.state == "published":
        published = period_repo.list_for(session, category, period)
        values: dict[str, Param] = {"category": category.value, "period": str(period)}
        if published is None:
            raise AlreadyPublished(Message(
                N_("%(category)s %(period)s is published: a published list never changes"),
                values,
            ))  # fmt: skip
        raise AlreadyPublished(Message(
            N_("%(category)s %(period)s is published (revision %(revision)s, %(entries)s "
               "entries): a published list never changes"),
            values | {"revision": published.revision, "entries": published.entry_count},
        ))  # fmt: skip
    lists = period_repo.lists_of(session, category)
    if lists and lists[-1].list_date > period.list_date:
        latest = Period.of_list_date(lists[-1].list_date)
        raise InputError(
            Message(
                N_("%(category)s %(period)s comes before the latest published list "
                   "(%(latest)s): the next list to publish is %(next)s"),
                {"category": category.value, "period": str(period), "latest": str(latest),
                 "next": str(next_period(category, latest))},
            ),
            field="period",
        )  # fmt: skip
    return row


def dry_run(
    session: Session, category: Category, period: Period, *, now: datetime, actor: str
) -> tuple[Computation, CloseOutcome]:
    """The period computed by a dry-run close (nothing written), and what the dry run reports."""
    captured: list[Computation] = []
    outcome = closing(
        lambda: close_period(session, category, period, now=now, closed_by=actor,
                             dry_run=True, before_publishing=captured.append)
    )  # fmt: skip
    if outcome.already_published or not captured:
        raise AlreadyPublished(
            Message(
                N_("%(category)s %(period)s is already published"),
                {"category": category.value, "period": str(period)},
            )
        )
    return captured[0], outcome


def closing(run: Callable[[], CloseOutcome]) -> CloseOutcome:
    """A close; its refusals name the domain's field (``period``), not a command's option."""
    try:
        return run()
    except InputError as error:
        if error.field is not None and error.field.startswith("--"):
            raise InputError(error.text, field="period") from None
        raise


def _preview(
    session: Session,
    computation: Computation,
    outcome: CloseOutcome,
    row: PeriodRow | None,
    approval: Collection[Category],
    now: datetime,
) -> Preview:
    rules = computation.rules
    category, period = rules.category, rules.period
    cut_off = closing_date(category, period)
    previous = computation.previous
    return Preview(
        category=category,
        period=period,
        mode=mode_of(category, approval),
        state="open" if row is None else row.state,
        closing_date=cut_off,
        cut_off_passed=cut_off < now.date(),
        rule_version=rules.version.name,
        digest=entries_digest(computation.results),
        entries=outcome.entries,
        games=outcome.games,
        players_with_games=outcome.players_with_games,
        below_floor=outcome.below_floor,
        starts_from=None
        if previous is None
        else (Period.of_list_date(previous.list_date), previous.revision),
        changes=tuple(changes_of(session, computation, outcome.changes)),
        tournaments=tuple(tournaments_of(session, computation)),
        computed_at=None if row is None else row.computed_at,
        computed_digest=None if row is None else row.computed_digest,
        approvals=approvals_of(session, category, period),
        quality_flags=tuple(period_flags(session, computation)),
    )


def _remember(
    session: Session, computation: Computation, shown: Preview, viewer: str, now: datetime
) -> None:
    """Keep the preview (once per distinct list; a list shown again keeps its latest inputs)."""
    inputs = inputs_of(session, computation)
    row = repo.find_preview(session, shown.category.value, shown.period.list_date, shown.digest)
    if row is None:
        repo.add_preview(
            session,
            PublicationPreviewRow(
                category=shown.category.value,
                list_date=shown.period.list_date,
                digest=shown.digest,
                rule_version=shown.rule_version,
                entry_count=shown.entries,
                previewed_at=now,
                previewed_by=viewer,
                inputs=inputs,
                entries=entries_of(computation, shown.changes),
            ),
        )
        return
    row.previewed_at = now
    row.previewed_by = viewer
    row.inputs = inputs
    session.flush()
