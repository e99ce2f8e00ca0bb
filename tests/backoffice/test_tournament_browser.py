"""The tournament pages in headless Chromium (issue 28 item 4): ``ratingdb backoffice`` in a
subprocess on the chain of tests/backoffice/test_tournament_pages; an officer opens
Tournaments from the home page, filters by name without the accent, opens "Rapid Club Lyon",
follows a game's Correct link (the form filled in with that game), comes back, withdraws the
tournament (the impact worked by hand in test_tournament_pages) and confirms. Nothing on the
pages is wider than the screen. At a desktop's width (1280, PostgreSQL) and a phone's (390,
SQLite), with screenshots in $RATINGDB_SCREENSHOTS when set. The back office is in English only."""

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
from tests.backoffice.test_tournament_pages import NAMES, RENAMED, WITHDRAW_IMPACT
from tests.corrections.test_revision_chain import ADA, CAL, P1, build
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot
from tests.support.sql import query


@WIDTH_BY_DATABASE
@pytest.mark.slow
def test_an_officer_finds_corrects_and_withdraws_a_tournament_in_chromium(
    chromium: None,  # noqa: F811
    database_url: str,
    width: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from selenium.webdriver.common.by import By

    built = build(capsys, database_url, tmp_path / "chain", tournaments=RENAMED)
    t2 = built[NAMES["T2"]]
    add_account(database_url, "officer1", "officer")
    with serving(database_url, tmp_path) as base:
        driver = chromium_at(width)
        try:
            sign_in(driver, base, "officer1")
            follow(driver, driver.find_element(By.LINK_TEXT,
                   "Tournaments: browse, correct a game, withdraw"))  # fmt: skip
            table = appeared(driver, "tournaments")
            assert len(table.find_elements(By.CSS_SELECTOR, "tbody tr")) == 3
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-tournaments-{width}", width)
            driver.find_element(By.NAME, "name").send_keys("ete")
            follow(driver, driver.find_element(By.ID, "filter"))
            found = appeared(driver, "tournaments")
            names = [a.text for a in found.find_elements(By.CSS_SELECTOR, "tbody tr td a")]
            assert names == [NAMES["T3"], NAMES["T1"]]
            driver.get(f"{base}/tournaments?name=lyon")
            follow(driver, driver.find_element(By.LINK_TEXT, NAMES["T2"]))
            assert appeared(driver, "game-count").text == "2"
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-tournament-{width}", width)
            # Round 1: Ada-Cal, then Ben-Dee; the first game's Correct link.
            first = driver.find_element(By.CSS_SELECTOR, "table.games a")
            follow(driver, first)
            form = appeared(driver, "correction-form")
            filled = {name: form.find_element(By.NAME, name).get_attribute("value")
                      for name in ("tournament", "round", "white", "black")}  # fmt: skip
            assert filled == {"tournament": t2, "round": "1", "white": ADA, "black": CAL}
            no_wider_than_the_screen(driver, width)
            driver.back()
            reason = appeared(driver, "withdraw-form").find_element(By.NAME, "reason")
            reason.send_keys("accepted by mistake: the event was not rated")
            follow(driver, driver.find_element(By.ID, "withdraw"))
            assert appeared(driver, "games").text == "2 → 0"
            assert "Withdraw a tournament" in driver.find_element(By.TAG_NAME, "h1").text
            was, becomes, difference = WITHDRAW_IMPACT[P1][ADA]
            assert f"{ADA} Ada, A {was} {becomes} {difference:+d}" in driver.page_source.replace(
                "</td><td>", " "
            ).replace('</td><td class="num">', " ")
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-withdraw-impact-{width}", width)
            follow(driver, driver.find_element(By.ID, "confirm"))
            assert appeared(driver, "state").text == "applied"
            assert query(
                database_url,
                "SELECT count(*) FROM games WHERE tournament_id = :t AND superseded_by IS NULL",
                t=t2,
            ) == [(0,)]
        finally:
            driver.quit()
