"""A real browser: ``ratingdb serve`` in a subprocess against the scenario database, headless
Chromium (Debian's chromium and chromium-driver) opens a player page at a phone's size, finds
the SVG step chart and the calculation tables, and saves a screenshot in the test's folder.

Where Chromium is missing the test installs it once with apt-get (as the CI does, as root on
Debian) and skips, saying why, only when that is impossible.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import ON_SQLITE, follow, screenshot
from tests.support.once import once_per_run

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


def chromium_at(width: int, height: int = 900) -> Any:
    """Headless Chromium showing pages on a screen ``width`` CSS pixels wide (a phone's, when
    narrow: a desktop window cannot be that narrow), blank: one tab on about:blank, no cookie,
    nothing cached. The test's ``quit()`` hands it back.

    Starting Chromium costs 1-2 s, and the browser tests asked for one ~70 times a run: each
    worker keeps one per screen size (chromedriver's mobile emulation, fixed at the start,
    puts its size back at every navigation) for the tests that follow, blanked in between."""
    screen = (width, height)
    driver = _idle.pop(screen, None)
    if driver is None:
        driver = _start(width, height)
    return driver


#: The worker's started Chromiums no test is using, by screen size (see chromium_at).
_idle: dict[tuple[int, int], Any] = {}


def _start(width: int, height: int) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    class KeptChromium(webdriver.Chrome):
        """A Chromium that ``quit()`` blanks and keeps for the next test at its size; one that
        cannot be blanked is quit for good (the next test starts another), and the error
        raised."""

        def quit(self) -> None:
            kept = _idle.get((width, height))
            if kept is self:  # quit twice: already blanked and kept
                return
            if kept is not None:  # a test had two at once: one is kept
                super().quit()
                return
            try:
                blank(self)
            except BaseException:
                super().quit()
                raise
            _idle[(width, height)] = self

        def end(self) -> None:
            super().quit()

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    metrics = {"width": width, "height": height, "pixelRatio": 1}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    return KeptChromium(options=options, service=Service(executable_path=str(CHROMEDRIVER)))


def blank(driver: Any) -> None:
    """The browser as a new one shows itself to a page: one tab, on about:blank, no cookie
    (a cookie of 127.0.0.1 is every port's: another test's server would get it), nothing in
    the HTTP cache (a server started later on the same port would not be asked). The public
    pages and the back office keep nothing else in the browser (no storage, no worker)."""
    first, *others = driver.window_handles
    for handle in others:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(first)
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})


@atexit.register
def _end_kept_chromiums() -> None:
    """The worker's kept Chromiums (and their chromedrivers) end with it."""
    while _idle:
        _idle.popitem()[1].end()


PHONE = (412, 915)
#: Slow (a server and a headless Chromium).
pytestmark = pytest.mark.slow


