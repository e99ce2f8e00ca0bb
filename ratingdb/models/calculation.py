"""The game-by-game calculation behind each list entry or pool update: what explains a change."""

from __future__ import annotations

from sqlalchemy import CheckConstraint, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.models.base import Base
from ratingdb.models.player import PLAYER_ID_LENGTH


class PlayerCalculationsRow(Base):
    """One player's calculations on the list ``list_id``: each game from the player's side, as
    computed (ratingdb.db.calculation_format_v1, migration 0020). One row a player, not one a
    game: a month of 500,000 players is 240,000 rows instead of 480,000 wider ones. The game's
    tournament and opponent are the game's, the rule version the list's. The games are not
    keyed from here (they are inside ``packed``): games are never deleted, only superseded,
    and ``periods verify`` recomputes every calculation and compares it field by field."""

    __tablename__ = "player_calculations"
    __table_args__ = (
        CheckConstraint("games > 0", name="games_positive"),
        # Format 1: a 3-byte header and at least 17 bytes a game.
        CheckConstraint("length(packed) >= 3 + 17 * games", name="packed_holds_games"),
        Index("ix_player_calculations_player_id", "player_id"),
    )

    list_id: Mapped[int] = mapped_column(ForeignKey("rating_lists.id"), primary_key=True)
    #: No key to players (one more check a row, on the close's critical path: migration 0004).
    player_id: Mapped[str] = mapped_column(String(PLAYER_ID_LENGTH), primary_key=True)
    #: How many calculations ``packed`` holds.
    games: Mapped[int] = mapped_column(Integer)
    packed: Mapped[bytes] = mapped_column(LargeBinary)


class RevisedPlayerRow(Base):
    """A player a correction's revision recomputed (migration 0019). A revision stores the
    calculations of those players only: everyone else's are the revision's it replaces (its
    parent, a list of the same date), read through it (repositories.list_storage.calculations).
    A list computed whole (a close, or a revision recomputed whole) has no rows here."""

    __tablename__ = "revised_players"

    list_id: Mapped[int] = mapped_column(ForeignKey("rating_lists.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"), primary_key=True
    )
