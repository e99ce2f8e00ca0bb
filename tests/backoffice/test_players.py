"""Players in the back office (issue 28 item 2), on SQLite and PostgreSQL: an officer searches
them (the public search: accents, case and order aside), opens a record with its ratings, edits
it with a reason (audited with the values before and after), is refused naming the field, and
gets 409 when another officer saved the record first or the FIDE id is another player's; the
same through /admin/v1/players."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text

from ratingdb.db import make_sessionmaker
from ratingdb.errors import InputError
from ratingdb.services import player_records
from tests.backoffice.conftest import Accounts, Clock
from tests.support import factories
from tests.support.cli import cli_ok
from tests.support.rolled_back import RolledBack
from tests.support.sql import query

#: Anna with an accent and a title, so that the search shows it ignores both.
ANNA = '1001,"Ånna, Petra",FRA,F,1990,WFM,1850,60,1850,20'
PLAYERS = (ANNA, factories.BOB, factories.GUS)
VERSION = re.compile(r'name="version" value="([0-9a-f]{16})"')


@pytest.fixture
def listed(database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    list_players(database.url, tmp_path, capsys)


def list_players(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The fide-standard list of 2026-08 with Anna (1850), Bob (1920) and Gus (1780)."""
    path = tmp_path / "list.csv"
    path.write_text(factories.list_csv(*PLAYERS), encoding="utf-8")
    cli_ok(capsys, "lists", "import", str(path), "--category", "fide-standard", "--period",
           "2026-08", "--actor", "test", url=url)  # fmt: skip


def _officer(client: TestClient, users: Accounts, name: str = "officer1") -> str:
    users.add(name, "officer")
    session_id, csrf = users.session(name)
    client.cookies.set("ratingdb_session", session_id)
    return csrf


def _form(client: TestClient, player_id: str) -> dict[str, str]:
    page = client.get(f"/players/{player_id}")
    assert page.status_code == 200
    found = VERSION.search(page.text)
    assert found is not None
    return {"version": found.group(1)}


def _audited(where: RolledBack | str) -> list[dict[str, Any]]:
    """The player edits' audit details: in the test's transaction, or in the database at a
    URL (a test's own)."""
    statement = "SELECT details FROM audit_log WHERE action = 'player-edit' ORDER BY id"
    rows = where.rows(statement) if isinstance(where, RolledBack) else query(where, statement)
    return [json.loads(d) if isinstance(d, str) else d for (d,) in rows]


@pytest.mark.usefixtures("listed")
def test_search_finds_whatever_the_accents_case_and_order(
    client: TestClient, users: Accounts
) -> None:
    _officer(client, users)
    for search in ("petra anna", "ANNA", "Ånna, P"):
        page = client.get("/players", params={"q": search})
        assert page.status_code == 200
        assert '<a href="/players/1001">Ånna, Petra</a>' in page.text, search
        assert "1 player match" in page.text
        assert "/players/1002" not in page.text
    every = client.get("/players")
    assert "3 players." in every.text
    # By id, with its rating on the latest list.
    headers = {"Authorization": f"Bearer {users.token('officer1')}"}
    by_id = client.get("/admin/v1/players", params={"q": "1002"}, headers=headers)
    assert by_id.status_code == 200
    assert by_id.json() == {
        "total": 1,
        "players": [{"player_id": "1002", "name": "Bob, B", "federation": "FRA", "sex": "M",
                     "birth_year": 1985, "title": None,
                     "ratings": [{"category": "fide-standard", "period": "2026-08",
                                  "rating": 1920}]}],
    }  # fmt: skip
    refused = client.get("/admin/v1/players", params={"limit": "0"}, headers=headers)
    assert refused.status_code == 422
    assert client.get("/players", params={"page": "x"}).status_code == 422


