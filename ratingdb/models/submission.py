"""Tournament files sent through the back office, waiting for an officer (or decided).

The file's bytes are kept in the row (bounded by the upload limit): what is accepted is
exactly what was checked, in the same transaction that stores its tournaments.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Date,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.enums import SubmissionState, TournamentFormat
from ratingdb.models.base import Base, enum_check, enum_column

FILENAME_LENGTH = 200
REASON_LENGTH = 500


class SubmissionRow(Base):
    """One uploaded TRF or games CSV, its check report and the officer's decision."""

    __tablename__ = "submissions"
    __table_args__ = (
        enum_check("state", SubmissionState),
        enum_check("source_format", TournamentFormat),
        Index(None, "submitter_id", "state"),
        Index(None, "state"),
        Index(None, "digest"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    submitter_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    state: Mapped[SubmissionState] = mapped_column(enum_column(SubmissionState, 10))
    #: The categories it is rated in, as given (a JSON list of names).
    categories: Mapped[list[str]] = mapped_column(JSON)
    #: The forced period (YYYY-MM), when the uploader gave one.
    period: Mapped[str | None] = mapped_column(String(7))
    source_format: Mapped[TournamentFormat] = mapped_column(enum_column(TournamentFormat, 3))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    #: Hex SHA-256 of ``content``.
    digest: Mapped[str] = mapped_column(String(64))
    filename: Mapped[str] = mapped_column(String(FILENAME_LENGTH))
    #: The tournament's name and dates as read (the same-tournament warning compares them).
    tournament_name: Mapped[str] = mapped_column(String(200))
    start_date: Mapped[date] = mapped_column(Date)
    end_date: Mapped[date] = mapped_column(Date)
    #: The check report (players matched and new, differences, period, games, warnings).
    report: Mapped[dict[str, Any]] = mapped_column(JSON)
    submitted_at: Mapped[datetime] = mapped_column(UtcDateTime)
    reviewer_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    reviewed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    reason: Mapped[str | None] = mapped_column(String(REASON_LENGTH))
    #: The tournaments made when it was accepted (a JSON list of ids).
    tournament_ids: Mapped[list[str] | None] = mapped_column(JSON)
