"""The publication modes page in headless Chromium (issue 28 item 6): ``ratingdb backoffice``
in a subprocess, an admin signs in, puts fide-standard under approval with a reason, and sees it
stored with their name; nothing on the page is wider than the screen. At a desktop's width
(1280, PostgreSQL) and a phone's (390, SQLite), with screenshots in $RATINGDB_SCREENSHOTS when
set. The back office is in English only (no message catalogs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.api.test_browser import chromium, chromium_at  # noqa: F401
from tests.backoffice.test_browser import appeared, sign_in
from tests.backoffice.test_correction_browser import (
    add_account,
    no_wider_than_the_screen,
    serving,
)
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot
from tests.support.sql import query


@WIDTH_BY_DATABASE
@pytest.mark.slow
def test_an_admin_sets_a_mode_in_chromium(
    chromium: None,  # noqa: F811
    database_url: str,
    width: int,
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    add_account(database_url, "admin1", "admin")
    with serving(database_url, tmp_path) as base:
        driver = chromium_at(width)
        try:
            sign_in(driver, base, "admin1")
            driver.get(f"{base}/settings/publication")
            row = appeared(driver, "mode-fide-standard")
            assert "automatic" in row.text
            assert "default" in row.text
            no_wider_than_the_screen(driver, width)
            Select(driver.find_element(By.ID, "mode-fide-standard-choice")).select_by_value(
                "approval"
            )
            driver.find_element(By.ID, "mode-fide-standard-reason").send_keys("board decision")
            follow(driver, row.find_element(By.CSS_SELECTOR, "button[type=submit]"))
            row = appeared(driver, "mode-fide-standard")
            assert row.find_element(By.CSS_SELECTOR, ".mode").text == "approval"
            assert "admin1" in row.text
            assert "board decision" in row.text
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-publication-modes-{width}", width)
        finally:
            driver.quit()
    assert query(database_url, "SELECT category, approval, changed_by FROM publication_modes") in (
        [("fide-standard", True, "admin1")],
        [("fide-standard", 1, "admin1")],
    )
