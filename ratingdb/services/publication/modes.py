"""Each category's publication mode (issue 28 item 6): ``approval`` (the scheduled close waits
for an officer) or ``automatic``, stored in the database and changed by an admin with a reason
(audited), so that the scheduler and every back office read the same mode at each use.

The server's setting ``RATINGDB_PUBLICATION_APPROVAL`` still counts, and only ever adds
approval: a category it names is published with approval whatever is stored, and cannot be
made automatic from the back office (the admin is told why). Approval is the safe side: a
process started with an older setting never publishes a list an admin wanted approved."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.repositories import publication as repo
from ratingdb.rules import Category
from ratingdb.rules.messages import N_, Message, worded
from ratingdb.services import audit
from ratingdb.services.publication.shown import APPROVAL, AUTOMATIC

MODES = (AUTOMATIC, APPROVAL)
#: The longest reason stored (publication_modes.reason).
MAX_REASON = 500


@dataclass(frozen=True, slots=True)
class CategoryMode:
    """A category's mode and where it comes from: ``configuration`` (the server's setting
    forces approval), ``database`` (an admin chose it: when, who, why) or ``default``
    (automatic, never set)."""

    category: Category
    mode: str
    source: str
    changed_at: datetime | None = None
    changed_by: str | None = None
    reason: str | None = None


def approval_categories(session: Session, configured: Collection[Category]) -> tuple[Category, ...]:
    """The categories published with approval: those the setting names and those an admin
    put under approval, in the order of ``Category``."""
    stored = {Category(row.category) for row in repo.stored_modes(session) if row.approval}
    return tuple(c for c in Category if c in stored or c in configured)


def category_modes(session: Session, configured: Collection[Category]) -> list[CategoryMode]:
    """Every category's mode, where it comes from, and the last change an admin made."""
    stored = {Category(row.category): row for row in repo.stored_modes(session)}
    modes = []
    for category in Category:
        row = stored.get(category)
        if row is None:
            mode = APPROVAL if category in configured else AUTOMATIC
            modes.append(
                CategoryMode(
                    category, mode, "configuration" if category in configured else "default"
                )
            )
            continue
        mode = APPROVAL if row.approval or category in configured else AUTOMATIC
        source = "configuration" if category in configured else "database"
        modes.append(
            CategoryMode(category, mode, source, row.changed_at, row.changed_by, row.reason)
        )
    return modes


def set_mode(
    session: Session,
    category_text: str,
    mode: str,
    reason: str,
    *,
    actor: str,
    now: datetime,
    configured: Collection[Category],
) -> CategoryMode:
    """An admin's choice of a category's mode, stored and audited (action ``publication-mode``
    with the mode before and after and the reason). Refused (InputError naming the field): an
    unknown category or mode, no reason, or making automatic a category the server's setting
    puts under approval."""
    try:
        category = Category.parse(category_text)
    except ValueError as error:
        raise InputError(worded(error), field="category") from None
    if mode not in MODES:
        raise InputError(Message(N_("must be %(modes)s, not %(given)s"),
                                 {"modes": Message(N_("%(first)s or %(last)s"),
                                                   {"first": MODES[0], "last": MODES[1]}),
                                  "given": repr(mode)}),
                         field="mode")  # fmt: skip
    reason = reason.strip()
    if not reason:
        raise InputError(Message(N_("say why the mode changes (it is kept in the audit log)")),
                         field="reason")  # fmt: skip
    if len(reason) > MAX_REASON:
        raise InputError(Message(N_("at most %(most)s characters, got %(count)s"),
                                 {"most": MAX_REASON, "count": len(reason)}),
                         field="reason")  # fmt: skip
    if mode == AUTOMATIC and category in configured:
        raise InputError(
            Message(N_("%(category)s is published with approval by the server's setting "
                       "RATINGDB_PUBLICATION_APPROVAL, which the back office cannot override: "
                       "remove it from the setting of every process first"),
                    {"category": category.value}),
            field="mode",
        )  # fmt: skip
    before = repo.store_mode(
        session, category.value, approval=mode == APPROVAL, at=now, by=actor, reason=reason
    )
    audit.record(
        session, "publication-mode", actor, now,
        details={
            "category": category.value,
            "before": None if before is None else (APPROVAL if before else AUTOMATIC),
            "after": mode,
            "reason": reason,
        },
    )  # fmt: skip
    source = "configuration" if category in configured else "database"
    return CategoryMode(category, mode, source, now, actor, reason)
