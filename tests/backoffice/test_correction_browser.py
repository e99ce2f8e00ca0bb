"""A correction through the web pages in headless Chromium at a desktop's width (1280 px):
``ratingdb backoffice`` in a subprocess on the published chain of tests/corrections; an officer
signs in, opens Corrections, corrects Ada-Ben's result (1-0 made a forfeit), reads the impact
(every list revised, Ada -7 and Ben +7, as worked by hand in test_revision_chain) and confirms.
Nothing on the pages is wider than the screen; a screenshot of the impact page is saved in the
test's folder. On SQLite and PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.services import accounts
from tests.api.test_browser import chromium, chromium_at  # noqa: F401
from tests.backoffice.conftest import PASSWORD
from tests.backoffice.test_browser import WAIT, appeared, sign_in
from tests.backoffice.test_corrections import FORFEIT_IMPACT, forfeit_ratings, ratings
from tests.corrections.test_revision_chain import ADA, BEN, CATEGORY, PERIODS, P, build, entries
from tests.support.server import running_server
from tests.support.sql import query

WIDTH = 1280
#: Slow (a server and a headless Chromium), on the worker that runs the other browser tests.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("chromium")]


@pytest.fixture
def chain_backoffice(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Iterator[tuple[str, dict[str, str]]]:
    """The chain published, officer1, and the back office serving them: (base URL, the
    tournaments' ids)."""
    ids = build(capsys, database_url, tmp_path / "chain")
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            accounts.add_user(session, "officer1", "officer", PASSWORD, by=None, actor="test",
                              now=datetime.now(UTC))  # fmt: skip
    finally:
        engine.dispose()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGDB_")}
    with running_server(
        "backoffice", ["--database-url", database_url], env=env,
        log=tmp_path / "backoffice.log", ready="/login",
    ) as base:  # fmt: skip
        yield base, ids


def screenshot(driver: Any, path: Path) -> None:
    """The whole page (the emulated screen made as tall as the page), then the screen back."""
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    metrics = {"width": WIDTH, "height": min(height, 4000), "deviceScaleFactor": 1,
               "mobile": False}  # fmt: skip
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    driver.save_screenshot(str(path))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def no_wider_than_the_screen(driver: Any) -> None:
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert int(width) <= WIDTH, f"the page is {width} px wide on a {WIDTH} px screen"


def test_a_game_result_corrected_in_chromium(
    chromium: None,  # noqa: F811
    chain_backoffice: tuple[str, dict[str, str]],
    database_url: str,
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import Select, WebDriverWait

    base, ids = chain_backoffice
    driver = chromium_at(WIDTH)
    try:
        sign_in(driver, base, "officer1")
        driver.find_element(By.LINK_TEXT, "Corrections").click()
        appeared(driver, "correct-game").click()
        appeared(driver, "correction-form")
        no_wider_than_the_screen(driver)
        screenshot(driver, tmp_path / f"correction-form-{WIDTH}.png")
        for name, value in (("tournament", ids["T1"]), ("round", "1"), ("white", ADA),
                            ("black", BEN), ("reason", "Ben never came: a forfeit")):  # fmt: skip
            driver.find_element(By.NAME, name).send_keys(value)
        Select(driver.find_element(By.NAME, "result")).select_by_value("+-")
        driver.find_element(By.ID, "show-impact").click()

        # The impact: every list of the chain revised, Ada and Ben with their new ratings.
        assert appeared(driver, "state").text == "previewed"
        assert driver.find_element(By.ID, "result").text == "1-0 → +-"
        summary = driver.find_element(By.ID, "impact-summary").text
        assert summary == "4 lists would get a new revision, 2 players changed."
        tables = driver.find_elements(By.CSS_SELECTOR, "table.impact")
        assert len(tables) == len(PERIODS)
        for table, period in zip(tables, PERIODS, strict=True):
            rows = [
                [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
            ]
            expected = FORFEIT_IMPACT[period]
            assert rows == [
                [player, name, str(was), str(becomes), f"{difference:+d}"]
                for (player, (was, becomes, difference)), name in zip(
                    expected.items(), ("Ada, A", "Ben, B"), strict=True
                )
            ], period
        no_wider_than_the_screen(driver)
        screenshot(driver, tmp_path / f"correction-impact-{WIDTH}.png")
        # Nothing applied yet.
        assert query(database_url, "SELECT count(*) FROM corrections") == [(0,)]

        driver.find_element(By.ID, "confirm").click()
        WebDriverWait(driver, WAIT).until(
            expected_conditions.text_to_be_present_in_element((By.ID, "state"), "applied")
        )
        assert driver.find_element(By.ID, "correction").text.startswith("correction ")
        assert not driver.find_elements(By.ID, "confirm")
        no_wider_than_the_screen(driver)
        driver.find_element(By.LINK_TEXT, "Corrections").click()
        appeared(driver, "correct-list")
        no_wider_than_the_screen(driver)
        screenshot(driver, tmp_path / f"corrections-{WIDTH}.png")
    finally:
        driver.quit()
    assert query(database_url, "SELECT kind, actor, reason FROM corrections") == [
        ("game", "officer1", "Ben never came: a forfeit")
    ]
    assert entries(database_url, P)[ADA] == (1800, 1800, 0, 0, 20)
    for period in PERIODS:
        assert ratings(database_url, period) == forfeit_ratings(period), (CATEGORY, period)
