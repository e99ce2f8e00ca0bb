"""The public app's ``/metrics``, on SQLite and PostgreSQL: each request counted once under the
template of its route (never the path asked for), HEAD as HEAD, a path no route serves as
``unmatched``; nothing a request chose (a player id) in the answer; a 404 with
``RATINGDB_METRICS=0``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.config import Settings
from tests.support.metrics import samples, value

REQUESTS = "ratingdb_http_requests_total"
SECONDS_COUNT = "ratingdb_http_request_duration_seconds_count"
PLAYER = "/v1/players/{player_id}"


@pytest.fixture
def fresh(scenario_url: str) -> Iterator[TestClient]:
    """A new app on the scenario: its figures start from nothing."""
    settings = Settings(database_url=scenario_url, read_database_url=scenario_url)
    with TestClient(create_app(settings)) as client:
        yield client


def test_requests_are_counted_by_route_template(fresh: TestClient) -> None:
    before = fresh.get("/metrics")
    assert before.status_code == 200
    assert before.headers["content-type"].startswith("text/plain")
    assert before.headers["cache-control"] == "no-store"
    assert value(before.text, REQUESTS, method="GET", route=PLAYER, status="200") == 0

    players = ("1001", "1002", "1003")
    for player in players:
        assert fresh.get(f"/v1/players/{player}").status_code == 200
    assert fresh.get("/v1/players/9999999").status_code == 404
    assert fresh.head("/v1/players/1001").status_code == 200
    assert fresh.get("/no/such/page/1001").status_code == 404
    assert fresh.post("/v1/players/1001").status_code == 405
    assert fresh.get("/static/ratingdb.css").status_code == 200

    text = fresh.get("/metrics").text
    assert value(text, REQUESTS, method="GET", route=PLAYER, status="200") == len(players)
    assert value(text, REQUESTS, method="GET", route=PLAYER, status="404") == 1
    assert value(text, REQUESTS, method="HEAD", route=PLAYER, status="200") == 1
    assert value(text, REQUESTS, method="POST", route=PLAYER, status="405") == 1
    assert value(text, REQUESTS, method="GET", route="unmatched", status="404") == 1
    assert value(text, REQUESTS, method="GET", route="/static", status="200") == 1
    # Timed once each: three found, one not.
    assert value(text, SECONDS_COUNT, method="GET", route=PLAYER) == len(players) + 1
    # The first scrape counted, as any request (the second is answered before it is counted).
    assert value(text, REQUESTS, method="GET", route="/metrics", status="200") == 1
    # Nothing the requests chose in a label: no player id, no path.
    labels = {label for _, pairs in samples(text) for _, label in pairs}
    for chosen in ("1001", "9999999", "/no/such", "ratingdb.css"):
        assert not [label for label in labels if chosen in label]


def test_the_process_figures_are_there(fresh: TestClient) -> None:
    text = fresh.get("/metrics").text
    assert value(text, "process_cpu_seconds_total") > 0
    # The back office's work figures are not the public app's.
    assert "ratingdb_list_write" not in text


def test_turned_off_it_is_a_404_and_nothing_is_counted(scenario_url: str) -> None:
    settings = Settings(database_url=scenario_url, read_database_url=scenario_url, metrics=False)
    app = create_app(settings)
    with TestClient(app) as client:
        answer = client.get("/metrics")
        assert answer.status_code == 404
        assert answer.json() == {"detail": "metrics are turned off (RATINGDB_METRICS=0)"}
    assert "RequestMetrics" not in [m.cls.__name__ for m in app.user_middleware]  # type: ignore[attr-defined]


def test_not_in_the_api_documentation(fresh: TestClient) -> None:
    assert "/metrics" not in fresh.get("/openapi.json").json()["paths"]