@pytest.mark.usefixtures("listed")
def test_paginated(client: TestClient, users: Accounts, monkeypatch: pytest.MonkeyPatch) -> None:
    from ratingdb.backoffice import player_pages

    monkeypatch.setattr(player_pages, "PAGE_SIZE", 2)
    _officer(client, users)
    first = client.get("/players")
    # By name: Bob, Gus, Ånna (Å after the ASCII letters as the name is stored and sorted).
    assert "3 players, page 1 of 2." in first.text
    assert 'href="/players?q=&amp;page=2" rel="next"' in first.text
    second = client.get("/players", params={"page": "2"})
    assert second.text.count('<a href="/players/') == 1
    assert 'rel="prev"' in second.text


@pytest.mark.usefixtures("listed")
def test_an_officer_edits_a_record_audited(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    csrf = _officer(client, users)
    page = client.get("/players/1001")
    assert "<dt>Federation</dt><dd>FRA</dd>" in page.text
    assert '<td>fide-standard</td><td>2026-08</td><td class="num">1850</td>' in page.text
    assert 'href="/players/1001" id="public-link"' in page.text
    form = _form(client, "1001") | {"csrf_token": csrf}
    form |= {"name": "Anna, Petra", "sex": "F", "birth_date": "1990-03-04", "birth_year": "",
             "fide_id": "25012345", "federation": "ger", "title": "WIM",
             "national_federation": "", "national_id": "",
             "reason": "  passport seen  "}  # fmt: skip
    saved = client.post("/players/1001", data=form)
    assert saved.status_code == 303
    assert saved.headers["location"] == "/players/1001?saved=1"
    ((*stored, born, year),) = database.rows(
        "SELECT name, search_name, federation, title, fide_id, birth_date, birth_year "
        "FROM players WHERE player_id = '1001'",
    )
    assert stored == ["Anna, Petra", "anna petra", "GER", "WIM", "25012345"]
    assert (str(born), year) == ("1990-03-04", 1990)
    assert _audited(database) == [
        {"player": "1001", "name": "Anna, Petra",
         "changes": {"name": {"before": "Ånna, Petra", "after": "Anna, Petra"},
                     "birth_date": {"before": None, "after": "1990-03-04"},
                     "fide_id": {"before": None, "after": "25012345"},
                     "federation": {"before": "FRA", "after": "GER"},
                     "title": {"before": "WFM", "after": "WIM"}},
         "reason": "passport seen"},
    ]  # fmt: skip
    audit = client.get("/audit")
    assert "player record edited" in audit.text
    assert "federation from FRA to GER" in audit.text
    assert "birth date from none to 1990-03-04" in audit.text
    # The search finds the new name.
    assert "1 player match" in client.get("/players", params={"q": "anna"}).text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("name", "  ", "name: a player has a name"),
        ("sex", "X", "sex: must be M or F"),
        ("birth_date", "1990-02-30", "birth_date: a date YYYY-MM-DD"),
        ("birth_date", "2027-01-01", "birth_date: 2027-01-01 is after today (2026-12-01)"),
        ("birth_year", "1849", "birth_year: between 1850 and 2026"),
        ("fide_id", "0123", "fide_id: a FIDE id is 1 to 11 digits"),
        ("fide_id", "123456789012", "fide_id: a FIDE id is 1 to 11 digits"),
        ("federation", "FR", "federation: must be a 3-letter code"),
        ("title", "XM", "title: must be one of GM, IM"),
        ("national_id", "A 1", "national_id: 1 to 20 letters"),
        ("reason", "", "reason: say why"),
    ],
)
@pytest.mark.usefixtures("listed")
def test_bad_values_are_refused_naming_the_field(
    client: TestClient, users: Accounts, database: RolledBack, field: str, value: str, message: str
) -> None:
    csrf = _officer(client, users)
    form = _form(client, "1001") | {"csrf_token": csrf, "name": "Anna", "reason": "why"}
    form[field] = value
    refused = client.post("/players/1001", data=form)
    assert refused.status_code == 422
    assert f"field {message}" in refused.text
    assert '<label class="invalid">' in refused.text
    assert database.rows("SELECT name FROM players WHERE player_id = '1001'") == [("Ånna, Petra",)]
    assert _audited(database) == []


