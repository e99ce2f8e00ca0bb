"""Revision 0018 (player history): on a database at 0017 with players, the upgrade seeds each
valid federation and title from 1900-01-01 and leaves out what the CHECKs refuse; the database
refuses a bad code, title or standing, a date before 1900, two values on one date, an
unknown player and a second edit counter; the downgrade drops the four tables and keeps the
players. SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from ratingdb.db import current_revision, downgrade, head_revision, upgrade
from tests.migrations.test_0005_list_replace_kind import run
from tests.support.sql import query, table_names

PLAYERS = [
    # player_id, name, search_name, federation, title
    ("1", "Ada, A", "ada a", "FRA", "GM"),
    ("2", "Ben, B", "ben b", "GER", None),
    ("3", "Cy, C", "cy c", None, "WIM"),
    ("4", "Di, D", "di d", "fr", "g"),  # neither is a valid code: not copied
]
TABLES = {"player_federations", "player_titles", "player_status_changes", "player_edits"}


def test_seeded_guarded_and_dropped(database_url: str) -> None:
    url = database_url
    downgrade(url, "0017")
    assert not TABLES & table_names(url)
    for player in PLAYERS:
        run(url, "INSERT INTO players (player_id, name, search_name, federation, title) "
            "VALUES (:i, :n, :s, :f, :t)", i=player[0], n=player[1], s=player[2], f=player[3],
            t=player[4])  # fmt: skip
    upgrade(url)
    assert current_revision(url) == head_revision()
    federations = query(url, "SELECT player_id, CAST(effective_from AS VARCHAR(10)), federation "
                        "FROM player_federations ORDER BY player_id")  # fmt: skip
    assert federations == [("1", "1900-01-01", "FRA"), ("2", "1900-01-01", "GER")]
    titles = query(url, "SELECT player_id, CAST(effective_from AS VARCHAR(10)), title "
                   "FROM player_titles ORDER BY player_id")  # fmt: skip
    assert titles == [("1", "1900-01-01", "GM"), ("3", "1900-01-01", "WIM")]
    assert query(url, "SELECT count(*) FROM player_status_changes") == [(0,)]
    assert query(url, "SELECT id, edits FROM player_edits") == [(1, 0)]
    for bad in (
        "INSERT INTO player_federations VALUES ('2', '2026-01-01', 'ger')",
        "INSERT INTO player_federations VALUES ('2', '2026-01-01', 'G1R')",
        "INSERT INTO player_federations VALUES ('2', '1899-12-31', 'ITA')",
        "INSERT INTO player_federations VALUES ('2', '1900-01-01', 'ITA')",  # one a date
        "INSERT INTO player_federations VALUES ('99', '2026-01-01', 'ITA')",  # no such player
        "INSERT INTO player_titles VALUES ('2', '2026-01-01', 'XM')",
        "INSERT INTO player_status_changes VALUES ('2', '2026-01-01', 'retired')",
        "INSERT INTO player_status_changes VALUES ('99', '2026-01-01', 'deceased')",
        "INSERT INTO player_edits VALUES (2, 0)",  # one row
        "UPDATE player_edits SET edits = -1",
    ):
        with pytest.raises(IntegrityError):
            run(url, bad)
    run(url, "INSERT INTO player_federations VALUES ('2', '2026-01-01', 'ITA')")
    run(url, "INSERT INTO player_titles VALUES ('1', '2026-01-01', NULL)")
    run(url, "INSERT INTO player_status_changes VALUES ('2', '2026-01-01', 'deceased')")
    downgrade(url, "0017")
    assert not TABLES & table_names(url)
    assert query(url, "SELECT player_id, federation, title FROM players ORDER BY player_id") == [
        (p[0], p[3], p[4]) for p in PLAYERS
    ]
    upgrade(url)
    assert query(url, "SELECT count(*) FROM player_federations") == [(2,)]
