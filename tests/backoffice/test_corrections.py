"""Corrections through the back office (issue 14), on SQLite and PostgreSQL: the four kinds
through the JSON API and the web pages, officers only.

The chains and their numbers are the ones worked by hand in tests/corrections
(test_revision_chain: a win made a forfeit; test_merge: a duplicate player; test_list_replace:
an imported list corrected). Every dry run leaves every table as it was (rows compared, not
counted); every applied correction gives the hand-worked lists, and the tournament, merge and
list corrections give exactly what the command line gives on a twin database (the test's
transaction rolled back to before the chain was built: ``twin_of``). A missing
reason is refused (422 naming ``reason``), the audit log names the signed-in user, an arbiter
and an admin get 403. The pages show the impact before the Confirm form, keep an uploaded file
server-side for the confirmation, apply only the impact shown, and show errors on the form
with the field named, storing nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import NestedTransaction

from ratingdb.backoffice import uploads
from tests.backoffice.conftest import Accounts, Clock
from tests.corrections import test_list_replace as lists
from tests.corrections import test_merge as merges
from tests.corrections.test_revision_chain import (
    ADA,
    BASE,
    BEN,
    CAL,
    CATEGORY,
    DEE,
    ORIGINAL,
    P1,
    P2,
    P3,
    PERIODS,
    T1,
    P,
    baseline_csv,
    build,
    entries,
    exported,
    games_csv,
    list_table,
    ok,
)
from tests.support.rolled_back import RolledBack
from tests.support.sql import Where, query, table_names

#: Tables a request may touch without doing anything: a token's last use, a session's.
ACCOUNT_TABLES = frozenset(
    {
        "users",
        "api_tokens",
        "web_sessions",
        "sign_in_attempts",
        "sign_in_throttles",
        "known_devices",
    }
)
REASON = "the arbiter's report was wrong"
DIGEST_INPUT = re.compile(r'name="impact_digest" value="([0-9a-f]{64})"')

#: Ada-Ben 1-0 made a forfeit (+-), worked in test_revision_chain's docstring and
#: test_game_correction: Ada loses her rated win (-7 in every list from P on), Ben his loss
#: (+7): period -> player -> (before, after, difference).
FORFEIT_IMPACT = {
    P: {ADA: (1807, 1800, -7), BEN: (1710, 1717, 7)},
    P1: {ADA: (1812, 1805, -7), BEN: (1705, 1712, 7)},
    P2: {ADA: (1825, 1818, -7), BEN: (1702, 1709, 7)},
    P3: {ADA: (1825, 1818, -7), BEN: (1702, 1709, 7)},
}
#: players merge 3001 3099, worked in test_merge's docstring.
MERGE_IMPACT = {
    merges.P1: {merges.IVO: (1907, 1914, 7), merges.KIM: (1993, 1991, -2),
                merges.LEA: (1707, 1702, -5)},
    merges.P2: {merges.IVO: (1902, 1909, 7), merges.KIM: (1993, 1991, -2),
                merges.LEA: (1712, 1707, -5)},
}  # fmt: skip


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def snapshot(where: Where, skip: frozenset[str] = ACCOUNT_TABLES) -> dict[str, list[str]]:
    """Every row of every table (but ``skip``), as sorted text: what a dry run must leave."""
    return {
        name: sorted(repr(row) for row in query(where, f'SELECT * FROM "{name}"'))
        for name in sorted(table_names(where) - skip)
    }


def twin_of(database: RolledBack) -> NestedTransaction:
    """Where a twin of the test's database begins: rolled back to (``.rollback()``), the
    test's transaction is the database as it was here, as a database of its own would be, on
    which the command line then does what the test had the API do (PostgreSQL's sequences
    aside: ids are not compared)."""
    return database.connection.begin_nested()


def impact_of(document: dict[str, Any]) -> dict[str, dict[str, tuple[Any, Any, Any]]]:
    return {
        r["period"]: {
            c["player_id"]: (c["from_rating"], c["to_rating"], c["difference"])
            for c in r["changes"]
        }
        for r in document["revisions"]
    }


def ratings(where: Where, period: str) -> dict[str, int]:
    return {player: entry[0] for player, entry in entries(where, period).items()}


def forfeit_ratings(period: str) -> dict[str, int]:
    """The chain's ratings after the correction: the originals, Ada's and Ben's worked above."""
    original = {player: entry[0] for player, entry in ORIGINAL[period].items()}
    return original | {player: after for player, (_, after, _) in FORFEIT_IMPACT[period].items()}


