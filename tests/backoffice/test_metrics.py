"""The back office's ``/metrics``, on SQLite and PostgreSQL: its requests counted by route
template; a close (an officer's approval) counted once, with the players of the list worked by
hand (tests/support/publication.py) and exactly the rows the database holds for it; a
correction's cascade counted the same way; open to a scraper without credentials, and no more
than counts; a 404 with ``RATINGDB_METRICS=0``."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ratingdb.backoffice.app import create_app
from ratingdb.config import Settings
from tests.backoffice.conftest import Accounts, Clock
from tests.support import publication as case
from tests.support.calculations import calculation_count
from tests.support.metrics import samples, value
from tests.support.rolled_back import RolledBack

PREVIEW = f"/admin/v1/periods/{case.CATEGORY}/{case.PERIOD}/preview"
APPROVE = f"/admin/v1/periods/{case.CATEGORY}/{case.PERIOD}/approve"
REQUESTS = "ratingdb_http_requests_total"
CLOSE = {"operation": "close", "category": case.CATEGORY}
CASCADE = {"operation": "cascade", "category": case.CATEGORY}
#: Where a list's rows go (ratingdb.services.close.output.publish): what "rows written" counts,
#: with its calculations (player_calculations) counted a game each, as the close counts them
#: (ratingdb.repositories.list_storage.changes.write_calculations), not a row a player.
LIST_TABLES = ("list_entries", "player_status", "list_chunks", "revised_players")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def work(client: TestClient, **labels: str) -> dict[str, float]:
    """The close or cascade figures of ``labels``, scraped."""
    text = client.get("/metrics").text
    return {
        "count": value(text, "ratingdb_list_write_duration_seconds_count", **labels),
        "lists": value(text, "ratingdb_list_write_lists_total", **labels),
        "entries": value(text, "ratingdb_list_write_entries_total", **labels),
        "rows": value(text, "ratingdb_list_write_rows_total", **labels),
    }


def grew(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {name: after[name] - before[name] for name in before}


def rows_of_revision(database: RolledBack, revision: int) -> int:
    """The rows the database holds for that revision of the case's list, table by table, a
    calculation counted as a row."""
    (list_id,) = database.rows(
        "SELECT id FROM rating_lists WHERE category = :category AND list_date = '2026-12-01' "
        "AND revision = :revision",
        category=case.CATEGORY,
        revision=revision,
    )[0]
    stored = sum(
        int(database.rows(f"SELECT count(*) FROM {table} WHERE list_id = :l", l=list_id)[0][0])
        for table in LIST_TABLES
    )
    return stored + calculation_count(database.connection, "c.list_id = :list_id", list_id=list_id)


@pytest.fixture
def officer(users: Accounts) -> dict[str, str]:
    users.add("officer1", "officer")
    return bearer(users.token("officer1"))


def test_requests_are_counted_by_route_template(client: TestClient) -> None:
    for submission in ("S1", "S2"):
        answer = client.get(f"/admin/v1/submissions/{submission}")
        assert answer.status_code == 401
    assert client.get("/login").status_code == 200
    text = client.get("/metrics").text
    route = "/admin/v1/submissions/{submission_id}"
    assert value(text, REQUESTS, method="GET", route=route, status="401") == 2
    assert value(text, REQUESTS, method="GET", route="/login", status="200") == 1
    labels = {label for _, pairs in samples(text) for _, label in pairs}
    assert not [label for label in labels if "S1" in label or "S2" in label]


def test_open_to_a_scraper_and_only_counts(client: TestClient, officer: dict[str, str]) -> None:
    """No credentials needed (policy.PUBLIC), no cookie set, GET only; nothing but figures."""
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert "set-cookie" not in answer.headers
    assert answer.headers["cache-control"] == "no-store"
    assert client.post("/metrics").status_code in (403, 405)
    labels = {label for _, pairs in samples(answer.text) for _, label in pairs}
    assert not [label for label in labels if "officer1" in label]


def test_a_close_is_counted_with_its_entries_and_rows(
    client: TestClient,
    officer: dict[str, str],
    database: RolledBack,
    tmp_path: Path,
) -> None:
    case.prepare(database.url, tmp_path)
    before = work(client, **CLOSE)
    digest = client.get(PREVIEW, headers=officer).json()["digest"]
    assert client.get(PREVIEW, headers=officer).status_code == 200  # previews write no list
    approved = client.post(APPROVE, json={"digest": digest}, headers=officer)
    assert approved.status_code == 200, approved.text
    closed = grew(before, work(client, **CLOSE))
    case.assert_worked_by_hand()
    assert closed == {
        "count": 1,
        "lists": 1,
        "entries": case.EXPECTED_ENTRIES,
        "rows": rows_of_revision(database, 1),
    }
    assert closed["rows"] > case.EXPECTED_ENTRIES  # the calculations and the chunk too


def test_a_cascade_is_counted_with_its_lists_and_rows(
    client: TestClient,
    officer: dict[str, str],
    database: RolledBack,
    tmp_path: Path,
) -> None:
    case.prepare(database.url, tmp_path)
    digest = client.get(PREVIEW, headers=officer).json()["digest"]
    assert client.post(APPROVE, json={"digest": digest}, headers=officer).status_code == 200
    before_close, before = work(client, **CLOSE), work(client, **CASCADE)
    body = {"tournament": "T000001", "round": 1, "white": "1001", "black": "1002",
            "result": "0-1", "reason": "result sheet misread"}  # fmt: skip
    dry = client.post("/admin/v1/corrections/game", json=body | {"dry_run": True}, headers=officer)
    assert dry.status_code == 200, dry.text
    assert work(client, **CASCADE) == before  # a dry run computes its impact, writes no list
    corrected = client.post("/admin/v1/corrections/game", json=body, headers=officer)
    assert corrected.status_code == 201, corrected.text
    assert [(r["period"], r["to_revision"]) for r in corrected.json()["revisions"]] == [
        (case.PERIOD, 2)]  # fmt: skip
    assert grew(before, work(client, **CASCADE)) == {
        "count": 1,
        "lists": 1,
        "entries": case.EXPECTED_ENTRIES,  # the same five players, other ratings
        "rows": rows_of_revision(database, 2),
    }
    assert work(client, **CLOSE) == before_close  # a cascade is no close


def test_turned_off_it_is_a_404(database: RolledBack, clock: Clock) -> None:
    app = create_app(
        Settings(database_url=database.url, metrics=False), clock=clock, sessions=database.sessions
    )
    with TestClient(app) as client:
        answer = client.get("/metrics")
    assert answer.status_code == 404
    assert answer.json() == {"detail": "metrics are turned off (RATINGDB_METRICS=0)"}
