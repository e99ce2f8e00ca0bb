"""The player page's ranks from a list's rank table, and the page kept by ETag (issue 15), on
both databases.

Ranks with ties, worked by hand: a rank is 1 + the entries rated higher, in the world and in
the player's federation. The list of :data:`TIES` (fide-standard 2026-08):

    rating  players (federation)              world rank   federation rank
    2100    Cid (GER), Hal (ESP)               1            Cid 1 of GER, Hal 1 of ESP
    2000    Ada (FRA), Ben (FRA), Fay (GER)    3            Ada, Ben 1 of FRA; Fay 2 of GER
    1900    Dom (FRA), Eve (none)              6            Dom 3 of FRA; Eve none
    1800    Gil (FRA)                          8            Gil 4 of FRA

The scenario's 2026-11 list (tests/api/test_player_page.py): Anna 4th in the world, 2nd of FRA.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx2 import Response

from ratingdb.api import create_app
from ratingdb.api.caches import Builds, ListLookups, PageCache
from ratingdb.cli import main
from ratingdb.config import Settings
from ratingdb.db import make_engine, make_read_only_engine, make_sessionmaker, read_only_session
from ratingdb.rules import Category, Period
from ratingdb.services import player_records
from ratingdb.services import published as svc
from ratingdb.services.published.ranks import RankTable, RatingCounts
from tests.api import scenario
from tests.api.test_caches import FakeClock
from tests.support.files import LIST_HEADER

TIES = LIST_HEADER + "".join(
    f'{player_id},"{name}",{federation},M,1990,,{rating},60,{rating},20\n'
    for player_id, name, federation, rating in [
        ("2001", "Ada", "FRA", 2000),
        ("2002", "Ben", "FRA", 2000),
        ("2003", "Cid", "GER", 2100),
        ("2004", "Dom", "FRA", 1900),
        ("2005", "Eve", "", 1900),
        ("2006", "Fay", "GER", 2000),
        ("2007", "Gil", "FRA", 1800),
        ("2008", "Hal", "ESP", 2100),
    ]
)
#: (world rank, federation rank) by player, as worked above.
RANKS: dict[str, tuple[int, int | None]] = {
    "2001": (3, 1),
    "2002": (3, 1),
    "2003": (1, 1),
    "2004": (6, 3),
    "2005": (6, None),
    "2006": (3, 2),
    "2007": (8, 4),
    "2008": (1, 1),
}
FEDERATIONS = {"2001": "FRA", "2002": "FRA", "2003": "GER", "2004": "FRA", "2006": "GER",
               "2007": "FRA", "2008": "ESP"}  # fmt: skip


def settings(url: str) -> Settings:
    return Settings(database_url=url, read_database_url=url)


def cache_of(app: FastAPI) -> PageCache:
    cache = app.state.list_pages
    assert isinstance(cache, PageCache)
    return cache


def get(client: TestClient, path: str, language: str | None = None,
        etag: str | None = None) -> Response:  # fmt: skip
    headers = {} if language is None else {"Accept-Language": language}
    if etag is not None:
        headers["If-None-Match"] = etag
    return client.get(path, headers=headers)


def rank_text(player_id: str) -> str:
    world, federation = RANKS[player_id]
    text = f"Rank among the active players of the 2026-08 list: {world}"
    return text if federation is None else f"{text}, {federation} in {FEDERATIONS[player_id]}"


def test_rating_counts_and_tables_by_hand() -> None:
    counts = RatingCounts.of({2000: 3, 2100: 2, 1900: 2, 1800: 1})
    assert [counts.rated_higher(r) for r in (2200, 2100, 2050, 2000, 1900, 1800, 1700)] == [
        0, 0, 2, 2, 5, 7, 8,
    ]  # fmt: skip
    assert RatingCounts.of({}).rated_higher(1500) == 0
    rows = [("FRA", 2000, 2), ("GER", 2100, 1), ("FRA", 1900, 1), (None, 1900, 1),
            ("GER", 2000, 1), ("FRA", 1800, 1), ("ESP", 2100, 1)]  # fmt: skip
    table = RankTable.of(7, rows)
    assert table.ranks(2000, "FRA") == (3, 1)
    assert table.ranks(1900, "FRA") == (6, 3)
    assert table.ranks(1900, None) == (6, None)
    assert table.ranks(2000, "GER") == (3, 2)
    assert table.ranks(1800, "FRA") == (8, 4)
    assert table.ranks(2100, "ESP") == (1, 1)
    assert table.ranks(2000, "NOR") == (3, 1)  # a federation with no one else on the list


@pytest.fixture
def ties_url(database_url: str, tmp_path: Path) -> str:
    ties = tmp_path / "ties.csv"
    ties.write_text(TIES, encoding="utf-8")
    assert main(["lists", "import", str(ties), "--category", "fide-standard", "--period",
                 "2026-08", "--database-url", database_url]) == 0  # fmt: skip
    return database_url


def test_ranks_with_ties_from_the_table_and_counted(ties_url: str) -> None:
    engine = make_read_only_engine(ties_url)
    try:
        with read_only_session(engine) as session:
            latest = svc.find_list(session, Category.FIDE_STANDARD, Period.parse("2026-08"))
            # Imported 2026-08: every player active, counted as rated on the list itself.
            table = svc.rank_table(session, latest.list_id, date(2026, 8, 1))
            for player_id, expected in RANKS.items():
                counted = svc.latest_ranks(session, player_id, (Category.FIDE_STANDARD,))
                tabled = svc.latest_ranks(
                    session, player_id, (Category.FIDE_STANDARD,), lambda _, __: table
                )
                for found in (counted, tabled):
                    rank = found[Category.FIDE_STANDARD]
                    assert (rank.world, rank.federation) == expected, player_id
                    assert str(rank.period) == "2026-08"
            assert svc.latest_ranks(session, "2001", (Category.FFE_RAPID,)) == {}
    finally:
        engine.dispose()


def test_ranks_with_ties_on_the_page(ties_url: str) -> None:
    """The page with the rank table (the page cache on) and without (counted in the
    database), each player's ranks as worked by hand; the table is read once."""
    app = create_app(settings(ties_url))
    plain_app = create_app(settings(ties_url), page_cache_bytes=0)
    with TestClient(app) as client, TestClient(plain_app) as plain:
        for player_id in RANKS:
            for answering in (client, plain):
                page = get(answering, f"/players/{player_id}")
                assert page.status_code == 200
                assert rank_text(player_id) in page.text, player_id
            assert (
                get(client, f"/players/{player_id}").content
                == get(plain, f"/players/{player_id}").content
            )
        tables = app.state.rank_tables
        assert isinstance(tables, Builds)
        assert len(tables) == 1
        assert len(plain_app.state.rank_tables) == 0


