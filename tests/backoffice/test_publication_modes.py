"""Each category's publication mode in the database (issue 28 item 6), on SQLite and
PostgreSQL: an admin sets it with a reason (audited, page and API), every process reads it at
each use (the scheduler's next run closes the category with approval), the server's setting
can only add approval, and two admins at once both land, one after the other.

The tests run in the test's rolled-back transaction (``database``, ``session``), but for the
scheduler's (``jobs.close_periods`` opens engines of its own) and the two admins' (two
connections racing): a database of their own (``database_url``)."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from jobs.close_periods import close_periods
from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.errors import InputError
from ratingdb.rules import Category
from ratingdb.services import publication
from tests.backoffice.conftest import Accounts
from tests.jobs.test_publication_approval import AFTER_DECEMBER_CUT_OFF, lists
from tests.support import publication as case
from tests.support.rolled_back import RolledBack
from tests.support.sql import query

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
STANDARD = Category.FIDE_STANDARD


def modes(session: Session, configured: tuple[Category, ...] = ()) -> dict[str, tuple[str, str]]:
    return {
        m.category.value: (m.mode, m.source)
        for m in publication.category_modes(session, configured)
    }


def test_modes_default_stored_and_forced_by_the_setting(session: Session) -> None:
    assert set(modes(session).values()) == {("automatic", "default")}
    assert publication.approval_categories(session, ()) == ()
    shown = publication.set_mode(session, "fide-standard", "approval", "  board decision ",
                                 actor="admin1", now=NOW, configured=())  # fmt: skip
    assert (shown.mode, shown.source, shown.reason) == ("approval", "database", "board decision")
    assert modes(session)["fide-standard"] == ("approval", "database")
    assert modes(session)["ffe-rapid"] == ("automatic", "default")
    assert publication.approval_categories(session, ()) == (STANDARD,)
    # The setting adds approval: the union, in the order of Category.
    assert publication.approval_categories(session, (Category.FFE_RAPID,)) == (
        STANDARD, Category.FFE_RAPID,
    )  # fmt: skip
    assert modes(session, (Category.FFE_RAPID,))["ffe-rapid"] == ("approval", "configuration")
    # Back to automatic: stored, and the audit log has both changes with their reasons.
    publication.set_mode(session, "fide-standard", "automatic", "trial over", actor="admin2",
                         now=NOW, configured=())  # fmt: skip
    assert publication.approval_categories(session, ()) == ()
    audited = session.execute(
        text("SELECT actor, details FROM audit_log WHERE action = 'publication-mode' ORDER BY id")
    ).all()
    assert [(actor, json.loads(d) if isinstance(d, str) else d) for actor, d in audited] == [
        ("admin1", {"category": "fide-standard", "before": None, "after": "approval",
                    "reason": "board decision"}),
        ("admin2", {"category": "fide-standard", "before": "approval", "after": "automatic",
                    "reason": "trial over"}),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("category", "mode", "reason", "configured", "field"),
    [
        ("fide-classic", "approval", "why", (), "category"),
        ("fide-standard", "manual", "why", (), "mode"),
        ("fide-standard", "approval", "   ", (), "reason"),
        ("fide-standard", "approval", "x" * 501, (), "reason"),
        # The setting forces approval: the back office cannot make it automatic.
        ("fide-standard", "automatic", "why", (STANDARD,), "mode"),
    ],
)
def test_bad_changes_are_refused_naming_the_field(
    session: Session,
    category: str,
    mode: str,
    reason: str,
    configured: tuple[Category, ...],
    field: str,
) -> None:
    with pytest.raises(InputError) as refused:
        publication.set_mode(session, category, mode, reason, actor="admin1", now=NOW,
                             configured=configured)  # fmt: skip
    assert refused.value.field == field
    assert publication.category_modes(session, ())[0].source == "default"


def test_the_scheduler_reads_the_mode_an_admin_stored(database_url: str, tmp_path: Path) -> None:
    """The control is test_publication_approval's automatic case: without the stored mode, the
    same run publishes 2026-12."""
    case.prepare(database_url, tmp_path)
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            publication.set_mode(session, "fide-standard", "approval", "test", actor="admin1",
                                 now=NOW, configured=())  # fmt: skip
    finally:
        engine.dispose()
    settings = Settings.from_env({}, database_url=database_url)
    assert settings.publication_approval == ()
    outcomes = close_periods(settings, AFTER_DECEMBER_CUT_OFF, "scheduler")
    assert [(o.category.value, str(o.period), o.state) for o in outcomes] == [
        ("fide-standard", "2026-12", "awaiting-approval")]  # fmt: skip
    assert lists(database_url) == [("fide-standard", "2026-11-01", 1)]


def test_the_page_and_the_api_for_admins_only(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    users.add("admin1", "admin")
    users.add("officer1", "officer")
    officer, officer_csrf = users.session("officer1")
    client.cookies.set("ratingdb_session", officer)
    assert client.get("/settings/publication").status_code == 403
    refused = client.post(
        "/settings/publication/fide-standard",
        data={"csrf_token": officer_csrf, "mode": "approval", "reason": "x"},
    )
    assert refused.status_code == 403  # fmt: skip
    admin, admin_csrf = users.session("admin1")
    client.cookies.set("ratingdb_session", admin)
    page = client.get("/settings/publication")
    assert page.status_code == 200
    assert 'id="mode-fide-standard"' in page.text
    # No CSRF token: refused, nothing stored.
    assert client.post("/settings/publication/fide-standard",
                       data={"mode": "approval", "reason": "x"}).status_code == 403  # fmt: skip
    assert database.rows("SELECT count(*) FROM publication_modes") == [(0,)]
    # No reason: the page again, the field named.
    bad = client.post(
        "/settings/publication/fide-standard",
        data={"csrf_token": admin_csrf, "mode": "approval", "reason": ""},
    )
    assert bad.status_code == 422  # fmt: skip
    assert "reason" in bad.text
    done = client.post(
        "/settings/publication/fide-standard",
        data={"csrf_token": admin_csrf, "mode": "approval", "reason": "board"},
    )
    assert (done.status_code, done.headers["location"]) == (303, "/settings/publication")
    assert database.rows("SELECT category, changed_by, reason FROM publication_modes") == [
        ("fide-standard", "admin1", "board")]  # fmt: skip
    # The API, with a token.
    token = users.token("admin1")
    bearer = {"Authorization": f"Bearer {token}"}
    client.cookies.clear()
    listed = client.get("/admin/v1/publication/modes", headers=bearer).json()["modes"]
    assert [(m["category"], m["mode"], m["source"]) for m in listed] == [
        ("fide-standard", "approval", "database"), ("fide-rapid", "automatic", "default"),
        ("fide-blitz", "automatic", "default"), ("ffe-rapid", "automatic", "default"),
    ]  # fmt: skip
    changed = client.post(
        "/admin/v1/publication/modes/ffe-rapid",
        headers=bearer,
        json={"mode": "approval", "reason": "club request"},
    )
    assert changed.status_code == 200  # fmt: skip
    assert (changed.json()["mode"], changed.json()["changed_by"]) == ("approval", "admin1")
    unknown = client.post(
        "/admin/v1/publication/modes/ffe-rapid",
        headers=bearer,
        json={"mode": "sometimes", "reason": "x"},
    )
    assert unknown.status_code == 422  # fmt: skip
    officer_bearer = {"Authorization": f"Bearer {users.token('officer1')}"}
    assert client.get("/admin/v1/publication/modes", headers=officer_bearer).status_code == 403


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_admins_at_once_both_land_one_after_the_other(database_url: str) -> None:
    """The first row of a category written by two admins at the same moment (PostgreSQL): no
    error, one row (the last writer's), two audit entries, the second's "before" the first's
    mode."""
    engine = make_engine(database_url)
    factory = make_sessionmaker(engine)
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def admin(name: str, mode: str) -> None:
        try:
            with factory.begin() as session:
                session.connection()  # the transaction started before the barrier
                barrier.wait(timeout=60)
                publication.set_mode(session, "fide-blitz", mode, f"by {name}", actor=name,
                                     now=NOW, configured=())  # fmt: skip
        except BaseException as error:
            errors.append(error)

    try:
        threads = [threading.Thread(target=admin, args=args)
                   for args in (("admin1", "approval"), ("admin2", "automatic"))]  # fmt: skip
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert errors == []
        rows = query(database_url, "SELECT changed_by, approval FROM publication_modes")
        assert len(rows) == 1
        audited = query(database_url, "SELECT actor FROM audit_log WHERE action = "
                        "'publication-mode' ORDER BY id")  # fmt: skip
        assert sorted(a for (a,) in audited) == ["admin1", "admin2"]
        # The row is the last writer's.
        assert rows[0][0] == audited[-1][0]
    finally:
        engine.dispose()


def test_a_refused_page_is_an_html_page_and_the_api_stays_json(
    client: TestClient, users: Accounts
) -> None:
    """Issue 28 item 9: an officer opening an admin's page gets the back office's page saying
    why (403), and so does a form without its CSRF token; the JSON API answers JSON."""
    users.add("officer1", "officer")
    officer, _ = users.session("officer1")
    client.cookies.set("ratingdb_session", officer)
    page = client.get("/settings/publication")
    assert page.status_code == 403
    assert page.headers["content-type"].startswith("text/html")
    assert "<h1>Not allowed</h1>" in page.text
    assert "your role may not do this" in page.text
    forged = client.post("/submissions/new", data={})
    assert forged.status_code in (403, 405)
    assert forged.headers["content-type"].startswith("text/html")
    missing = client.get("/no-such-page")
    assert (missing.status_code, "<h1>" in missing.text) == (
        404,
        True,
    ) or missing.status_code == 403
    client.cookies.clear()
    api = client.get(
        "/admin/v1/publication/modes",
        headers={"Authorization": f"Bearer {users.token('officer1')}"},
    )
    assert api.status_code == 403  # fmt: skip
    assert api.json() == {"detail": "your role may not do this"}
