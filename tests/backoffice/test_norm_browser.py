"""The title norm pages in headless Chromium (issue 28 item 1): ``ratingdb backoffice`` in a
subprocess, an officer opens the norm index, the issue's tournament (tests/services/
test_norms.py), Ada's IM norm and its draft certificate, then the title watch of the list;
nothing on the pages is wider than the screen. At a desktop's width (1280, PostgreSQL) and a
phone's (390, SQLite), with screenshots in $RATINGDB_SCREENSHOTS when set. In English (the
pages in French: test_french_browser.py)."""

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
from tests.services.test_norms import ADA, build
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot


@WIDTH_BY_DATABASE
@pytest.mark.slow
def test_an_officer_reads_a_norm_and_its_certificate_in_chromium(
    chromium: None,  # noqa: F811
    database_url: str,
    width: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from selenium.webdriver.common.by import By

    build(capsys, database_url, tmp_path)
    add_account(database_url, "officer1", "officer")
    with serving(database_url, tmp_path) as base:
        driver = chromium_at(width)
        try:
            sign_in(driver, base, "officer1")
            follow(driver, driver.find_element(By.LINK_TEXT,
                   "Title norms: each tournament's norm checks and certificates"))  # fmt: skip
            table = appeared(driver, "norm-tournaments")
            no_wider_than_the_screen(driver, width)
            follow(driver, table.find_element(By.LINK_TEXT, "Open"))
            heading = appeared(driver, f"check-{ADA}-IM")
            assert heading.text == "IM norm: yes"
            assert appeared(driver, f"c-{ADA}-IM-performance").text.endswith(
                "Rp 2450 = Ra 2284 + dp 166 met"
            )
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-norm-check-{width}", width)
            section = driver.find_element(By.ID, f"player-{ADA}")
            follow(driver, section.find_element(By.LINK_TEXT, "Draft certificate"))
            result = appeared(driver, "certificate-result")
            assert "2450" in result.text
            assert "Draft IM norm certificate" in driver.page_source
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-norm-certificate-{width}", width)
            driver.get(f"{base}/titles/watch")
            driver.find_element(By.ID, "watch-period").send_keys("2026-11")
            follow(driver, driver.find_element(By.CSS_SELECTOR, "form.filters button"))
            row = appeared(driver, f"reached-{ADA}-FM")
            assert "2300" in row.text
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-title-watch-{width}", width)
        finally:
            driver.quit()
