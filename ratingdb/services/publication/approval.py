"""Approving a previewed list, and the scheduled close of a category published with approval."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.models import PublicationPreviewRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import publication as repo
from ratingdb.rules import Category, Period, closing_date
from ratingdb.rules.messages import N_, Day, Message
from ratingdb.services import audit
from ratingdb.services.close import CloseOutcome, Computation, close_period, entries_digest
from ratingdb.services.close.computation import CloseState
from ratingdb.services.progress import Track, no_progress
from ratingdb.services.publication.differences import explain
from ratingdb.services.publication.preview import (
    approvals_of,
    closing,
    dry_run,
    parse_digest,
    unpublished,
)
from ratingdb.services.publication.shown import (
    AWAITING_APPROVAL,
    AlreadyPublished,
    Approved,
    ListChanged,
    PublicationConflict,
)

#: A list whose inputs look the same but whose entries differ (not expected to happen).
_NO_REASON = Message(
    N_("its entries differ, though no tournament, correction or starting list changed since "
       "the preview")
)  # fmt: skip

# --- approve ---------------------------------------------------------------------------------


def approve(
    session: Session,
    category: Category,
    period: Period,
    digest: str,
    *,
    now: datetime,
    user: str,
    approval: Collection[Category],
) -> Approved:
    """Publish the previewed list whose entries have ``digest``, through the close itself, if
    it is still the list a close computes; before the cut-off of a category published with
    approval, approve it for the scheduled close instead. Refused (nothing written) when the
    list differs, saying why."""
    wanted = parse_digest(digest)
    unpublished(session, category, period)
    shown = repo.find_preview(session, category.value, period.list_date, wanted)
    if shown is None:
        raise InputError(
            Message(N_("no preview of %(category)s %(period)s showed a list with digest "
                       "%(digest)s: preview the list, then approve what it shows"),
                    {"category": category.value, "period": str(period), "digest": wanted}),
            field="digest",
        )  # fmt: skip
    cut_off = closing_date(category, period)
    due = cut_off < now.date()
    if not due and category not in approval:
        raise PublicationConflict(Message(
            N_("%(category)s is published automatically: the scheduled close publishes "
               "%(period)s after its cut-off on %(cut_off)s; there is nothing to approve before "
               "then"),
            {"category": category.value, "period": str(period), "cut_off": Day(cut_off)},
        ))  # fmt: skip

    def same_as_previewed(computation: Computation) -> None:
        computed = entries_digest(computation.results)
        if computed != wanted:
            reasons = explain(session, shown, computation)
            raise ListChanged(
                Message(
                    N_(
                        "the %(category)s %(period)s list a close computes now is not the one "
                        "previewed (digest %(previewed)s..., now %(now)s...): preview it again"
                    ),
                    {
                        "category": category.value,
                        "period": str(period),
                        "previewed": wanted[:12],
                        "now": computed[:12],
                    },
                ),
                [*reasons] or [_NO_REASON],
                computed,
            )

    if not due:
        same_as_previewed(dry_run(session, category, period, now=now, actor=user)[0])
        repo.mark_approved(session, shown, user, now)
        _record_approval(session, shown, user, now, published=None)
        return Approved(category, period, "approved", wanted, shown.entry_count,
                        shown.rule_version, cut_off)  # fmt: skip
    outcome = closing(
        lambda: close_period(session, category, period, now=now, closed_by=user,
                             before_publishing=same_as_previewed)
    )  # fmt: skip
    if outcome.already_published:  # another close published it meanwhile
        raise AlreadyPublished(Message(
            N_("%(category)s %(period)s was published meanwhile (revision %(revision)s)"),
            {"category": category.value, "period": str(period), "revision": str(outcome.revision)},
        ))  # fmt: skip
    repo.mark_approved(session, shown, user, now)
    _record_approval(session, shown, user, now, published=outcome)
    return Approved(category, period, "published", wanted, outcome.entries,
                    outcome.rule_version, cut_off, outcome.list_id, outcome.revision)  # fmt: skip


def _record_approval(
    session: Session,
    shown: PublicationPreviewRow,
    user: str,
    now: datetime,
    *,
    published: CloseOutcome | None,
) -> None:
    details: dict[str, Any] = {
        "category": shown.category,
        "period": str(Period.of_list_date(shown.list_date)),
        "digest": shown.digest,
        "published": published is not None,
    }
    if published is not None:
        details |= {"list_id": published.list_id, "revision": published.revision}
    audit.record(session, "publication-approve", user, now,
                 counts={"entries": shown.entry_count}, details=details)  # fmt: skip


# --- the scheduled close ---------------------------------------------------------------------


class _Held(Exception):
    """A computed list without an approval: the close stops before writing it."""

    def __init__(self, computation: Computation, digest: str) -> None:
        super().__init__(digest)
        self.computation = computation
        self.digest = digest


def scheduled_close(
    session: Session,
    category: Category,
    period: Period,
    *,
    now: datetime,
    actor: str,
    approval: Collection[Category],
    track: Track = no_progress,
) -> CloseOutcome:
    """The scheduled close of a period whose cut-off has passed. Automatic: the close. With
    approval: the list is computed; if an officer approved this very list before the cut-off
    it is published, otherwise the period is left ``awaiting-approval`` (when computed, the
    digest) and nothing is published: the outcome's state is ``awaiting-approval``."""
    if category not in approval:
        return close_period(session, category, period, now=now, closed_by=actor, track=track)
    approved = {a.digest for a in approvals_of(session, category, period)}

    def hold_unless_approved(computation: Computation) -> None:
        digest = entries_digest(computation.results)
        if digest not in approved:
            raise _Held(computation, digest)

    try:
        with session.begin_nested():  # the claim is undone if the list is held
            return close_period(session, category, period, now=now, closed_by=actor,
                                track=track, before_publishing=hold_unless_approved)  # fmt: skip
    except _Held as held:
        session.expire_all()
        row = period_repo.get_or_create_period(session, category, period)
        if row.state != AWAITING_APPROVAL or row.computed_digest != held.digest:
            period_repo.mark_awaiting_approval(session, row, now, held.digest)
            outcome = held.computation.outcome(CloseState.AWAITING_APPROVAL)
            audit.record(
                session, "close-awaiting-approval", actor, now,
                counts={"entries": outcome.entries, "games": outcome.games},
                details={"category": category.value, "period": str(period),
                         "digest": held.digest, "rule_version": outcome.rule_version},
            )  # fmt: skip
        return dataclasses.replace(
            held.computation.outcome(CloseState.AWAITING_APPROVAL), digest=held.digest
        )
