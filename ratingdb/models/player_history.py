"""What a player's record was on a date (issue 28 item 2, migration 0018): their federation
and title from each date an officer recorded (a transfer, a title awarded), and their standing
(deceased, suspended, withdrawn, active again) from its date.

How a date's value is read (repositories.player_history.as_of): a player's latest row with
``effective_from`` on or before the date; when that is the player's latest row of all, the
federation and title are the record's own (``players.federation``, ``players.title``: what an
import last wrote), so that the history only ever tells what was true *before* the latest
recorded change. A player with no row is as their record says, and active.

Every player's federation and title were seeded by the migration at ``SINCE_EVER`` (as first
recorded), and an officer's first dated change of a player made since writes that row first.
"""

from __future__ import annotations

from datetime import date

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.enums import PlayerStanding
from ratingdb.models.base import Base, enum_check, enum_column, in_values
from ratingdb.models.player import PLAYER_ID_LENGTH
from ratingdb.rules.titles import Title

#: The date of a value known since the player was first recorded (the seeded rows).
SINCE_EVER = date(1900, 1, 1)
STANDING_LENGTH = 10


def _federation_check() -> tuple[CheckConstraint, CheckConstraint]:
    return (
        CheckConstraint(r"federation ~ '^[A-Z]{3}$'", name="federation_code").ddl_if(
            dialect="postgresql"
        ),
        CheckConstraint("federation GLOB '[A-Z][A-Z][A-Z]'", name="federation_code").ddl_if(
            dialect="sqlite"
        ),
    )


class PlayerFederationRow(Base):
    """The federation a player represents from ``effective_from`` on (a FIDE transfer's
    date)."""

    __tablename__ = "player_federations"
    __table_args__ = (
        *_federation_check(),
        CheckConstraint(f"effective_from >= '{SINCE_EVER.isoformat()}'", name="effective_from"),
        # as_of: the few rows after a date (the seeded rows are all at SINCE_EVER).
        Index(None, "effective_from"),
    )

    player_id: Mapped[str] = mapped_column(
        String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"), primary_key=True
    )
    effective_from: Mapped[date] = mapped_column(Date, primary_key=True)
    federation: Mapped[str] = mapped_column(String(3))


class PlayerTitleRow(Base):
    """The title a player holds from ``effective_from`` on (None: no title from that date, a
    title revoked or recorded by mistake)."""

    __tablename__ = "player_titles"
    __table_args__ = (
        CheckConstraint(
            "title IS NULL OR " + in_values("title", [t.value for t in Title]), name="title"
        ),
        CheckConstraint(f"effective_from >= '{SINCE_EVER.isoformat()}'", name="effective_from"),
        Index(None, "effective_from"),
    )

    player_id: Mapped[str] = mapped_column(
        String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"), primary_key=True
    )
    effective_from: Mapped[date] = mapped_column(Date, primary_key=True)
    title: Mapped[str | None] = mapped_column(String(3))


class PlayerStatusChangeRow(Base):
    """A player's standing from ``effective_from`` on (``PlayerStanding``)."""

    __tablename__ = "player_status_changes"
    __table_args__ = (
        enum_check("status", PlayerStanding),
        CheckConstraint(f"effective_from >= '{SINCE_EVER.isoformat()}'", name="effective_from"),
    )

    player_id: Mapped[str] = mapped_column(
        String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"), primary_key=True
    )
    effective_from: Mapped[date] = mapped_column(Date, primary_key=True)
    status: Mapped[PlayerStanding] = mapped_column(enum_column(PlayerStanding, STANDING_LENGTH))


class PlayerEditsRow(Base):
    """How many times officers edited players' records (one row, ``id`` 1): part of what the
    public site's cached player pages are named by (services.published.Generation), so that an
    edit shows there at once, not at the next publication."""

    __tablename__ = "player_edits"
    __table_args__ = (
        CheckConstraint("id = 1", name="one_row"),
        CheckConstraint("edits >= 0", name="edits_not_negative"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    edits: Mapped[int] = mapped_column(Integer)