def test_a_table_is_built_by_one_caller_at_a_time() -> None:
    """While one caller builds a table, the others do without (None: they count instead)."""
    clock = FakeClock()
    tables: Builds[int, str] = Builds(ttl_seconds=300.0, clock=clock)
    seen: list[str | None] = []

    def build() -> str:
        seen.append(tables.get(1, lambda: "built twice"))  # another caller meanwhile
        return "table"

    assert tables.get(1, build) == "table"
    assert seen == [None]
    assert tables.get(1, lambda: "not built again") == "table"
    clock.now += 300.0
    assert tables.get(1, lambda: "rebuilt") == "rebuilt"  # its time is over: read again
    assert Builds[int, str](ttl_seconds=0).get(1, lambda: "never kept") is None

    def failing() -> str:
        raise RuntimeError("the read failed")

    with pytest.raises(RuntimeError):
        tables.get(2, failing)
    assert tables.get(2, lambda: "built after the failure") == "built after the failure"


PLAYERS = ("1001", "1002", "1005", "1007", "1008")


def test_a_cached_player_page_is_the_page_rendered_without_a_cache(scenario_url: str) -> None:
    plain_app = create_app(settings(scenario_url), page_cache_bytes=0)
    app = create_app(settings(scenario_url))
    with TestClient(plain_app) as plain, TestClient(app) as client:
        etags: set[str] = set()
        for player_id in PLAYERS:
            for query, language in (("", None), ("", "fr"), ("?lang=fr", None),
                                    ("?lang=en", "fr")):  # fmt: skip
                path = f"/players/{player_id}{query}"
                expected = get(plain, path, language)
                assert expected.status_code == 200
                for answer in (get(client, path, language), get(client, path, language)):
                    assert answer.content == expected.content, (path, language)
                    for header in ("content-type", "content-language", "vary", "etag",
                                   "cache-control", "content-security-policy"):  # fmt: skip
                        assert answer.headers[header] == expected.headers[header], header
                etags.add(expected.headers["etag"])
        assert len(etags) == len(cache_of(app)) == 4 * len(PLAYERS)
        anna = get(client, "/players/1001")
        assert "Rank among the active players of the 2026-11 list: 4, 2 in FRA" in anna.text
        assert (
            "Rang parmi les joueurs actifs de la liste 2026-11 : 4, 2 en FRA"
            in get(client, "/players/1001", "fr").text
        )
        for sent in (anna.headers["etag"], "*"):
            again = get(client, "/players/1001", etag=sent)
            assert again.status_code == 304
            assert again.content == b""
            assert again.headers["vary"] == "Accept-Language, Accept-Encoding"
        assert get(client, "/players/1001", "fr", etag=anna.headers["etag"]).status_code == 200
        missing = get(client, "/players/9999")
        assert missing.status_code == 404
        assert "etag" not in missing.headers
        assert len(cache_of(app)) == 4 * len(PLAYERS)


