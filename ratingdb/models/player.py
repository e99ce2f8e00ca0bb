"""Players: one row per person, whatever the categories they are rated in."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, Integer, String, func
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.models.base import Base

PLAYER_ID_LENGTH = 20


class PlayerRow(Base):
    """A player, known by a FIDE ID or a national ID (digits only)."""

    __tablename__ = "players"
    __table_args__ = (
        # The same rule in each database's own pattern language.
        CheckConstraint(r"player_id ~ '^[0-9]+$'", name="player_id_digits").ddl_if(
            dialect="postgresql"
        ),
        CheckConstraint(
            "player_id <> '' AND player_id NOT GLOB '*[^0-9]*'", name="player_id_digits"
        ).ddl_if(dialect="sqlite"),
        CheckConstraint("sex IN ('M', 'F')", name="sex"),
    )

    player_id: Mapped[str] = mapped_column(String(PLAYER_ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    federation: Mapped[str | None] = mapped_column(String(3))
    sex: Mapped[str | None] = mapped_column(String(1))
    birth_year: Mapped[int | None] = mapped_column(Integer)
    title: Mapped[str | None] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, server_default=func.now())
