"""The Atom feed opened in a real browser (headless Chromium, as tests/api/test_browser.py):
Chromium applies the feed's XSLT stylesheet, so ``/feeds/lists.atom`` reads as a page, with the
site's stylesheet, the federation's name and logo and the report address, no script, at a
desktop's 1280 px and a phone's 390 px, in English and (from Accept-Language, the stylesheet's
only clue) in French, passing axe-core's WCAG checks. Screenshots are saved
(``RATINGDB_SCREENSHOTS`` names the folder, when set).

The scenario (tests/api/scenario.py) has five published lists, so the feed five entries,
newest first: fide-standard 2026-11 first.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from ratingdb.config import READ_DATABASE_URL_VARIABLE
from tests.api.test_accessibility import axe_script, axe_violations  # noqa: F401 (a fixture)
from tests.api.test_browser import (  # noqa: F401 (chromium: the fixture)
    CHROMEDRIVER,
    CHROMIUM,
    FLAGS,
    chromium,
)
from tests.support.browser import ON_SQLITE, follow, screenshot
from tests.support.server import running_server

pytestmark = [pytest.mark.slow, pytest.mark.processes]

NAME = "Ruritanian Chess Federation"
EMAIL = "ratings@chess.example.org"
LOGO = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">'
    '<circle cx="32" cy="32" r="30" fill="#a81f1f"/></svg>'
)
HEADINGS = {"en": "Feed of published lists", "fr": "Flux des listes publiées"}


@pytest.fixture(scope="module")
def federation_server(scenario_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ratingdb serve`` with the federation's name, logo and contact address."""
    folder = tmp_path_factory.mktemp("federation")
    (folder / "logo.svg").write_text(LOGO, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    env |= {"RATINGDB_FEDERATION_NAME": NAME, "RATINGDB_CONTACT_EMAIL": EMAIL,
            "RATINGDB_FEDERATION_LOGO": str(folder / "logo.svg")}  # fmt: skip
    log = folder / "serve.log"
    with running_server("serve", ["--database-url", scenario_url], env=env, log=log) as base:
        yield base


def chromium_reading(language: str, width: int, height: int = 900) -> Any:
    """Headless Chromium at ``width`` CSS pixels whose Accept-Language is ``language``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--lang={language}")
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    metrics = {"width": width, "height": height, "pixelRatio": 1}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    return webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))


@ON_SQLITE
@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize(("width", "language"), [(1280, "en"), (390, "en"), (390, "fr")])
def test_the_feed_reads_as_a_page(
    federation_server: str,
    request: pytest.FixtureRequest,
    width: int,
    language: str,
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_reading(language, width)
    try:
        driver.get(f"{federation_server}/feeds/lists.atom")
        # The stylesheet made a page of it: the heading, one item per list, newest first.
        assert driver.find_element(By.TAG_NAME, "h1").text == HEADINGS[language]
        assert driver.title == f"{HEADINGS[language]} · {NAME}"
        items = driver.find_elements(By.CSS_SELECTOR, "ol.feed li")
        assert len(items) == 5
        first = items[0].find_element(By.TAG_NAME, "a")
        assert first.text == "FIDE standard 2026-11: published"
        assert first.get_attribute("href") == (
            f"{federation_server}/lists/fide-standard/2026-11?revision=1"
        )
        assert "rated players" in items[0].text
        # The site's stylesheet applies (the brand is bold, the page is no wider than 60rem).
        brand = driver.find_element(By.CSS_SELECTOR, "a.brand")
        assert brand.text == NAME
        assert brand.value_of_css_property("font-weight") == "700"
        logo = brand.find_element(By.CSS_SELECTOR, "img.logo")
        assert driver.execute_script("return arguments[0].naturalWidth", logo) == 64
        report = driver.find_element(By.CSS_SELECTOR, "footer.site a")
        assert report.get_attribute("href") == f"mailto:{EMAIL}"
        # Accessible as every page is (axe-core, WCAG 2.1 A and AA: test_accessibility.py).
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
        page = f"feed [{width} px, {language}]"
        assert axe_violations(driver, request.getfixturevalue("axe_script"), page) == []
        # No script, and nothing wider than the screen.
        assert driver.execute_script("return document.scripts.length") == 0
        assert driver.execute_script("return window.innerWidth") == width
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        screenshot(driver, f"feed-{width}-{language}")
        # An entry leads to its list's page.
        follow(driver, first)
        assert driver.current_url.endswith("/lists/fide-standard/2026-11?revision=1")
        assert NAME in driver.title
    finally:
        driver.quit()
