"""Tournaments: one imported file each, rated in one period."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Boolean, CheckConstraint, Date, ForeignKey, Index, String, false, func
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.enums import TournamentFormat
from ratingdb.models.base import Base, category_check, category_column, enum_check, enum_column
from ratingdb.rules.categories import Category

TOURNAMENT_ID_LENGTH = 40


class TournamentRow(Base):
    """A tournament and the period it is rated in, for one category.

    ``tournament_id`` is given by the caller or generated (``T`` and a zero-padded sequence).
    A file imported for several categories (a rapid event on the FIDE and the FFE rapid lists)
    makes one tournament per category, each with its own period; ``group_id`` links them (the
    first one's id, on every one of them, itself included).
    """

    __tablename__ = "tournaments"
    __table_args__ = (
        Index(None, "period_id"),
        Index(None, "group_id"),
        category_check(),
        CheckConstraint("end_date >= start_date", name="end_date_not_before_start_date"),
        enum_check("source_format", TournamentFormat),
    )

    tournament_id: Mapped[str] = mapped_column(String(TOURNAMENT_ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    category: Mapped[Category] = mapped_column(category_column())
    start_date: Mapped[date] = mapped_column(Date)
    end_date: Mapped[date] = mapped_column(Date)
    period_id: Mapped[int] = mapped_column(ForeignKey("periods.id"))
    #: It missed the list its end date belonged to (that list was already published).
    late: Mapped[bool] = mapped_column(Boolean, server_default=false())
    source_format: Mapped[TournamentFormat] = mapped_column(enum_column(TournamentFormat, 8))
    #: SHA-256 (hex) of the imported file.
    source_digest: Mapped[str] = mapped_column(String(64))
    imported_at: Mapped[datetime] = mapped_column(UtcDateTime, server_default=func.now())
    city: Mapped[str | None] = mapped_column(String(200))
    #: The organising federation (TRF 032), a 3-letter code.
    federation: Mapped[str | None] = mapped_column(String(3))
    #: As written by the arbiter (TRF 122), and encoded in seconds (TRF26 222, e.g. 5400+30).
    time_control: Mapped[str | None] = mapped_column(String(200))
    time_control_code: Mapped[str | None] = mapped_column(String(100))
    group_id: Mapped[str | None] = mapped_column(
        String(TOURNAMENT_ID_LENGTH), ForeignKey("tournaments.tournament_id")
    )
