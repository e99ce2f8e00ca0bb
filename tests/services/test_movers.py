"""The movers of a list (issue 29 item 1, services.published.movers), on SQLite and
PostgreSQL, on small chains built through the command line and worked by hand.

- Computed list, gainers and losers: the revision chain's 2026-09 list (tests/corrections/
  test_revision_chain.py works every change in its docstring): Ben +10 (1710), Ada +7 (1807),
  Dee +3 (1903), Fay +2 (2102); Cal -20 (1980), Eve -2 (1598). Gil, Hal, Zed and Yan played
  and drew at D 0: change 0, no mover. 2026-10..12 of that chain: T2 and T3.
- Activity: the FFE rapid chain of tests/services/test_activity_on_lists.py: Cal turns
  inactive on 2026-01, Ada and Ben on 2026-02, Ada and Cal active again on 2026-03.
- Imported lists: 2026-08 (Ada 1800, Ben 1700, Cal 2000) then 2026-09 imported (Ada 1810,
  Ben 1700, Cal 1990, Neo 1500): Ada +10, Cal -10, Neo new.
- A first rating on a computed list: Neo, unrated, draws Ada 1800, Ben 1700, Cal 2000, Dee
  1900 and Eve 1600 (fide-standard 2024-03 rules: two hypothetical draws against 1800 added,
  Ra = (1800+1700+2000+1900+1600+1800+1800)/7 = 1800, 3.5/7 = 50 %, dp 0): 1800.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from ratingdb.rules import Category, Period
from ratingdb.services import published as svc
from ratingdb.services.published.movers import Movers, movers
from tests.corrections import test_revision_chain as chain
from tests.corrections.test_revision_chain import ok
from tests.services import test_activity_on_lists as activity
from tests.support import factories
from tests.support.rolled_back import RolledBack


def _movers(session: Session, category: str, period: str, **kw: object) -> Movers:
    summary = svc.find_list(session, Category(category), Period.parse(period))
    return movers(session, summary, **kw)  # type: ignore[arg-type]


def _shown(found: Movers) -> dict[str, list[tuple[str, int, int | None]]]:
    return {
        kind: [(m.player_id, m.rating, m.change) for m in getattr(found, kind).movers]
        for kind in ("gainers", "losers", "new_players", "became_active", "became_inactive")
    }


def test_gainers_and_losers_of_a_computed_list(
    database: RolledBack, session: Session, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chain.build(capsys, database.url, tmp_path)
    found = _movers(session, chain.CATEGORY, chain.P)
    assert _shown(found) == {
        "gainers": [
            (chain.BEN, 1710, 10), (chain.ADA, 1807, 7), (chain.DEE, 1903, 3),
            (chain.FAY, 2102, 2),
        ],
        "losers": [(chain.CAL, 1980, -20), (chain.EVE, 1598, -2)],
        "new_players": [], "became_active": [], "became_inactive": [],
    }  # fmt: skip
    assert found.gainers.total == 4
    assert found.gainers.movers[0].previous_rating == 1700
    assert found.gainers.movers[0].name == "Ben, B"
    # At most two of each kind; the totals still count them all.
    two = _movers(session, chain.CATEGORY, chain.P, limit=2)
    assert [m.player_id for m in two.gainers.movers] == [chain.BEN, chain.ADA]
    assert (two.gainers.total, two.losers.total) == (4, 2)
    # Another federation's players: none (every player here is FRA).
    assert _movers(session, chain.CATEGORY, chain.P, federation="GER").gainers.total == 0
    assert _movers(session, chain.CATEGORY, chain.P, federation="FRA").gainers.total == 4
    # 2026-12: no tournament, every rating carried: no mover at all.
    assert all(not v for v in _shown(_movers(session, chain.CATEGORY, chain.P3)).values())
    # The category's first list (imported, nothing before it): none.
    first = _movers(session, chain.CATEGORY, chain.BASE)
    assert first.compared_list_id is None
    assert all(not v for v in _shown(first).values())


def test_players_who_turned_inactive_and_active(
    database: RolledBack, session: Session, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    activity.build(capsys, database.url, tmp_path)
    ada, ben, cal = activity.ADA, activity.BEN, activity.CAL

    def turned(period: str) -> tuple[list[str], list[str]]:
        found = _movers(session, activity.CATEGORY, period)
        return (
            [m.player_id for m in found.became_active.movers],
            [m.player_id for m in found.became_inactive.movers],
        )

    assert turned("2025-12") == ([], [])
    assert turned("2026-01") == ([], [cal])
    assert turned("2026-02") == ([], [ada, ben])  # Ada above Ben (1800 drew 1700 on 2025-02)
    assert turned("2026-03") == ([ada, cal], [])
    found = _movers(session, activity.CATEGORY, "2026-03")
    # The draw Cal (1600) - Ada (above 1790): Cal gains what Ada loses.
    assert [m.player_id for m in found.gainers.movers] == [cal]
    assert [m.player_id for m in found.losers.movers] == [ada]
    assert found.gainers.movers[0].change == -found.losers.movers[0].change  # type: ignore[operator]


def test_an_imported_list_against_the_list_before_it(
    database: RolledBack, session: Session, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for period, rows in (
        ("2026-08", ((chain.ADA, "Ada, A", 1800), (chain.BEN, "Ben, B", 1700),
                     (chain.CAL, "Cal, C", 2000))),
        ("2026-09", ((chain.ADA, "Ada, A", 1810), (chain.BEN, "Ben, B", 1700),
                     (chain.CAL, "Cal, C", 1990), ("2099", "Neo, N", 1500))),
    ):  # fmt: skip
        path = tmp_path / f"{period}.csv"
        path.write_text(
            factories.list_csv(*(f'{p},"{n}",FRA,M,1990,,{r},60,{r},' for p, n, r in rows)),
            encoding="utf-8",
        )
        ok(capsys, "lists", "import", str(path), "--category", chain.CATEGORY, "--period",
           period, url=database.url)  # fmt: skip
    found = _shown(_movers(session, chain.CATEGORY, "2026-09"))
    assert found["gainers"] == [(chain.ADA, 1810, 10)]
    assert found["losers"] == [(chain.CAL, 1990, -10)]
    assert found["new_players"] == [("2099", 1500, None)]


def test_a_first_rating_on_a_computed_list(
    database: RolledBack, session: Session, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    neo = "2099"
    players = [*chain.BASELINE[:5], (neo, "Neo, N", None, 0)]
    games = [(r, neo, p, "1/2-1/2") for r, (p, *_) in enumerate(chain.BASELINE[:5], start=1)]
    chain.build(capsys, database.url, tmp_path, players=players,
                tournaments=[("TN", "2026-08-10", "2026-08-14", games)],
                periods=(chain.P,))  # fmt: skip
    found = _movers(session, chain.CATEGORY, chain.P)
    assert [(m.player_id, m.rating, m.change) for m in found.new_players.movers] == [
        (neo, 1800, None)
    ]
    assert found.new_players.movers[0].previous_rating is None


def test_a_list_page_sorted_by_change_and_by_games(
    database: RolledBack, session: Session, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The 2026-09 list of the revision chain. By rating (ranks): Gil, Hal 2200 (1), Fay 2102
    (3), Cal 1980 (4), Dee 1903 (5), Ada 1807 (6), Ben 1710 (7), Eve 1598 (8), Zed, Yan 1500
    (9). Games: Ben and Cal 2, every other player 1 (Fay-Ada was a forfeit, never rated)."""
    from ratingdb.services.published.lists import EntryFilter, ranked_entries

    chain.build(capsys, database.url, tmp_path, periods=(chain.P,))
    summary = svc.find_list(session, Category(chain.CATEGORY), Period.parse(chain.P))
    c = chain

    def page(sort: str, limit: int = 100, offset: int = 0) -> list[tuple[str, int]]:
        total, rows = ranked_entries(
            session, summary, EntryFilter(), sort=sort, limit=limit, offset=offset
        )
        assert total == 10
        return [(r.entry.player_id, r.rank) for r in rows]

    by_change = [(c.BEN, 7), (c.ADA, 6), (c.DEE, 5), (c.FAY, 3), (c.GIL, 1), (c.HAL, 1),
                 (c.ZED, 9), (c.YAN, 9), (c.EVE, 8), (c.CAL, 4)]  # fmt: skip
    assert page("change") == by_change
    assert page("change", limit=3, offset=2) == by_change[2:5]
    by_games = [(c.CAL, 4), (c.BEN, 7), (c.GIL, 1), (c.HAL, 1), (c.FAY, 3), (c.DEE, 5),
                (c.ADA, 6), (c.EVE, 8), (c.ZED, 9), (c.YAN, 9)]  # fmt: skip
    assert page("games") == by_games
    assert [p for p, _ in page("rating")] == [c.GIL, c.HAL, c.FAY, c.CAL, c.DEE, c.ADA, c.BEN,
                                              c.EVE, c.ZED, c.YAN]  # fmt: skip
    fra = EntryFilter(federation="FRA")
    _, rows = ranked_entries(session, summary, fra, sort="change", limit=100, offset=0)
    assert [(r.entry.player_id, r.rank, r.federation_rank) for r in rows] == [
        (p, rank, rank) for p, rank in by_change
    ]
