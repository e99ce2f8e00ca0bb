"""Corrections and the audit log: what changed after the fact, and who did what."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, func
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.enums import AuditChannel, CorrectionKind
from ratingdb.models.base import Base, category_column, enum_check, enum_column
from ratingdb.models.tournament import TOURNAMENT_ID_LENGTH
from ratingdb.rules.categories import Category


class CorrectionRow(Base):
    """One correction, never an edit in place: the rows it replaces are kept and point to it
    (``games.superseded_by``), the rows it brings name it (``games.created_by``), and the list
    revisions it causes name it too (``rating_lists.cause_correction_id``)."""

    __tablename__ = "corrections"
    __table_args__ = (enum_check("kind", CorrectionKind),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[CorrectionKind] = mapped_column(enum_column(CorrectionKind, 12))
    #: None for a merge (a player's record is in every category).
    category: Mapped[Category | None] = mapped_column(category_column())
    tournament_id: Mapped[str | None] = mapped_column(
        String(TOURNAMENT_ID_LENGTH), ForeignKey("tournaments.tournament_id")
    )
    reason: Mapped[str] = mapped_column(String(500))
    actor: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, server_default=func.now())
    #: What the correction replaced and what it put instead (games, ids), as JSON.
    before: Mapped[dict[str, Any]] = mapped_column(JSON)
    after: Mapped[dict[str, Any]] = mapped_column(JSON)


class AuditRow(Base):
    """One import, close, correction or merge: the file's digest, the actor, the time, counts."""

    __tablename__ = "audit_log"
    __table_args__ = (Index(None, "at"), enum_check("channel", AuditChannel))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(100))
    at: Mapped[datetime] = mapped_column(UtcDateTime, server_default=func.now())
    file_digest: Mapped[str | None] = mapped_column(String(64))
    counts: Mapped[dict[str, Any]] = mapped_column(JSON)
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: How the action came in (None: written before channels were recorded, migration 0012).
    channel: Mapped[AuditChannel | None] = mapped_column(enum_column(AuditChannel, 10))
    #: The credential it came with: ``session``, ``token LABEL (#ID)``, or for a command the
    #: operating system user who ran it (``actor`` being whom they named with --actor).
    credential: Mapped[str | None] = mapped_column(String(120))