def _install_chromium() -> str | None:
    """None when Chromium and its driver are there (installing them if need be), else why not."""
    if CHROMIUM.exists() and CHROMEDRIVER.exists():
        return None
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return "chromium and chromium-driver are missing and apt-get cannot run here (not root)"
    install = "apt-get install -y -qq --no-install-recommends chromium chromium-driver"
    done = subprocess.run(
        # A fresh machine may have no package lists yet: update them if the install fails.
        ["sh", "-c", f"{install} || (apt-get update -qq && {install})"],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
        env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
    )
    if done.returncode != 0 or not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return f"apt-get install chromium chromium-driver failed: {' / '.join(tail)}"
    return None


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Chromium and its driver, installed if need be by one worker only (two apt-get installs
    at once would fight over dpkg's lock); the test is skipped, saying why, if impossible."""

    def install(folder: Path) -> None:
        (folder / "reason").write_text(_install_chromium() or "", encoding="utf-8")

    folder = once_per_run(tmp_path_factory, "chromium", install)
    reason = (folder / "reason").read_text(encoding="utf-8")
    if reason:
        pytest.skip(reason)


@ON_SQLITE
def test_player_page_in_chromium(chromium: None, server: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    # A phone's screen (412 x 915 CSS pixels); a desktop window cannot be that narrow.
    driver = chromium_at(PHONE[0], PHONE[1])
    try:
        driver.get(f"{server}/players/1001")
        assert driver.title == "Anna, A · ratingdb"
        chart = driver.find_element(By.CSS_SELECTOR, "svg#chart-fide-standard")
        assert chart.is_displayed()
        assert 0 < chart.size["width"] <= PHONE[0]
        steps = chart.find_elements(By.CSS_SELECTOR, "circle.point")
        assert len(steps) == 4  # one per published fide-standard list
        assert chart.find_element(By.CSS_SELECTOR, "path.line").get_attribute("d")
        labels = [t.text for t in chart.find_elements(By.CSS_SELECTOR, ".x-axis text")]
        assert labels == ["2026-08", "2026-09", "2026-10", "2026-11"]
        tables = driver.find_elements(By.CSS_SELECTOR, "#fide-standard table.calculation")
        assert len(tables) == 3
        newest = tables[0]
        assert "K 20" in newest.find_element(By.TAG_NAME, "caption").text
        assert "fide-standard-2025-10" in newest.find_element(By.TAG_NAME, "caption").text
        rows = newest.find_elements(By.CSS_SELECTOR, "tbody tr")
        assert [r.find_elements(By.TAG_NAME, "td")[2].text for r in rows] == ["Max, M", "Jo, J"]
        # Usable on a phone: nothing wider than the screen (wide tables scroll in their box).
        overflow = driver.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth"
        )
        assert overflow <= 0
        assert driver.execute_script("return window.innerWidth") == PHONE[0]
        # The one screenshot every run takes (the others only when asked for: screenshot()).
        shot = tmp_path / "player-1001.png"
        assert driver.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        driver.get(f"{server}/?q=nina")
        link = driver.find_element(By.LINK_TEXT, "Nina, N")
        follow(driver, link)
        assert driver.current_url == f"{server}/players/1007"
        assert driver.find_element(By.CSS_SELECTOR, "svg#chart-fide-standard").is_displayed()
    finally:
        driver.quit()


@ON_SQLITE
@pytest.mark.parametrize(("width", "language"), [(1280, "en"), (390, "en"), (390, "fr")])
def test_calculator_page_in_chromium(
    chromium: None, server: str, width: int, language: str
) -> None:
    """Fill the calculator's form (seed 003's three games), submit, read the answer; at a
    phone's 390 px nothing is wider than the screen."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = chromium_at(width)
    try:
        driver.get(f"{server}/?lang={language}")
        calculator = "Calculator" if language == "en" else "Calculateur"
        follow(driver, driver.find_element(By.LINK_TEXT, calculator))
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
        Select(driver.find_element(By.ID, "category")).select_by_value("ffe-rapid")
        for field, value in (("period", "2027-04"), ("rating", "1500"), ("k", "20")):
            box = driver.find_element(By.ID, field)
            box.clear()
            box.send_keys(value)
        driver.find_element(By.ID, "games").send_keys("1450:1\n1620:0.5\n1580:0")
        follow(driver, driver.find_element(By.CSS_SELECTOR, "form.calculator button[type=submit]"))
        assert "/calculator?" in driver.current_url  # a shareable address
        assert f"lang={language}" in driver.current_url
        cells = driver.find_elements(By.CSS_SELECTOR, "#games-table td.expected")
        point = "." if language == "en" else ","
        assert [c.text for c in cells] == [f"0{point}5715", f"0{point}3339", f"0{point}3869"]
        assert driver.find_element(By.ID, "new-rating").text == "1500 → 1504"
        # Nothing wider than the screen: the page scrolls only down.
        assert driver.execute_script("return window.innerWidth") == width
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        table = driver.find_element(By.ID, "games-table")
        assert table.size["width"] <= width
        screenshot(driver, f"calculator-{width}-{language}-form")
        driver.execute_script("document.getElementById('result').scrollIntoView()")
        screenshot(driver, f"calculator-{width}-{language}-result")
    finally:
        driver.quit()