def test_a_correction_renders_the_player_page_afresh(database_url: str, tmp_path: Path) -> None:
    scenario.build(database_url, tmp_path)
    app = create_app(settings(database_url))
    clock = FakeClock()
    app.state.generations = ListLookups(ttl_seconds=1.0, clock=clock)
    with TestClient(app) as client:
        before = get(client, "/players/1001")
        assert "Rank among the active players of the 2026-11 list: 4, 2 in FRA" in before.text
        scenario.correct(database_url)
        assert get(client, "/players/1001").content == before.content  # within the second
        clock.now += 1.0
        after = get(client, "/players/1001")
        assert after.headers["etag"] != before.headers["etag"]
        # Revision 2 of 2026-11: Max 2443, Dan 1994, Bob 1920, Nina 1852, Anna 1846: 5th, 3rd.
        assert "Rank among the active players of the 2026-11 list: 5, 3 in FRA" in after.text
        with TestClient(create_app(settings(database_url), page_cache_bytes=0)) as plain:
            for player_id in PLAYERS:
                for language in ("en", "fr"):
                    path = f"/players/{player_id}"
                    assert (
                        get(client, path, language).content == get(plain, path, language).content
                    ), (player_id, language)


def test_an_officer_edit_renders_the_player_page_afresh(database_url: str, tmp_path: Path) -> None:
    """Issue 28 item 2: a record edited in the back office (no list published) names the
    player page anew within the generations' second: the new name, a new ETag."""
    scenario.build(database_url, tmp_path)
    app = create_app(settings(database_url))
    clock = FakeClock()
    app.state.generations = ListLookups(ttl_seconds=1.0, clock=clock)
    with TestClient(app) as client:
        before = get(client, "/players/1001")
        assert "Anna, A" in before.text
        engine = make_engine(database_url)
        try:
            with make_sessionmaker(engine).begin() as session:
                version = player_records.record(session, "1001").version
                player_records.edit(session, "1001", {"name": "Annabel, A"}, reason="passport",
                                    version=version, actor="officer1",
                                    now=datetime(2026, 12, 1, tzinfo=UTC))  # fmt: skip
        finally:
            engine.dispose()
        clock.now += 1.0
        after = get(client, "/players/1001")
        assert after.headers["etag"] != before.headers["etag"]
        assert "Annabel, A" in after.text
        assert get(client, "/players/1001", etag=before.headers["etag"]).status_code == 200
