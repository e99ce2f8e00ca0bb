"""The player page on a phone (issue 29), in headless Chromium at 1280 and 390 px, in English
and in French, on a player with ten years of monthly lists (tests/support/long_history.py:
120 calculations of two events each, and a ten-player round robin).

Height. The page shows the latest calculation open, the twelve latest lists, and the rest in
<details>: the earlier lists in one, the earlier calculations in one per year. Measured on
this player (2026-12-04): before the change the page was 30,756 px high at 1280 and 91,112 px
at 390 in French (every calculation laid out); now 2,361 px at 1280 and 2,950 px (English)
to 3,075 px (French) at 390. The bound, ``SCREENS`` windows of 900 px, is what "a few
screens" means here: a header, a chart, twelve lists, one period's games and its subtotals,
and a line per year; it leaves room for a period with a few more games. Opening every
<details> gives the old length back (the content is all there, folded, and Chrome opens the
folds a link points into).

Width. Nothing is wider than the screen (``scrollWidth <= innerWidth``, and the phone's
viewport kept its width), folded or unfolded,
on the player page, on the round robin's page (a nine-round crosstable: at 1280 px it may
scroll in its own box, never the page; at 390 px it stacks) and on a list page; and no table
(or the scroll box holding it) is wider than the page's column.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ratingdb.config import READ_DATABASE_URL_VARIABLE
from tests.api.test_browser import chromium, chromium_at
from tests.support import long_history
from tests.support.browser import screenshot
from tests.support.once import once_per_run
from tests.support.server import running_server

pytestmark = pytest.mark.slow
__all__ = ["chromium"]

DATABASE_FILE = "ratingdb.sqlite3"
#: The window's height in the tests (chromium_at's default) and the page's bound, in windows.
WINDOW = 900
SCREENS = 4
#: Unfolded, the page is at least this many times as long: what the folds hold.
FOLDED_AWAY = 10
#: The widths of the page's boxes: the document, the viewport, main's content, the tables (or
#: the scroll box around each) wider than main's content, and the cells whose content spills.
MEASURE = """
const main = document.querySelector('main');
const style = getComputedStyle(main);
const column = main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
const wide = [...document.querySelectorAll('table')]
  .map(t => t.closest('.table-scroll') || t)
  .filter(box => box.getBoundingClientRect().width > column + 0.5)
  .map(box => (box.className || box.tagName) + ' ' + box.getBoundingClientRect().width);
// A cell whose content spills out of it (a figure too wide for a stacked cell's half).
const spilling = [...document.querySelectorAll('td, th')]
  .filter(cell => cell.clientWidth > 0 && cell.scrollWidth > cell.clientWidth + 1)
  .slice(0, 5).map(cell => cell.outerHTML.slice(0, 120));
return {scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
        height: document.body.scrollHeight, wide: wide, spilling: spilling};
"""


@pytest.fixture(scope="session")
def long_history_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The long history in a SQLite file, built once per run whichever workers the tests land
    on (120 periods closed through the commands: 15-20 s), then only read (the pages are served
    byte for byte the same from PostgreSQL: tests/api/test_pages_on_both_databases.py)."""

    def make(folder: Path) -> None:
        long_history.build(f"sqlite:///{folder / DATABASE_FILE}", folder)

    return f"sqlite:///{once_per_run(tmp_path_factory, 'long-history', make) / DATABASE_FILE}"


@pytest.fixture(scope="session")
def long_server(tmp_path_factory: pytest.TempPathFactory, long_history_url: str) -> Iterator[str]:
    """``ratingdb serve`` on the long history (read only), one per worker for the session."""
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    log = tmp_path_factory.mktemp("long-history-serve") / "serve.log"
    with running_server("serve", ["--database-url", long_history_url], env=env, log=log) as base:
        yield base


def measure(driver: Any) -> dict[str, Any]:
    found: dict[str, Any] = driver.execute_script(MEASURE)
    return found


