"""Rating periods: one row per category and list date, from open to published."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.enums import PeriodState
from ratingdb.models.base import Base, category_check, category_column, enum_check, enum_column
from ratingdb.rules.categories import Category

#: A SHA-256 in hexadecimal (the digest of a list's entries).
DIGEST_LENGTH = 64


class PeriodRow(Base):
    """The rating period of a category that produces the list dated ``list_date``."""

    __tablename__ = "periods"
    __table_args__ = (
        UniqueConstraint("category", "list_date"),
        category_check(),
        enum_check("state", PeriodState),
        CheckConstraint("closing_date <= list_date", name="closing_date_not_after_list_date"),
        CheckConstraint(
            "state <> 'published' OR published_at IS NOT NULL", name="published_has_published_at"
        ),
        CheckConstraint(
            "state <> 'awaiting-approval' OR "
            "(computed_at IS NOT NULL AND computed_digest IS NOT NULL)",
            name="awaiting_approval_has_computed",
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    category: Mapped[Category] = mapped_column(category_column())
    list_date: Mapped[date] = mapped_column(Date)
    #: Tournaments ending on or before this date may be rated in the period.
    closing_date: Mapped[date] = mapped_column(Date)
    state: Mapped[PeriodState] = mapped_column(
        enum_column(PeriodState, 20), server_default=PeriodState.OPEN.value
    )
    #: Who is closing the period (a job or a command), and since when.
    claimed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    published_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    #: When the scheduled close last computed the list it holds for approval, and the digest of
    #: that list's entries (``services.close.entries_digest``, as a published list's digest).
    computed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    computed_digest: Mapped[str | None] = mapped_column(String(DIGEST_LENGTH))
