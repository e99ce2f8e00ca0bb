"""The diff between two revisions and a list's tournaments in headless Chromium (issue 15), at
a desktop's 1280 px in English and a phone's 390 px in French, on the corrected scenario
(tests/api/test_diff_page.py works its numbers by hand): from the archive to the diff of
2026-11 (Bob +20, Anna -20, Jo -1) and on to the corrected tournament; from a list page to its
revisions' diff, and to the tournaments it rated and one of them. Nothing is wider than the screen.
Screenshots go to $RATINGDB_SCREENSHOTS, when set."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.scenario import TOURNAMENTS
from tests.api.test_browser import chromium, chromium_at
from tests.support.browser import CORRECTED_ON_SQLITE, screenshot

pytestmark = pytest.mark.slow
__all__ = ["chromium"]

WORDS = {
    "en": {"changed": "what changed from revision 1", "tournaments": "2 tournaments rated in "
           "this list", "players": "3 players changed"},
    "fr": {"changed": "ce qui a changé depuis la révision 1", "tournaments": "2 tournois pris "
           "en compte dans cette liste", "players": "3 joueurs modifiés"},
}  # fmt: skip


@CORRECTED_ON_SQLITE
@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize(("width", "language"), [(1280, "en"), (390, "fr")])
def test_diff_and_tournaments_in_chromium(corrected_server: str, width: int, language: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    words = WORDS[language]
    base = corrected_server
    driver = chromium_at(width)

    def fits(name: str) -> None:
        assert driver.execute_script("return window.innerWidth") == width
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        for table in driver.find_elements(By.TAG_NAME, "table"):
            assert table.size["width"] <= width, name
        screenshot(driver, f"{name}-{width}-{language}")

    def follow(link: Any, url: str) -> None:
        """Click, then wait for the page: on a phone's screen a click is a tap, which returns
        once the navigation has started."""
        link.click()
        WebDriverWait(driver, 15).until(
            lambda d: (
                d.current_url == url
                and d.execute_script("return document.readyState") == "complete"
            )
        )

    try:
        driver.get(f"{base}/lists?lang={language}")
        newest = WebDriverWait(driver, 15).until(
            lambda d: d.find_elements(By.LINK_TEXT, words["changed"])
        )
        follow(newest[0], f"{base}/lists/fide-standard/2026-11/diff?from=1&to=2&lang={language}")
        assert driver.find_element(By.ID, "changes-heading").text == words["players"]
        rows = driver.find_elements(By.CSS_SELECTOR, "table.diff tbody tr")
        cells = [
            [
                r.find_element(By.TAG_NAME, "th").text,
                *[c.text for c in r.find_elements(By.TAG_NAME, "td")][:3],
            ]
            for r in rows
        ]
        assert cells == [
            ["Bob, B", "1900", "1920", "+20"],
            ["Anna, A", "1866", "1846", "-20"],
            ["Jo, J", "1723", "1722", "-1"],
        ]
        assert driver.find_element(By.CSS_SELECTOR, "q.reason").text == (
            "the scoresheet shows Bob won"
        )
        fits("diff")
        # Why: the corrected game's tournament.
        follow(
            driver.find_element(By.CSS_SELECTOR, "ul.corrections a"),
            f"{base}/tournaments/{TOURNAMENTS['A']}?lang={language}",
        )

        # The list page: its revisions' diff, and the tournaments it rated.
        driver.get(f"{base}/lists/fide-standard/2026-11?lang={language}")
        link = driver.find_element(By.LINK_TEXT, words["changed"])
        assert link.get_attribute("href").endswith("/diff?from=1&to=2&lang=" + language)
        follow(
            driver.find_element(By.LINK_TEXT, words["tournaments"]),
            f"{base}/lists/fide-standard/2026-11/tournaments?lang={language}",
        )
        links = driver.find_elements(By.CSS_SELECTOR, "table.tournaments tbody a")
        assert [a.text for a in links] == ["C", "E"]
        fits("list-tournaments")
        follow(links[0], f"{base}/tournaments/{TOURNAMENTS['C']}?lang={language}")
    finally:
        driver.quit()
