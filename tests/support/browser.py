"""Driving headless Chromium: a click that navigates returns once navigation *starts*, so a
test that reads the next page must wait for it (on a loaded machine the old page is still
there when the click returns)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

#: The public pages are opened in Chromium on the SQLite scenario only: every page the browser
#: tests open is served byte for byte the same from the PostgreSQL scenario
#: (tests/api/test_pages_on_both_databases.py), so a second browser run would check the same
#: HTML again. (The back office's browser tests write, and run on both databases.)
ON_SQLITE = pytest.mark.parametrize("scenario_url", ["sqlite"], indirect=True)
CORRECTED_ON_SQLITE = pytest.mark.parametrize("corrected_url", ["sqlite"], indirect=True)

#: The back office's browser tests write, so they run on both databases; but what the width
#: changes (the layout) does not depend on the database, and what the database changes (the data
#: path) does not depend on the width: each database at one of the two widths, the production
#: database at the desktop's, the embedded one at the phone's.
WIDTH_BY_DATABASE = pytest.mark.parametrize(
    ("database_url", "width"), [("postgresql", 1280), ("sqlite", 390)], indirect=["database_url"]
)

#: Seconds a page may take to arrive (generous: CI machines are shared).
PAGE_WAIT = 30
#: Set on the page a click leaves: a new page has a new window, without it.
_LEFT = "__ratingdb_left"


def follow(driver: Any, element: Any, timeout: float = PAGE_WAIT) -> None:
    """Click ``element`` (a link or a form's button) and return once the page it leads to has
    replaced the current one and finished loading; a click that loads nothing times out.

    The old page is told apart by a mark on its window, not by an element of it going stale:
    asking chromedriver about an element of a page being replaced can fail with an inspector
    error ("Node with given id does not belong to the document") instead of a stale element.
    While the new page arrives, a script may also fail; the wait asks again until the
    timeout."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script(f"window.{_LEFT} = true")
    element.click()
    WebDriverWait(driver, timeout, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script(
            f"return window.{_LEFT} === undefined && document.readyState === 'complete'"
        )
    )


#: Where the browser tests save their screenshots, for a person to look at (docs/development.md).
SCREENSHOTS_VARIABLE = "RATINGDB_SCREENSHOTS"
#: The tallest whole-page screenshot, in CSS pixels.
TALLEST = 4000


def screenshot(driver: Any, name: str, width: int | None = None) -> None:
    """The page as ``name``.png in the folder $RATINGDB_SCREENSHOTS names, the whole page (up
    to TALLEST) when ``width`` is given, the screen's size then restored; nothing when the
    variable is unset. A screenshot checks nothing (the tests' assertions do) and encoding it
    costs Chromium CPU: 5 of the 27 CPU seconds of the French back office walk (2026-12-05),
    so a run takes them only when someone will look."""
    folder = os.environ.get(SCREENSHOTS_VARIABLE)
    if not folder:
        return
    path = Path(folder) / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    if width is not None:
        height = int(driver.execute_script("return document.documentElement.scrollHeight"))
        metrics = {"width": width, "height": min(height, TALLEST), "deviceScaleFactor": 1,
                   "mobile": width < 600}  # fmt: skip
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        assert driver.save_screenshot(str(path)), path
    finally:
        if width is not None:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
