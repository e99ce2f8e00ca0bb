"""Rows a service reads in order come in the order of their ids, whatever order the database
keeps them in: on PostgreSQL a row written again moves behind the others in its table, and a
query without an ORDER BY returns it last. A diff on PostgreSQL once listed its second
correction before its first; a merge or a replaced tournament would have superseded its games,
given their replacements ids and recorded them in its ``before`` in that order too."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind
from ratingdb.models import CorrectionRow, GameRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import games as game_repo
from tests.db.sample_rows import Graph


def test_corrections_by_id_come_oldest_first_after_the_first_is_written_again(
    session: Session,
) -> None:
    first, second = (
        CorrectionRow(kind=CorrectionKind.GAME, reason=reason, actor="officer", before={},
                      after={})
        for reason in ("first", "second")
    )  # fmt: skip
    session.add_all([first, second])
    session.flush()
    session.execute(
        update(CorrectionRow).where(CorrectionRow.id == first.id).values(after={"withdrawn": True})
    )
    session.expire_all()
    found = correction_repo.with_ids(session, [second.id, first.id])
    assert [row.reason for row in found] == ["first", "second"]


def test_current_games_come_in_id_order_after_the_first_is_written_again(
    session: Session, graph: Graph
) -> None:
    """The first game is written again into a later round: neither the table's order nor an
    index's on the round gives the ids' order."""
    white, black = graph.player_ids
    later = GameRow(tournament_id=graph.tournament_id, round=2, white_id=black, black_id=white,
                    result="0-1", rated=True)  # fmt: skip
    session.add(later)
    session.flush()
    session.execute(update(GameRow).where(GameRow.id == graph.game_id).values(round=3))
    session.expire_all()
    in_order = [graph.game_id, later.id]
    of_tournament = game_repo.current_games_of_tournament(session, graph.tournament_id)
    assert [game.id for game in of_tournament] == in_order
    assert [game.id for game in game_repo.current_games_of_player(session, white)] == in_order
