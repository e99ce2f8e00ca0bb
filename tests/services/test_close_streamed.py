"""The close rates its players as their calculations stream in (services.close.writing) and lets
go of each player's games once written: what it reports is what a dry run (the whole
computation first) reports.

The case of test_close_failure: four rated players play one tournament in 2026-09 (1001-1002,
1003-1004, 1001-1003: three games), a fifth, unrated, does not play: 4 players with games, 3
games, 6 calculations (one per player and game).
"""

from __future__ import annotations

from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.rules import Category
from ratingdb.services.close import close_period
from tests.services.test_close_failure import NOW, SEPTEMBER, prepared_url
from tests.support.calculations import calculation_count

__all__ = ["prepared_url"]  # the fixture, used here


def test_the_streamed_close_reports_what_a_dry_run_does(prepared_url: str) -> None:
    engine = make_engine(prepared_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            dry = close_period(
                session, Category.FIDE_STANDARD, SEPTEMBER, now=NOW, closed_by="t", dry_run=True
            )
        with make_sessionmaker(engine).begin() as session:
            closed = close_period(session, Category.FIDE_STANDARD, SEPTEMBER, now=NOW,
                                  closed_by="t")  # fmt: skip
        calculations = calculation_count(prepared_url, "c.list_id = :id", id=closed.list_id)
    finally:
        engine.dispose()
    assert (closed.players_with_games, closed.games) == (4, 3)
    assert calculations == 6
    for field in ("entries", "first_ratings", "below_floor", "players_with_games", "games"):
        assert getattr(closed, field) == getattr(dry, field), field
