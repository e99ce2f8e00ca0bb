"""bulk_insert: COPY on PostgreSQL, executemany on SQLite, same rows and same errors on both."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ratingdb.db import bulk_insert
from ratingdb.db.calculation_format_v1 import pack, unpack
from ratingdb.models import (
    ListEntryRow,
    PeriodRow,
    PlayerCalculationsRow,
    PlayerRow,
    PlayerStatusRow,
    TournamentRow,
)
from tests.db.sample_rows import Graph
from tests.support.rolled_back import RolledBack


@pytest.fixture
def statements(database: RolledBack) -> Iterator[list[str]]:
    """The SQL statements SQLAlchemy sends on the test's connection (COPY goes around
    SQLAlchemy, so it is not here)."""
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    event.listen(database.connection, "before_cursor_execute", record)
    yield seen
    event.remove(database.connection, "before_cursor_execute", record)


def player_rows(ids: range) -> list[dict[str, Any]]:
    return [
        {
            "player_id": str(player_id),
            "name": f"Player {player_id}",
            "search_name": f"player {player_id}",
            "federation": "FRA" if player_id % 2 else None,
            "sex": "F" if player_id % 3 == 0 else "M",
            "birth_year": 1990 + player_id % 20 if player_id % 5 else None,
            "title": None,
        }
        for player_id in ids
    ]


def count(session: Session, model: type[Any]) -> int:
    return session.scalar(select(func.count()).select_from(model)) or 0


def test_bulk_insert_writes_rows(session: Session, statements: list[str]) -> None:
    rows = player_rows(range(100_000, 101_000))
    with session.begin():
        assert bulk_insert(session, PlayerRow, rows) == 1000

    assert count(session, PlayerRow) == 1000
    player = session.get(PlayerRow, "100005")
    assert player is not None
    assert (player.name, player.federation, player.sex, player.birth_year) == (
        "Player 100005",
        "FRA",
        "F",
        None,
    )
    # Left out, so the server default applies (on COPY too), as a UTC instant.
    assert player.created_at.tzinfo is UTC
    assert abs(datetime.now(UTC) - player.created_at) < timedelta(minutes=5)

    inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT")]
    if session.get_bind().dialect.name == "postgresql":
        assert inserts == []  # the COPY path
    else:
        assert len(inserts) == 1  # one executemany


def test_bulk_insert_converts_values_like_an_insert(session: Session, graph: Graph) -> None:
    """Decimals, booleans, JSON, bytes, dates and UTC instants come back as written."""
    white, black = graph.player_ids
    pool = [
        {
            "period": "2026-12",
            "tournament_id": graph.tournament_id,
            "games": [{"opponent_rating": 1800, "score": "0.5"}],
        }
    ]
    packed = pack(
        [(graph.game_id, 2837, 2802, 35, 35, Decimal("0.55"), Decimal("1"), Decimal("0.45"),
          True, None)]
    )  # fmt: skip
    paris = timezone(timedelta(hours=1))
    with session.begin():
        bulk_insert(
            session,
            ListEntryRow,
            [
                {
                    "list_id": graph.list_id,
                    "player_id": white,
                    "rating": 2840,
                    "previous_rating": 2837,
                    "change": 3,
                    "games": 9,
                    "k_factor": 10,
                    "k_used": 10,
                    "sum_delta": Decimal("0.2500"),
                    "rated_games": 2000,
                    "peak_rating": 2882,
                    "last_rated": date(2026, 12, 1),
                    "active": True,
                }
            ],
        )
        bulk_insert(
            session,
            PlayerStatusRow.__table__,
            [
                {
                    "list_id": graph.list_id,
                    "player_id": black,
                    "rated_games": 4,
                    "peak_rating": None,
                    "pool": pool,
                }
            ],
        )
        bulk_insert(
            session,
            PlayerCalculationsRow,
            [
                {
                    "list_id": graph.list_id,
                    "player_id": white,
                    "games": 1,
                    "packed": packed,
                }
            ],
        )
        bulk_insert(
            session,
            TournamentRow,
            [
                {
                    "tournament_id": "T000002",
                    "name": "Rapid, late",
                    "category": "fide-standard",
                    "start_date": date(2026, 11, 20),
                    "end_date": date(2026, 11, 21),
                    "period_id": graph.period_id,
                    "late": True,
                    "source_format": "trf",
                    "source_digest": "f" * 64,
                    "imported_at": datetime(2026, 11, 22, 10, 0, tzinfo=paris),
                }
            ],
        )
    session.expire_all()

    entry = session.get(ListEntryRow, (white, graph.list_id))
    assert entry is not None
    assert entry.sum_delta == Decimal("0.2500")
    assert (entry.rating, entry.change, entry.k_used) == (2840, 3, 10)
    assert (entry.last_rated, entry.active) == (date(2026, 12, 1), True)

    status = session.get(PlayerStatusRow, (graph.list_id, black))
    assert status is not None
    assert status.pool == pool
    assert status.peak_rating is None

    calculations = session.get(PlayerCalculationsRow, (graph.list_id, white))
    assert calculations is not None
    assert (calculations.games, calculations.packed) == (1, packed)  # bytes, through COPY too
    (calculation,) = unpack(calculations.packed)
    assert (calculation.expected, calculation.score, calculation.delta) == (
        Decimal("0.5500"),
        Decimal("1.0"),
        Decimal("0.4500"),
    )
    assert calculation.rated is True

    tournament = session.get(TournamentRow, "T000002")
    assert tournament is not None
    assert tournament.late is True
    assert tournament.start_date == date(2026, 11, 20)
    assert tournament.imported_at == datetime(2026, 11, 22, 9, 0, tzinfo=UTC)
    assert tournament.imported_at.tzinfo is UTC


def test_unique_violation_rolls_back_the_whole_transaction(session: Session) -> None:
    def import_in_one_transaction() -> None:
        with session.begin():
            session.add(
                PeriodRow(
                    category="fide-rapid",
                    list_date=date(2027, 1, 1),
                    closing_date=date(2026, 12, 29),
                )
            )
            bulk_insert(session, PlayerRow, player_rows(range(200_000, 200_500)))
            # 200499 is already there: the second batch fails as a whole.
            bulk_insert(session, PlayerRow, player_rows(range(200_499, 200_600)))

    with pytest.raises(IntegrityError, match=r"pk_players|UNIQUE constraint failed"):
        import_in_one_transaction()

    assert count(session, PlayerRow) == 0
    assert count(session, PeriodRow) == 0


def test_a_failure_inside_a_savepoint_keeps_the_outer_transaction(session: Session) -> None:
    """SAVEPOINTs work on SQLite too (the BEGIN hook), including around a failed COPY."""
    with session.begin():
        bulk_insert(session, PlayerRow, player_rows(range(300_000, 300_010)))
        with pytest.raises(IntegrityError), session.begin_nested():
            bulk_insert(session, PlayerRow, player_rows(range(300_005, 300_020)))
        bulk_insert(session, PlayerRow, player_rows(range(300_010, 300_012)))

    assert count(session, PlayerRow) == 12


def test_bulk_insert_refuses_rows_with_different_columns(session: Session) -> None:
    rows = player_rows(range(1, 3))
    del rows[1]["title"]
    with pytest.raises(ValueError, match="row 1 has columns"):
        bulk_insert(session, PlayerRow, rows)


def test_bulk_insert_refuses_unknown_columns(session: Session) -> None:
    rows = [{**row, "rating": 2000} for row in player_rows(range(1, 2))]
    with pytest.raises(ValueError, match="players has no column rating"):
        bulk_insert(session, PlayerRow, rows)


def test_bulk_insert_of_nothing_does_nothing(session: Session) -> None:
    assert bulk_insert(session, PlayerRow, []) == 0
    assert count(session, PlayerRow) == 0
