"""Every public page the browser tests open is served byte for byte the same from the SQLite
and the PostgreSQL scenario, in English and in French, before and after the correction: what
the pages show comes from the database only through the read models, whichever the database.
That is why the Chromium tests of the public pages (layout, accessibility, keyboard, links)
run on the SQLite scenario only (tests/support/browser.py ``ON_SQLITE``): on PostgreSQL they
would check the same HTML again. The API's answers themselves are tested on both databases
everywhere else."""

from __future__ import annotations

import difflib

import pytest

from tests.api.conftest import ScenarioDatabases, make_client
from tests.api.scenario import TOURNAMENTS
from tests.api.test_accessibility import PAGES as ACCESSIBILITY_PAGES
from tests.api.test_browser_pages import PAGES as LAYOUT_PAGES

pytestmark = pytest.mark.postgresql

#: Pages the other browser tests open or reach by a link (test_browser, test_list_browser,
#: test_diff_browser, test_docs), besides the accessibility and layout pages.
OTHER_PAGES = (
    "/?q=nina",
    "/lists/fide-standard/2026-11/diff?from=1&to=2",
    f"/tournaments/{TOURNAMENTS['C']}",
    "/lists/fide-standard/2026-10",
    "/lists/ffe-rapid/2026-10",
    "/calculator?category=fide-standard&period=2026-12&rating=1850&k=20&games=1800:1",
    "/docs",
    "/redoc",
    "/v1/players/1001/history?category=fide-standard",
)
PATHS = sorted({*ACCESSIBILITY_PAGES.values(), *LAYOUT_PAGES.values(), *OTHER_PAGES})


def with_language(path: str, language: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={language}"


@pytest.mark.parametrize("corrected", [False, True], ids=["scenario", "corrected"])
def test_the_pages_are_the_same_on_both_databases(
    request: pytest.FixtureRequest, scenario_databases: ScenarioDatabases, corrected: bool
) -> None:
    urls = [
        scenario_databases.url(request, kind, corrected=corrected)
        for kind in ("sqlite", "postgresql")
    ]
    differences: list[str] = []
    with make_client(urls[0]) as sqlite, make_client(urls[1]) as postgresql:
        for path in PATHS:
            for language in ("en", "fr"):
                asked = with_language(path, language)
                one, other = sqlite.get(asked), postgresql.get(asked)
                assert one.status_code < 500, (asked, one.text[:500])
                if (one.status_code, one.content) != (other.status_code, other.content):
                    lines = difflib.unified_diff(
                        one.text.splitlines(), other.text.splitlines(), lineterm="", n=1
                    )
                    differences.append(f"{asked} ({one.status_code}/{other.status_code}):")
                    differences += list(lines)[2:12]
    assert not differences, "\n".join(differences)
