"""The players pages in headless Chromium (issue 28 item 2): ``ratingdb backoffice`` in a
subprocess, an officer follows the home page's link, searches "petra anna", opens Anna's
record, edits her federation with a reason and sees it saved; a blank reason is refused on the
form. Nothing on the pages is wider than the screen. At a desktop's width (1280, PostgreSQL)
and a phone's (390, SQLite), with screenshots in $RATINGDB_SCREENSHOTS when set."""

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
from tests.backoffice.test_players import PLAYERS
from tests.support import factories
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot
from tests.support.cli import cli_ok
from tests.support.sql import query


@WIDTH_BY_DATABASE
@pytest.mark.slow
def test_an_officer_finds_and_edits_a_player_in_chromium(
    chromium: None,  # noqa: F811
    database_url: str,
    width: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from selenium.webdriver.common.by import By

    listed = tmp_path / "list.csv"
    listed.write_text(factories.list_csv(*PLAYERS), encoding="utf-8")
    cli_ok(capsys, "lists", "import", str(listed), "--category", "fide-standard", "--period",
           "2026-08", "--actor", "test", url=database_url)  # fmt: skip
    add_account(database_url, "officer1", "officer")
    with serving(database_url, tmp_path) as base:
        driver = chromium_at(width)
        try:
            sign_in(driver, base, "officer1")
            follow(driver, driver.find_element(By.LINK_TEXT, "Players: search them, edit a record"))
            driver.find_element(By.ID, "player-search").send_keys("petra anna")
            follow(driver, driver.find_element(By.CSS_SELECTOR, "form.filters button"))
            table = appeared(driver, "players")
            assert "1 player match" in driver.find_element(By.ID, "found").text
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-players-{width}", width)
            follow(driver, table.find_element(By.LINK_TEXT, "Ånna, Petra"))
            ratings = appeared(driver, "ratings")
            assert "1850" in ratings.text
            no_wider_than_the_screen(driver, width)
            form = driver.find_element(By.ID, "edit-form")
            federation = form.find_element(By.NAME, "federation")
            federation.clear()
            federation.send_keys("GER")
            # A reason of spaces passes the browser's "required", not the server.
            form.find_element(By.NAME, "reason").send_keys("   ")
            follow(driver, driver.find_element(By.ID, "save"))
            assert "field reason: say why" in appeared(driver, "error").text
            form = driver.find_element(By.ID, "edit-form")
            form.find_element(By.NAME, "reason").send_keys("transfer approved by FIDE")
            follow(driver, driver.find_element(By.ID, "save"))
            assert "saved" in appeared(driver, "saved").text
            assert "GER" in driver.find_element(By.ID, "record").text
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-player-{width}", width)
        finally:
            driver.quit()
    assert query(database_url, "SELECT federation FROM players WHERE player_id = '1001'") == [
        ("GER",)
    ]
