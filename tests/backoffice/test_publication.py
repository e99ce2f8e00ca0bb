"""Publication through the back office, on SQLite and PostgreSQL: the preview of a period's list
against numbers worked out by hand (tests/support/publication.py), an approval publishing
exactly that list (the list ``ratingdb periods close`` publishes from the same inputs in
the same database, in a SAVEPOINT undone before the approval), a tournament accepted or a game
corrected after the preview making the approval refuse with the reason and write nothing, the
pages and their form, and bad input.

The tests run in the test's rolled-back transaction (``database``), but for the scheduled
close's (``jobs.close_periods`` opens engines of its own): a database of its own.

The app's clock is 2026-12-01 09:00 UTC: the cut-off of 2026-12 (2026-11-28) has passed."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from ratingdb.backoffice.app import create_app
from ratingdb.cli import main
from ratingdb.config import Settings
from tests.backoffice.conftest import Accounts, Clock, accounts_on
from tests.support import publication as case
from tests.support.rolled_back import RolledBack
from tests.support.sql import entries_where

PREVIEW = f"/admin/v1/periods/{case.CATEGORY}/{case.PERIOD}/preview"
APPROVE = f"/admin/v1/periods/{case.CATEGORY}/{case.PERIOD}/approve"
PAGE = f"/publication/{case.CATEGORY}/{case.PERIOD}"
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _tokens(users: Accounts) -> dict[str, str]:
    for name, role in (("arbiter1", "arbiter"), ("officer1", "officer")):
        users.add(name, role)
    return {name: users.token(name) for name in ("arbiter1", "officer1")}


@pytest.fixture
def tokens(users: Accounts) -> dict[str, str]:
    return _tokens(users)


@pytest.fixture
def prepared(database: RolledBack, tmp_path: Path) -> RolledBack:
    case.prepare(database.url, tmp_path)
    return database


def changes(answer: dict[str, Any], key: str = "changes") -> list[tuple[Any, ...]]:
    return [(c["player_id"], c["name"], c["previous_rating"], c["rating"]) for c in answer[key]]


#: The 2026-12 list's entries, and the fields :func:`published` shows of each.
DECEMBER = "l.category = 'fide-standard' AND l.list_date = '2026-12-01'"
SHOWN = ("player_id", "rating", "previous_rating", "change", "games", "k_factor")


def published(where: RolledBack | str) -> list[tuple[Any, ...]]:
    """The 2026-12 list as stored (in the test's transaction, or in the database at a URL):
    (player, rating, previous, change, games, K), by player."""
    return sorted(entries_where(where, DECEMBER, SHOWN))


def test_the_preview_is_the_list_worked_by_hand(
    client: TestClient, tokens: dict[str, str], prepared: RolledBack
) -> None:
    case.assert_worked_by_hand()
    answer = client.get(PREVIEW, headers=bearer(tokens["officer1"]))
    assert answer.status_code == 200, answer.text
    shown = answer.json()
    assert (shown["entries"], shown["games"]) == (case.EXPECTED_ENTRIES, case.EXPECTED_GAMES)
    assert changes(shown) == case.EXPECTED_CHANGES
    # Largest gains: Gus +32, Anna +10; losses: Bob -26; Nina's first rating; Gus's K 40 -> 20.
    assert [(c["player_id"], c["change"]) for c in shown["largest_gains"]] == [
        ("1003", case.GUS - 1780), ("1001", case.ANNA - 1850)]  # fmt: skip
    assert [(c["player_id"], c["change"]) for c in shown["largest_losses"]] == [
        ("1002", case.BOB - 1920)]  # fmt: skip
    assert changes(shown, "first_ratings") == [("1005", "Nina, N", None, case.NINA)]
    assert [(c["player_id"], c["previous_k_factor"], c["next_k_factor"])
            for c in shown["k_changes"]] == [("1003", 40, 20)]  # fmt: skip
    nina = next(c for c in shown["changes"] if c["player_id"] == "1005")
    assert (nina["first_rating"], nina["next_k_factor"], nina["games"]) == (True, 40, 5)
    assert [(t["name"], t["games"], t["rated_games"]) for t in shown["tournaments"]] == [
        ("Autumn Open", 8, 8)]  # fmt: skip
    assert shown["rule_version"] == case.RULE_VERSION
    assert shown["starts_from"] == {"period": case.STARTING_PERIOD, "revision": 1}
    assert (shown["state"], shown["mode"], shown["closing_date"], shown["cut_off_passed"]) == (
        "open", "automatic", case.CLOSING_DATE, True)  # fmt: skip
    assert re.fullmatch(r"[0-9a-f]{64}", shown["digest"])
    # Nothing of it written: no list, the period still open, no audit entry of the officer.
    assert published(prepared) == []
    assert prepared.rows("SELECT state FROM periods WHERE list_date = '2026-12-01'") == [
        ("open",)]  # fmt: skip
    assert prepared.rows("SELECT count(*) FROM audit_log WHERE actor = 'officer1'") == [(0,)]


def test_approve_publishes_the_list_a_close_of_the_same_inputs_publishes(
    client: TestClient, tokens: dict[str, str], prepared: RolledBack
) -> None:
    digest = client.get(PREVIEW, headers=bearer(tokens["officer1"])).json()["digest"]
    digests = "SELECT digest FROM rating_lists WHERE list_date = '2026-12-01'"
    # The same inputs closed on the command line, in a SAVEPOINT undone before the approval:
    # the list the close publishes, and its digest.
    before_close = prepared.connection.begin_nested()
    assert main(["periods", "close", "--category", case.CATEGORY, "--period", case.PERIOD,
                 "--database-url", prepared.url, "--actor", "cli"],
                sessions=prepared.sessions) == 0  # fmt: skip
    closed, closed_digests = published(prepared), prepared.rows(digests)
    before_close.rollback()
    assert published(prepared) == []
    answer = client.post(APPROVE, json={"digest": digest}, headers=bearer(tokens["officer1"]))
    assert answer.status_code == 200, answer.text
    done = answer.json()
    assert (done["state"], done["digest"], done["entries"], done["revision"]) == (
        "published", digest, case.EXPECTED_ENTRIES, 1)  # fmt: skip
    assert published(prepared) == closed
    assert [(p, rating) for p, rating, *_ in published(prepared)] == [
        ("1001", case.ANNA), ("1002", case.BOB), ("1003", case.GUS), ("1004", 2010),
        ("1005", case.NINA)]  # fmt: skip
    assert prepared.rows(digests) == closed_digests == [(digest,)]
    # The close is recorded as the officer's, as is the approval.
    assert prepared.rows(
        "SELECT action, actor FROM audit_log WHERE actor = 'officer1' ORDER BY id"
    ) == [("close", "officer1"), ("publication-approve", "officer1")]
    assert prepared.rows("SELECT state FROM periods WHERE list_date = '2026-12-01'") == [
        ("published",)]  # fmt: skip
    # Published: nothing more to preview or approve.
    again = client.post(APPROVE, json={"digest": digest}, headers=bearer(tokens["officer1"]))
    assert again.status_code == 409
    assert "fide-standard 2026-12 is published (revision 1, 5 entries)" in again.json()["detail"]
    assert client.get(PREVIEW, headers=bearer(tokens["officer1"])).status_code == 409


def _submit_and_accept(client: TestClient, tokens: dict[str, str], content: str) -> str:
    sent = client.post(
        "/admin/v1/submissions?category=fide-standard&format=csv&filename=club.csv",
        content=content.encode(), headers=bearer(tokens["arbiter1"]),
    )  # fmt: skip
    assert sent.status_code == 201, sent.text
    accepted = client.post(f"/admin/v1/submissions/{sent.json()['submission_id']}/accept",
                           headers=bearer(tokens["officer1"]))  # fmt: skip
    assert accepted.status_code == 200, accepted.text
    tournament_ids: list[str] = accepted.json()["tournament_ids"]
    return tournament_ids[0]


def test_a_tournament_accepted_after_the_preview_makes_approve_refuse(
    client: TestClient, tokens: dict[str, str], prepared: RolledBack
) -> None:
    officer = bearer(tokens["officer1"])
    digest = client.get(PREVIEW, headers=officer).json()["digest"]
    tournament = _submit_and_accept(client, tokens, case.LATE_ENTRY)
    refused = client.post(APPROVE, json={"digest": digest}, headers=officer)
    assert refused.status_code == 409, refused.text
    body = refused.json()
    assert "is not the one previewed" in body["detail"]
    assert "preview it again" in body["detail"]
    assert (
        f"tournament {tournament} (Club Evening, 2026-11-20 to 2026-11-20) was added since the "
        "preview: 1 rated games" in body["reasons"]
    )
    # Dan beat Anna: Anna 1850 vs Dan 2010 is D -160 (row 154-162: 0.71), so Anna's sum loses
    # 0.29 x 20 and Dan (K 20) gains 0.29 x 20 = 5.8 -> +6 on his own.
    entries = next(r for r in body["reasons"] if "entries differ" in r)
    assert entries.startswith("2 entries differ: ")
    assert "1004 Dan, D: unchanged at the preview, 2016, +6, 1 games, K 20 now" in entries
    assert body["digest"] != digest
    # Nothing published, nothing recorded for the refusal.
    assert published(prepared) == []
    assert prepared.rows("SELECT state FROM periods WHERE list_date = '2026-12-01'") == [
        ("open",)]  # fmt: skip
    assert prepared.rows("SELECT count(*) FROM audit_log WHERE action = 'close'") == [(0,)]
    # Previewed again, the new list is approved.
    shown = client.get(PREVIEW, headers=officer).json()
    assert shown["digest"] == body["digest"]
    assert [t["tournament_id"] for t in shown["tournaments"]] == ["T000001", tournament]
    done = client.post(APPROVE, json={"digest": shown["digest"]}, headers=officer)
    assert done.status_code == 200, done.text
    assert ("1004", 2016) in [(p, rating) for p, rating, *_ in published(prepared)]


def test_a_correction_after_the_preview_is_named(
    client: TestClient, tokens: dict[str, str], prepared: RolledBack
) -> None:
    officer = bearer(tokens["officer1"])
    digest = client.get(PREVIEW, headers=officer).json()["digest"]
    assert main(["games", "correct", "--tournament", "T000001", "--round", "1", "--white", "1001",
                 "--black", "1002", "--result", "0-1", "--reason", "result sheet misread",
                 "--database-url", prepared.url, "--actor", "alice"],
                sessions=prepared.sessions) == 0  # fmt: skip
    refused = client.post(APPROVE, json={"digest": digest}, headers=officer)
    assert refused.status_code == 409, refused.text
    reasons = refused.json()["reasons"]
    assert (
        "tournament T000001 (Autumn Open, 2026-11-10 to 2026-11-12) was corrected or replaced "
        "since the preview: 8 rated games at the preview, 8 now" in reasons
    )
    assert (
        "correction 1 (game, tournament T000001) recorded since the preview by alice: result "
        "sheet misread" in reasons
    )
    assert any(r.startswith("2 entries differ: 1001 Anna, A: 1860, +10, 2 games, K 20 at the "
                            "preview, ") for r in reasons)  # fmt: skip
    assert published(prepared) == []


def test_bad_input_names_the_field(
    client: TestClient, tokens: dict[str, str], prepared: RolledBack
) -> None:
    officer = bearer(tokens["officer1"])
    for path, field in (
        ("/admin/v1/periods/fide-bullet/2026-12/preview", "field category: unknown category"),
        ("/admin/v1/periods/fide-standard/2026-13/preview", "field period: "),
        # 2027-01 starts from 2026-12, which is not published.
        ("/admin/v1/periods/fide-standard/2027-01/preview",
         "field period: fide-standard 2026-12 is not published yet"),
        # Before the latest published list (2026-11), never a period of its own.
        ("/admin/v1/periods/fide-standard/2026-10/preview",
         ("field period: fide-standard 2026-10 comes before the latest published list "
          "(2026-11): the next list to publish is 2026-12")),
    ):  # fmt: skip
        answer = client.get(path, headers=officer)
        assert answer.status_code == 422, (path, answer.text)
        assert answer.json()["detail"].startswith(field), answer.text
    for digest, message in (
        ("abc", "field digest: must be the 64 hexadecimal digits"),
        ("0" * 64, "field digest: no preview of fide-standard 2026-12 showed a list with digest"),
    ):
        answer = client.post(APPROVE, json={"digest": digest}, headers=officer)
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"].startswith(message), answer.text
    assert published(prepared) == []


def test_automatic_categories_have_nothing_to_approve_before_the_cut_off(
    tokens: dict[str, str], prepared: RolledBack, clock: Clock
) -> None:
    clock.now = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)  # before the 2026-11-28 cut-off
    officer = bearer(tokens["officer1"])
    app = create_app(Settings(database_url=prepared.url), clock=clock, sessions=prepared.sessions)
    with TestClient(app) as client:
        shown = client.get(PREVIEW, headers=officer).json()
        assert (shown["mode"], shown["cut_off_passed"]) == ("automatic", False)
        refused = client.post(APPROVE, json={"digest": shown["digest"]}, headers=officer)
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "fide-standard is published automatically: the scheduled close publishes 2026-12 after "
        "its cut-off on 2026-11-28; there is nothing to approve before then"
    )
    assert published(prepared) == []


def _csrf(page: str) -> str:
    found = CSRF_INPUT.search(page)
    assert found is not None
    return found.group(1)


def test_the_pages_preview_refuse_and_approve(
    client: TestClient, users: Accounts, tokens: dict[str, str], prepared: RolledBack
) -> None:
    session_id, csrf = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)
    home = client.get("/")
    assert 'href="/publication"' in home.text
    listing = client.get("/publication")
    assert listing.status_code == 200
    row = re.search(r'<tr id="next-fide-standard">(.*?)</tr>', listing.text, re.S)
    assert row is not None
    assert f'href="{PAGE}"' in row.group(1)
    assert "automatic" in row.group(1)
    assert "due: the scheduled close publishes it" in row.group(1)
    page = client.get(PAGE)
    assert page.status_code == 200
    text = page.text
    assert f'<dd id="entries">{case.EXPECTED_ENTRIES}</dd>' in text
    assert f'<dd id="rule-version">{case.RULE_VERSION}</dd>' in text
    for table, player in (("gains", "1003"), ("losses", "1002"), ("first-ratings", "1005"),
                          ("k-changes", "1003"), ("changes", "1001")):  # fmt: skip
        assert f'<tr id="{table}-{player}">' in text, table
    assert re.search(r'<tr id="k-changes-1003">.*?40 &rarr; 20', text, re.S)
    assert 'id="tournament-T000001"' in text
    digest = re.search(r'name="digest" value="([0-9a-f]{64})"', text)
    assert digest is not None
    # The form needs its CSRF token.
    forged = client.post(f"{PAGE}/approve", data={"digest": digest.group(1)})
    assert forged.status_code == 403
    # A tournament accepted meanwhile: refused on the page, with the reason and the new list.
    tournament = _submit_and_accept(client, tokens, case.LATE_ENTRY)
    client.cookies.set("ratingdb_session", session_id)
    refused = client.post(f"{PAGE}/approve", data={"csrf_token": csrf, "digest": digest.group(1)})
    assert refused.status_code == 409
    assert 'id="refusal"' in refused.text
    # The page writes its dates and counts for people (the API above: ISO, "1 rated games").
    assert (
        f"<li>tournament {tournament} (Club Evening, November 20, 2026 to November 20, 2026) was "
        "added since the preview: 1 rated game</li>" in refused.text
    )
    assert published(prepared) == []
    fresh = re.search(r'name="digest" value="([0-9a-f]{64})"', refused.text)
    assert fresh is not None
    assert fresh.group(1) != digest.group(1)
    done = client.post(f"{PAGE}/approve", data={"csrf_token": _csrf(refused.text),
                                                 "digest": fresh.group(1)})  # fmt: skip
    assert done.status_code == 303
    assert done.headers["location"] == PAGE
    after = client.get(PAGE)
    assert 'id="published"' in after.text
    assert "fide-standard 2026-12 is published (revision 1, 5 entries)" in after.text
    assert len(published(prepared)) == case.EXPECTED_ENTRIES


def test_the_pages_in_approval_mode(
    database_url: str, engine: Engine, tmp_path: Path, clock: Clock
) -> None:
    """Before the cut-off the form approves the list for the scheduled close; after it, the
    scheduled close leaves the period awaiting approval, which the pages show, and the form
    publishes it. The scheduled close (jobs.close_periods) opens engines of its own: a database
    of the test's own, its app and its users on it."""
    from jobs.close_periods import close_periods

    users = accounts_on(engine, clock)
    tokens = _tokens(users)
    case.prepare(database_url, tmp_path)
    prepared = database_url
    settings = Settings.from_env({"RATINGDB_PUBLICATION_APPROVAL": "fide-standard"},
                                 database_url=database_url)  # fmt: skip
    clock.now = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    session_id, csrf = users.session("officer1")
    with TestClient(create_app(settings, clock=clock), follow_redirects=False) as client:
        client.cookies.set("ratingdb_session", session_id)
        row = re.search(r'<tr id="next-fide-standard">(.*?)</tr>',
                        client.get("/publication").text, re.S)  # fmt: skip
        assert row is not None
        assert '<span class="mode approval">approval</span>' in row.group(1)
        page = client.get(PAGE).text
        assert "Approve for the scheduled close" in page
        digest = re.search(r'name="digest" value="([0-9a-f]{64})"', page)
        assert digest is not None
        done = client.post(f"{PAGE}/approve", data={"csrf_token": csrf, "digest": digest.group(1)})
        assert done.status_code == 303
        assert "Approved by officer1 on November 20, 2026, 09:00 UTC" in client.get(PAGE).text
        assert published(prepared) == []
        # A tournament accepted before the cut-off: the approved list is no longer the one the
        # scheduled close computes; it waits.
        _submit_and_accept(client, tokens, case.LATE_ENTRY)
        # The run acts for 2026-12-01 00:30 (what is due); its records carry the moment it ran.
        ran_from = datetime.now(UTC)
        [held] = close_periods(settings, datetime(2026, 12, 1, 0, 30, tzinfo=UTC), "scheduler")
        ran_until = datetime.now(UTC)
        # Written as the page writes a moment in English: "December 4, 2026, 14:04".
        computed = {
            f"{moment:%B} {moment.day}, {moment:%Y, %H:%M}" for moment in (ran_from, ran_until)
        }
        assert held.state == "awaiting-approval"
        clock.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
        session_id, csrf = users.session("officer1")  # the day's session (12 hours at most)
        client.cookies.set("ratingdb_session", session_id)
        listing = client.get("/publication").text
        assert '<span class="state awaiting-approval">awaiting-approval</span>' in listing
        assert any(f"computed {minute} UTC" in listing for minute in computed), computed
        page = client.get(PAGE).text
        assert '<span class="state awaiting-approval" id="state">awaiting-approval</span>' in page
        assert any(
            f"computed by the scheduled close on {minute} UTC" in page for minute in computed
        )
        assert "the list has changed since" not in page
        assert 'id="approve">Approve and publish</button>' in page
        fresh = re.search(r'name="digest" value="([0-9a-f]{64})"', page)
        assert fresh is not None
        assert fresh.group(1) == held.digest
        done = client.post(f"{PAGE}/approve", data={"csrf_token": csrf, "digest": fresh.group(1)})
        assert done.status_code == 303
    assert [(p, rating) for p, rating, *_ in published(prepared)][3] == ("1004", 2016)
