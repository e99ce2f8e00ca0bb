"""Games as reported, forfeits included: only played results are ever rated."""

from __future__ import annotations

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.models.base import Base, in_values
from ratingdb.models.player import PLAYER_ID_LENGTH
from ratingdb.models.tournament import TOURNAMENT_ID_LENGTH

#: As in the games CSV (contract "Files").
PLAYED_RESULTS = ["1-0", "0-1", "1/2-1/2"]
FORFEIT_RESULTS = ["+-", "-+", "--"]
#: TRF W/D/L: the game lasted less than one move (B §11.2): stored, never rated.
SHORT_GAME_RESULTS = ["W-L", "L-W", "D-D", "L-L"]
RESULTS = PLAYED_RESULTS + FORFEIT_RESULTS + SHORT_GAME_RESULTS


class GameRow(Base):
    """One game of a tournament round."""

    __tablename__ = "games"
    __table_args__ = (
        # Also the index for a tournament's games (tournament_id leads).
        UniqueConstraint("tournament_id", "round", "white_id", "black_id"),
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
