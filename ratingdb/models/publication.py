"""Previews of a period's list as the back office showed them to an officer, and approvals.

A preview is what a close of the period would publish at the time it was shown: the digest of
its entries (the digest the published list will carry), what it was computed from, and the
entries that change. Approving compares the list computed then with the previewed one, and
explains any difference from what is kept here. Back-office data (who previewed and approved):
not readable by the public API's role (``visibility.BACK_OFFICE_TABLES``).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, CheckConstraint, Date, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.models.base import CATEGORY_LENGTH, Base, category_check
from ratingdb.models.period import DIGEST_LENGTH

#: A user name, as the audit log's ``actor`` holds it.
USERNAME_LENGTH = 100


class PublicationPreviewRow(Base):
    """One list a close of ``category``/``list_date`` would publish, as an officer previewed
    it; kept once per distinct list (its ``digest``), the latest preview's inputs kept."""

    __tablename__ = "publication_previews"
    __table_args__ = (
        UniqueConstraint("category", "list_date", "digest"),
        category_check(),
        CheckConstraint("entry_count >= 0", name="entry_count_not_negative"),
        CheckConstraint(
            "(approved_at IS NULL AND approved_by IS NULL) OR "
            "(approved_at IS NOT NULL AND approved_by IS NOT NULL)",
            name="approved_at_and_by",
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    category: Mapped[str] = mapped_column(String(CATEGORY_LENGTH))
    list_date: Mapped[date] = mapped_column(Date)
    #: ``services.close.entries_digest`` of the previewed list.
    digest: Mapped[str] = mapped_column(String(DIGEST_LENGTH))
    rule_version: Mapped[str] = mapped_column(String(40))
    entry_count: Mapped[int] = mapped_column(Integer)
    #: The latest time this list was shown, and to whom.
    previewed_at: Mapped[datetime] = mapped_column(UtcDateTime)
    previewed_by: Mapped[str] = mapped_column(String(USERNAME_LENGTH))
    #: What the list was computed from: the lists it starts from, the last correction, and
    #: each tournament's games used (``services.publication``).
    inputs: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: player id -> [rating, previous rating, change, games, K] of every player who changes.
    entries: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: An approval given before the cut-off, for the scheduled close to publish this list.
    approved_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    approved_by: Mapped[str | None] = mapped_column(String(USERNAME_LENGTH))


class PublicationModeRow(Base):
    """A category's publication mode as an admin chose it (issue 28 item 6): ``approval`` True,
    the scheduled close waits for an officer's approval; False, it publishes at the cut-off. A
    category without a row is published automatically, unless the server's configuration
    (``RATINGDB_PUBLICATION_APPROVAL``) puts it under approval. Read by every process at each
    use, so a change reaches the scheduler and every back office at once."""

    __tablename__ = "publication_modes"
    __table_args__ = (
        category_check(),
        CheckConstraint("reason <> ''", name="reason_given"),
        CheckConstraint("changed_by <> ''", name="changed_by_given"),
    )

    category: Mapped[str] = mapped_column(String(CATEGORY_LENGTH), primary_key=True)
    approval: Mapped[bool] = mapped_column(Boolean)
    changed_at: Mapped[datetime] = mapped_column(UtcDateTime)
    changed_by: Mapped[str] = mapped_column(String(USERNAME_LENGTH))
    #: Why the admin changed it (also in the audit log).
    reason: Mapped[str] = mapped_column(String(500))
