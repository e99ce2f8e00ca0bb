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

from sqlalchemy import JSON, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.enums import CorrectionKind, PreviewState
from ratingdb.models.base import Base, enum_check, enum_column

FILENAME_LENGTH = 200
REASON_LENGTH = 500


class CorrectionPreviewRow(Base):
    """One correction as an officer asked for it, and the impact its dry run showed."""

    __tablename__ = "correction_previews"
    __table_args__ = (
        enum_check("kind", CorrectionKind),
        enum_check("state", PreviewState),
        Index(None, "user_id", "state"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[CorrectionKind] = mapped_column(enum_column(CorrectionKind, 12))
    #: The officer who previewed it: the only one who may confirm it.
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    state: Mapped[PreviewState] = mapped_column(enum_column(PreviewState, 10))
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
