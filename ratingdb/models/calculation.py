"""The game-by-game calculation behind each list entry or pool update: what explains a change."""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Integer, Numeric, String
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.models.base import Base
from ratingdb.models.player import PLAYER_ID_LENGTH
from ratingdb.models.tournament import TOURNAMENT_ID_LENGTH


class CalculationRow(Base):
    """One game from one player's side, as computed for the list ``list_id``."""

    __tablename__ = "calculations"
    __table_args__ = (
        CheckConstraint("score IN (0, 0.5, 1)", name="score"),
        CheckConstraint("rated OR reason IS NOT NULL", name="unrated_has_reason"),
    )

    list_id: Mapped[int] = mapped_column(ForeignKey("rating_lists.id"), primary_key=True)
    #: The player, the opponent and the tournament are the game's (no keys of their own: the
    #: game's tie them to players and tournaments; migration 0004 says why).
    player_id: Mapped[str] = mapped_column(String(PLAYER_ID_LENGTH), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(String(TOURNAMENT_ID_LENGTH))
    #: The player's own rating on the list in force at the tournament's start (None: unrated).
    rating_used: Mapped[int | None] = mapped_column(Integer)
    opponent_id: Mapped[str] = mapped_column(String(PLAYER_ID_LENGTH))
    opponent_rating_used: Mapped[int | None] = mapped_column(Integer)
    #: D = rating_used - opponent_rating_used, before and after the version's cap.
    difference: Mapped[int | None] = mapped_column(Integer)
    difference_used: Mapped[int | None] = mapped_column(Integer)
    #: PD, the expected score.
    expected: Mapped[Decimal | None] = mapped_column(Numeric(6, 4))
    score: Mapped[Decimal] = mapped_column(Numeric(2, 1))
    #: score - expected.
    delta: Mapped[Decimal | None] = mapped_column(Numeric(7, 4))
    rated: Mapped[bool] = mapped_column(Boolean)
    #: Why the game did not count (None when rated).
    reason: Mapped[str | None] = mapped_column(String(200))
    rule_version: Mapped[str] = mapped_column(String(40))


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