def fits(found: dict[str, Any], width: int, where: str) -> None:
    # A page wider than a phone's screen widens the phone's viewport (innerWidth) to hold it.
    assert found["innerWidth"] == width, (where, found)
    assert found["scrollWidth"] <= width, (where, found)
    assert found["wide"] == [], (where, found)
    assert found["spilling"] == [], (where, found)


@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_long_history_in_a_few_screens(long_server: str, width: int, language: str) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_at(width, WINDOW)
    try:
        driver.get(f"{long_server}/players/{long_history.PLAYER}?lang={language}")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
        folded = measure(driver)
        fits(folded, width, f"player, folded [{width} px, {language}]")
        assert folded["height"] <= SCREENS * WINDOW, folded
        screenshot(driver, f"long-history-{language}-{width}")
        # Only the latest calculation is open; it shows its two events' subtotals.
        opened = driver.find_elements(By.CSS_SELECTOR, "details.calculation[open]")
        assert [d.find_element(By.TAG_NAME, "table").get_attribute("id") for d in opened] == [
            "fide-standard-2026-11"
        ]
        rows = opened[0].find_elements(By.CSS_SELECTOR, "table.subtotals tbody tr")
        assert len(rows) == 3  # the open, the club evening, all tournaments
        # Ten years folded by year: 2016 .. 2026.
        years = driver.find_elements(By.CSS_SELECTOR, "details.year > summary")
        assert [y.text.split()[0].rstrip(":") for y in years] == [
            str(year) for year in range(2026, 2015, -1)
        ]
        # Everything unfolded: the old length, and still nothing wider than the screen.
        driver.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
        unfolded = measure(driver)
        fits(unfolded, width, f"player, unfolded [{width} px, {language}]")
        assert unfolded["height"] >= FOLDED_AWAY * folded["height"], (folded, unfolded)
    finally:
        driver.quit()


@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize("width", [1280, 390])
def test_a_link_opens_the_folds_it_points_into(long_server: str, width: int) -> None:
    """The history's link to a folded calculation (and the crosstable's, from another page)
    opens its period and its year: Chrome reveals the target of a fragment in <details>."""
    from selenium.webdriver.common.by import By

    from tests.support.browser import follow

    driver = chromium_at(width, WINDOW)
    try:
        driver.get(f"{long_server}/players/{long_history.PLAYER}#fide-standard-2019-05")
        state = driver.execute_script(
            "const t = document.getElementById('fide-standard-2019-05');"
            "return [t.closest('details.calculation').open, t.closest('details.year').open,"
            " t.getBoundingClientRect().top]"
        )
        assert state[:2] == [True, True], state
        assert abs(state[2]) < WINDOW, state  # scrolled to it
        driver.get(f"{long_server}/tournaments/{long_history.ROUND_ROBIN_ID}")
        period = long_history.ROUND_ROBIN_PERIOD
        link = driver.find_element(
            By.CSS_SELECTOR, f"#player-{long_history.PLAYER} td.change a[href$='-{period}']"
        )
        follow(driver, link)
        assert driver.execute_script(
            f"return document.getElementById('fide-standard-{period}')"
            ".closest('details.calculation').open"
        )
    finally:
        driver.quit()


@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_crosstable_and_list_keep_to_the_screen(
    long_server: str, width: int, language: str
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_at(width, WINDOW)
    try:
        for name, path in (
            ("round-robin", f"/tournaments/{long_history.ROUND_ROBIN_ID}"),
            ("list", f"/lists/fide-standard/{long_history.ROUND_ROBIN_PERIOD}"),
        ):
            driver.get(f"{long_server}{path}?lang={language}")
            if name == "round-robin":
                assert driver.find_element(By.TAG_NAME, "h1").text == long_history.ROUND_ROBIN
                assert len(driver.find_elements(By.CSS_SELECTOR, "table.crosstable tbody tr")) == 10
            fits(measure(driver), width, f"{name} [{width} px, {language}]")
            screenshot(driver, f"{name}-{language}-{width}")
    finally:
        driver.quit()
