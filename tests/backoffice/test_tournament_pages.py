"""The tournament pages of the back office (issue 28 item 4), on SQLite and PostgreSQL: browse
(newest first, a page at a time), filter (name whatever the accents and case, category, rated
periods, federation), open a tournament (players, games by round), its games' "Correct" links
open the game correction form filled in, and a withdrawal shows its impact before it is
confirmed, then supersedes every game and recomputes the lists.

The chain is tests/corrections/test_revision_chain's, its tournaments renamed (T1 "Tournoi
d'Été", T2 "Rapid Club Lyon", T3 "Coupe de l'été"). Withdrawing T2 (2026-09-05..06, rated
2026-10: Ada-Cal 1/2, Ben-Dee 0-1), worked by hand (FIDE table 8.1.2, K 20, rounded once):

  2026-10: nobody plays: Ada 1807, Ben 1710, Cal 1980, Dee 1903 (were 1812, 1705, 1975, 1908).
  2026-11: T3 rated with 2026-10's list: Ada 1807 vs Dee 1903, D -96 -> .37, Ada wins:
           +.63 x20 = 12.6 -> +13: Ada 1820 (was 1825), Dee 1890 (was 1895); Eve 1598 vs
           Ben 1710, D -112 -> .35, draw: +.15 x20 = 3: Eve 1601 (as before), Ben 1707 (was
           1702); Cal carried 1980 (was 1975).
  2026-12: carried: the same four changes.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ratingdb.api.app import create_app as create_public_app
from ratingdb.cli import main
from ratingdb.config import Settings
from ratingdb.services import corrections as correction_service
from ratingdb.services import tournament_browse
from tests.backoffice.conftest import Accounts
from tests.backoffice.test_correction_browser import REASON_IS_PUBLIC
from tests.backoffice.test_corrections import (
    ACCOUNT_TABLES,
    add_tokens,
    audit_entries,
    preview_id,
    ratings,
    shown_digest,
    signed_in,
    snapshot,
)
from tests.backoffice.test_corrections import tokens as tokens
from tests.backoffice.test_races import Held, both_answered, two_at_once
from tests.corrections.test_revision_chain import (
    ADA,
    BEN,
    CAL,
    CATEGORY,
    DEE,
    FAY,
    ORIGINAL,
    P1,
    P2,
    P3,
    PERIODS,
    T1,
    T2,
    T3,
    build,
)
from tests.support.rolled_back import RolledBack
from tests.support.sql import execute, query

NAMES = {"T1": "Tournoi d'Été", "T2": "Rapid Club Lyon", "T3": "Coupe de l'été"}
RENAMED = tuple((NAMES[t[0]], *t[1:]) for t in (T1, T2, T3))
REASON = "accepted by mistake: the event was not rated"

#: Withdrawing T2, worked in the module docstring: period -> player -> (before, after, diff).
WITHDRAW_IMPACT = {
    P1: {ADA: (1812, 1807, -5), BEN: (1705, 1710, 5), CAL: (1975, 1980, 5),
         DEE: (1908, 1903, -5)},
    P2: {ADA: (1825, 1820, -5), BEN: (1702, 1707, 5), CAL: (1975, 1980, 5),
         DEE: (1895, 1890, -5)},
    P3: {ADA: (1825, 1820, -5), BEN: (1702, 1707, 5), CAL: (1975, 1980, 5),
         DEE: (1895, 1890, -5)},
}  # fmt: skip


@pytest.fixture
def ids(database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    return built_chain(database.url, tmp_path, capsys)


def built_chain(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """The chain built, its three tournaments' ids by their short names (T1, T2, T3)."""
    built = build(capsys, url, tmp_path / "chain", tournaments=RENAMED)
    return {short: built[name] for short, name in NAMES.items()}


# A test that needs connections of its own to its database (the public API's read-only
# engines, two requests racing) has it to itself (``database_url``): the back office, its client
# and accounts on it (``own_app``, ``own_client``, ``own_users``: tests/backoffice/conftest.py),
# tokens and the chain.


@pytest.fixture
def own_tokens(own_users: Accounts) -> dict[str, str]:
    return add_tokens(own_users)


