"""The search page in a real browser (headless Chromium, as tests/api/test_browser.py): at a
desktop's 1280 px and a phone's 390 px, in English and French, the players found with their
rating on each category's latest list, nothing wider than the screen and no table wider than
its column (on a phone the table stacks: one block per player, each rating under its
category's name). Screenshots are saved where ``RATINGDB_SCREENSHOTS`` says, when set."""

from __future__ import annotations

import pytest

from tests.api.test_browser import (  # noqa: F401 (chromium: the fixture)
    chromium,
    chromium_at,
)
from tests.support.browser import ON_SQLITE, follow, screenshot

pytestmark = pytest.mark.slow

#: The last category's name, each rating's label on a phone.
FFE_RAPID = {"en": "FFE rapid", "fr": "Elo rapide FFE"}


@ON_SQLITE
@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize(
    ("width", "language"), [(1280, "en"), (1280, "fr"), (390, "en"), (390, "fr")]
)
def test_search_page_in_chromium(server: str, width: int, language: str) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_at(width)
    try:
        # Every id starts with 100: the eight players, by name.
        driver.get(f"{server}/?q=100&lang={language}")
        rows = driver.find_elements(By.CSS_SELECTOR, "table.found tbody tr")
        assert [r.find_element(By.TAG_NAME, "th").text for r in rows] == [
            "Anna, A", "Bob, B", "Dan, D", "Gus, G", "Jo, J", "Max, M", "Nina, N", "Olga, O"
        ]  # fmt: skip
        anna = [c.text for c in rows[0].find_elements(By.CSS_SELECTOR, "td.rating")]
        assert anna == ["1866", "\u2013", "\u2013", "1700"]  # a dash: no rating
        assert driver.execute_script("return window.innerWidth") == width
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        for table in driver.find_elements(By.TAG_NAME, "table"):
            column = driver.execute_script(
                "return arguments[0].parentElement.clientWidth", table
            )  # the table's box: its column of the page
            assert table.size["width"] <= column, (table.get_attribute("class"), column)
        wider = driver.execute_script(
            "return [...document.querySelectorAll('.table-scroll')]"
            ".filter(e => e.scrollWidth > e.clientWidth).length"
        )
        assert wider == 0  # nothing scrolls sideways
        if width < 640:  # stacked: each rating under its category's name
            label = rows[0].find_elements(By.CSS_SELECTOR, "td.rating")[3]
            assert label.get_attribute("data-label") == FFE_RAPID[language]
        screenshot(driver, f"search-{width}-{language}")
        # Words in any order and case, accents ignored; the name links to the player.
        driver.get(f"{server}/?q=A%20%C3%80NNA&lang={language}")
        link = driver.find_element(By.CSS_SELECTOR, "table.found tbody th a")
        assert link.text == "Anna, A"
        follow(driver, link)
        assert driver.current_url.startswith(f"{server}/players/1001")
    finally:
        driver.quit()
