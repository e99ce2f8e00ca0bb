"""Games as reported, forfeits included: only played results are ever rated."""

from __future__ import annotations

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.models.base import Base, in_values
from ratingdb.models.player import PLAYER_ID_LENGTH
from ratingdb.models.tournament import TOURNAMENT_ID_LENGTH

#: As in the games CSV (docs/formats.md).
PLAYED_RESULTS = ["1-0", "0-1", "1/2-1/2"]
FORFEIT_RESULTS = ["+-", "-+", "--"]
#: TRF W/D/L: the game lasted less than one move (B §11.2): stored, never rated.
SHORT_GAME_RESULTS = ["W-L", "L-W", "D-D", "L-L"]
RESULTS = PLAYED_RESULTS + FORFEIT_RESULTS + SHORT_GAME_RESULTS


class GameRow(Base):
    """One game of a tournament round.

    Rows are never edited: a correction marks the rows it replaces (``superseded_by``) and
    adds the corrected ones (``created_by``), so every published revision can be recomputed
    from the games as they were when it was published.
    """

    __tablename__ = "games"
    __table_args__ = (
        # One current row per game (also the index for a tournament's games: tournament_id
        # leads); superseded rows stay as history.
        Index(
            "uq_games_current",
            "tournament_id",
            "round",
            "white_id",
            "black_id",
            unique=True,
            postgresql_where=text("superseded_by IS NULL"),
            sqlite_where=text("superseded_by IS NULL"),
        ),
        CheckConstraint(in_values("result", RESULTS), name="result"),
        CheckConstraint(
            f"NOT rated OR {in_values('result', PLAYED_RESULTS)}", name="forfeit_not_rated"
        ),
        CheckConstraint("white_id <> black_id", name="white_id_not_black_id"),
        CheckConstraint("round >= 1", name="round_positive"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        String(TOURNAMENT_ID_LENGTH), ForeignKey("tournaments.tournament_id")
    )
    round: Mapped[int] = mapped_column(Integer)
    white_id: Mapped[str] = mapped_column(String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"))
    black_id: Mapped[str] = mapped_column(String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"))
    result: Mapped[str] = mapped_column(String(8))
    #: A played result that counts for rating (forfeits are stored, never rated).
    rated: Mapped[bool] = mapped_column(Boolean)
    #: The correction that brought this row (None: imported as it is).
    created_by: Mapped[int | None] = mapped_column(ForeignKey("corrections.id"))
    #: The correction that replaced this row (None: the current row).
    superseded_by: Mapped[int | None] = mapped_column(ForeignKey("corrections.id"))