@pytest.fixture
def own_ids(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> dict[str, str]:
    return built_chain(database_url, tmp_path, capsys)


def escaped(text: str) -> str:
    """As the pages' templates escape it (Jinja: ' as &#39;)."""
    return html.escape(text).replace("&#x27;", "&#39;")


def listed(page: str) -> list[str]:
    """The tournament ids of the browser's table, in its order."""
    return re.findall(r'<a href="/tournaments/([^"]+)">', page)


def test_browse_newest_first_filter_and_page(
    client: TestClient, users: Accounts, tokens: dict[str, str],
    ids: dict[str, str], monkeypatch: pytest.MonkeyPatch, database: RolledBack,
) -> None:  # fmt: skip
    for role in ("arbiter1", "admin1"):  # officers only, and only officers get the link
        signed_in(client, users, role)
        assert client.get("/tournaments").status_code == 403
        assert 'href="/tournaments"' not in client.get("/").text
    signed_in(client, users, "officer1")
    assert 'href="/tournaments"' in client.get("/").text
    page = client.get("/tournaments")
    assert page.status_code == 200
    # Newest first: T3 starts 2026-10-10, T2 2026-09-05, T1 2026-08-10.
    assert listed(page.text) == [ids["T3"], ids["T2"], ids["T1"]]
    assert "3 tournaments." in page.text
    row = page.text[page.text.index(f'href="/tournaments/{ids["T1"]}"') :].split("</tr>")[0]
    assert escaped(NAMES["T1"]) in row
    assert "August 10, 2026 to August 12, 2026" in row
    assert "<td>fide-standard</td>" in row
    assert "2026-09 <span" in row
    assert "published" in row
    assert '<td class="num">7</td>' in row  # its 7 games, the forfeit included

    def browse(**wanted: str) -> list[str]:
        answer = client.get("/tournaments", params=wanted)
        assert answer.status_code == 200, answer.text
        return listed(answer.text)

    # Name: each word starts a word of the name, whatever the accents and the case.
    assert browse(name="ETE") == [ids["T3"], ids["T1"]]
    assert browse(name="été tournoi") == [ids["T1"]]
    assert browse(name="lyon rap") == [ids["T2"]]
    assert browse(name="yon") == []
    # Rated periods: T2 in 2026-10, T3 in 2026-11.
    assert browse(**{"from": "2026-10"}) == [ids["T3"], ids["T2"]]
    assert browse(**{"from": "2026-10", "to": "2026-10"}) == [ids["T2"]]
    assert browse(to="2026-09", name="ete") == [ids["T1"]]
    assert browse(category=CATEGORY) == [ids["T3"], ids["T2"], ids["T1"]]
    assert browse(category="fide-rapid") == []
    assert "No tournament matches." in client.get("/tournaments?category=fide-rapid").text
    # The games CSV names no federation; T2's set as a TRF's 032 record would set it.
    assert browse(federation="fra") == []
    execute(database, "UPDATE tournaments SET federation = 'FRA' WHERE tournament_id = :t",
            t=ids["T2"])  # fmt: skip
    assert browse(federation="fra") == [ids["T2"]]
    assert browse(federation="GER") == []
    assert (
        '<option value="FRA" selected>FRA</option>'
        in client.get("/tournaments?federation=FRA").text
    )
    # Errors name the field; nothing is listed.
    wrong = (({"from": "2026-13"}, "from"), ({"federation": "FR"}, "federation"),
             ({"from": "2026-11", "to": "2026-10"}, "to"), ({"category": "chess960"}, "category"),
             ({"page": "0"}, "page"))  # fmt: skip
    for wanted, field in wrong:
        answer = client.get("/tournaments", params=wanted)
        assert answer.status_code == 422, wanted
        assert listed(answer.text) == [], wanted
        if field != "page":
            assert re.search(
                rf'<label class="invalid">[^<]*<(input|select) name="{field}"', answer.text
            ), wanted
        else:
            assert 'id="error">field page: ' in answer.text
    # Two a page: the filters kept in the pages' links.
    monkeypatch.setattr(tournament_browse, "PAGE_SIZE", 2)
    first = client.get("/tournaments")
    assert listed(first.text) == [ids["T3"], ids["T2"]]
    assert "3 tournaments, page 1 of 2." in first.text
    assert 'href="/tournaments?page=2" rel="next"' in first.text
    second = client.get("/tournaments?page=2")
    assert listed(second.text) == [ids["T1"]]
    assert 'href="/tournaments" rel="prev"' in second.text
    named = client.get("/tournaments", params={"name": "été", "page": "1"})
    assert listed(named.text) == [ids["T3"], ids["T1"]]
    assert "next" not in named.text.split('id="found"')[1].split("</table>")[1]


def test_open_a_tournament_and_correct_a_game_from_its_link(
    client: TestClient, users: Accounts, tokens: dict[str, str],
    ids: dict[str, str], database: RolledBack,
) -> None:  # fmt: skip
    csrf = signed_in(client, users, "officer1")
    assert client.get("/tournaments/T999999").status_code == 404
    page = client.get(f"/tournaments/{ids['T1']}")
    assert page.status_code == 200
    text = page.text
    assert f"<h1>{escaped(NAMES['T1'])}</h1>" in text
    assert '<dd id="game-count">7</dd>' in text
    assert "2026-09" in text
    # Players (from the games in force): games, rated games, points. Fay: beat Eve, and Ada
    # lost to her by forfeit (+-, scored, never rated): 2 games, 1 rated, 2 points. Ada: beat
    # Ben, the forfeit: 2, 1, 1. Ben: lost to Ada, beat Cal: 2, 2, 1.
    for player, name, games, rated, points in ((FAY, "Fay, F", 2, 1, 2), (ADA, "Ada, A", 2, 1, 1),
                                               (BEN, "Ben, B", 2, 2, 1)):  # fmt: skip
        assert (
            f'<tr><td>{player}</td><td>{name}</td><td class="num">{games}</td>'
            f'<td class="num">{rated}</td><td class="num">{points}</td></tr>'
        ) in text, player
    for number in (1, 2, 3):
        assert f'<h3 id="round-{number}">Round {number}</h3>' in text
    links = re.findall(r'<a href="(/corrections/game\?[^"]+)"', text)
    assert len(links) == 7
    link = html.unescape(links[0])
    assert link == f"/corrections/game?tournament={ids['T1']}&round=1&white={ADA}&black={BEN}"
    # The link's form holds the game: nothing typed by hand but the result and the reason.
    form = client.get(link)
    assert form.status_code == 200
    for name, value in (("tournament", ids["T1"]), ("round", "1"), ("white", ADA),
                        ("black", BEN)):  # fmt: skip
        assert re.search(rf'<input name="{name}" value="{value}"', form.text), name
    assert '<textarea name="reason" rows="3" maxlength="500" required' in form.text
    fields = {"csrf_token": csrf, "tournament": ids["T1"], "round": "1", "white": ADA,
              "black": BEN, "result": "+-", "reason": "the arbiter's report was wrong"}  # fmt: skip
    previewed = preview_id(client.post("/corrections/game", data=fields))
    preview = client.get(f"/corrections/previews/{previewed}").text
    assert "1-0 → +-" in preview
    assert f"{CATEGORY} {P1}: revision 1 → 2" in preview
    # Only the form's own fields are taken from the address, never the reason.
    other = client.get(f"{link}&reason=typed&csrf_token=made-up&result=0-1").text
    assert "typed" not in other
    assert "made-up" not in other
    assert '<option value="0-1" selected>' in other
    assert query(database, "SELECT count(*) FROM corrections") == [(0,)]


def impact_rows(page: str) -> dict[str, dict[str, tuple[int, int, int]]]:
    """The impact page's tables: period -> player -> (before, after, difference)."""
    found: dict[str, dict[str, tuple[int, int, int]]] = {}
    for section in page.split('<section class="revision">')[1:]:
        period = re.search(rf"{CATEGORY} (\d{{4}}-\d\d): revision", section)
        assert period is not None
        rows = re.findall(
            r'<tr><td>(\d+)</td><td>[^<]*</td><td class="num">(\d+)</td>'
            r'<td class="num">(\d+)</td><td class="num">([+-]\d+)</td></tr>',
            section,
        )
        found[period.group(1)] = {p: (int(a), int(b), int(d)) for p, a, b, d in rows}
    return found


def test_withdraw_a_tournament_impact_then_confirm(
    own_client: TestClient, own_users: Accounts, own_tokens: dict[str, str],
    own_ids: dict[str, str], database_url: str,
) -> None:  # fmt: skip
    """On a database of the test's own: the public API reads it through engines of its own."""
    client, users, tokens, ids = own_client, own_users, own_tokens, own_ids
    url = database_url
    signed_in(client, users, "officer1")
    page = client.get(f"/tournaments/{ids['T2']}").text
    assert 'action="/corrections/withdraw"' in page
    assert REASON_IS_PUBLIC in page
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.split('id="withdraw-form"')[1])
    assert csrf is not None
    form = {"csrf_token": csrf.group(1), "tournament": ids["T2"]}
    before = snapshot(url, ACCOUNT_TABLES | {"correction_previews"})
    # No reason: refused on the withdrawal form, the field named, nothing stored.
    refused = client.post("/corrections/withdraw", data=form | {"reason": "  "})
    assert refused.status_code == 422
    assert re.search(r'<label class="invalid">Reason[^<]*\s*<textarea name="reason"', refused.text)
    assert query(url, "SELECT count(*) FROM correction_previews") == [(0,)]
    # Without the CSRF token: refused.
    no_token = {"tournament": ids["T2"], "reason": REASON}
    assert client.post("/corrections/withdraw", data=no_token).status_code == 403

    number = preview_id(client.post("/corrections/withdraw", data=form | {"reason": REASON}))
    assert snapshot(url, ACCOUNT_TABLES | {"correction_previews"}) == before
    shown = client.get(f"/corrections/previews/{number}").text
    assert "<h1>Withdraw a tournament</h1>" in shown
    assert '<dd id="games">2 → 0</dd>' in shown
    assert 'id="withdrawn"' in shown
    assert "3 lists would get a new revision, 4 players changed." in shown
    for period in (P1, P2, P3):
        assert f"{CATEGORY} {period}: revision 1 → 2 (4 players)" in shown
    assert impact_rows(shown) == WITHDRAW_IMPACT
    assert "Withdraw a tournament" in client.get("/corrections").text

    done = client.post(f"/corrections/previews/{number}/confirm",
                       data={"csrf_token": form["csrf_token"],
                             "impact_digest": shown_digest(shown)})  # fmt: skip
    assert done.status_code == 303
    applied = client.get(done.headers["location"]).text
    assert 'id="state">applied<' in applied
    # Both games superseded by the correction, kept as history; no game in force.
    ((correction_id, kind, actor),) = query(url, "SELECT id, kind, actor FROM corrections")
    assert (kind, actor) == ("tournament", "officer1")
    assert query(
        url, "SELECT count(*), min(superseded_by) FROM games WHERE tournament_id = :t", t=ids["T2"]
    ) == [(2, correction_id)]
    # The lists recomputed as worked by hand; the others' ratings as before.
    for period in (P1, P2, P3):
        expected = {p: entry[0] for p, entry in ORIGINAL[period].items()}
        expected |= {p: after for p, (_, after, _) in WITHDRAW_IMPACT[period].items()}
        assert ratings(url, period) == expected, period
    assert ratings(url, PERIODS[0]) == {p: entry[0] for p, entry in ORIGINAL[PERIODS[0]].items()}
    (entry,) = audit_entries(client, tokens["officer1"], "correction")
    assert entry["actor"] == "officer1"
    assert entry["details"]["withdrawn"] is True
    assert entry["details"]["tournament_id"] == ids["T2"]
    assert entry["details"]["reason"] == REASON
    assert entry["counts"] == {"games_before": 2, "games_after": 0, "revisions": 3}
    # The public diff of each revised list says the tournament was withdrawn, in both
    # languages and in its JSON.
    with TestClient(create_public_app(Settings(database_url=url))) as public:
        for period in (P1, P2, P3):
            path = f"/lists/{CATEGORY}/{period}/diff?from=1&to=2"
            assert "<strong>A tournament withdrawn</strong>" in public.get(path).text
            assert "<strong>Un tournoi retiré</strong>" in public.get(path + "&lang=fr").text
            (shown_correction,) = public.get("/v1" + path).json()["corrections"]
            assert shown_correction["reason"] == REASON
            assert (shown_correction["kind"], shown_correction["withdrawn"]) == (
                "tournament",
                True,
            )
        # The tournament's public page says it was withdrawn, why, and shows no crosstable.
        page = public.get(f"/tournaments/{ids['T2']}").text
        notice = re.search(r'<p id="withdrawn"><strong>([^<]*)</strong> ([^<]*)</p>', page)
        assert notice is not None
        assert notice.group(1).startswith("Withdrawn on ")
        assert notice.group(2) == f"{html.escape(REASON)} None of its games is rated."
        assert 'id="crosstable-heading"' not in page
        french = public.get(f"/tournaments/{ids['T2']}?lang=fr").text
        assert "Retiré le " in french
        assert "Aucune de ses parties n\u2019est classée." in french
        withdrawn = public.get(f"/v1/tournaments/{ids['T2']}").json()["withdrawn"]
        assert withdrawn["reason"] == REASON
        (created,) = query(url, "SELECT created_at FROM corrections")[0]
        assert withdrawn["date"] == str(created)[:10]  # SQLite gives the text back
        assert public.get(f"/v1/tournaments/{ids['T1']}").json()["withdrawn"] is None
    # The tournament page now says so; a second withdrawal finds nothing to withdraw.
    after = client.get(f"/tournaments/{ids['T2']}").text
    assert 'id="no-games"' in after
    assert 'id="withdraw-form"' not in after
    again = client.post("/corrections/withdraw", data=form | {"reason": REASON})
    assert again.status_code == 422
    assert f"tournament {ids['T2']} has no game in force: nothing to withdraw" in again.text


