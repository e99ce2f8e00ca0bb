"""Every way a page of a list is read (repositories.published.list_pages.Strategy: WHOLE,
LATEST, RESOLVED, DECODED) gives the same entries, ranks and count, on SQLite and PostgreSQL;
and ``list_pages.plan`` chooses as its docstring says.

The list, worked by hand (list year 2026: a junior is born in 2006 or later, a senior 50+ in
1976 or earlier, 65+ in 1961 or earlier), in list order (rating descending, then player_id):

    id  name  fed  sex  born  title  rating  active   rank  rank among active players
    1   Ann   FRA  F    1990  WGM    2300    yes      1     1
    2   Ben   GER  M    1980  GM     2250    yes      2     2
    3   Cy    FRA  M    2008         2250    no       2     -
    4   Di    FRA  F    2009         2200    yes      4     3
    5   Ed    NOR  M    1970  IM     2100    yes      5     4
    6   Flo   FRA  F    1955         2100    yes      5     4
    7   Gus   FRA  M    1985         2000    no       7     -
    8   Hal   GER  M    2010         1900    yes      8     6

A rank is one more than the entries rated above (equal ratings share it), among the whole
list, or among the active players when the filter keeps only them; the federation rank the
same among the federation's players (active ones with the activity filter). The same file is
imported as the lists of 2026-08 and 2026-09: latest_entries hold 2026-09 (LATEST can read
it), not 2026-08.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from ratingdb.cli import main
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.repositories.published import list_pages
from ratingdb.repositories.published.list_pages import Strategy
from ratingdb.rules import Category, Period
from ratingdb.services.published import lists as svc
from ratingdb.services.published.lists import EntryFilter
from tests.support.files import LIST_HEADER

CATEGORY = Category.FIDE_STANDARD
HELD, OLDER = Period(2026, 9), Period(2026, 8)
ACTIVE = date(2025, 1, 1)  # any date up to the list's: imported active players count as rated on it

ROWS = (
    '1,"Ann, A",FRA,F,1990,WGM,2300,60,2300,10,1',
    '2,"Ben, B",GER,M,1980,GM,2250,60,2250,10,1',
    '3,"Cy, C",FRA,M,2008,,2250,60,2250,20,0',
    '4,"Di, D",FRA,F,2009,,2200,60,2200,20,1',
    '5,"Ed, E",NOR,M,1970,IM,2100,60,2100,20,1',
    '6,"Flo, F",FRA,F,1955,,2100,60,2100,20,1',
    '7,"Gus, G",FRA,M,1985,,2000,60,2000,20,0',
    '8,"Hal, H",GER,M,2010,,1900,60,1900,20,1',
)

#: filter -> the page's (player_id, rank, federation rank), worked from the table above.
EXPECTED: dict[EntryFilter, list[tuple[str, int, int | None]]] = {
    EntryFilter(): [("1", 1, None), ("2", 2, None), ("3", 2, None), ("4", 4, None),
                    ("5", 5, None), ("6", 5, None), ("7", 7, None), ("8", 8, None)],
    EntryFilter(active_since=ACTIVE): [("1", 1, None), ("2", 2, None), ("4", 3, None),
                                       ("5", 4, None), ("6", 4, None), ("8", 6, None)],
    EntryFilter(federation="FRA"): [("1", 1, 1), ("3", 2, 2), ("4", 4, 3), ("6", 5, 4),
                                    ("7", 7, 5)],
    EntryFilter(federation="FRA", active_since=ACTIVE): [("1", 1, 1), ("4", 3, 2), ("6", 4, 3)],
    EntryFilter(sex="F"): [("1", 1, None), ("4", 4, None), ("6", 5, None)],
    EntryFilter(age="juniors"): [("3", 2, None), ("4", 4, None), ("8", 8, None)],
    EntryFilter(age="seniors-50"): [("5", 5, None), ("6", 5, None)],
    EntryFilter(age="seniors-65"): [("6", 5, None)],
    EntryFilter(title="GM"): [("2", 2, None)],
    EntryFilter(federation="GER", age="juniors"): [("8", 8, 2)],
    EntryFilter(sex="M", active_since=ACTIVE): [("2", 2, None), ("5", 4, None), ("8", 6, None)],
    EntryFilter(search="flo"): [("6", 5, None)],
    EntryFilter(federation="NOR", title="GM"): [],
}  # fmt: skip

FILTERED = (Strategy.RESOLVED, Strategy.DECODED)


@pytest.fixture(scope="module")
def list_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lists") / "list.csv"
    path.write_text(LIST_HEADER.rstrip("\n") + ",active\n" + "\n".join(ROWS) + "\n")
    return path


@pytest.fixture
def session(database_url: str, list_file: Path) -> Iterator[Session]:
    for period in (OLDER, HELD):
        assert main(["lists", "import", str(list_file), "--category", CATEGORY.value,
                     "--period", str(period), "--database-url", database_url]) == 0  # fmt: skip
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine)() as opened:
            yield opened
    finally:
        engine.dispose()


def read(
    session: Session,
    period: Period,
    wanted: EntryFilter,
    strategy: Strategy | None,
    limit: int = 100,
    offset: int = 0,
) -> tuple[int, list[tuple[str, int, int | None]]]:
    summary = svc.find_list(session, CATEGORY, period)
    total, entries = svc.ranked_entries(
        session, summary, wanted, limit=limit, offset=offset, strategy=strategy
    )
    return total, [(e.entry.player_id, e.rank, e.federation_rank) for e in entries]


def strategies(period: Period, wanted: EntryFilter) -> list[Strategy | None]:
    """None (plan's choice) and every strategy that can read this list with this filter."""
    found: list[Strategy | None] = [None, *FILTERED]
    if wanted.is_empty:
        found.append(Strategy.WHOLE)
    if period == HELD:
        found.append(Strategy.LATEST)
    return found


@pytest.mark.parametrize("period", [HELD, OLDER], ids=["held", "older"])
def test_every_strategy_gives_the_worked_page(session: Session, period: Period) -> None:
    for wanted, expected in EXPECTED.items():
        for strategy in strategies(period, wanted):
            assert read(session, period, wanted, strategy) == (len(expected), expected), (
                wanted,
                strategy,
            )


@pytest.mark.parametrize("period", [HELD, OLDER], ids=["held", "older"])
def test_later_pages_keep_their_ranks(session: Session, period: Period) -> None:
    """The second page of two: ranks counted, not placed (the federation's too)."""
    for wanted in (EntryFilter(), EntryFilter(federation="FRA"),
                   EntryFilter(federation="FRA", active_since=ACTIVE)):  # fmt: skip
        expected = EXPECTED[wanted]
        for strategy in strategies(period, wanted):
            assert read(session, period, wanted, strategy, limit=2, offset=2) == (
                len(expected),
                expected[2:4],
            ), (wanted, strategy)


@pytest.mark.parametrize("strategy", [None, *FILTERED, Strategy.LATEST])
def test_the_json_page_reads_alike(session: Session, strategy: Strategy | None) -> None:
    """``/v1/lists``' page (federation and search, unranked) by each strategy."""
    summary = svc.find_list(session, CATEGORY, HELD)
    total, entries = svc.list_entries(
        session, summary, federation="FRA", limit=2, offset=1, strategy=strategy
    )
    assert (total, [(e.player_id, e.rating) for e in entries]) == (5, [("3", 2250), ("4", 2200)])
    total, entries = svc.list_entries(session, summary, search="ben", strategy=strategy)
    assert (total, [e.player_id for e in entries]) == (1, ["2"])


def test_plan_chooses_as_documented(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    held = svc.find_list(session, CATEGORY, HELD).list_id
    older = svc.find_list(session, CATEGORY, OLDER).list_id

    def chosen(list_id: int, wanted: EntryFilter, sort: str = "rating") -> Strategy:
        return list_pages.plan(session, list_id, wanted, 2026, sort).strategy

    fra = EntryFilter(federation="FRA")
    assert chosen(older, EntryFilter()) is Strategy.WHOLE  # rule 1
    assert chosen(held, EntryFilter()) is Strategy.WHOLE
    assert chosen(held, EntryFilter(), "change") is Strategy.DECODED  # rule 2
    assert chosen(held, fra, "games") is Strategy.DECODED
    assert chosen(held, fra) is Strategy.LATEST  # rule 3
    assert chosen(older, EntryFilter(active_since=ACTIVE)) is Strategy.DECODED  # rule 4
    assert chosen(older, fra) is Strategy.RESOLVED  # rule 5: 5 players match, <= 200
    assert list_pages.plan(session, older, fra, 2026).players == {"1", "3", "4", "6", "7"}
    monkeypatch.setattr(list_pages, "FEW_MATCHING", 4)
    assert chosen(older, fra) is Strategy.DECODED  # rule 6: 5 > 4
    assert chosen(older, EntryFilter(sex="F")) is Strategy.RESOLVED  # 3 <= 4


def test_a_strategy_that_cannot_answer_is_refused(session: Session) -> None:
    older = svc.find_list(session, CATEGORY, OLDER)
    held = svc.find_list(session, CATEGORY, HELD)
    fra = EntryFilter(federation="FRA")
    refused = (
        (older, fra, "rating", Strategy.LATEST, "do not hold"),
        (held, fra, "rating", Strategy.WHOLE, "without a filter"),
        (held, EntryFilter(), "change", Strategy.WHOLE, "without a filter"),
        (held, fra, "change", Strategy.LATEST, "not in that order"),
        (held, fra, "change", Strategy.RESOLVED, "rating order only"),
    )
    for summary, wanted, sort, strategy, message in refused:
        with pytest.raises(ValueError, match=message):
            svc.ranked_entries(session, summary, wanted, limit=10, offset=0, sort=sort,
                               strategy=strategy)  # fmt: skip


def test_sorted_pages_keep_the_ranks_by_rating(session: Session) -> None:
    """By games (every imported entry has 0 games: ties stay in list order), DECODED the one
    strategy, ranks by rating."""
    summary = svc.find_list(session, CATEGORY, HELD)
    wanted = EntryFilter(federation="FRA", active_since=ACTIVE)
    total, entries = svc.ranked_entries(session, summary, wanted, limit=5, offset=0, sort="games")
    assert (total, [(e.entry.player_id, e.rank, e.federation_rank) for e in entries]) == (
        3,
        EXPECTED[wanted],
    )


def test_a_list_published_between_the_plan_and_the_read(
    session: Session, database_url: str, list_file: Path
) -> None:
    """LATEST was chosen for 2026-09, then 2026-10 was published (latest_entries hold it now):
    the read plans again without them and gives the same page; a forced LATEST is refused."""
    held = svc.find_list(session, CATEGORY, HELD).list_id
    fra = EntryFilter(federation="FRA")
    chosen = list_pages.plan(session, held, fra, 2026)
    forced = list_pages.plan(session, held, fra, 2026, forced=Strategy.LATEST)
    assert chosen.strategy is Strategy.LATEST
    session.rollback()  # SQLite: let the import write
    assert main(["lists", "import", str(list_file), "--category", CATEGORY.value,
                 "--period", "2026-10", "--database-url", database_url]) == 0  # fmt: skip
    assert list_pages.plan(session, held, fra, 2026).strategy is Strategy.RESOLVED
    expected = EXPECTED[fra]
    assert list_pages.count_filtered(session, held, fra, 2026, chosen) == len(expected)
    rows = list_pages.filtered_entries(
        session, held, original_list_id=None, wanted=fra, list_year=2026, limit=10, offset=0,
        chosen=chosen,
    )  # fmt: skip
    assert [(row[8], row[-2], row[-1]) for row in rows] == expected  # 8: player_id
    with pytest.raises(LookupError, match="no longer hold"):
        list_pages.count_filtered(session, held, fra, 2026, forced)
