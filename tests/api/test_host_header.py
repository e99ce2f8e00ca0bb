"""No response of either app carries the request's Host header (issue 25), on both databases.

The Host header is the client's to choose: a link or a redirect built from it sends people
(or, through a cache that kept the answer, everyone) wherever an attacker said. Every request
here says ``Host: evil.example``:

- a path with a trailing slash answers 404, not Starlette's 307 to ``http://<Host>/path``
  (``redirect_slashes``), for every route of the public app and of the back office;
- the back office's own redirects (sign-in required, sign-in, sign-out) are relative.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ratingdb.backoffice.app import create_app as create_backoffice
from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.services import accounts
from tests.api.scenario import TOURNAMENTS

EVIL = "evil.example"
FORGED = {"Host": EVIL}
#: A value for each path parameter of the routes: one the scenario has.
PARAMETERS = {
    "category": "fide-standard",
    "period": "2026-11",
    "player_id": "1001",
    "tournament_id": TOURNAMENTS["A"],
    "username": "officer1",
    "submission_id": "1",
    "preview_id": "1",
    "path": "ratingdb.css",
}
PASSWORD = "correct horse battery staple"


def not_from_the_host(response: Any, path: str) -> None:
    """Neither a header nor the body names the forged host."""
    for name, value in response.headers.items():
        assert EVIL not in value, (path, name, value)
    assert EVIL not in response.text, path


def route_paths(app: FastAPI) -> set[str]:
    """Every route's path, its parameters filled in (the public app's routers are included
    as they are: their routes are read from each)."""

    def walk(routes: list[Any]) -> Iterator[str]:
        for route in routes:
            if hasattr(route, "original_router"):
                yield from walk(route.original_router.routes)
            elif hasattr(route, "path"):
                yield route.path

    filled = set()
    for path in walk(app.routes):
        filled.add(re.sub(r"\{(\w+)(?::\w+)?\}", lambda m: PARAMETERS[m.group(1)], path))
    return filled


def test_no_public_route_redirects_to_the_host(corrected_client: TestClient) -> None:
    paths = route_paths(corrected_client.app)  # type: ignore[arg-type]
    assert {"/lists", "/feeds/lists.atom", "/v1/lists/fide-standard/2026-11/diff"} <= paths
    for path in sorted(paths):
        if path.startswith("/static") or path == "/feeds/lists.atom":  # the feed: its own fix
            continue
        # The route itself: nothing built from the Host header.
        answer = corrected_client.get(path, headers=FORGED, follow_redirects=False)
        assert answer.status_code in (200, 404, 422), (path, answer.status_code)
        assert "location" not in answer.headers, path
        not_from_the_host(answer, path)
        if path == "/":
            continue
        # With a trailing slash: no 307 to http://evil.example/path, a 404.
        slashed = corrected_client.get(f"{path}/", headers=FORGED, follow_redirects=False)
        assert slashed.status_code == 404, (path, slashed.status_code, slashed.headers)
        assert "location" not in slashed.headers, path
        not_from_the_host(slashed, f"{path}/")
    for path in ("/static/ratingdb.css/", "/static/"):
        answer = corrected_client.get(path, headers=FORGED, follow_redirects=False)
        assert answer.status_code in (200, 404), path  # StaticFiles: the file, or nothing
        assert "location" not in answer.headers, path
        not_from_the_host(answer, path)


@pytest.fixture
def backoffice(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The back office on an empty database with officer1 (cheap argon2id parameters: the
    hashing is not what is tested)."""
    monkeypatch.setattr(
        accounts, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    )
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            accounts.add_user(session, "officer1", "officer", PASSWORD, actor="test",
                              now=datetime.now(UTC))  # fmt: skip
    finally:
        engine.dispose()
    app = create_backoffice(Settings(database_url=database_url))
    with TestClient(app, follow_redirects=False) as client:
        yield client


def test_no_backoffice_route_redirects_to_the_host(backoffice: TestClient) -> None:
    paths = route_paths(backoffice.app)  # type: ignore[arg-type]
    assert {"/login", "/corrections/game", "/admin/v1/audit"} <= paths
    for path in sorted(paths - {"/"}):
        for method in ("GET", "POST"):
            slashed = backoffice.request(method, f"{path}/", headers=FORGED)
            assert slashed.status_code == 404, (method, path, slashed.status_code)
            assert "location" not in slashed.headers, (method, path)
            not_from_the_host(slashed, f"{path}/")

    # Signed out: a page sends to the sign-in page, by a relative address.
    home = backoffice.get("/", headers=FORGED)
    assert (home.status_code, home.headers["location"]) == (303, "/login")
    # Signing in and out.
    form = backoffice.get("/login", headers=FORGED)
    not_from_the_host(form, "/login")
    found = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert found is not None
    fields = {"username": "officer1", "password": PASSWORD, "csrf_token": found.group(1)}
    signed_in = backoffice.post("/login", data=fields, headers=FORGED)
    assert (signed_in.status_code, signed_in.headers["location"]) == (303, "/"), signed_in.text
    not_from_the_host(signed_in, "POST /login")
    # Signed in: every page of the officer, then the sign-out.
    for path in ("/", "/corrections", "/corrections/game", "/submissions", "/publication"):
        page = backoffice.get(path, headers=FORGED)
        assert page.status_code == 200, (path, page.status_code)
        not_from_the_host(page, path)
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', backoffice.get("/").text)
    assert csrf is not None
    out = backoffice.post("/logout", data={"csrf_token": csrf.group(1)}, headers=FORGED)
    assert (out.status_code, out.headers["location"]) == (303, "/login"), out.text
    not_from_the_host(out, "POST /logout")
