"""End to end in headless Chromium: ``ratingdb backoffice`` in a subprocess, users made with
``ratingdb users add``; an arbiter signs in, uploads a real TRF of ../shared/data/trf and sees
its check report; an officer signs in and accepts it. At a desktop's width (1280) and a
phone's (390), one screenshot each in $RATINGDB_SCREENSHOTS when set. On SQLite and PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tests.api.test_browser import CHROMEDRIVER, CHROMIUM, FLAGS, chromium  # noqa: F401
from tests.backoffice.test_submissions import TRF_FOLDER
from tests.support import forks
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot
from tests.support.server import running_server

#: Slow, as every browser test: two commands, a back office process and a headless Chromium
#: per test.
pytestmark = pytest.mark.slow

PASSWORD = "correct horse battery staple"
TRF_NAME = "open_gros_2010_donostia_crlf.trf"
START_TIMEOUT = 30
WAIT = 30


@contextmanager
def backoffice_with(
    database_url: str, tmp_path: Path, users: Sequence[tuple[str, str]]
) -> Iterator[str]:
    """``ratingdb backoffice`` on a free port, ``users`` (name, role) added first with
    ``ratingdb users add``; its base URL."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGDB_")}
    for name, role in users:
        added = forks.run(
            ["users", "add", name, "--role", role, "--password-stdin",
             "--database-url", database_url],
            stdin=PASSWORD + "\n", env=env,
        )  # fmt: skip
        assert added.returncode == 0, added.stderr
    with running_server(
        "backoffice", ["--database-url", database_url], env=env,
        log=tmp_path / "backoffice.log", ready="/login",
    ) as base:  # fmt: skip
        yield base


@pytest.fixture
def backoffice(database_url: str, tmp_path: Path) -> Iterator[str]:
    """The back office on a free port with an arbiter and an officer; its base URL."""
    if not TRF_FOLDER.is_dir():
        pytest.skip(f"the real TRF files are not here: {TRF_FOLDER} (../shared/data/trf)")
    with backoffice_with(
        database_url, tmp_path, [("arbiter1", "arbiter"), ("officer1", "officer")]
    ) as base:
        yield base


def browser(width: int) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    if width < 600:
        metrics = {"width": width, "height": 844, "pixelRatio": 1}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    else:
        options.add_argument(f"--window-size={width},1000")
    return webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))


def sign_in(driver: Any, base: str, username: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    driver.delete_all_cookies()
    driver.get(f"{base}/login")
    driver.find_element(By.NAME, "username").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    follow(
        driver, driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]")
    )
    who = WebDriverWait(driver, WAIT).until(
        expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "header .who"))
    )
    assert f"{username} (" in who.text


def appeared(driver: Any, element_id: str) -> Any:
    """The element once the page that has it is loaded (a click's navigation is not waited
    for by the click itself)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(
        expected_conditions.presence_of_element_located((By.ID, element_id))
    )


@WIDTH_BY_DATABASE
def test_upload_check_and_accept_in_chromium(
    chromium: None,  # noqa: F811
    backoffice: str,
    database_url: str,
    width: int,
) -> None:
    from selenium.webdriver.common.by import By

    driver = browser(width)
    try:
        # The arbiter sends the file and reads the check report.
        sign_in(driver, backoffice, "arbiter1")
        follow(driver, driver.find_element(By.LINK_TEXT, "Send a tournament file"))
        driver.find_element(By.NAME, "file").send_keys(str(TRF_FOLDER / TRF_NAME))
        driver.find_element(By.CSS_SELECTOR, "input[name=category][value=fide-standard]").click()
        follow(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/submissions'] button"))
        assert appeared(driver, "state").text == "submitted"
        # EXPECTED.md: 93 games stored, 89 of them played (rated); the period 2010-11.
        assert driver.find_element(By.ID, "games").text == "93 games, 89 rated"
        assert "new" in driver.find_element(By.ID, "players").text
        assert "fide-standard: period 2010-11" in driver.page_source
        assert not driver.find_elements(By.ID, "accept")
        report_url = driver.current_url
        screenshot(driver, f"backoffice-check-report-{width}", width)
        # The officer accepts it.
        sign_in(driver, backoffice, "officer1")
        driver.get(report_url)
        follow(driver, driver.find_element(By.ID, "accept"))
        assert appeared(driver, "tournaments").text == "T000001"
        assert driver.find_element(By.ID, "state").text == "accepted"
    finally:
        driver.quit()
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            games = connection.execute(text("SELECT count(*) FROM games")).scalar()
            state = connection.execute(text("SELECT state FROM submissions")).scalar()
    finally:
        engine.dispose()
    assert (games, state) == (93, "accepted")
