"""The public site names no back-office account (issue 25), on both databases.

The corrected scenario's correction was made by ``mallory-officer`` (tests/api/scenario.py,
on the command line), and the database keeps that name (the back office and ``ratingdb
audit`` show it); so is the one made here through the back office's API by the officer
account ``mallory-officer``. A user name
is half of what it takes to guess a password, so the public app shows "rating officer"
instead: this test crawls every page and document the public app links to, in English and in
French, from the home page, the archive and the feed, plus the JSON documents that show
corrections, and finds the name in no body and no header.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.backoffice.app import create_app as create_backoffice
from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.services import accounts, passwords
from tests.api.scenario import CORRECTION_ACTOR
from tests.api.test_pages import page
from tests.corrections.test_revision_chain import ADA, BEN, CATEGORY, PERIODS, build
from tests.support.sql import query

#: Where the crawl starts: the pages and documents that show corrections, and the entry points.
START = (
    "/",
    "/?lang=fr",
    "/lists",
    "/lists?lang=fr",
    "/feeds/lists.atom",
    "/v1/lists",
    "/lists/fide-standard/2026-09/diff",
    "/lists/fide-standard/2026-09/diff?lang=fr",
    "/v1/lists/fide-standard/2026-09/diff",
    "/v1/lists/fide-standard/2026-10/diff?from=1&to=2",
    "/v1/lists/fide-standard/2026-11/diff?from=2&to=1",
    "/v1/lists/fide-standard/2026-11",
    "/v1/lists/fide-standard/2026-11?revision=1",
    "/v1/players/1001",
    "/v1/players/1001/history?category=fide-standard",
    "/v1/players/1001/calculations/fide-standard/2026-09",
    "/openapi.json",
)
#: Enough for every page of the scenario in both languages (the crawl asserts it ended).
MAX_PAGES = 2000
LINK = re.compile(r"""(?:href|src|action)\s*=\s*["']([^"']+)["']""")


def _links(body: str, base: str) -> set[str]:
    """The addresses on this site a body links to (path and query; static files aside)."""
    found = set()
    for raw in LINK.findall(body):
        if raw.startswith("{"):  # the feed's XSLT stylesheet: filled in from the feed
            continue
        target = urlsplit(urljoin(base, html.unescape(raw)))
        if target.netloc not in ("", "testserver") or target.path.startswith("/static/"):
            continue
        found.add(target.path + (f"?{target.query}" if target.query else ""))
    return found


def _crawl(client: TestClient, start: tuple[str, ...] = START) -> dict[str, str]:
    """Every address reached from ``start``: its body, by address (each answered 200)."""
    seen: dict[str, str] = {}
    queue = list(start)
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        assert len(seen) < MAX_PAGES, "the crawl did not end: more pages than the scenario has"
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        for name, value in response.headers.items():
            assert CORRECTION_ACTOR not in f"{name}: {value}".lower(), (path, name)
        seen[path] = response.text
        queue.extend(_links(response.text, f"http://testserver{path}") - seen.keys())
    return seen


def test_no_public_page_or_document_names_the_officer(corrected_client: TestClient) -> None:
    crawled = _crawl(corrected_client)
    named = [path for path, body in crawled.items() if CORRECTION_ACTOR in body.lower()]
    assert named == []
    # The crawl reached what shows corrections: the diff pages (both languages), their JSON,
    # the feed, the revisions of the lists, the corrected players' and tournament's pages,
    # and the downloads.
    reached = set(crawled)
    assert {
        "/lists/fide-standard/2026-09/diff?from=1&to=2",
        "/lists/fide-standard/2026-09/diff?from=1&to=2&lang=fr",
        "/v1/lists/fide-standard/2026-09/diff?from=1&to=2",
        "/lists/fide-standard/2026-09?revision=1",
        "/players/1001",
        "/players/1002?lang=fr",
        "/feeds/lists.atom",
    } <= reached
    assert any(path.startswith("/tournaments/") for path in reached)
    assert any("/download?format=json" in path for path in reached)
    assert any("/download?format=csv" in path for path in reached)
    # What they show instead: the role.
    diff = crawled["/v1/lists/fide-standard/2026-09/diff"]
    assert '"actor":"rating officer"' in diff


def test_the_diff_page_says_a_rating_officer(corrected_client: TestClient) -> None:
    english = page(corrected_client, "/lists/fide-standard/2026-09/diff")
    (line,) = [text for text in english.texts if text.startswith("(correction 1, ")]
    assert line.endswith(", by a rating officer)")
    french = page(corrected_client, "/lists/fide-standard/2026-09/diff?lang=fr")
    (line,) = [text for text in french.texts if text.startswith("(correction 1, ")]
    assert line.endswith(", par un responsable du classement)")


def test_a_correction_through_the_back_office_names_no_one(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """The officer account mallory-officer corrects a game through the back office's API
    (tests/corrections' chain: four lists revised); no public page or document names it."""
    ids = build(capsys, database_url, tmp_path / "chain")
    monkeypatch.setattr(  # cheap argon2id parameters: the hashing is not what is tested
        passwords, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    )
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            now = datetime.now(UTC)
            accounts.add_user(session, CORRECTION_ACTOR, "officer", "correct horse battery",
                              by=None, actor="test", now=now)  # fmt: skip
            token = accounts.issue_token(session, CORRECTION_ACTOR, "test", 1, "full", by=None,
                                         actor="test", now=now).token  # fmt: skip
    finally:
        engine.dispose()
    body = {"tournament": ids["T1"], "round": 1, "white": ADA, "black": BEN, "result": "+-",
            "reason": "Ben never came: a forfeit"}  # fmt: skip
    with TestClient(create_backoffice(Settings(database_url=database_url))) as backoffice:
        answer = backoffice.post("/admin/v1/corrections/game", json=body,
                                 headers={"Authorization": f"Bearer {token}"})  # fmt: skip
        assert answer.status_code == 201, answer.text
    # The database keeps who made it (the back office and ratingdb audit show it).
    assert query(database_url, "SELECT actor FROM corrections") == [(CORRECTION_ACTOR,)]

    settings = Settings(database_url=database_url, read_database_url=database_url)
    start = ("/", "/?lang=fr", "/lists", "/lists?lang=fr", "/feeds/lists.atom", "/v1/lists",
             *(f"/v1/lists/{CATEGORY}/{period}/diff" for period in PERIODS))  # fmt: skip
    with TestClient(create_app(settings)) as public:
        crawled = _crawl(public, start)
    assert [path for path, body in crawled.items() if CORRECTION_ACTOR in body.lower()] == []
    for period in PERIODS:  # every revised list's diff, both languages, reached and unnamed
        diff = f"/lists/{CATEGORY}/{period}/diff?from=1&to=2"
        assert "by a rating officer" in crawled[diff], period
        assert "par un responsable du classement" in crawled[f"{diff}&lang=fr"], period
        assert '"actor":"rating officer"' in crawled[f"/v1/lists/{CATEGORY}/{period}/diff"]
