"""The page of the differences between two revisions of a list (issue 15), on both databases,
in English and French.

The hand-checked case is the corrected scenario (tests/api/scenario.py): Anna - Bob of
tournament A, round 1, was 0-1, not 1-0. Nothing else changes in that game: both players keep
the rating used, so the same D and the same expected score; only the score moves, by one point
each way. Under K 20 (both players' K) each rating moves by 20 x 1 = 20 on the list that rated
A, 2026-09: Anna 1862 -> 1842 (-20), Bob 1914 -> 1934 (+20), and nobody else (the game was no
one else's). Those 20 points carry into the later lists, with the games of the later periods
recomputed from the new ratings: on 2026-11 Anna 1866 -> 1846 (-20) and Bob 1900 -> 1920
(+20); Jo, who played Anna in November, 1723 -> 1722 (-1): against Anna at 1842 instead of 1862
her D is -159 instead of -179, expected .29 instead of .27, delta +.21 instead of +.23, and
with her other game (vs Nina, +.76) the sum +0.97 x K 40 = 38.8 -> +39 instead of +0.99 x 40 =
39.6 -> +40. Games and K are unchanged for all three.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.scenario import CORRECTION_REASON, TOURNAMENTS
from tests.api.test_pages import Parsed, page
from tests.api.test_tournament_page import Tables

DIFF = "/lists/fide-standard/{period}/diff"


def rows(client: TestClient, path: str) -> list[list[str]]:
    """The diff table: (player, rating on the from revision, on the to revision, difference,
    games, K), past the header."""
    page(client, path)
    return Tables(client.get(path).text).tables["diff"][1:]


def hrefs(parsed: Parsed) -> list[str]:
    return [str(a["href"]) for a in parsed.all("a")]


def test_who_changed_by_how_much_and_why(corrected_client: TestClient) -> None:
    path = DIFF.format(period="2026-09") + "?from=1&to=2"
    assert rows(corrected_client, path) == [
        ["Bob, B", "1914", "1934", "+20", "2", "20"],
        ["Anna, A", "1862", "1842", "-20", "1", "20"],
    ]
    parsed = page(corrected_client, path)
    assert "2 players changed" in parsed.texts
    assert "A game’s result corrected" in parsed.texts  # noqa: RUF001
    assert CORRECTION_REASON in parsed.texts
    links = hrefs(parsed)
    assert f"/tournaments/{TOURNAMENTS['A']}" in links  # the corrected game's tournament
    assert {"/players/1001", "/players/1002"} <= set(links)
    revisions = {
        "/lists/fide-standard/2026-09?revision=1",
        "/lists/fide-standard/2026-09?revision=2",
    }
    assert revisions <= set(links)
    assert "/v1/lists/fide-standard/2026-09/diff?from=1&to=2" in links

    # November: the 20 points carried on, and Jo's game against Anna moved her by one.
    november = DIFF.format(period="2026-11") + "?from=1&to=2"
    assert rows(corrected_client, november) == [
        ["Bob, B", "1900", "1920", "+20", "0", "20"],
        ["Anna, A", "1866", "1846", "-20", "2", "20"],
        ["Jo, J", "1723", "1722", "-1", "2", "40"],
    ]
    # Without from and to: from the original list to the latest revision, as the JSON.
    assert rows(corrected_client, DIFF.format(period="2026-11")) == rows(corrected_client, november)
    # The other way round.
    assert rows(corrected_client, DIFF.format(period="2026-09") + "?from=2&to=1") == [
        ["Bob, B", "1934", "1914", "-20", "2", "20"],
        ["Anna, A", "1842", "1862", "+20", "1", "20"],
    ]


def test_same_numbers_as_the_json_diff(corrected_client: TestClient) -> None:
    for period in ("2026-09", "2026-10", "2026-11"):
        body = corrected_client.get(f"/v1/lists/fide-standard/{period}/diff?from=1&to=2").json()
        expected = {
            (c["name"], str(c["from"]["rating"]), str(c["to"]["rating"])) for c in body["changes"]
        }
        found = rows(corrected_client, DIFF.format(period=period) + "?from=1&to=2")
        assert {(r[0], r[1], r[2]) for r in found} == expected, period


def test_in_french(corrected_client: TestClient) -> None:
    path = DIFF.format(period="2026-09") + "?from=1&to=2&lang=fr"
    parsed = page(corrected_client, path)
    assert "2 joueurs modifiés" in parsed.texts
    assert "Résultat d’une partie corrigé" in parsed.texts  # noqa: RUF001
    assert "Pourquoi : les corrections" in parsed.texts
    assert [r[:4] for r in rows(corrected_client, path)] == [
        ["Bob, B", "1914", "1934", "+20"],
        ["Anna, A", "1862", "1842", "-20"],
    ]
    assert "/players/1001?lang=fr" in hrefs(parsed)
    assert "/lists/fide-standard/2026-09?revision=1&lang=fr" in hrefs(parsed)
    headers = Tables(corrected_client.get(path).text).tables["diff"][0]
    assert headers == ["Joueur", "Elo, révision 1", "Elo, révision 2", "Différence", "Parties",
                       "K"]  # fmt: skip


def test_one_revision_and_unknown_revisions(corrected_client: TestClient) -> None:
    # 2026-08 (imported, never corrected): revision 1 against itself.
    parsed = page(corrected_client, DIFF.format(period="2026-08"))
    assert "0 players changed" in parsed.texts
    assert "The two revisions give every player the same entry." in parsed.texts
    assert "No correction was published between these revisions." in parsed.texts
    missing = page(corrected_client, DIFF.format(period="2026-09") + "?from=1&to=3", status=404)
    assert "The FIDE standard list of 2026-09 has no revision 3." in missing.texts
    unknown = ("/lists/fide-standard/2027-01/diff", "/lists/chess960/2026-09/diff",
               "/lists/fide-standard/9-2026/diff")  # fmt: skip
    for path in unknown:
        assert "Not found" in page(corrected_client, path, status=404).text, path
    for query in ("?from=x", "?to=0", "?from=1&to=2&page=0"):
        bad = page(corrected_client, DIFF.format(period="2026-09") + query, status=422)
        assert "Not understood" in bad.text, query


def test_linked_from_the_archive_and_the_list_page(corrected_client: TestClient) -> None:
    archive = hrefs(page(corrected_client, "/lists"))
    for period in ("2026-09", "2026-10", "2026-11"):
        assert f"{DIFF.format(period=period)}?from=1&to=2" in archive, period
    listed = page(corrected_client, "/lists/fide-standard/2026-09")
    assert f"{DIFF.format(period='2026-09')}?from=1&to=2" in hrefs(listed)
    assert "/lists/fide-standard/2026-09?revision=1" in hrefs(listed)
    assert "what changed from revision 1" in listed.texts
    french = page(corrected_client, "/lists/fide-standard/2026-09?revision=1&lang=fr")
    assert f"{DIFF.format(period='2026-09')}?from=1&to=2&lang=fr" in hrefs(french)
    assert "/lists/fide-standard/2026-09?revision=2&lang=fr" in hrefs(french)
    # A list never corrected has no revisions line.
    assert "Revisions:" not in page(corrected_client, "/lists/fide-standard/2026-08").texts
