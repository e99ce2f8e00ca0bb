"""Revision 0002 on a database that already holds rows: SQLite rebuilds the games table (its
result CHECK changes) while other tables refer to it; nothing may be lost or left dangling, up
and down again. On SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import inspect, text

from ratingdb.db import downgrade, make_engine, upgrade
from tests.support.calculations import stored_calculations

ROWS = [
    "INSERT INTO players (player_id, name) VALUES ('1', 'A'), ('2', 'B')",
    (
        "INSERT INTO periods (category, list_date, closing_date, state) "
        "VALUES ('fide-standard', '2026-12-01', '2026-11-28', 'open')"
    ),
    (
        "INSERT INTO tournaments (tournament_id, name, category, start_date, end_date, period_id, "
        "source_format, source_digest) VALUES ('T000001', 'Open', 'fide-standard', '2026-11-01', "
        "'2026-11-02', 1, 'csv', 'x')"
    ),
    (
        "INSERT INTO games (tournament_id, round, white_id, black_id, result, rated) "
        "VALUES ('T000001', 1, '1', '2', '1-0', true), ('T000001', 2, '2', '1', '+-', false)"
    ),
    (
        # The calculation's rule version (0020 refuses one that is not its list's).
        "INSERT INTO rating_lists (period_id, category, list_date, source, rule_version, "
        "published_at, entry_count) VALUES (1, 'fide-standard', '2026-12-01', 'close', 'x', "
        "'2026-11-30 00:00:00', 1)"
    ),
    (
        "INSERT INTO calculations (list_id, player_id, game_id, tournament_id, opponent_id, score, "
        "rated, rule_version) VALUES (1, '1', 1, 'T000001', '2', 1, true, 'x')"
    ),
]


def rows(url: str) -> list[tuple[object, ...]]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            games = connection.execute(
                text("SELECT id, tournament_id, round, white_id, black_id, result FROM games "
                     "ORDER BY id")
            ).all()  # fmt: skip
            calculations: list[tuple[object, ...]]
            if "calculations" in inspect(connection).get_table_names():
                calculations = [
                    tuple(r) for r in connection.execute(text("SELECT game_id FROM calculations"))
                ]
            else:  # from 0020 on: one row a player, the calculations packed
                calculations = [(c.game_id,) for c in stored_calculations(connection)]
            if connection.dialect.name == "sqlite":
                assert connection.exec_driver_sql("PRAGMA foreign_key_check").all() == []
            return [tuple(r) for r in games] + calculations
    finally:
        engine.dispose()


def test_0002_keeps_the_rows(empty_database_url: str) -> None:
    url = empty_database_url
    upgrade(url, "0001")
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            for statement in ROWS:
                connection.execute(text(statement))
    finally:
        engine.dispose()
    before = rows(url)
    upgrade(url)
    assert rows(url) == before
    engine = make_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO games (tournament_id, round, white_id, black_id, result, "
                     "rated) VALUES ('T000001', 3, '1', '2', 'W-L', false)")
            )  # fmt: skip
    finally:
        engine.dispose()
    downgrade(url, "0001")  # the game shorter than one move goes: 0001 cannot hold it
    assert rows(url) == before
    upgrade(url)
    assert rows(url) == before
