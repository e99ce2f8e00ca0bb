"""The movers and the sorted list in a real browser (headless Chromium, as
tests/api/test_list_browser.py), at 1280 and 390 px, in English and French, on the scenario
(tests/api/scenario.py). Its 2026-11 fide-standard list: Jo +40 (1683 -> 1723) and Anna +4
gained, Nina -30 and Max -4 (his loss to Anna: -.42 x K 10) lost; Dan, Bob and Gus did not move.
By change: Jo, Anna, then Dan, Bob, Gus in list order, then Max, Nina."""

from __future__ import annotations

import pytest

from tests.api.test_browser import (  # noqa: F401 (chromium: the fixture)
    chromium,
    chromium_at,
)
from tests.support.browser import ON_SQLITE, follow, screenshot

pytestmark = pytest.mark.slow

WORDS = {
    "en": {"gainers": "Biggest gainers", "losers": "Biggest losers", "full": "Full list"},
    "fr": {"gainers": "Plus fortes hausses", "losers": "Plus fortes baisses",
           "full": "Liste complète"},
}  # fmt: skip


@ON_SQLITE
@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("width", [1280, 390])
def test_movers_and_the_list_by_change(server: str, width: int, language: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    words = WORDS[language]
    driver = chromium_at(width)

    def movers() -> dict[str, list[str]]:
        """caption (its start) -> the names of each movers table of the first section."""
        section = driver.find_element(By.CSS_SELECTOR, "section.movers")
        found = {}
        for table in section.find_elements(By.CSS_SELECTOR, "table.movers"):
            caption = table.find_element(By.TAG_NAME, "caption").text.split(" · ")[0]
            found[caption] = [
                row.find_elements(By.TAG_NAME, "td")[0].text
                for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
            ]
        return found

    def fits() -> None:
        assert driver.execute_script("return window.innerWidth") == width
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        for table in driver.find_elements(By.CSS_SELECTOR, "table.movers, table.list"):
            # The whole table on screen: no sideways scroll inside its box either.
            assert table.location["x"] + table.size["width"] <= width

    try:
        driver.get(f"{server}/?lang={language}")
        found = movers()  # the first section: fide-standard's latest list, 2026-11
        assert found == {words["gainers"]: ["Jo, J", "Anna, A"],
                         words["losers"]: ["Nina, N", "Max, M"]}  # fmt: skip
        fits()
        screenshot(driver, f"movers-home-{width}-{language}")
        follow(driver, driver.find_elements(By.LINK_TEXT, words["full"])[0])
        WebDriverWait(driver, 10).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "table.list tbody tr")
        )
        assert movers() == found
        Select(driver.find_element(By.ID, "f-sort")).select_by_value("change")
        follow(driver, driver.find_element(By.CSS_SELECTOR, "form.filters button[type=submit]"))
        WebDriverWait(driver, 10).until(lambda d: "sort=change" in d.current_url)
        rows = driver.find_elements(By.CSS_SELECTOR, "table.list tbody tr")
        cells = [[c.text for c in r.find_elements(By.TAG_NAME, "td")][:2] for r in rows]
        # The rank stays the rank by rating (Max 1 ... Jo 7).
        assert cells == [["7", "Jo, J"], ["4", "Anna, A"], ["2", "Dan, D"], ["3", "Bob, B"],
                         ["6", "Gus, G"], ["1", "Max, M"], ["5", "Nina, N"]]  # fmt: skip
        assert f"lang={language}" in driver.current_url
        fits()
        screenshot(driver, f"movers-list-{width}-{language}")
    finally:
        driver.quit()
