"""The stored calculations read back as the rows of the table they replaced (``calculations``,
one a game from each player's side; migration 0020): what is stored, seen without the code
under test.

``player_calculations`` holds one row a player and list, their calculations packed
(ratingdb.db.calculation_format_v1, tested on its own); a calculation's tournament and opponent
are its game's (``games``), its rule version its list's (``rating_lists``). Only what is
*stored* under a list is read: a correction's revision stores the players it recomputed, the
others are read through its parent by the code, not here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, NamedTuple

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.orm import Session

from ratingdb.db.calculation_format_v1 import unpack  # the packed format, tested on its own


class Calculation(NamedTuple):
    """One game from one player's side, as computed for the list ``list_id``: the columns of
    the replaced table ``calculations``, in its order."""

    list_id: int
    player_id: str
    game_id: int
    tournament_id: str
    rating_used: int | None
    opponent_id: str
    opponent_rating_used: int | None
    difference: int | None
    difference_used: int | None
    expected: Decimal | None
    score: Decimal
    delta: Decimal | None
    rated: bool
    reason: str | None
    rule_version: str | None


#: The fields of a calculation, in the order of the replaced table's columns.
FIELDS = Calculation._fields


def stored_calculations(
    source: str | Connection | Session, where: str = "1 = 1", **params: Any
) -> list[Calculation]:
    """Every calculation stored under the lists ``where`` selects (a condition on
    ``player_calculations AS c`` and ``rating_lists AS l``, with ``:name`` parameters), sorted
    by list, player and game (the replaced table's key). ``source``: a database URL, or a
    connection or session (to see what it has not committed)."""
    if isinstance(source, str):
        engine = create_engine(source)
        try:
            with engine.connect() as connection:
                return _read(connection, where, params)
        finally:
            engine.dispose()
    connection = source.connection() if isinstance(source, Session) else source
    return _read(connection, where, params)


def calculation_count(
    source: str | Connection | Session, where: str = "1 = 1", **params: Any
) -> int:
    """How many calculations (games from a player's side, not player rows) are stored under
    the lists ``where`` selects (see :func:`stored_calculations`)."""
    return len(stored_calculations(source, where, **params))


def _read(connection: Connection, where: str, params: dict[str, Any]) -> list[Calculation]:
    packed = connection.execute(
        text(
            "SELECT c.list_id, c.player_id, c.games, c.packed, l.rule_version "
            "FROM player_calculations AS c JOIN rating_lists AS l ON l.id = c.list_id "
            f"WHERE {where}"
        ),
        params,
    ).all()
    games = {
        int(game_id): (tournament_id, white_id, black_id)
        for game_id, tournament_id, white_id, black_id in connection.execute(
            text("SELECT id, tournament_id, white_id, black_id FROM games")
        )
    }
    found: list[Calculation] = []
    for list_id, player_id, count, data, rule_version in packed:
        stored = unpack(bytes(data))
        if len(stored) != count:
            raise AssertionError(
                f"list {list_id}, player {player_id}: {len(stored)} calculations packed, "
                f"the row says {count}"
            )
        for calculation in stored:
            game = games.get(calculation.game_id)
            if game is None:
                raise AssertionError(
                    f"list {list_id}, player {player_id}: game {calculation.game_id} not stored"
                )
            tournament_id, white_id, black_id = game
            if player_id not in (white_id, black_id):
                raise AssertionError(
                    f"list {list_id}: player {player_id} did not play game "
                    f"{calculation.game_id} ({white_id}-{black_id})"
                )
            opponent_id = black_id if player_id == white_id else white_id
            found.append(
                Calculation(
                    list_id, player_id, calculation.game_id, tournament_id,
                    calculation.rating_used, opponent_id, calculation.opponent_rating_used,
                    calculation.difference, calculation.difference_used, calculation.expected,
                    calculation.score, calculation.delta, calculation.rated,
                    calculation.reason, rule_version,
                )
            )  # fmt: skip
    found.sort(key=lambda c: (c.list_id, c.player_id, c.game_id))
    return found
