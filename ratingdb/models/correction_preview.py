"""Corrections previewed in the back office, waiting for the officer's confirmation.

The web pages show a correction's impact (its dry run) before it is applied. What the officer
confirms must be exactly what was previewed, so the request is kept here, server-side: its
fields, its reason and, for a corrected file, the uploaded bytes themselves (bounded by the
upload limit; dropped once the preview is applied, discarded or expired, the digest kept). The
confirmation re-runs the correction and applies it only if its impact is still the one shown
(``impact_digest``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.models.audit import CORRECTION_KINDS
from ratingdb.models.base import Base, in_values

#: previewed: shown, waiting for the officer; applied: confirmed (``correction_id``);
#: discarded: dropped by the officer; expired: not confirmed in time.
PREVIEW_STATES = ["previewed", "applied", "discarded", "expired"]
FILENAME_LENGTH = 200
REASON_LENGTH = 500


class CorrectionPreviewRow(Base):
    """One correction as an officer asked for it, and the impact its dry run showed."""

    __tablename__ = "correction_previews"
    __table_args__ = (
        CheckConstraint(in_values("kind", CORRECTION_KINDS), name="kind"),
        CheckConstraint(in_values("state", PREVIEW_STATES), name="state"),
        Index(None, "user_id", "state"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(12))
    #: The officer who previewed it: the only one who may confirm it.
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    state: Mapped[str] = mapped_column(String(10))
    #: The request's fields (tournament, round, players, result; keep and drop; category,
    #: period, format), as JSON.
    inputs: Mapped[dict[str, Any]] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(String(REASON_LENGTH))
    filename: Mapped[str | None] = mapped_column(String(FILENAME_LENGTH))
    #: The uploaded file while the preview waits (NULL once decided).
    content: Mapped[bytes | None] = mapped_column(LargeBinary)
    #: Hex SHA-256 of the uploaded file (kept after ``content`` is dropped).
    file_digest: Mapped[str | None] = mapped_column(String(64))
    #: The dry run's report: the lists that would change, who and by how much.
    impact: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: Hex SHA-256 of ``impact`` as canonical JSON: the confirmation must reproduce it.
    impact_digest: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    correction_id: Mapped[int | None] = mapped_column(ForeignKey("corrections.id"))
