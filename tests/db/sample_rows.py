"""A small committed graph of rows (players, a published period and its list, a tournament and
a game) for the tests that need rows to refer to.

Imported by the tests of this directory as ``sample_rows`` (pytest puts the directory on the path).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy.orm import Session

from ratingdb.models import GameRow, PeriodRow, PlayerRow, RatingListRow, TournamentRow

PUBLISHED_AT = datetime(2026, 11, 1, 0, 5, tzinfo=UTC)


@dataclass(frozen=True)
class Graph:
    period_id: int
    list_id: int
    tournament_id: str
    game_id: int
    player_ids: tuple[str, ...]


def build_graph(session: Session) -> Graph:
    """Two players, the fide-standard period 2026-12 with its published list, and one
    tournament with one game; committed."""
    players = [
        PlayerRow(player_id="1503014", name="Carlsen, Magnus", federation="NOR", sex="M"),
        PlayerRow(player_id="2016192", name="Nakamura, Hikaru", federation="USA", sex="M"),
    ]
    period = PeriodRow(
        category="fide-standard",
        list_date=date(2026, 12, 1),
        closing_date=date(2026, 11, 28),
        state="published",
        published_at=PUBLISHED_AT,
    )
    session.add_all([*players, period])
    session.flush()
    rating_list = RatingListRow(
        period_id=period.id,
        category="fide-standard",
        list_date=date(2026, 12, 1),
        source="close",
        rule_version="fide-2025-10",
        published_at=PUBLISHED_AT,
        entry_count=2,
    )
    tournament = TournamentRow(
        tournament_id="T000001",
        name="Open",
        category="fide-standard",
        start_date=date(2026, 11, 2),
        end_date=date(2026, 11, 9),
        period_id=period.id,
        source_format="csv",
        source_digest="0" * 64,
    )
    session.add_all([rating_list, tournament])
    session.flush()
    game = GameRow(
        tournament_id="T000001",
        round=1,
        white_id="1503014",
        black_id="2016192",
        result="1-0",
        rated=True,
    )
    session.add(game)
    session.commit()
    return Graph(
        period_id=period.id,
        list_id=rating_list.id,
        tournament_id=tournament.tournament_id,
        game_id=game.id,
        player_ids=("1503014", "2016192"),
    )
