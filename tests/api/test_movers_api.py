"""``/v1/lists/{category}/{period}/movers``, ``/v1/top/{category}`` and ``sort=`` on
``/v1/lists/{category}/{period}`` (issue 29 item 1), SQLite and PostgreSQL, on the chains of
tests/services/test_movers.py (worked there)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.models import PlayerRow
from ratingdb.repositories import player_history
from tests.api.conftest import make_client
from tests.corrections import test_revision_chain as chain
from tests.services import test_activity_on_lists as activity


def test_movers_and_sorted_pages_of_a_computed_list(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chain.build(capsys, database_url, tmp_path, periods=(chain.P,))
    c = chain
    with make_client(database_url) as client:
        found = client.get(f"/v1/lists/{c.CATEGORY}/{c.P}/movers?limit=2")
        assert found.status_code == 200, found.text
        body = found.json()
        assert (body["period"], body["compared_with"], body["federation"]) == (c.P, c.BASE, None)
        assert body["gainers"]["total"] == 4
        assert [(m["player_id"], m["rating"], m["previous_rating"], m["change"])
                for m in body["gainers"]["players"]] == [
            (c.BEN, 1710, 1700, 10), (c.ADA, 1807, 1800, 7)
        ]  # fmt: skip
        assert [(m["player_id"], m["change"]) for m in body["losers"]["players"]] == [
            (c.CAL, -20), (c.EVE, -2)
        ]  # fmt: skip
        for kind in ("new_players", "became_active", "became_inactive"):
            assert body[kind] == {"total": 0, "players": []}
        other = client.get(f"/v1/lists/{c.CATEGORY}/{c.P}/movers?federation=ger").json()
        assert (other["federation"], other["gainers"]["total"]) == ("GER", 0)
        first = client.get(f"/v1/lists/{c.CATEGORY}/{c.BASE}/movers").json()
        assert first["compared_with"] is None
        assert client.get(f"/v1/lists/{c.CATEGORY}/2030-01/movers").status_code == 404
        assert client.get(f"/v1/lists/{c.CATEGORY}/{c.P}/movers?limit=101").status_code == 422
        # The list by change, then by games; by rating as before.
        by_change = client.get(f"/v1/lists/{c.CATEGORY}/{c.P}?sort=change&limit=4").json()
        assert [e["player_id"] for e in by_change["entries"]] == [c.BEN, c.ADA, c.DEE, c.FAY]
        assert by_change["total"] == 10
        by_games = client.get(f"/v1/lists/{c.CATEGORY}/{c.P}?sort=games&limit=2").json()
        assert [e["player_id"] for e in by_games["entries"]] == [c.CAL, c.BEN]
        plain = client.get(f"/v1/lists/{c.CATEGORY}/{c.P}?limit=2")
        assert [e["player_id"] for e in plain.json()["entries"]] == [c.GIL, c.HAL]
        assert (
            plain.headers["ETag"]
            != client.get(f"/v1/lists/{c.CATEGORY}/{c.P}?limit=2&sort=change").headers["ETag"]
        )
        assert client.get(f"/v1/lists/{c.CATEGORY}/{c.P}?sort=name").status_code == 422


def test_top_ranks_the_active_players_of_the_latest_list(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2026-03 of the activity chain: Ada and Cal active (ranks 1, 2), Ben inactive; every
    player is a man, born 1990, untitled, FRA."""
    activity.build(capsys, database_url, tmp_path)
    with make_client(database_url) as client:
        top = client.get("/v1/top/ffe-rapid")
        assert top.status_code == 200, top.text
        body = top.json()
        assert (body["period"], body["total"]) == ("2026-03", 2)
        assert [(e["player_id"], e["rank"], e["federation_rank"]) for e in body["entries"]] == [
            (activity.ADA, 1, None), (activity.CAL, 2, None)
        ]  # fmt: skip
        fra = client.get("/v1/top/ffe-rapid?federation=FRA&sex=M").json()
        assert [(e["player_id"], e["federation_rank"]) for e in fra["entries"]] == [
            (activity.ADA, 1), (activity.CAL, 2)
        ]  # fmt: skip
        for query in ("sex=F", "title=GM", "age=juniors", "age=seniors-50"):
            assert client.get(f"/v1/top/ffe-rapid?{query}").json()["total"] == 0, query
        assert client.get("/v1/top/ffe-rapid?age=kids").status_code == 422
        assert client.get("/v1/top/fide-blitz").status_code == 404
        # The list page by change, active players only, then everyone: Cal gained what Ada
        # lost, Ben (inactive) did not play; the ranks stay by rating.
        ranked = r'<tr><td class="num">(\d+)</td>\s*<td class="name"><a href="/players/(\d+)'
        page = client.get("/lists/ffe-rapid/2026-03?sort=change").text
        assert re.findall(ranked, page) == [("2", activity.CAL), ("1", activity.ADA)]
        page = client.get("/lists/ffe-rapid/2026-03?sort=change&inactive=1").text
        assert re.findall(ranked, page) == [
            ("3", activity.CAL), ("2", activity.BEN), ("1", activity.ADA)
        ]  # fmt: skip
        movers = client.get("/v1/lists/ffe-rapid/2026-03/movers").json()
        assert [m["player_id"] for m in movers["became_active"]["players"]] == [
            activity.ADA, activity.CAL
        ]  # fmt: skip


