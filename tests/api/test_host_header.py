"""No response of either app carries the request's Host header (issue 25), on both databases.

The Host header is the client's to choose: a link or a redirect built from it sends people
(or, through a cache that kept the answer, everyone) wherever an attacker said. Every request
here says ``Host: evil.example``:

- the Atom feed builds its links and ids from ``RATINGDB_PUBLIC_BASE_URL`` when it is set, and
  without it gives links relative to the feed and ``urn:ratingdb:`` ids;
- a path with a trailing slash answers 404, not Starlette's 307 to ``http://<Host>/path``
  (``redirect_slashes``), for every route of the public app and of the back office;
- the back office's own redirects (sign-in required, sign-in, sign-out) are relative.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from xml.etree import ElementTree

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.backoffice.app import create_app as create_backoffice
from ratingdb.config import ConfigurationError, Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.services import accounts, passwords
from tests.api.scenario import TOURNAMENTS

EVIL = "evil.example"
FORGED = {"Host": EVIL}
ATOM = "{http://www.w3.org/2005/Atom}"
BASE = "https://ratings.example.org"
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
    "page": "1",
    "title": "IM",
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


def feed(client: TestClient) -> ElementTree.Element:
    response = client.get("/feeds/lists.atom", headers=FORGED)
    assert response.status_code == 200
    not_from_the_host(response, "/feeds/lists.atom")
    return ElementTree.fromstring(response.content)


def links_and_ids(root: ElementTree.Element) -> tuple[list[str], list[str]]:
    links = [str(link.get("href")) for link in root.iter(f"{ATOM}link")]
    ids = [element.text or "" for element in root.iter(f"{ATOM}id")]
    return links, ids


def test_the_feed_links_to_the_public_base_url(corrected_url: str) -> None:
    settings = Settings.from_env(
        {"RATINGDB_PUBLIC_BASE_URL": f"{BASE}/"}, database_url=corrected_url
    )
    settings = Settings(
        database_url=corrected_url, read_database_url=corrected_url,
        public_base_url=settings.public_base_url,
    )  # fmt: skip
    with TestClient(create_app(settings)) as client:
        root = feed(client)
    links, ids = links_and_ids(root)
    # The feed (self, alternate) and its 8 entries (tests/api/test_list_pages.py).
    assert len(links) == 2 + 8
    assert links[:2] == [f"{BASE}/feeds/lists.atom", f"{BASE}/lists"]
    assert links[2] == f"{BASE}/lists/fide-standard/2026-11?revision=2"
    assert all(link.startswith(f"{BASE}/lists") for link in links[1:])
    assert ids[0] == f"{BASE}/feeds/lists.atom"
    assert ids[1:] == links[2:]  # each entry's id is its link


def test_the_public_base_url_may_have_a_path(corrected_url: str) -> None:
    settings = Settings(
        database_url=corrected_url, read_database_url=corrected_url,
        public_base_url="https://example.org/ratings//",
    )  # fmt: skip
    assert settings.public_base_url == "https://example.org/ratings"
    with TestClient(create_app(settings)) as client:
        links, _ = links_and_ids(feed(client))
    assert links[2] == "https://example.org/ratings/lists/fide-standard/2026-11?revision=2"


def test_without_a_base_url_the_feed_links_are_relative(corrected_client: TestClient) -> None:
    links, ids = links_and_ids(feed(corrected_client))
    assert links[:3] == ["/feeds/lists.atom", "/lists", "/lists/fide-standard/2026-11?revision=2"]
    assert all(link.startswith("/") and not link.startswith("//") for link in links)
    assert ids[:2] == ["urn:ratingdb:feeds:lists", "urn:ratingdb:lists:fide-standard:2026-11:2"]


def test_the_public_base_url_is_checked() -> None:
    def given(value: str) -> str | None:
        return Settings.from_env({"RATINGDB_PUBLIC_BASE_URL": value}).public_base_url

    assert Settings.from_env({}).public_base_url is None
    assert given("  ") is None  # blank: unset, as every variable
    assert given("https://Ratings.Example.org/") == "https://ratings.example.org"
    assert given("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    for bad, words in (
        ("ratings.example.org", "must start with https:// or http://"),
        ("ftp://ratings.example.org", "must start with https:// or http://"),
        ("javascript:alert(1)", "must start with https:// or http://"),
        ("https://", "a host is needed"),
        ("https:///lists", "a host is needed"),
        ("https://ratings.example.org/?x=1", "no query (?) nor fragment (#)"),
        ("https://ratings.example.org/#top", "no query (?) nor fragment (#)"),
        ("https://ratings.example.org?", "no query (?) nor fragment (#)"),
        ("https://user:pw@ratings.example.org", "no user or password"),
        ("https://ratings.example.org:99999", "not a valid port"),
        ("https://ratings.example.org/a b", "spaces and control characters"),
    ):
        with pytest.raises(ConfigurationError) as raised:
            given(bad)
        assert str(raised.value).startswith("RATINGDB_PUBLIC_BASE_URL: "), bad
        assert words in str(raised.value), (bad, str(raised.value))
    # Handed to the workers of serve --workers N as it is, and back.
    settings = Settings(public_base_url="https://ratings.example.org/")
    back = Settings.from_env({k: v for k, v in settings.environment().items() if v is not None})
    assert back.public_base_url == "https://ratings.example.org"


def test_no_public_route_redirects_to_the_host(corrected_client: TestClient) -> None:
    paths = route_paths(corrected_client.app)  # type: ignore[arg-type]
    assert {"/lists", "/feeds/lists.atom", "/v1/lists/fide-standard/2026-11/diff"} <= paths
    for path in sorted(paths):
        if path.startswith("/static"):
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
        passwords, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    )
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            accounts.add_user(session, "officer1", "officer", PASSWORD, by=None, actor="test",
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
