"""Driving headless Chromium: a click that navigates returns once navigation *starts*, so a
test that reads the next page must wait for it (on a loaded machine the old page is still
there when the click returns)."""

from __future__ import annotations

from typing import Any

#: Seconds a page may take to arrive (generous: CI machines are shared).
PAGE_WAIT = 30


def follow(driver: Any, element: Any, timeout: float = PAGE_WAIT) -> None:
    """Click ``element`` (a link or a form's button) and return once the page it leads to has
    replaced the current one and finished loading; a click that loads nothing times out."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    old_page = driver.find_element(By.TAG_NAME, "html")
    element.click()
    wait = WebDriverWait(driver, timeout)
    wait.until(expected_conditions.staleness_of(old_page))
    wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
