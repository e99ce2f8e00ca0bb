"""First ratings' workings in headless Chromium at 1280 and 390 px, in English and French
(issue 27 item 5): the seeded rapid rating on its player's page, the 2024 method on Nina's, and
the calculator's standard-rating field and workings; nothing wider than the screen.
Screenshots go to $RATINGDB_SCREENSHOTS, when set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from ratingdb.config import READ_DATABASE_URL_VARIABLE
from tests.api.test_browser import chromium, chromium_at
from tests.api.test_first_rating_workings import _seeded
from tests.support.browser import ON_SQLITE, screenshot
from tests.support.server import running_server

pytestmark = pytest.mark.slow
__all__ = ["chromium"]

SEEDED = {"category": "fide-rapid", "period": "2024-03", "standard_rating": "1850",
          "rated_games": "0", "games": "1700:1,1900:0.5,2000:0"}  # fmt: skip
OLDER_GAMES = ",".join(f"{1550 + 50 * i}:{1 if i <= 6 else 0}" for i in range(1, 10))
OLDER = {"category": "fide-standard", "period": "2013-02", "games": OLDER_GAMES}
#: What each page must show, in English and in French (hand-worked in
#: tests/api/test_first_rating_workings.py and tests/cli/test_calc.py).
CALCULATOR = {
    "en": ("1850 + 3 = 1853", "3 half points above 50 % × 12.5 = +37.5"),  # noqa: RUF001
    "fr": ("1850 + 3 = 1853", "3 demi-points au-dessus de 50 % × 12,5 = +37,5"),  # noqa: RUF001
}
NINA = {
    "en": "Ra = (9225 + 3600) / 7 = 1832.14",
    "fr": "Ra = (9225 + 3600) / 7 = 1832,14",
}
SIXTY = {
    "en": "Standard rating 1850 on the FIDE standard list of 2024-02",
    "fr": "Classement standard 1850 sur la liste FIDE standard de 2024-02",
}


def _fits(driver: Any, width: int, name: str) -> None:
    assert driver.execute_script("return window.innerWidth") == width
    assert driver.execute_script("return document.documentElement.scrollWidth") <= width, name
    wider = driver.execute_script(
        "return [...document.querySelectorAll('.table-scroll')]"
        ".filter(e => e.scrollWidth > e.clientWidth).length"
    )
    assert wider == 0, name


def _working(driver: Any, expected: str, name: str, width: int) -> None:
    from selenium.webdriver.common.by import By

    working = next(
        element
        for element in driver.find_elements(By.CSS_SELECTOR, ".working")
        if expected in " ".join(element.text.split())
    )
    driver.execute_script("arguments[0].scrollIntoView()", working)
    assert working.is_displayed(), name
    assert 0 < working.size["width"] <= width, name


@ON_SQLITE
@pytest.mark.parametrize("width", [1280, 390])
def test_workings_fit_the_screen(chromium: None, server: str, width: int) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_at(width)
    try:
        for language in ("en", "fr"):
            seeded, older = CALCULATOR[language]
            for name, query, expected, field in (
                ("calculator-seeded", SEEDED, seeded, "first-rating"),
                ("calculator-older", OLDER, older, "initial-bonus"),
            ):
                driver.get(f"{server}/calculator?{urlencode({**query, 'lang': language})}")
                _fits(driver, width, name)
                standard = driver.find_element(By.ID, "standard_rating")
                assert standard.is_displayed()
                assert standard.size["width"] <= width
                found = driver.find_element(By.ID, field)
                driver.execute_script("arguments[0].scrollIntoView()", found)
                assert found.is_displayed()
                assert expected in found.text, (name, found.text)
                screenshot(driver, f"{name}-{language}-{width}")
            # Her first rating (2026-10) is folded under her latest calculation (2026-11): the
            # link to it opens it, as the history's and the crosstable's links do.
            driver.get(f"{server}/players/1007?lang={language}#fide-standard-2026-10")
            _fits(driver, width, "player-1007")
            _working(driver, NINA[language], "player-1007", width)
            screenshot(driver, f"player-1007-{language}-{width}")
    finally:
        driver.quit()


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("width", [1280, 390])
def test_seeded_working_fits_the_screen(
    chromium: None,
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    width: int,
) -> None:
    _seeded(database_url, tmp_path, capsys)
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    log = tmp_path / "serve.log"
    with running_server("serve", ["--database-url", database_url], env=env, log=log) as base:
        driver = chromium_at(width)
        try:
            for language in ("en", "fr"):
                driver.get(f"{base}/players/60?lang={language}")
                _fits(driver, width, "player-60")
                _working(driver, SIXTY[language], "player-60", width)
                screenshot(driver, f"player-60-{language}-{width}")
        finally:
            driver.quit()
