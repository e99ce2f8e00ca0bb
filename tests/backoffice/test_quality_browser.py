"""The quality-control flags in headless Chromium (issue 28 item 8): ``ratingdb backoffice`` in a
subprocess on the case of tests/backoffice/test_quality_flags.py (the list, both club nights and
the Friends Cup stored). An officer uploads the Big Open and reads its check report's flags (the
pairing met a third time, Wolf's +110), then the 2026-12 preview's (the closed group, the new
players without a birth date or sex); nothing on either page is wider than the screen. At a
desktop's width (1280, PostgreSQL) and a phone's (390, SQLite), with screenshots in the test's
folder."""

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
from tests.backoffice.test_quality_flags import (
    BIG_OPEN,
    BIRTH,
    CATEGORY,
    CLUB_1,
    CLUB_2,
    FRIENDS_CUP,
    GAIN,
    GROUP,
    PERIOD,
    SEX,
    load,
)
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot


@WIDTH_BY_DATABASE
@pytest.mark.slow
def test_the_flags_fit_the_screen_in_the_report_and_the_preview(
    chromium: None,  # noqa: F811
    database_url: str,
    width: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from selenium.webdriver.common.by import By

    load(database_url, tmp_path, capsys, CLUB_1, CLUB_2, FRIENDS_CUP)
    add_account(database_url, "officer1", "officer")
    big = tmp_path / "big-open.csv"
    big.write_text(BIG_OPEN, encoding="utf-8")
    with serving(database_url, tmp_path) as base:
        driver = chromium_at(width)
        try:
            sign_in(driver, base, "officer1")
            follow(driver, driver.find_element(By.LINK_TEXT, "Send a tournament file"))
            driver.find_element(By.NAME, "file").send_keys(str(big))
            driver.find_element(By.CSS_SELECTOR, f"input[name=category][value={CATEGORY}]").click()
            follow(
                driver, driver.find_element(By.CSS_SELECTOR, "form[action='/submissions'] button")
            )
            assert appeared(driver, "state").text == "submitted"
            flags = [li.text for li in appeared(driver, "quality").find_elements(By.TAG_NAME, "li")]
            assert len(flags) == 2
            assert flags[0].startswith("repeated pairing: Pawn, P4 (2014) and Pawn, P5 (2015)")
            assert flags[1] == GAIN.format("this file's")
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-report-flags-{width}", width)
            driver.get(f"{base}/publication/{CATEGORY}/{PERIOD}")
            flags = [li.text for li in appeared(driver, "quality").find_elements(By.TAG_NAME, "li")]
            assert flags == [GROUP, BIRTH, SEX]
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-preview-flags-{width}", width)
        finally:
            driver.quit()
