"""The schema refuses what the domain forbids, on both databases (CHECK, UNIQUE, FOREIGN KEY)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.orm import Session

from ratingdb.db.calculation_format_v1 import pack
from ratingdb.models import (
    GameRow,
    ListEntryRow,
    PeriodRow,
    PlayerCalculationsRow,
    PlayerRow,
    RatingListRow,
    TournamentRow,
)
from tests.db.sample_rows import Graph

PLAYER = {"player_id": "1503014", "name": "Carlsen, Magnus", "search_name": "carlsen magnus"}
PERIOD = {
    "category": "fide-standard",
    "list_date": date(2027, 1, 1),
    "closing_date": date(2026, 12, 29),
}


def refused(session: Session, model: type[Any], row: dict[str, Any], constraint: str) -> None:
    """Inserting ``row`` fails on ``constraint`` (both databases name it in the message)."""
    with pytest.raises(IntegrityError) as raised, session.begin():
        session.execute(insert(model), [row])
    assert constraint.lower() in str(raised.value.orig).lower()


def accepted(session: Session, model: type[Any], row: dict[str, Any]) -> None:
    with session.begin():
        session.execute(insert(model), [row])


def tournament(graph: Graph, **changes: Any) -> dict[str, Any]:
    return {
        "tournament_id": "T000009",
        "name": "Club championship",
        "category": "fide-standard",
        "start_date": date(2026, 11, 10),
        "end_date": date(2026, 11, 12),
        "period_id": graph.period_id,
        "source_format": "csv",
        "source_digest": "a" * 64,
        **changes,
    }


def game(graph: Graph, **changes: Any) -> dict[str, Any]:
    white, black = graph.player_ids
    return {
        "tournament_id": graph.tournament_id,
        "round": 2,
        "white_id": black,
        "black_id": white,
        "result": "1/2-1/2",
        "rated": True,
        **changes,
    }


@pytest.mark.parametrize("category", ["fide-classical", "FIDE-STANDARD", ""])
def test_period_category_must_be_one_of_the_four(session: Session, category: str) -> None:
    refused(session, PeriodRow, {**PERIOD, "category": category}, "ck_periods_category")


@pytest.mark.parametrize("category", ["fide-standard", "fide-rapid", "fide-blitz", "ffe-rapid"])
def test_the_four_categories_are_accepted(session: Session, category: str) -> None:
    accepted(session, PeriodRow, {**PERIOD, "category": category})


def test_period_state_must_be_known(session: Session) -> None:
    refused(session, PeriodRow, {**PERIOD, "state": "closed"}, "ck_periods_state")


def test_published_period_has_a_publication_time(session: Session) -> None:
    refused(
        session,
        PeriodRow,
        {**PERIOD, "state": "published"},
        "ck_periods_published_has_published_at",
    )


def test_a_period_exists_once_per_category_and_list_date(session: Session) -> None:
    accepted(session, PeriodRow, PERIOD)
    refused(session, PeriodRow, {**PERIOD, "closing_date": date(2026, 12, 25)}, "category")


def test_rating_list_category_is_checked(session: Session, graph: Graph) -> None:
    row = {
        "period_id": graph.period_id,
        "category": "chess960",
        "list_date": date(2026, 12, 1),
        "source": "close",
        "published_at": datetime.now(UTC),
        "entry_count": 0,
    }
    refused(session, RatingListRow, row, "ck_rating_lists_category")


def test_a_period_cannot_publish_revision_1_twice(session: Session, graph: Graph) -> None:
    """The last guard against closing a period twice."""
    row = {
        "period_id": graph.period_id,
        "category": "fide-standard",
        "list_date": date(2026, 12, 1),
        "source": "close",
        "published_at": datetime.now(UTC),
        "entry_count": 0,
    }
    refused(session, RatingListRow, row, "revision")
    accepted(session, RatingListRow, {**row, "revision": 2})


@pytest.mark.parametrize("sex", ["m", "X", ""])
def test_player_sex_is_m_or_f(session: Session, sex: str) -> None:
    refused(session, PlayerRow, {**PLAYER, "sex": sex}, "ck_players_sex")


@pytest.mark.parametrize("sex", ["M", "F", None])
def test_player_sex_may_be_m_f_or_unknown(session: Session, sex: str | None) -> None:
    accepted(session, PlayerRow, {**PLAYER, "sex": sex})


@pytest.mark.parametrize("player_id", ["", "12a4", " 1234", "-1"])
def test_player_id_is_digits(session: Session, player_id: str) -> None:
    refused(session, PlayerRow, {**PLAYER, "player_id": player_id}, "ck_players_player_id_digits")


def test_tournament_cannot_end_before_it_starts(session: Session, graph: Graph) -> None:
    row = tournament(graph, start_date=date(2026, 11, 12), end_date=date(2026, 11, 11))
    refused(session, TournamentRow, row, "ck_tournaments_end_date_not_before_start_date")


def test_one_day_tournament_is_accepted(session: Session, graph: Graph) -> None:
    accepted(session, TournamentRow, tournament(graph, end_date=date(2026, 11, 10)))


def test_tournament_category_is_checked(session: Session, graph: Graph) -> None:
    refused(session, TournamentRow, tournament(graph, category="blitz"), "ck_tournaments_category")


def test_forfeit_is_never_rated(session: Session, graph: Graph) -> None:
    refused(session, GameRow, game(graph, result="+-", rated=True), "ck_games_forfeit_not_rated")
    accepted(session, GameRow, game(graph, result="+-", rated=False))


def test_game_result_is_checked(session: Session, graph: Graph) -> None:
    refused(session, GameRow, game(graph, result="1-1", rated=False), "ck_games_result")


def test_game_is_stored_once(session: Session, graph: Graph) -> None:
    white, black = graph.player_ids
    duplicate = game(graph, round=1, white_id=white, black_id=black)
    refused(session, GameRow, duplicate, "round")


def test_foreign_keys_are_enforced(session: Session, graph: Graph) -> None:
    """On SQLite too (PRAGMA foreign_keys on every connection)."""
    refused(session, GameRow, game(graph, white_id="999999"), "foreign key")


def test_player_calculations_hold_their_games(session: Session, graph: Graph) -> None:
    """A player's row holds at least one calculation, and its packed bytes at least as many as
    it says (format 1: a 3-byte header, 17 bytes or more a game). What a calculation holds (a
    reason when not rated, a score of 0, 0.5 or 1) is the packed format's to refuse
    (tests/db/test_calculation_format.py): the database sees bytes."""
    white, _ = graph.player_ids
    calculation = (graph.game_id, 2837, 2802, 35, 35, Decimal("0.55"), Decimal("1"),
                   Decimal("0.45"), True, None)  # fmt: skip
    row = {"list_id": graph.list_id, "player_id": white, "games": 1, "packed": pack([calculation])}
    refused(session, PlayerCalculationsRow, {**row, "games": 0, "packed": pack([])},
            "ck_player_calculations_games_positive")  # fmt: skip
    refused(session, PlayerCalculationsRow, {**row, "games": 2},
            "ck_player_calculations_packed_holds_games")  # fmt: skip
    refused(session, PlayerCalculationsRow, {**row, "list_id": graph.list_id + 1}, "foreign key")
    accepted(session, PlayerCalculationsRow, row)
    refused(session, PlayerCalculationsRow, {**row, "packed": pack([calculation] * 2)}, "unique")


def test_list_entries_and_status_store_their_numbers(session: Session, graph: Graph) -> None:
    white, _ = graph.player_ids
    entry = ListEntryRow(
        list_id=graph.list_id,
        player_id=white,
        rating=2810,
        previous_rating=2813,
        change=-3,
        games=5,
        k_factor=10,
        k_used=10,
        sum_delta=Decimal("-0.25"),
        rated_games=3000,
        peak_rating=2882,
        last_rated=None,
        active=False,
    )
    with session.begin():
        session.add(entry)
    session.expire_all()
    stored = session.scalars(select(ListEntryRow)).one()
    assert (stored.rating, stored.change, stored.sum_delta) == (2810, -3, Decimal("-0.2500"))
    assert (stored.last_rated, stored.active) == (None, False)


def test_instants_are_stored_and_returned_in_utc(session: Session) -> None:
    paris = timezone(timedelta(hours=1))
    with session.begin():
        session.add(
            PeriodRow(
                **PERIOD, state="closing", claimed_at=datetime(2027, 1, 1, 1, 30, tzinfo=paris)
            )
        )
    session.expire_all()
    period = session.scalars(select(PeriodRow)).one()
    assert period.claimed_at == datetime(2027, 1, 1, 0, 30, tzinfo=UTC)
    assert period.claimed_at is not None
    assert period.claimed_at.tzinfo is UTC
    assert period.state == "closing"


def test_naive_instants_are_refused(session: Session) -> None:
    with pytest.raises(StatementError, match="naive datetime"), session.begin():
        session.add(PeriodRow(**PERIOD, claimed_at=datetime(2027, 1, 1, 1, 30)))
