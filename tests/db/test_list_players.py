"""The players of a list's entries, read in the order of the entries
(repositories.list_storage.players.player_columns, players_by_id, count_of_federation), on both
databases: values as stored, None kept apart from '' and a value holding a line break (which
the PostgreSQL read, joining a text column's values by line breaks, must send another way)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from ratingdb.models import PlayerRow
from ratingdb.repositories.list_storage import players as list_players
from ratingdb.repositories.list_storage.players import (
    count_of_federation,
    player_columns,
    players_by_id,
)

COLUMNS = (PlayerRow.name, PlayerRow.federation, PlayerRow.birth_year)


@pytest.fixture(autouse=True, params=["by id", "many", "most"])
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every way of reading: by id (a page's few players); many (FEW_PLAYERS set to 0 so that
    these few count as many: on PostgreSQL the join of their ids there); most (many, and most
    of the players table: every player's columns joined into one row)."""
    if request.param != "by id":
        monkeypatch.setattr(list_players, "FEW_PLAYERS", 0)
        most = request.param == "most"
        monkeypatch.setattr(list_players, "_most_players", lambda session, count: most)


def add_players(session: Session, *players: PlayerRow) -> None:
    session.add_all(players)
    session.flush()


def plain(session: Session) -> None:
    add_players(
        session,
        PlayerRow(player_id="30", name="Carlsen, Magnus", federation="NOR", birth_year=1990),
        PlayerRow(player_id="4", name="Nakamura, Hikaru", federation="USA", birth_year=1987),
        PlayerRow(player_id="100", name="Nobody", federation=None, birth_year=None),
        PlayerRow(player_id="7", name="Ding, Liren", federation="CHN", birth_year=1992),
    )


def test_columns_come_in_the_order_of_the_ids(session: Session) -> None:
    plain(session)
    assert player_columns(session, ["4", "100", "30"], COLUMNS) == [
        ["Nakamura, Hikaru", "Nobody", "Carlsen, Magnus"],
        ["USA", None, "NOR"],
        [1987, None, 1990],
    ]
    assert player_columns(session, [], COLUMNS) == [[], [], []]
    assert players_by_id(session, ["7", "4", "7"], (PlayerRow.federation,)) == {
        "4": ("USA",),
        "7": ("CHN",),
    }


def test_empty_text_and_line_breaks_are_not_none(session: Session) -> None:
    add_players(
        session,
        PlayerRow(player_id="1", name="Two\nlines", federation="", birth_year=2001),
        PlayerRow(player_id="2", name="", federation=None, birth_year=None),
        PlayerRow(player_id="3", name="Plain", federation="FRA", birth_year=1999),
    )
    assert player_columns(session, ["3", "2", "1"], COLUMNS) == [
        ["Plain", "", "Two\nlines"],
        ["FRA", None, ""],
        [1999, None, 2001],
    ]


def test_an_unknown_player_is_an_error(session: Session) -> None:
    plain(session)
    with pytest.raises(AssertionError, match="unknown player"):
        player_columns(session, ["4", "999"], COLUMNS)


def test_count_of_federation(session: Session) -> None:
    plain(session)
    add_players(session, PlayerRow(player_id="8", name="Caruana, Fabiano", federation="USA"))
    assert count_of_federation(session, ["4", "30", "8", "100"], "USA") == 2
    assert count_of_federation(session, ["30", "100"], "USA") == 0
    assert count_of_federation(session, [], "USA") == 0