def test_two_withdrawals_of_one_tournament_at_once(
    own_app: FastAPI, own_client: TestClient, own_users: Accounts, own_tokens: dict[str, str],
    own_ids: dict[str, str], database_url: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Two officers confirm their previews of withdrawing T2 at the same moment: the second
    waits for the first (the import lock), then finds no game left to withdraw (422 on its
    page); applied once, audited once, every revision still what its inputs give. Two
    transactions at once: on a database of the test's own."""
    app, client, users, ids = own_app, own_client, own_users, own_ids  # own_tokens: the officers
    url = database_url
    confirms = []
    for officer, browser in (("officer1", client),
                             ("officer2", TestClient(app, follow_redirects=False))):  # fmt: skip
        csrf = signed_in(browser, users, officer)
        form = {"csrf_token": csrf, "tournament": ids["T2"], "reason": REASON}
        number = preview_id(browser.post("/corrections/withdraw", data=form))
        digest = shown_digest(browser.get(f"/corrections/previews/{number}").text)
        confirms.append((browser, number, {"csrf_token": csrf, "impact_digest": digest}))
    held = Held({"correction"})
    monkeypatch.setattr(correction_service, "audit", held)

    def confirm(index: int) -> Any:
        browser, number, form = confirms[index]
        return browser.post(f"/corrections/previews/{number}/confirm", data=form)

    with two_at_once(url, lambda: confirm(0), lambda: confirm(1), held) as answers:
        pass
    done, late = both_answered(answers)
    assert done.status_code == 303, done.text
    assert late.status_code == 422, late.text
    assert f"tournament {ids['T2']} has no game in force: nothing to withdraw" in late.text
    assert query(url, "SELECT kind, actor FROM corrections") == [("tournament", "officer1")]
    assert query(url, "SELECT actor FROM audit_log WHERE action = 'correction'") == [("officer1",)]
    assert main(["periods", "verify", "--all", "--database-url", url]) == 0
    capsys.readouterr()


def test_withdrawing_a_tournament_of_an_open_period(
    client: TestClient, users: Accounts, tokens: dict[str, str], database: RolledBack,
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Only 2026-09 published: T3 (rated 2026-11, open) withdrawn changes no published list;
    the impact names the open period, whose close then rates none of its games."""
    built = build(capsys, database.url, tmp_path / "chain", tournaments=RENAMED,
                  periods=(PERIODS[0],))  # fmt: skip
    t3 = built[NAMES["T3"]]
    csrf = signed_in(client, users, "officer1")
    form = {"csrf_token": csrf, "tournament": t3, "reason": REASON}
    number = preview_id(client.post("/corrections/withdraw", data=form))
    shown = client.get(f"/corrections/previews/{number}").text
    assert '<dd id="games">3 → 0</dd>' in shown
    assert '<p id="impact-summary">No published list changes.</p>' in shown
    assert f"Open periods whose games change (rated when they close): {CATEGORY} {P2}." in shown
    done = client.post(f"/corrections/previews/{number}/confirm",
                       data={"csrf_token": csrf, "impact_digest": shown_digest(shown)})  # fmt: skip
    assert done.status_code == 303
    assert query(database, "SELECT count(*) FROM games WHERE tournament_id = :t AND superseded_by "
                 "IS NULL", t=t3) == [(0,)]  # fmt: skip
    assert query(database, "SELECT count(*) FROM rating_lists WHERE revision > 1") == [(0,)]
