"""Players: one row per person, whatever the categories they are rated in."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, Integer, String, func
from sqlalchemy.orm import Mapped, mapped_column, validates

from ratingdb.db.types import UtcDateTime
from ratingdb.formats.names import SEARCH_NAME_LENGTH, search_key
from ratingdb.models.base import Base

PLAYER_ID_LENGTH = 20
#: FIDE ids have at most 11 digits (TRF columns 58-68, "incl. 3 reserve digits").
FIDE_ID_LENGTH = 11
#: Players known by neither a FIDE id nor a national id get a local player_id: 12 digits
#: starting with 9, one digit longer than any FIDE id, so the two can never collide.
LOCAL_ID_PREFIX = "9"
LOCAL_ID_LENGTH = 12
NATIONAL_ID_LENGTH = 20


def is_local_id(player_id: str) -> bool:
    """An id ratingdb made for a player met in a tournament report without a FIDE id."""
    return len(player_id) == LOCAL_ID_LENGTH and player_id.startswith(LOCAL_ID_PREFIX)


class PlayerRow(Base):
    """A player, known by ``player_id`` (digits): the FIDE id when the player has one, a
    national id (a list CSV), or a local id (``LOCAL_ID_PREFIX``, ``LOCAL_ID_LENGTH`` digits)
    for a player met in a tournament report without a FIDE id.

    ``fide_id`` is set when the id is known to be FIDE's (a FIDE list, a TRF); a national id
    and rating (TRF26 National Rating Support records) are kept with the federation they
    belong to.
    """

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
        Index(None, "fide_id", unique=True),
        Index(None, "national_federation", "national_id", unique=True),
        # The search (repositories.published.common.player_matches): a key's start with LIKE
        # 'word%'. PostgreSQL compares the pattern's prefix byte by byte, whatever the
        # database's collation, only with the pattern operator class.
        Index(None, "search_name", postgresql_ops={"search_name": "varchar_pattern_ops"}),
    )

    player_id: Mapped[str] = mapped_column(String(PLAYER_ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    #: The name as a search compares it (ratingdb.formats.names.search_key): written with the
    #: name, by the repositories' inserts and updates and by :meth:`_name_set`.
    search_name: Mapped[str] = mapped_column(String(SEARCH_NAME_LENGTH))
    federation: Mapped[str | None] = mapped_column(String(3))
    sex: Mapped[str | None] = mapped_column(String(1))
    birth_year: Mapped[int | None] = mapped_column(Integer)
    title: Mapped[str | None] = mapped_column(String(3))
    birth_date: Mapped[date | None] = mapped_column(Date)
    fide_id: Mapped[str | None] = mapped_column(String(FIDE_ID_LENGTH))
    #: The federation of the national id and rating (a TRF26 NRS record's code, e.g. FRA).
    national_federation: Mapped[str | None] = mapped_column(String(3))
    national_id: Mapped[str | None] = mapped_column(String(NATIONAL_ID_LENGTH))
    national_rating: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, server_default=func.now())
    #: A duplicate record merged into this player (``ratingdb players merge``).
    merged_into: Mapped[str | None] = mapped_column(
        String(PLAYER_ID_LENGTH), ForeignKey("players.player_id")
    )

    @validates("name")
    def _name_set(self, _key: str, name: str) -> str:
        """A name set on a row (the ORM) sets its search key too."""
        self.search_name = search_key(name)
        return name