def _movers_rows(html: str) -> dict[str, list[tuple[str, str]]]:
    """caption -> (player id, change) of each movers table of a page."""
    section = html.split('<section class="movers"', 1)[1].split("</section>", 1)[0]
    found: dict[str, list[tuple[str, str]]] = {}
    for table in section.split('<table class="movers">')[1:]:
        caption = table.split("<caption>", 1)[1].split("</caption>", 1)[0]
        found[caption] = re.findall(
            r'href="/players/(\d+)[^"]*">[^<]*</a></td><td>[^<]*</td><td class="num">\d+</td>'
            r'<td class="num">([^<]*)</td>',
            table,
        )
    return found


def test_the_pages_show_the_movers_and_sort_the_list(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chain.build(capsys, database_url, tmp_path, periods=(chain.P,))
    c = chain
    with make_client(database_url) as client:
        home = client.get("/")
        assert home.status_code == 200
        assert _movers_rows(home.text) == {
            "Biggest gainers": [(c.BEN, "+10"), (c.ADA, "+7"), (c.DEE, "+3"), (c.FAY, "+2")],
            "Biggest losers": [(c.CAL, "-20"), (c.EVE, "-2")],
        }
        french = client.get("/?lang=fr").text
        assert "Plus fortes hausses" in french
        assert "Plus fortes baisses" in french
        page = client.get(f"/lists/{c.CATEGORY}/{c.P}")
        assert _movers_rows(page.text)["Biggest gainers"][0] == (c.BEN, "+10")
        ger = client.get(f"/lists/{c.CATEGORY}/{c.P}?federation=GER").text
        assert "Nobody moved on this list." in ger
        by_change = client.get(f"/lists/{c.CATEGORY}/{c.P}?sort=change")
        ranked = re.findall(
            r'<tr><td class="num">(\d+)</td>\s*<td class="name"><a href="/players/(\d+)',
            by_change.text,
        )
        assert [(p, int(r)) for r, p in ranked][:5] == [
            (c.BEN, 7), (c.ADA, 6), (c.DEE, 5), (c.FAY, 3), (c.GIL, 1)
        ]  # fmt: skip
        assert '<option value="change" selected>' in by_change.text
        assert client.get(f"/lists/{c.CATEGORY}/{c.P}?sort=name").status_code == 422
        first = client.get(f"/lists/{c.CATEGORY}/{c.BASE}").text
        assert "there is no list before it to compare with" in first


def test_the_movers_of_each_revision(client: TestClient, corrected_client: TestClient) -> None:
    """The scenario (tests/api/scenario.py works the numbers): on 2026-11 Jo gained 40 (1683 ->
    1723) and Anna 4; after the correction, revision 2 (computed from revision 2 of 2026-10)
    has Jo +39 (1683 -> 1722) and Anna +4 (1842 -> 1846); revision 1 keeps its movers.
    Nina lost 30 and Max 4 on both."""
    path = "/v1/lists/fide-standard/2026-11/movers"

    def moved(answer: Any) -> tuple[list[tuple[str, int, int]], list[tuple[str, int]]]:
        body = answer.json()
        assert body["compared_with"] == "2026-10"
        gainers = [(m["name"], m["previous_rating"], m["change"])
                   for m in body["gainers"]["players"]]  # fmt: skip
        losers = [(m["name"], m["change"]) for m in body["losers"]["players"]]
        return gainers, losers

    losers = [("Nina, N", -30), ("Max, M", -4)]
    original = ([("Jo, J", 1683, 40), ("Anna, A", 1862, 4)], losers)
    assert moved(client.get(path)) == original
    assert moved(corrected_client.get(path)) == (
        [("Jo, J", 1683, 39), ("Anna, A", 1842, 4)], losers
    )  # fmt: skip
    assert corrected_client.get(path + "?revision=2").json()["revision"] == 2
    assert moved(corrected_client.get(path + "?revision=1")) == original


def test_new_titles_are_those_awarded_between_the_two_lists(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Titles recorded with their dates (the back office's player edit): Ada FM from
    2026-09-15, between the 2026-09 and 2026-10 lists; Ben's WFM taken away then (not a title
    awarded); Cal GM from 2026-10-02, after the 2026-10 list. The 2026-10 movers name Ada
    only, with her 2026-10 rating (1812, +5 on 1807); the 2026-09 movers nobody."""
    c = chain
    chain.build(capsys, database_url, tmp_path, periods=(c.P, c.P1))
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            player_history.write_dated(session, "title", c.ADA, "FM", date(2026, 9, 15))
            player_history.write_dated(session, "title", c.BEN, "WFM", date(2026, 9, 2))
            player_history.write_dated(session, "title", c.BEN, None, date(2026, 9, 20))
            player_history.write_dated(session, "title", c.CAL, "GM", date(2026, 10, 2))
            # The record holds the latest dated value, as the back office's edit writes it.
            for player_id, title in ((c.ADA, "FM"), (c.BEN, None), (c.CAL, "GM")):
                session.execute(
                    update(PlayerRow).where(PlayerRow.player_id == player_id).values(title=title)
                )
    finally:
        engine.dispose()
    with make_client(database_url) as client:
        body = client.get(f"/v1/lists/{c.CATEGORY}/{c.P1}/movers").json()
        assert body["new_titles"]["total"] == 1
        (ada,) = body["new_titles"]["players"]
        assert (ada["player_id"], ada["title"], ada["rating"], ada["previous_rating"]) == (
            c.ADA, "FM", 1812, 1807,
        )  # fmt: skip
        earlier = client.get(f"/v1/lists/{c.CATEGORY}/{c.P}/movers").json()
        assert earlier["new_titles"] == {"total": 0, "players": []}
        fra = client.get(f"/v1/lists/{c.CATEGORY}/{c.P1}/movers?federation=GER").json()
        assert fra["new_titles"]["total"] == 0
        page = client.get(f"/lists/{c.CATEGORY}/{c.P1}").text
        assert "<caption>New titles" in page
        assert re.search(r">Ada, A</a> <strong>FM</strong>", page)
        assert "<caption>Nouveaux titres" in client.get(f"/lists/{c.CATEGORY}/{c.P1}?lang=fr").text