@pytest.mark.usefixtures("listed")
def test_a_fide_id_or_national_id_of_another_player_is_a_409(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    csrf = _officer(client, users)
    first = _form(client, "1002") | {"csrf_token": csrf, "fide_id": "25000001",
                                      "national_federation": "FRA", "national_id": "A123",
                                      "reason": "ids"}  # fmt: skip
    assert client.post("/players/1002", data=first).status_code == 303
    second = _form(client, "1001") | {"csrf_token": csrf, "fide_id": "25000001", "reason": "x"}
    refused = client.post("/players/1001", data=second)
    assert refused.status_code == 409
    assert "field fide_id: FIDE id 25000001 is player 1002" in refused.text
    # A FIDE id that is another player's player id (a list CSV names players by it) too.
    third = _form(client, "1001") | {"csrf_token": csrf, "fide_id": "1003", "reason": "x"}
    assert "FIDE id 1003 is player 1003" in client.post("/players/1001", data=third).text
    token = users.token("officer1")
    body = {"version": _form(client, "1001")["version"], "reason": "x",
            "national_federation": "fra", "national_id": "A123"}  # fmt: skip
    api = client.post("/admin/v1/players/1001", json=body,
                      headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    assert api.status_code == 409
    assert api.json()["field"] == "national_id"
    assert "national id FRA A123 is player 1002" in api.json()["detail"]
    assert len(_audited(database)) == 1


@pytest.mark.usefixtures("listed")
def test_the_second_of_two_edits_from_one_version_is_a_409(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    csrf = _officer(client, users)
    opened = _form(client, "1001")
    first = opened | {"csrf_token": csrf, "federation": "GER", "reason": "transfer"}
    assert client.post("/players/1001", data=first).status_code == 303
    second = opened | {"csrf_token": csrf, "title": "WIM", "reason": "title"}
    refused = client.post("/players/1001", data=second)
    assert refused.status_code == 409
    assert "was changed since you opened it" in refused.text
    # The form shows the record as it is now, with its new version.
    assert 'name="federation" value="GER"' in refused.text
    assert VERSION.search(refused.text).group(1) != opened["version"]  # type: ignore[union-attr]
    assert database.rows("SELECT federation, title FROM players WHERE player_id = '1001'") == [
        ("GER", "WFM")
    ]


@pytest.mark.usefixtures("listed")
def test_the_api_twin(client: TestClient, users: Accounts, database: RolledBack) -> None:
    users.add("officer1", "officer")
    headers = {"Authorization": f"Bearer {users.token('officer1')}"}
    shown = client.get("/admin/v1/players/1003", headers=headers).json()
    assert shown["name"] == "Gus, G"
    assert shown["ratings"] == [{"category": "fide-standard", "period": "2026-08",
                                 "rating": 1780}]  # fmt: skip
    body = {"version": shown["version"], "reason": "birth certificate", "birth_date": "1980-05-06"}
    edited = client.post("/admin/v1/players/1003", json=body, headers=headers)
    assert edited.status_code == 200
    assert (edited.json()["birth_date"], edited.json()["birth_year"]) == ("1980-05-06", 1980)
    assert edited.json()["federation"] == "FRA"  # absent: kept
    again = client.post("/admin/v1/players/1003", json=body, headers=headers)
    assert again.status_code == 409
    assert again.json()["field"] == "version"
    same = client.post("/admin/v1/players/1003", headers=headers,
                       json=body | {"version": edited.json()["version"]})  # fmt: skip
    assert same.status_code == 422
    assert "field fields: nothing changes" in same.json()["detail"]
    assert client.get("/admin/v1/players/9999", headers=headers).status_code == 404
    _officer(client, users, "officer2")
    missing = client.get("/players/9999")
    assert missing.status_code == 404
    assert "no player 9999" in missing.text
    assert _audited(database) == [
        {"player": "1003", "name": "Gus, G",
         "changes": {"birth_date": {"before": None, "after": "1980-05-06"}},
         "reason": "birth certificate"},
    ]  # fmt: skip


@pytest.mark.usefixtures("listed")
def test_a_merged_record_is_not_edited(database: RolledBack, clock: Clock) -> None:
    with database.sessions.begin() as session:
        session.execute(text("UPDATE players SET merged_into = '1002' WHERE player_id = '1003'"))
    with database.sessions.begin() as session:
        version = player_records.record(session, "1003").version
        with pytest.raises(InputError, match="merged into 1002") as refused:
            player_records.edit(session, "1003", {"name": "G"}, reason="x", version=version,
                                actor="o", now=clock())  # fmt: skip
    assert refused.value.field == "player_id"


def test_two_officers_at_once_one_wins_the_other_409(
    engine: Engine, clock: Clock, database_url: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """Two edits of Bob from the same version, in two transactions at once (on PostgreSQL the
    second waits on the first's row lock, then sees the new version): one saved, one 409. Two
    connections racing: on a database of the test's own."""
    list_players(database_url, tmp_path, capsys)
    with make_sessionmaker(engine).begin() as session:
        version = player_records.record(session, "1002").version
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def officer(federation: str) -> None:
        sessions = make_sessionmaker(engine)
        try:
            with sessions.begin() as session:
                barrier.wait()
                player_records.edit(session, "1002", {"federation": federation}, reason="x",
                                    version=version, actor=federation, now=clock())  # fmt: skip
            outcomes.append("saved")
        except player_records.RecordChanged:
            outcomes.append("409")
        except Exception as error:  # SQLite's busy writer: told, not hidden
            outcomes.append(type(error).__name__)

    threads = [threading.Thread(target=officer, args=(f,)) for f in ("GER", "ITA")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["409", "saved"]
    (federation,) = query(database_url, "SELECT federation FROM players WHERE player_id = '1002'")
    assert federation[0] in ("GER", "ITA")
    assert len(_audited(database_url)) == 1


@pytest.mark.usefixtures("listed")
def test_a_dated_transfer_and_standing_through_the_page_and_the_api(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    csrf = _officer(client, users)
    form = _form(client, "1002") | {
        "csrf_token": csrf, "federation": "GER", "federation_from": "2026-09-15",
        "status": "suspended", "status_from": "2026-09-01", "reason": "FIDE notices",
    }  # fmt: skip
    assert client.post("/players/1002", data=form).status_code == 303
    page = client.get("/players/1002")
    assert '<dd id="standing">suspended</dd>' in page.text
    assert "<tr><td>Federation</td><td>1900-01-01</td><td>FRA</td></tr>" in page.text
    assert "<tr><td>Federation</td><td>2026-09-15</td><td>GER</td></tr>" in page.text
    assert "<tr><td>Standing</td><td>2026-09-01</td><td>suspended</td></tr>" in page.text
    headers = {"Authorization": f"Bearer {users.token('officer1')}"}
    shown = client.get("/admin/v1/players/1002", headers=headers).json()
    assert (shown["federation"], shown["status"]) == ("GER", "suspended")
    assert shown["history"] == {
        "federation": [{"from": "1900-01-01", "federation": "FRA"},
                       {"from": "2026-09-15", "federation": "GER"}],
        "title": [],
        "status": [{"from": "2026-09-01", "status": "suspended"}],
    }  # fmt: skip
    (details,) = _audited(database)
    assert details["changes"] == {"federation": {"before": "FRA", "after": "GER"},
                                  "status": {"before": "active", "after": "suspended"}}  # fmt: skip
    assert details["effective_from"] == {"federation": "2026-09-15", "status": "2026-09-01"}
    # A standing reaching back to the list of 2026-08 (published) is refused on the form.
    again = _form(client, "1003") | {"csrf_token": csrf, "status": "deceased",
                                     "status_from": "2026-08-01", "reason": "x"}  # fmt: skip
    refused = client.post("/players/1003", data=again)
    assert refused.status_code == 422
    assert "field status_from: lists up to 2026-08-01 are published" in refused.text
