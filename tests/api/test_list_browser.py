"""The list page in a real browser (headless Chromium, as tests/api/test_browser.py): at a
desktop's 1280 px and a phone's 390 px, the table is there with its links and nothing is wider
than the screen; screenshots are saved where ``RATINGDB_SCREENSHOTS`` says, when set."""

from __future__ import annotations

import pytest

from tests.api.test_browser import (  # noqa: F401 (chromium: the fixture)
    chromium,
    chromium_at,
)
from tests.support.browser import ON_SQLITE, follow, screenshot

pytestmark = pytest.mark.slow


@ON_SQLITE
@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize(("width", "language"), [(1280, "en"), (390, "en"), (390, "fr")])
def test_list_page_in_chromium(server: str, width: int, language: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = chromium_at(width)
    try:
        driver.get(f"{server}/?lang={language}")
        full_list = "Full list" if language == "en" else "Liste complète"
        links = driver.find_elements(By.LINK_TEXT, full_list)
        assert links, driver.page_source
        follow(driver, links[0])
        # The click returns once navigation starts (a phone's tap): wait for the list itself.
        WebDriverWait(driver, 10).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "table.list tbody tr")
        )
        assert driver.current_url == f"{server}/lists/fide-standard/2026-11?lang={language}"
        rows = driver.find_elements(By.CSS_SELECTOR, "table.list tbody tr")
        assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == [
            "Max, M", "Dan, D", "Bob, B", "Anna, A", "Nina, N", "Gus, G", "Jo, J"
        ]  # fmt: skip
        assert driver.execute_script("return window.innerWidth") == width
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        table = driver.find_element(By.CSS_SELECTOR, "table.list")
        assert table.size["width"] <= width  # the whole table on screen, no sideways scroll
        screenshot(driver, f"list-{width}-{language}")
        # The filter form: women of FRA, with the federation rank.
        driver.find_element(By.ID, "f-federation").send_keys("fra")
        Select(driver.find_element(By.ID, "f-sex")).select_by_value("F")
        follow(driver, driver.find_element(By.CSS_SELECTOR, "form.filters button[type=submit]"))
        WebDriverWait(driver, 10).until(
            lambda d: (
                "federation=fra" in d.current_url
                and len(d.find_elements(By.CSS_SELECTOR, "table.list tbody tr")) == 3
            )
        )
        assert f"lang={language}" in driver.current_url
        rows = driver.find_elements(By.CSS_SELECTOR, "table.list tbody tr")
        cells = [[c.text for c in r.find_elements(By.TAG_NAME, "td")][:3] for r in rows]
        assert cells == [["4", "2", "Anna, A"], ["5", "3", "Nina, N"], ["7", "5", "Jo, J"]]
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        assert driver.find_element(By.CSS_SELECTOR, "table.list").size["width"] <= width
        screenshot(driver, f"list-{width}-{language}-filtered")
    finally:
        driver.quit()
