"""The tournaments a list rated, linked from the list page, and the tournaments a player page
links (issue 15), on both databases, in English and French.

From the scenario (tests/api/scenario.py): the tournaments of a list are those of its period.
2026-09 has A (2026-08-10..12, 6 games: the forfeit counts); 2026-10 has D (2026-08-18..20,
1 game; it arrived after 2026-09 was out: reported late) and B (2026-09-05..06, 6 games), by
start date; 2026-11 has C (2026-10-10..11, 3 games) and E (2026-10-17..18, 1 game). The
imported lists (fide-standard 2026-08, ffe-rapid 2026-10) rated no tournament.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from ratingdb.api.routes import listings
from tests.api.scenario import TOURNAMENTS
from tests.api.test_pages import Parsed, page
from tests.api.test_tournament_page import Tables

DASH = "\u2013"


def hrefs(parsed: Parsed) -> list[str]:
    return [str(a["href"]) for a in parsed.all("a")]


def tournament_links(parsed: Parsed) -> list[str]:
    return [href for href in hrefs(parsed) if href.startswith("/tournaments/")]


def rows(client: TestClient, path: str) -> list[list[str]]:
    """The table of a list's tournaments: (tournament, dates, city, games), past the header."""
    page(client, path)
    return Tables(client.get(path).text).tables["tournaments"][1:]


def test_the_list_page_links_its_tournaments(client: TestClient) -> None:
    counts = {"2026-09": "1 tournament", "2026-10": "2 tournaments", "2026-11": "2 tournaments"}
    for period, count in counts.items():
        parsed = page(client, f"/lists/fide-standard/{period}")
        assert f"/lists/fide-standard/{period}/tournaments" in hrefs(parsed), period
        assert f"{count} rated in this list" in parsed.texts, period
        # On every page of the list and whatever the filters.
        filtered = page(client, f"/lists/fide-standard/{period}?federation=NOR&page=1")
        assert f"/lists/fide-standard/{period}/tournaments" in hrefs(filtered), period
    french = page(client, "/lists/fide-standard/2026-09?lang=fr")
    assert "/lists/fide-standard/2026-09/tournaments?lang=fr" in hrefs(french)
    assert "1 tournoi pris en compte dans cette liste" in french.texts
    # Imported lists rated no tournament: no link.
    for path in ("/lists/fide-standard/2026-08", "/lists/ffe-rapid/2026-10"):
        assert not any(h.endswith("/tournaments") for h in hrefs(page(client, path))), path


def test_the_tournaments_of_a_list(client: TestClient) -> None:
    t = TOURNAMENTS
    october = "/lists/fide-standard/2026-10/tournaments"
    assert rows(client, october) == [
        ["D (reported late)", f"August 18, 2026 {DASH} August 20, 2026", DASH, "1"],
        ["B", f"September 5, 2026 {DASH} September 6, 2026", DASH, "6"],
    ]
    parsed = page(client, october)
    assert tournament_links(parsed) == [f"/tournaments/{t['D']}", f"/tournaments/{t['B']}"]
    assert "2 tournaments rated in the list of October 1, 2026, by start date." in parsed.texts
    assert "/lists/fide-standard/2026-10" in hrefs(parsed)
    expected = {"2026-09": ["A"], "2026-11": ["C", "E"]}
    for period, names in expected.items():
        found = page(client, f"/lists/fide-standard/{period}/tournaments")
        assert tournament_links(found) == [f"/tournaments/{t[n]}" for n in names], period
    assert [r[3] for r in rows(client, "/lists/fide-standard/2026-11/tournaments")] == ["3", "1"]
    assert [r[3] for r in rows(client, "/lists/fide-standard/2026-09/tournaments")] == ["6"]
    french = page(client, f"{october}?lang=fr")
    assert "D (transmis en retard)" in " ".join(french.texts)
    assert f"/tournaments/{t['B']}?lang=fr" in tournament_links(french)
    assert rows(client, f"{october}?lang=fr")[1][1] == f"5 septembre 2026 {DASH} 6 septembre 2026"


def test_imported_and_unknown_lists(client: TestClient) -> None:
    imported = page(client, "/lists/fide-standard/2026-08/tournaments")
    assert (
        "The list of August 1, 2026 was imported, not computed: it rated no tournament."
        in imported.texts
    )
    assert tournament_links(imported) == []
    for path in ("/lists/fide-standard/2027-01/tournaments", "/lists/chess960/2026-09/tournaments"):
        page(client, path, status=404)
    assert (
        "Not understood"
        in page(client, "/lists/fide-standard/2026-10/tournaments?page=x", status=422).text
    )


def test_paged(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(listings, "TOURNAMENTS_PAGE_SIZE", 1)
    october = "/lists/fide-standard/2026-10/tournaments"
    assert [r[0] for r in rows(client, october)] == ["D (reported late)"]
    second = page(client, f"{october}?page=2")
    assert tournament_links(second) == [f"/tournaments/{TOURNAMENTS['B']}"]
    assert hrefs(second).count("?page=1") == 2  # first and previous
    assert "There is no page 3." in page(client, f"{october}?page=3").texts


def test_player_pages_link_their_tournaments(client: TestClient) -> None:
    """Each game of a published calculation links its tournament: Anna played A (2026-09),
    B (2026-10) and C (2026-11); Gus A, B, D (late, 2026-10) and E (2026-11, against unrated
    Olga: not rated, still shown)."""
    t = TOURNAMENTS
    anna = set(tournament_links(page(client, "/players/1001")))
    assert anna == {f"/tournaments/{t[n]}" for n in "ABC"}
    gus = set(tournament_links(page(client, "/players/1003")))
    assert gus == {f"/tournaments/{t[n]}" for n in "ABDE"}
    french = set(tournament_links(page(client, "/players/1003?lang=fr")))
    assert french == {f"/tournaments/{t[n]}?lang=fr" for n in "ABDE"}