@pytest.fixture
def tokens(users: Accounts) -> dict[str, str]:
    return add_tokens(users)


def add_tokens(users: Accounts) -> dict[str, str]:
    """officer1, officer2, arbiter1 and admin1 with their API tokens."""
    names = {"officer1": "officer", "officer2": "officer", "arbiter1": "arbiter",
             "admin1": "admin"}  # fmt: skip
    for name, role in names.items():
        users.add(name, role)
    return {name: users.token(name) for name in names}


def audit_entries(client: TestClient, token: str, action: str) -> list[dict[str, Any]]:
    answer = client.get(f"/admin/v1/audit?action={action}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    entries_: list[dict[str, Any]] = answer.json()
    return entries_


# --- the JSON API -----------------------------------------------------------------------------


def test_a_game_result_through_the_api(
    client: TestClient, tokens: dict[str, str], database: RolledBack, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    ids = build(capsys, database.url, tmp_path / "chain")
    body = {"tournament": ids["T1"], "round": 1, "white": ADA, "black": BEN, "result": "+-",
            "reason": REASON}  # fmt: skip
    officer = bearer(tokens["officer1"])
    before = snapshot(database)

    # Dry run, asked in the query and in the body: the impact, nothing written.
    for path, extra in (("/admin/v1/corrections/game?dry_run=true", {}),
                        ("/admin/v1/corrections/game", {"dry_run": True})):  # fmt: skip
        answer = client.post(path, json=body | extra, headers=officer)
        assert answer.status_code == 200, answer.text
        impact = answer.json()
        assert (impact["dry_run"], impact["correction_id"], impact["kind"]) == (True, None, "game")
        assert impact_of(impact) == FORFEIT_IMPACT
        assert [(r["from_revision"], r["to_revision"]) for r in impact["revisions"]] == [(1, 2)] * 4
        assert {c["name"] for r in impact["revisions"] for c in r["changes"]} == {
            "Ada, A",
            "Ben, B",
        }
        assert impact["summary"]["result_before"] == "1-0"
        assert impact["players_changed"] == 2
        assert snapshot(database) == before
    # The query and the body disagreeing is refused.
    refused = client.post("/admin/v1/corrections/game?dry_run=false", json=body | {"dry_run": True},
                          headers=officer)  # fmt: skip
    assert (refused.status_code, "dry_run" in refused.json()["detail"]) == (422, True)
    assert snapshot(database) == before

    # Applied: the lists worked by hand, the audit naming the token's user.
    answer = client.post("/admin/v1/corrections/game", json=body, headers=officer)
    assert answer.status_code == 201, answer.text
    done = answer.json()
    assert done["dry_run"] is False
    assert isinstance(done["correction_id"], int)
    assert impact_of(done) == FORFEIT_IMPACT
    for period in PERIODS:
        assert ratings(database, period) == forfeit_ratings(period), period
    # Ada: no rated game left in P; Ben: only his win over Cal, +.85 x 20 = 17.
    assert entries(database, P)[ADA] == (1800, 1800, 0, 0, 20)
    assert entries(database, P)[BEN] == (1717, 1700, 17, 1, 20)
    assert query(database, "SELECT kind, actor, reason FROM corrections") == [
        ("game", "officer1", REASON)
    ]
    (entry,) = audit_entries(client, tokens["officer1"], "correction")
    assert (entry["actor"], entry["details"]["kind"], entry["details"]["reason"]) == (
        "officer1", "game", REASON)  # fmt: skip
    # Again: the result is already +- (422 naming the field), nothing more written.
    after = snapshot(database)
    again = client.post("/admin/v1/corrections/game", json=body, headers=officer)
    assert again.status_code == 422
    assert "field result: the game's result is already +-" in again.json()["detail"]
    assert snapshot(database) == after


def test_a_tournament_replaced_through_the_api_as_on_the_command_line(
    client: TestClient, tokens: dict[str, str], database: RolledBack, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """The corrected file of T1 has Ada-Ben as a forfeit: the impact worked by hand for the game
    correction; applied, every list is the one ``tournaments import --replace`` gives."""
    twin = twin_of(database)
    ids = build(capsys, database.url, tmp_path / "chain")
    corrected = tmp_path / "T1-corrected.csv"
    corrected.write_text(games_csv(T1, {(1, ADA, BEN): "+-"}), encoding="utf-8")
    officer = bearer(tokens["officer1"])
    path = f"/admin/v1/corrections/tournament/{ids['T1']}"
    before = snapshot(database)

    raw = client.post(f"{path}?dry_run=true&reason={REASON}&filename=T1-corrected.csv",
                      content=corrected.read_bytes(), headers=officer)  # fmt: skip
    assert raw.status_code == 200, raw.text
    sent = {"file": ("T1-corrected.csv", corrected.read_bytes())}
    multipart = client.post(f"{path}?dry_run=true&reason={REASON}", headers=officer, files=sent)
    assert multipart.status_code == 200, multipart.text
    for answer in (raw, multipart):
        impact = answer.json()
        assert impact_of(impact) == FORFEIT_IMPACT
        assert impact["summary"]["games_before"] == impact["summary"]["games_after"] == 7
        assert impact["request"]["filename"] == "T1-corrected.csv"
        assert all(str(tmp_path) not in line for line in impact["summary"]["notes"])
    assert snapshot(database) == before

    answer = client.post(f"{path}?reason={REASON}&filename=T1-corrected.csv",
                         content=corrected.read_bytes(), headers=officer)  # fmt: skip
    assert answer.status_code == 201, answer.text
    assert impact_of(answer.json()) == FORFEIT_IMPACT
    for period in PERIODS:
        assert ratings(database, period) == forfeit_ratings(period), period
    (entry,) = audit_entries(client, tokens["officer1"], "correction")
    assert (entry["actor"], entry["details"]["kind"]) == ("officer1", "tournament")

    ours = {period: list_table(exported(capsys, database.url, period)) for period in PERIODS}
    twin.rollback()
    twin_ids = build(capsys, database.url, tmp_path / "twin-chain")
    ok(capsys, "tournaments", "import", str(corrected), "--replace", twin_ids["T1"],
       "--reason", REASON, url=database.url)  # fmt: skip
    for period in PERIODS:
        assert ours[period] == list_table(exported(capsys, database.url, period)), period


def test_two_players_merged_through_the_api_as_on_the_command_line(
    client: TestClient, tokens: dict[str, str], database: RolledBack, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    twin = twin_of(database)
    build(capsys, database.url, tmp_path / "db", tournaments=merges.chain(merges.DUP),
          players=merges.PLAYERS, periods=merges.PERIODS)  # fmt: skip
    officer = bearer(tokens["officer1"])
    body = {"keep": merges.IVO, "drop": merges.DUP, "reason": "one person, two ids"}
    before = snapshot(database)
    answer = client.post("/admin/v1/corrections/merge?dry_run=true", json=body, headers=officer)
    assert answer.status_code == 200, answer.text
    impact = answer.json()
    assert impact_of(impact) == MERGE_IMPACT
    summary = impact["summary"]
    shown = ("games", "keep_name", "drop_name", "conflicts", "override")
    assert {k: summary[k] for k in shown} == {
        "games": 2, "keep_name": "Ivo, I", "drop_name": "Ivo, I", "conflicts": [],
        "override": None,
    }  # fmt: skip
    # Both records side by side (issue 28): Ivo's 2 games (M1, M3), 3099's 2 (M2).
    assert [(r["player_id"], r["games"]) for r in summary["players"].values()] == [
        (merges.IVO, 2), (merges.DUP, 2),
    ]  # fmt: skip
    assert snapshot(database) == before

    answer = client.post("/admin/v1/corrections/merge", json=body, headers=officer)
    assert answer.status_code == 201, answer.text
    assert impact_of(answer.json()) == MERGE_IMPACT
    # Worked in test_merge's docstring.
    assert entries(database, merges.P1)[merges.IVO] == (1914, 1907, 7, 2, 20)
    assert entries(database, merges.P2)[merges.IVO] == (1909, 1914, -5, 1, 20)
    assert entries(database, merges.P2)[merges.LEA] == (1707, 1702, 5, 1, 20)
    (entry,) = audit_entries(client, tokens["officer1"], "merge")
    assert (entry["actor"], entry["details"]["drop"]) == ("officer1", merges.DUP)

    ours = {p: list_table(exported(capsys, database.url, p)) for p in merges.PERIODS}
    twin.rollback()
    build(capsys, database.url, tmp_path / "twin-db", tournaments=merges.chain(merges.DUP),
          players=merges.PLAYERS, periods=merges.PERIODS)  # fmt: skip
    ok(capsys, "players", "merge", merges.IVO, merges.DUP, "--reason", "x", url=database.url)
    for period in merges.PERIODS:
        assert ours[period] == list_table(exported(capsys, database.url, period)), period


def test_an_imported_list_replaced_through_the_api_as_on_the_command_line(
    client: TestClient, tokens: dict[str, str], database: RolledBack, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    twin = twin_of(database)
    corrected = lists.chain(capsys, database.url, tmp_path / "chain")
    officer = bearer(tokens["officer1"])
    path = f"/admin/v1/corrections/list?category={CATEGORY}&period={BASE}&reason={REASON}"
    before = snapshot(database)
    answer = client.post(f"{path}&dry_run=true&filename=corrected.csv",
                         content=corrected.read_bytes(), headers=officer)  # fmt: skip
    assert answer.status_code == 200, answer.text
    impact = answer.json()
    assert lists.revisions_by_period(impact) == lists.EXPECTED_IMPACT
    assert (impact["summary"]["revision_before"], impact["summary"]["revision"]) == (1, 2)
    assert snapshot(database) == before

    answer = client.post(f"{path}&filename=corrected.csv", content=corrected.read_bytes(),
                         headers=officer)  # fmt: skip
    assert answer.status_code == 201, answer.text
    assert lists.revisions_by_period(answer.json()) == lists.EXPECTED_IMPACT
    # Worked in test_list_replace's docstring.
    assert entries(database, BASE, 2) == lists.BASE_REVISION_2
    assert entries(database, P) == lists.P_REVISION_2
    assert entries(database, P1) == lists.P1_REVISION_2
    (entry,) = audit_entries(client, tokens["officer1"], "correction")
    assert entry["actor"] == "officer1"
    # The uploaded file's name, not the temporary copy's.
    assert (entry["details"]["kind"], entry["details"]["file"]) == ("list-replace", "corrected.csv")

    ours = {period: list_table(exported(capsys, database.url, period)) for period in (P, P1)}
    twin.rollback()
    twin_corrected = lists.chain(capsys, database.url, tmp_path / "twin-chain")
    assert lists.replace(capsys, database.url, twin_corrected, "--reason", REASON)[0] == 0
    for period in (P, P1):
        assert ours[period] == list_table(exported(capsys, database.url, period)), period


def _four_requests(ids: dict[str, str], folder: Path, reason: dict[str, str]) -> list[Any]:
    """(path, JSON body or None, file or None) of each correction, with ``reason`` merged."""
    csv = folder / "T1-corrected.csv"
    csv.write_text(games_csv(T1, {(1, ADA, BEN): "+-"}), encoding="utf-8")
    listed = folder / "list.csv"
    listed.write_text(baseline_csv(lists.CORRECTED), encoding="utf-8")
    query_reason = "".join(f"&{k}={v}" for k, v in reason.items())
    return [
        ("/admin/v1/corrections/game",
         {"tournament": ids["T1"], "round": 1, "white": ADA, "black": BEN, "result": "+-"}
         | reason, None),
        (f"/admin/v1/corrections/tournament/{ids['T1']}?filename=t.csv{query_reason}", None,
         csv.read_bytes()),
        ("/admin/v1/corrections/merge", {"keep": CAL, "drop": DEE} | reason, None),
        (f"/admin/v1/corrections/list?category={CATEGORY}&period={BASE}{query_reason}",
         None, listed.read_bytes()),
    ]  # fmt: skip


def test_no_reason_no_correction_and_officers_only(
    client: TestClient, tokens: dict[str, str], database: RolledBack, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    ids = build(capsys, database.url, tmp_path / "chain", periods=[P])
    before = snapshot(database)
    for reason in ({}, {"reason": ""}, {"reason": "   "}):
        for path, body, content in _four_requests(ids, tmp_path, reason):
            answer = client.post(path, json=body, content=content,
                                 headers=bearer(tokens["officer1"]))  # fmt: skip
            assert answer.status_code == 422, (path, reason, answer.text)
            assert answer.json()["detail"] == "field reason: a correction needs a reason", path
    assert snapshot(database) == before
    for who in ("arbiter1", "admin1"):
        for path, body, content in _four_requests(ids, tmp_path, {"reason": "mine"}):
            answer = client.post(path, json=body, content=content, headers=bearer(tokens[who]))
            assert answer.status_code == 403, (who, path, answer.text)
    assert snapshot(database) == before


# --- the web pages ----------------------------------------------------------------------------


def signed_in(client: TestClient, users: Accounts, username: str) -> str:
    """The client signed in as ``username`` (users made by ``tokens``); the CSRF token."""
    session_id, csrf = users.session(username)
    client.cookies.clear()
    client.cookies.set("ratingdb_session", session_id)
    return csrf


def preview_id(answer: Any) -> str:
    assert answer.status_code == 303, answer.text
    found = re.fullmatch(r"/corrections/previews/(\d+)", answer.headers["location"])
    assert found is not None, answer.headers["location"]
    return found.group(1)


def shown_digest(page: str) -> str:
    found = DIGEST_INPUT.search(page)
    assert found is not None
    return found.group(1)


def current_result(where: Where, white: str, black: str) -> str:
    ((result,),) = query(
        where, "SELECT result FROM games WHERE white_id = :w AND black_id = :b AND superseded_by "
        "IS NULL", w=white, b=black,
    )  # fmt: skip
    return str(result)


def test_a_game_result_through_the_pages(
    client: TestClient, users: Accounts, tokens: dict[str, str], database: RolledBack,
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Form -> impact -> confirm; the preview is the only thing written before the confirm."""
    ids = build(capsys, database.url, tmp_path / "chain")
    for role in ("arbiter1", "admin1"):  # the link is for officers only
        signed_in(client, users, role)
        assert 'href="/corrections"' not in client.get("/").text
    csrf = signed_in(client, users, "officer1")
    home = client.get("/")
    assert 'href="/corrections"' in home.text
    index = client.get("/corrections")
    assert index.status_code == 200
    for slug in ("game", "tournament", "merge", "list"):
        assert f'href="/corrections/{slug}"' in index.text
        form = client.get(f"/corrections/{slug}")
        assert form.status_code == 200
        assert 'name="reason"' in form.text
        assert 'name="csrf_token"' in form.text
    before = snapshot(database, ACCOUNT_TABLES | {"correction_previews"})

    fields = {"csrf_token": csrf, "tournament": ids["T1"], "round": "1", "white": ADA,
              "black": BEN, "result": "+-", "reason": REASON}  # fmt: skip
    number = preview_id(client.post("/corrections/game", data=fields))
    assert snapshot(database, ACCOUNT_TABLES | {"correction_previews"}) == before
    page = client.get(f"/corrections/previews/{number}")
    assert page.status_code == 200
    assert 'id="state">previewed<' in page.text
    assert "1-0 → +-" in page.text
    # Every revision that would change, who and by how much.
    for period, changes in FORFEIT_IMPACT.items():
        assert f"{CATEGORY} {period}: revision 1 → 2" in page.text
        for player, (was, becomes, difference) in changes.items():
            row = (
                f'<td>{player}</td><td>[^<]+</td><td class="num">{was}</td>'
                f'<td class="num">{becomes}</td><td class="num">{difference:+d}</td>'
            )
            assert re.search(re.escape(row).replace(re.escape("[^<]+"), "[^<]+"), page.text), (
                period, player)  # fmt: skip
    # Confirming without the CSRF token: refused, nothing applied.
    digest = shown_digest(page.text)
    refused = client.post(f"/corrections/previews/{number}/confirm", data={"impact_digest": digest})
    assert refused.status_code == 403
    assert current_result(database, ADA, BEN) == "1-0"

    done = client.post(f"/corrections/previews/{number}/confirm",
                       data={"csrf_token": csrf, "impact_digest": digest})  # fmt: skip
    assert done.status_code == 303
    assert done.headers["location"] == f"/corrections/previews/{number}"
    page = client.get(done.headers["location"])
    assert 'id="state">applied<' in page.text
    assert "<h2>New revisions</h2>" in page.text
    ((correction_id, actor),) = query(database, "SELECT id, actor FROM corrections")
    assert actor == "officer1"
    assert f"correction {correction_id}" in page.text
    assert 'id="confirm"' not in page.text
    for period in PERIODS:
        assert ratings(database, period) == forfeit_ratings(period), period
    (entry,) = audit_entries(client, tokens["officer1"], "correction")
    assert entry["actor"] == "officer1"
    # Applied once: a second confirmation is refused.
    again = client.post(f"/corrections/previews/{number}/confirm",
                        data={"csrf_token": csrf, "impact_digest": digest})  # fmt: skip
    assert again.status_code == 409
    assert "already applied" in again.text
    assert query(database, "SELECT count(*) FROM corrections") == [(1,)]


def test_errors_are_shown_on_the_form_with_the_field_named_and_nothing_stored(
    client: TestClient, users: Accounts, tokens: dict[str, str], database: RolledBack,
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    ids = build(capsys, database.url, tmp_path / "chain", periods=[P])
    csrf = signed_in(client, users, "officer1")
    before = snapshot(database)
    game = {"csrf_token": csrf, "tournament": ids["T1"], "round": "1", "white": ADA,
            "black": BEN, "result": "+-", "reason": REASON}  # fmt: skip
    broken = b"tournament,start_date,end_date,round,white_id,black_id,result\nT1,2026-08-10,x\n"
    cases: list[tuple[str, dict[str, str], bytes | None, str, str]] = [
        ("/corrections/game", game | {"tournament": "T999999"}, None, "tournament",
         "field tournament: no tournament T999999"),
        ("/corrections/game", game | {"result": "2-0"}, None, "result", "field result: must be"),
        ("/corrections/game", game | {"round": "one"}, None, "round", "field round: must be"),
        ("/corrections/game", game | {"white": CAL}, None, "white", "field white: tournament"),
        ("/corrections/game", game | {"reason": " "}, None, "reason",
         "field reason: a correction needs a reason"),
        ("/corrections/merge", {"csrf_token": csrf, "keep": ADA, "drop": "3999",
                                "reason": REASON}, None, "drop", "field drop: no player 3999"),
        ("/corrections/tournament", {"csrf_token": csrf, "tournament": ids["T1"],
                                     "reason": REASON}, broken, "file", "bad.csv, line 2"),
        ("/corrections/tournament", {"csrf_token": csrf, "tournament": ids["T1"],
                                     "reason": REASON}, None, "file", "field file: choose"),
        ("/corrections/list", {"csrf_token": csrf, "category": CATEGORY, "period": "2026-12",
                               "reason": REASON}, baseline_csv(lists.CORRECTED).encode(),
         "period", "field period: fide-standard 2026-12 has no published list"),
        ("/corrections/list", {"csrf_token": csrf, "category": CATEGORY, "period": "08/2026",
                               "reason": REASON}, b"x", "period", "field period:"),
    ]  # fmt: skip
    for path, data, content, field, message in cases:
        if path in ("/corrections/tournament", "/corrections/list"):
            files = {"file": ("bad.csv", content or b"")}
            answer = client.post(path, data=data, files=files)
        else:
            answer = client.post(path, data=data)
        assert answer.status_code == 422, (path, field, answer.text[:500])
        assert message in answer.text, (path, field, answer.text[:2000])
        # The field is marked, its value kept (the reason too).
        marked = re.search(rf'name="{field}"[^>]*aria-invalid="true"', answer.text)
        assert marked is not None, (path, field)
        assert "report was wrong</textarea>" in answer.text or field == "reason"
    assert snapshot(database) == before


def test_a_corrected_file_is_kept_for_the_confirmation_and_only_the_impact_shown_applies(
    client: TestClient, users: Accounts, tokens: dict[str, str], database: RolledBack,
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """The confirm form carries no file: the upload is kept with the preview. A correction
    applied in between changes the impact: the confirm then applies nothing and shows the new
    impact, which a second confirm applies."""
    ids = build(capsys, database.url, tmp_path / "chain")
    csrf = signed_in(client, users, "officer1")
    corrected = games_csv(T1, {(1, ADA, BEN): "+-"}).encode()
    data = {"csrf_token": csrf, "tournament": ids["T1"], "reason": REASON}
    number = preview_id(client.post("/corrections/tournament", data=data,
                                    files={"file": ("T1.csv", corrected)}))  # fmt: skip
    page = client.get(f"/corrections/previews/{number}").text
    first = shown_digest(page)
    assert "T1.csv (csv)" in page
    assert query(database, "SELECT content FROM correction_previews") == [(corrected,)]

    # Meanwhile, another officer corrects Cal-Dee (same tournament) through the API.
    other = client.post("/admin/v1/corrections/game", headers=bearer(tokens["officer2"]), json={
        "tournament": ids["T1"], "round": 1, "white": CAL, "black": DEE, "result": "1-0",
        "reason": "Dee resigned"})  # fmt: skip
    assert other.status_code == 201, other.text
    after_other = snapshot(database, ACCOUNT_TABLES | {"correction_previews"})
    changed = client.post(f"/corrections/previews/{number}/confirm",
                          data={"csrf_token": csrf, "impact_digest": first})  # fmt: skip
    assert changed.status_code == 409
    assert "Nothing was applied" in changed.text
    assert "revision 2 → 3" in changed.text
    assert snapshot(database, ACCOUNT_TABLES | {"correction_previews"}) == after_other
    second = shown_digest(changed.text)
    assert second != first
    # The old page's digest no longer confirms anything.
    stale = client.post(f"/corrections/previews/{number}/confirm",
                        data={"csrf_token": csrf, "impact_digest": first})  # fmt: skip
    assert (stale.status_code, "latest impact" in stale.text) == (409, True)

    done = client.post(f"/corrections/previews/{number}/confirm",
                       data={"csrf_token": csrf, "impact_digest": second})  # fmt: skip
    assert done.status_code == 303, done.text[:500]
    # The file replaced T1: Ada-Ben a forfeit; and the replacement is T1.csv as it was, so
    # Cal-Dee is back to a draw.
    assert current_result(database, ADA, BEN) == "+-"
    assert current_result(database, CAL, DEE) == "1/2-1/2"
    assert query(database, "SELECT kind, actor FROM corrections ORDER BY id") == [
        ("game", "officer2"), ("tournament", "officer1")]  # fmt: skip
    for period in PERIODS:
        assert ratings(database, period) == forfeit_ratings(period), period
    # The file is dropped once applied; its digest stays.
    ((content, digest),) = query(database, "SELECT content, file_digest FROM correction_previews")
    assert content is None
    assert re.fullmatch("[0-9a-f]{64}", str(digest))


def test_a_preview_is_its_officers_own_expires_and_can_be_discarded(
    client: TestClient, users: Accounts, tokens: dict[str, str], clock: Clock,
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    ids = build(capsys, database.url, tmp_path / "chain", periods=[P])
    csrf = signed_in(client, users, "officer1")
    fields = {"csrf_token": csrf, "tournament": ids["T1"], "round": "1", "white": ADA,
              "black": BEN, "result": "0-1", "reason": REASON}  # fmt: skip
    kept = preview_id(client.post("/corrections/game", data=fields))
    digest = shown_digest(client.get(f"/corrections/previews/{kept}").text)

    # Another officer neither sees nor confirms it.
    other = signed_in(client, users, "officer2")
    assert client.get(f"/corrections/previews/{kept}").status_code == 404
    answer = client.post(f"/corrections/previews/{kept}/confirm",
                         data={"csrf_token": other, "impact_digest": digest})  # fmt: skip
    assert answer.status_code == 404
    assert current_result(database, ADA, BEN) == "1-0"

    # Discarded: nothing applied, no more confirmable.
    csrf = signed_in(client, users, "officer1")
    dropped = preview_id(client.post("/corrections/game", data=fields | {"csrf_token": csrf}))
    answer = client.post(f"/corrections/previews/{dropped}/discard", data={"csrf_token": csrf})
    assert (answer.status_code, answer.headers["location"]) == (303, "/corrections")
    assert query(database, "SELECT actor, channel FROM audit_log WHERE action = "
                 "'correction-preview-discard'") == [("officer1", "web")]  # fmt: skip
    answer = client.post(f"/corrections/previews/{dropped}/confirm",
                         data={"csrf_token": csrf, "impact_digest": digest})  # fmt: skip
    assert (answer.status_code, "already discarded" in answer.text) == (409, True)

    # A day later the first one has expired.
    clock.advance(hours=24, seconds=1)
    csrf = signed_in(client, users, "officer1")
    assert 'id="state">expired<' in client.get(f"/corrections/previews/{kept}").text
    answer = client.post(f"/corrections/previews/{kept}/confirm",
                         data={"csrf_token": csrf, "impact_digest": digest})  # fmt: skip
    assert (answer.status_code, "over 24 hours old" in answer.text) == (409, True)
    assert current_result(database, ADA, BEN) == "1-0"
    assert query(database, "SELECT count(*) FROM corrections") == [(0,)]
    # A new preview marks the expired one so and drops what it kept.
    preview_id(client.post("/corrections/game", data=fields | {"csrf_token": csrf}))
    assert query(database, f"SELECT state FROM correction_previews WHERE id = {int(kept)}") == [
        ("expired",)
    ]
    index = client.get("/corrections").text
    assert index.count('class="state expired"') == 1
    assert index.count('class="state discarded"') == 1
    assert index.count('class="state previewed"') == 1


def test_corrected_files_over_the_upload_limit_are_refused(
    client: TestClient, users: Accounts, tokens: dict[str, str], database: RolledBack,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """The upload limit of submissions (20 MB; 1,000 bytes here): 413, nothing kept."""
    monkeypatch.setattr(uploads, "MAX_UPLOAD_BYTES", 1000)
    big = b"x" * 1001
    csrf = signed_in(client, users, "officer1")  # signing in is audited: before the snapshot
    before = snapshot(database)
    officer = bearer(tokens["officer1"])
    listed = f"/admin/v1/corrections/list?category={CATEGORY}&period={BASE}&reason=r"
    for path in ("/admin/v1/corrections/tournament/T000001?reason=r", listed):
        assert client.post(path, content=big, headers=officer).status_code == 413, path
        as_form = client.post(path, files={"file": ("big.csv", big)}, headers=officer)
        assert as_form.status_code == 413, path
    for path in ("/corrections/tournament", "/corrections/list"):
        answer = client.post(path, data={"csrf_token": csrf, "reason": "r"},
                             files={"file": ("big.csv", big)})  # fmt: skip
        assert answer.status_code == 413, path
    assert snapshot(database) == before


def test_the_corrections_api_is_documented(client: TestClient, tokens: dict[str, str]) -> None:
    document = client.get("/admin/v1/openapi.json", headers=bearer(tokens["officer1"])).json()
    paths = document["paths"]
    for path in ("/admin/v1/corrections/game", "/admin/v1/corrections/tournament/{tournament_id}",
                 "/admin/v1/corrections/merge", "/admin/v1/corrections/list"):  # fmt: skip
        assert "post" in paths[path], path
    game = paths["/admin/v1/corrections/game"]["post"]["requestBody"]["content"]
    schema = game["application/json"]["schema"]
    assert set(schema["required"]) == {"tournament", "round", "white", "black", "result", "reason"}
    names = {p["name"] for p in paths["/admin/v1/corrections/list"]["post"]["parameters"]}
    assert {"category", "period", "reason", "format", "dry_run"} <= names
    assert json.dumps(document)  # serialisable
