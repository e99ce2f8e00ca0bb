"""The tournament and player pages in headless Chromium (issue 15) at 1280 and 390 px: at a
phone's width nothing is wider than the screen, wide tables included (they stack, they do not
scroll sideways). Screenshots go to $RATINGDB_SCREENSHOTS, when set."""

from __future__ import annotations

import pytest

from tests.api.scenario import TOURNAMENTS
from tests.api.test_browser import chromium, chromium_at
from tests.support.browser import ON_SQLITE, follow, screenshot

pytestmark = pytest.mark.slow
__all__ = ["chromium"]

PAGES = {
    "tournament-A": f"/tournaments/{TOURNAMENTS['A']}",
    "tournament-B": f"/tournaments/{TOURNAMENTS['B']}",
    "player-1001": "/players/1001",
    "player-1007": "/players/1007?lang=fr",
}


@ON_SQLITE
@pytest.mark.parametrize("width", [1280, 390])
def test_pages_fit_the_screen(chromium: None, server: str, width: int) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_at(width)
    try:
        for name, path in PAGES.items():
            driver.get(server + path)
            assert driver.find_element(By.TAG_NAME, "h1").text, (name, driver.page_source[:500])
            assert driver.execute_script("return window.innerWidth") == width
            assert driver.execute_script("return document.documentElement.scrollWidth") <= width
            for table in driver.find_elements(By.TAG_NAME, "table"):
                assert table.size["width"] <= width, (name, table.get_attribute("class"))
            wider = driver.execute_script(
                "return [...document.querySelectorAll('.table-scroll')]"
                ".filter(e => e.scrollWidth > e.clientWidth).length"
            )
            assert wider == 0, name  # nothing scrolls sideways
            screenshot(driver, f"{name}-{width}")
            wide = "table.crosstable" if name.startswith("tournament") else "table.calculation"
            found = driver.find_element(By.CSS_SELECTOR, wide)
            driver.execute_script("arguments[0].scrollIntoView()", found)
            screenshot(driver, f"{name}-{width}-table")
        driver.get(server + PAGES["tournament-A"])
        follow(driver, driver.find_element(By.LINK_TEXT, "Anna, A"))
        assert driver.current_url == f"{server}/players/1001"
    finally:
        driver.quit()
