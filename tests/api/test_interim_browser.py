"""The player page's "Interim rating (unofficial)" block in headless Chromium at 1280 and 390
px, in English and French (issue 28 item 7): shown and marked unofficial, its game-by-game
table and subtotals as a published period's, nothing wider than the screen, and axe-core's WCAG
2.1 A and AA rules pass with the block on the page (unfolded too). The database is the
hand-worked case of tests/services/test_interim.py (Anna 1850 -> 1854 in the open 2026-09
period). Screenshots go to $RATINGDB_SCREENSHOTS, when set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ratingdb.config import READ_DATABASE_URL_VARIABLE
from tests.api.test_accessibility import axe_script, axe_violations
from tests.api.test_browser import chromium, chromium_at
from tests.api.test_first_rating_browser import _fits
from tests.services.test_interim import set_up
from tests.support.browser import screenshot
from tests.support.server import running_server

pytestmark = pytest.mark.slow
__all__ = ["axe_script", "chromium"]

HEADING = {"en": "Interim rating (unofficial)", "fr": "Classement provisoire (non officiel)"}
UNOFFICIAL = {"en": "UNOFFICIAL.", "fr": "NON OFFICIEL."}  # shown in capitals (CSS)


@pytest.mark.processes
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("width", [1280, 390])
def test_interim_block_fits_and_passes_axe(
    chromium: None,
    axe_script: str,
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    width: int,
) -> None:
    from selenium.webdriver.common.by import By

    set_up(database_url, tmp_path, capsys)
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    log = tmp_path / "serve.log"
    found: list[str] = []
    with running_server("serve", ["--database-url", database_url], env=env, log=log) as base:
        driver = chromium_at(width)
        driver.set_script_timeout(60)
        try:
            for language in ("en", "fr"):
                driver.get(f"{base}/players/1001?lang={language}")
                name = f"interim-{language}-{width}"
                _fits(driver, width, name)
                block = driver.find_element(By.ID, "fide-standard-interim")
                driver.execute_script("arguments[0].scrollIntoView()", block)
                assert block.is_displayed(), name
                assert 0 < block.size["width"] <= width, name
                heading = block.find_element(By.TAG_NAME, "h3")
                assert heading.text == HEADING[language], name
                assert (
                    block.find_element(By.CSS_SELECTOR, ".unofficial strong").text
                    == (UNOFFICIAL[language])
                )
                table = block.find_element(By.ID, "fide-standard-2026-09")
                assert table.is_displayed(), name  # the calculation is open
                text = " ".join(block.text.split())
                assert "1850 → 1854 (+4)" in text, name
                assert "Summer Open" in text, name
                assert len(table.find_elements(By.CSS_SELECTOR, "tbody tr")) == 3, name
                screenshot(driver, f"{name}")
                found += axe_violations(driver, axe_script, name)
                driver.execute_script(
                    "document.querySelectorAll('details').forEach(d => d.open = true)"
                )
                found += axe_violations(driver, axe_script, f"{name} (unfolded)")
                # Nina has no game in the open period: no block.
                driver.get(f"{base}/players/1005?lang={language}")
                assert not driver.find_elements(By.CSS_SELECTOR, "section.interim")
        finally:
            driver.quit()
    assert not found, "accessibility violations (axe-core, WCAG 2.1 AA):\n" + "\n".join(found)
